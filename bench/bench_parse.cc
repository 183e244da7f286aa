// What parsing a text edge list costs one lcore, and where the time goes:
// the file in memory (MemoryBytes: no read), one slice over all of it, and
//   - lines:  the line breaks found (memchr), the floor of any line parser;
//   - slice:  LineSlice's lines (compute/graph/line_slice.h) and nothing else;
//   - fields: those lines, comments skipped and split into fields;
//   - parse:  the loader's whole parse (reader::parse_slice: fields, ids
//             read and checked, V counted), each edge emitted into a checksum;
//   - held:   that parse, each edge held as a node of one holds its own
//             (load::HeldEdges, compute/load/load_records.h): by local
//             source in buckets of 2^16, 6 bytes an edge.
// Each figure is GB/s of the file and ns per edge, best of REPEATS, and parse
// as a share of lines. The loader's emit also sends or holds every edge
// (docs/PERFORMANCE.md section 6 splits that out). Usage: bench_parse FILE [REPEATS].
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <string_view>

#include "compute/graph/graph_formats.h"
#include "compute/graph/input_bytes.h"
#include "compute/graph/line_slice.h"
#include "compute/graph/reader_support.h"
#include "compute/load/load_records.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Best {
  double seconds = 1e300;
  uint64_t check = 0;
};

Best best_of(int repeats, const std::function<uint64_t()>& run) {
  Best b;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = Clock::now();
    b.check = run();
    b.seconds = std::min(b.seconds, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [REPEATS]\n", argv[0]);
    return 2;
  }
  std::ifstream f(argv[1], std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (!f && !f.eof()) return 1;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  wg::MemoryBytes in(argv[1], bytes);
  const wg::reader::InputHeader h = wg::reader::read_header(in, wg::GraphFormat::kEdgeList);
  const wg::reader::SliceSpec whole = wg::reader::slice_of(h, 0, 1);

  const Best lines = best_of(repeats, [&] {
    uint64_t n = 0;
    for (const char *p = bytes.data(), *end = p + bytes.size();
         (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)))) != nullptr; ++p)
      ++n;
    return n;
  });
  const Best slice = best_of(repeats, [&] {
    wg::LineSlice s(in, whole.begin, whole.end, true, h.header_lines);
    std::string_view line;
    uint64_t n = 0;
    while (s.next(line)) n += line.size();
    return n;
  });
  const Best fields = best_of(repeats, [&] {
    wg::LineSlice s(in, whole.begin, whole.end, true, h.header_lines);
    std::string_view line, f4[4];
    uint64_t n = 0;
    const char* err = nullptr;
    while (s.next(line)) {
      if (wg::reader::is_skippable(line, true)) continue;
      n += wg::reader::split_fields(line, true, f4, 4, &err) + f4[1].size();
    }
    return n;
  });
  uint64_t edges = 0;
  const Best parse = best_of(repeats, [&] {
    uint64_t sum = 0;
    const wg::reader::SliceTotals t = wg::reader::parse_slice<wg::reader::SkipWeight>(
        in, h, whole, [&](wg::VertexId s, wg::VertexId d, wg::Weight) { sum += s ^ (uint64_t{d} << 20); });
    edges = t.entries;
    return sum + t.max_id_plus1;
  });

  const Best held = best_of(repeats, [&] {
    wg::load::HeldEdges store(false, false, 1, 0);
    const wg::reader::SliceTotals t = wg::reader::parse_slice<wg::reader::SkipWeight>(
        in, h, whole, [&](wg::VertexId s, wg::VertexId d, wg::Weight) { store.push_local(s, d, 1, 0.0); });
    return store.size() + t.max_id_plus1;
  });

  const double gb = static_cast<double>(bytes.size()) / 1e9;
  std::printf("file %s: %zu bytes, %llu edges (%.1f bytes an edge)\n", argv[1], bytes.size(),
              static_cast<unsigned long long>(edges), static_cast<double>(bytes.size()) / static_cast<double>(edges));
  for (auto [name, b] :
       {std::pair{"lines", lines}, {"slice", slice}, {"fields", fields}, {"parse", parse}, {"held", held}})
    std::printf("%-7s %7.3f s  %6.2f GB/s  %6.2f ns/edge  (check %llx)\n", name, b.seconds, gb / b.seconds,
                b.seconds * 1e9 / static_cast<double>(edges), static_cast<unsigned long long>(b.check));
  std::printf("parse / lines: %.2f of the line-break scan's speed\n", lines.seconds / parse.seconds);
  return 0;
}
