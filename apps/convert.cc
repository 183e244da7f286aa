// wiregraph-convert: writes a graph (a file in any input format, or the
// generator's kron:SCALE:DEGREE[:SEED]) as a binary edge list, which nodes
// read fastest (no parsing; ranges are whole records):
//
//   wiregraph-convert --graph SPEC [--format FMT] --out FILE.bin|FILE.wbin|FILE.el
//   wiregraph-convert --version
//
// .bin: uint32 (src, dst) pairs; .wbin: uint32 (src, dst, weight) triples;
// anything else: "src dst weight" text lines. One process, the whole graph in
// memory (unlike the nodes): a tool for preparing inputs, not for the cluster.
#include <getopt.h>

#include <algorithm>
#include <cerrno>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "compute/graph/graph_reader.h"
#include "compute/graph/memory_limit.h"
#include "compute/report/build_info.h"

namespace {

void usage(std::FILE* to) {
  std::fprintf(to,
               "usage: wiregraph-convert --graph SPEC [--format FMT] --out FILE\n"
               "       wiregraph-convert --version\n"
               "  --graph SPEC   a graph file or kron:SCALE:DEGREE[:SEED] (as for wiregraph)\n"
               "  --format FMT   the input's format (default: from its extension)\n"
               "  --out FILE     .bin: uint32 (src, dst) pairs, weights dropped;\n"
               "                 .wbin: uint32 (src, dst, weight) triples;\n"
               "                 anything else: 'src dst weight' text lines\n");
}

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

void put(std::FILE* f, uint32_t v) {
  const unsigned char b[4] = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
                              static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 24)};
  std::fwrite(b, 1, 4, f);
}

// The written file names its vertices only through its edges: when the
// input declared more (a header's n, 2^SCALE), the highest isolated ones
// would be lost on reading unless the reader is told the count.
std::string vertices_hint(const wg::EdgeList& g) {
  uint64_t named = 0;  // the largest id an edge names, + 1
  for (const wg::Edge& e : g.edges) named = std::max<uint64_t>(named, uint64_t{std::max(e.src, e.dst)} + 1);
  if (named >= g.num_vertices) return "";
  const std::string names = named == 0 ? "no id" : "ids 0.." + std::to_string(named - 1) + " only";
  return "; its edges name " + names + ": read it with --vertices " + std::to_string(g.num_vertices);
}

}  // namespace

int main(int argc, char** argv) {
  std::string graph, out;
  wg::GraphFormat format = wg::GraphFormat::kAuto;
  static const option kOptions[] = {{"graph", required_argument, nullptr, 'g'},
                                    {"format", required_argument, nullptr, 'f'},
                                    {"out", required_argument, nullptr, 'o'},
                                    {"help", no_argument, nullptr, 'h'},
                                    {"version", no_argument, nullptr, 'v'},
                                    {nullptr, 0, nullptr, 0}};
  try {
    for (int c; (c = getopt_long(argc, argv, "h", kOptions, nullptr)) != -1;) {
      switch (c) {
        case 'g': graph = optarg; break;
        case 'f': format = wg::parse_graph_format(optarg); break;
        case 'o': out = optarg; break;
        case 'h': usage(stdout); return 0;
        case 'v': std::printf("%s\n", wg::build::version_line("wiregraph-convert").c_str()); return 0;
        default: usage(stderr); return 2;
      }
    }
    if (graph.empty() || out.empty() || optind != argc) {
      usage(stderr);
      return 2;
    }
    // A pipe or device is read into memory: at most a quarter of what this
    // process may use (a regular file is mapped), so /dev/zero is refused by
    // name rather than read until the machine runs out of memory.
    wg::LoadLimits limits;
    const wg::MemoryLimit memory = wg::read_memory_limit();
    if (memory.bytes != UINT64_MAX) limits.max_stream_bytes = memory.bytes / 4;
    const wg::EdgeList g = wg::load_graph(graph, format, limits);
    const std::string tmp = out + ".part";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr) {
      std::fprintf(stderr, "wiregraph-convert: cannot write %s: %s\n", tmp.c_str(), std::strerror(errno));
      return 1;
    }
    const bool bin = ends_with(out, ".bin") || ends_with(out, ".el32");
    const bool wbin = ends_with(out, ".wbin") || ends_with(out, ".wel32");
    for (const wg::Edge& e : g.edges) {
      if (bin || wbin) {
        put(f, e.src);
        put(f, e.dst);
        if (wbin) put(f, e.weight);
      } else {
        std::fprintf(f, "%u %u %u\n", e.src, e.dst, e.weight);
      }
    }
    if (std::ferror(f) != 0 || std::fclose(f) != 0 || std::rename(tmp.c_str(), out.c_str()) != 0) {
      std::fprintf(stderr, "wiregraph-convert: error writing %s\n", out.c_str());
      std::remove(tmp.c_str());
      return 1;
    }
    std::printf("%s: %u vertices, %lu edges written to %s%s\n", graph.c_str(), g.num_vertices,
                static_cast<unsigned long>(g.num_edges()), out.c_str(), vertices_hint(g).c_str());
    return 0;
  } catch (const wg::GraphError& e) {
    std::fprintf(stderr, "wiregraph-convert: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wiregraph-convert: error: %s\n", e.what());
    return 1;
  }
}
