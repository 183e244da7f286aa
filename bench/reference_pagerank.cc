// The in-run baseline for the end-to-end PageRank figures: the GAP benchmark
// suite's PageRank kernel (pull over in-edges, float contributions, OpenMP
// `parallel for schedule(dynamic, 16384)` like gapbs src/pr.cc), written here
// because GAP itself is not packaged for Debian and this machine has no
// network. Same graph as wiregraph's run (our generator and loader, the same
// duplicates; GAP's builder would drop 6% of kron:20:16's edges as
// duplicates), same iteration count; dangling mass is spread like
// wiregraph's (GAP drops it), a pass over the vertices, not the edges.
//
// The GAP figures were measured on another host of this machine kind;
// this one reruns the kernel next to wiregraph so that the ratio is taken on
// the same CPU on the same day.
//
//   reference_pagerank --graph SPEC [--undirected] [--iterations N]
//                      [--threads T] [--trials K] [--json PATH]
//
// Prints one line per trial and the median; --json writes them.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compute/graph/edge_list.h"
#include "compute/graph/graph_reader.h"

namespace {

using wg::EdgeList;

struct InGraph {  // CSR by destination, as GAP's pull kernel reads it
  uint32_t n = 0;
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> sources;
  std::vector<uint32_t> out_degree;
};

InGraph build_in_graph(const EdgeList& g) {
  InGraph ig;
  ig.n = g.num_vertices;
  ig.offsets.assign(uint64_t{ig.n} + 1, 0);
  ig.out_degree.assign(ig.n, 0);
  for (const wg::Edge& e : g.edges) {
    ++ig.offsets[e.dst + 1];
    ++ig.out_degree[e.src];
  }
  for (uint32_t v = 0; v < ig.n; ++v) ig.offsets[v + 1] += ig.offsets[v];
  std::vector<uint64_t> at(ig.offsets.begin(), ig.offsets.end() - 1);
  ig.sources.resize(g.edges.size());
  for (const wg::Edge& e : g.edges) ig.sources[at[e.dst]++] = e.src;
  return ig;
}

// K iterations from 1/V; returns the ranks.
std::vector<float> pagerank(const InGraph& g, unsigned iterations) {
  constexpr float kDamp = 0.85f;
  const float inv_n = 1.0f / static_cast<float>(g.n);
  std::vector<float> score(g.n, inv_n), contrib(g.n);
  for (unsigned it = 0; it < iterations; ++it) {
    double dangling = 0;
#pragma omp parallel for reduction(+ : dangling)
    for (int64_t v = 0; v < g.n; ++v) {
      const uint32_t d = g.out_degree[v];
      contrib[v] = d ? score[v] / static_cast<float>(d) : 0.0f;
      if (d == 0) dangling += score[v];
    }
    const float base = (1.0f - kDamp) * inv_n + kDamp * static_cast<float>(dangling) * inv_n;
#pragma omp parallel for schedule(dynamic, 16384)
    for (int64_t u = 0; u < g.n; ++u) {
      float sum = 0;
      for (uint64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) sum += contrib[g.sources[e]];
      score[u] = base + kDamp * sum;
    }
  }
  return score;
}

void usage() {
  std::printf(
      "usage: reference_pagerank --graph SPEC [--undirected] [--iterations N] [--threads T]\n"
      "                          [--trials K] [--json PATH]\n"
      "GAP's pull PageRank kernel (OpenMP) on wiregraph's loader: the end-to-end baseline.\n"
      "Defaults: 20 iterations, OpenMP's thread count, 3 trials.\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::string spec, json;
  bool undirected = false;
  unsigned iterations = 20, trials = 3;
  int threads = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "reference_pagerank: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    auto number = [&](const char* text) {
      char* end = nullptr;
      const unsigned long v = std::strtoul(text, &end, 10);
      if (end == text || *end != '\0' || v == 0 || v > 1000000) {
        std::fprintf(stderr, "reference_pagerank: %s: '%s' is not a positive integer\n", a.c_str(), text);
        std::exit(2);
      }
      return static_cast<unsigned>(v);
    };
    if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else if (a == "--graph") {
      spec = value();
    } else if (a == "--undirected") {
      undirected = true;
    } else if (a == "--iterations") {
      iterations = number(value());
    } else if (a == "--threads") {
      threads = static_cast<int>(number(value()));
    } else if (a == "--trials") {
      trials = number(value());
    } else if (a == "--json") {
      json = value();
    } else {
      std::fprintf(stderr, "reference_pagerank: unknown option '%s' (--help lists them)\n", a.c_str());
      return 2;
    }
  }
  if (spec.empty()) {
    usage();
    return 2;
  }
  if (threads > 0) omp_set_num_threads(threads);
  InGraph g;
  try {
    EdgeList el = wg::load_graph(spec);
    if (undirected) wg::add_reverse_edges(el);
    g = build_in_graph(el);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reference_pagerank: %s\n", e.what());
    return 1;
  }
  if (g.n == 0) {
    std::fprintf(stderr, "reference_pagerank: %s has no vertices\n", spec.c_str());
    return 1;
  }
  const int used = omp_get_max_threads();
  std::vector<double> seconds;
  std::vector<float> ranks;
  for (unsigned t = 0; t < trials; ++t) {
    const auto t0 = std::chrono::steady_clock::now();
    ranks = pagerank(g, iterations);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::printf("trial %u: %.4f s (%u iterations, %d threads, %zu edges)\n", t, seconds.back(), iterations, used,
                g.sources.size());
  }
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  const size_t mid = sorted.size() / 2;
  const double median = sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  double total = 0;
  for (float r : ranks) total += r;
  std::printf("median %.4f s; ranks sum to %.6f\n", median, total);
  if (!json.empty()) {
    const nlohmann::ordered_json j = {{"graph", spec},          {"undirected", undirected},
                                      {"iterations", iterations}, {"threads", used},
                                      {"edges", g.sources.size()}, {"median_seconds", median},
                                      {"seconds", seconds}};
    std::ofstream f(json);
    f << j.dump(2) << '\n';
    f.close();
    if (!f) {
      std::fprintf(stderr, "reference_pagerank: cannot write %s\n", json.c_str());
      return 1;
    }
  }
  return 0;
}
