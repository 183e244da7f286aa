// libFuzzer target for LDBC Graphalytics input (compute/graph/graphalytics_input.h):
// the first byte chooses what the rest is,
//   0: NAME.properties, read as the loader reads it (written to a file first:
//      read_graphalytics_properties takes a path), keys graph.fuzz.*;
//   1: NAME.e lines, parsed one by one under a spec drawn from the second
//      byte (0-3 edge properties, the weight one of them or none);
//   2: NAME.v lines.
// Only a GraphError may refuse input; anything else thrown is a bug. What is
// accepted must be safe: a spec's weight column lies among its properties;
// an edge's weight is finite and non-negative (1 without a weight column)
// and its line had at least src and dst.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "compute/graph/graphalytics_input.h"
#include "compute/graph/reader_support.h"

namespace {

using namespace wg;

[[noreturn]] void broken(const char* what, double a) {
  std::fprintf(stderr, "fuzz_graphalytics: %s (%g)\n", what, a);
  std::abort();
}

void properties(std::string_view text) {
  static const std::string path = [] {
    const std::filesystem::path dir = "/tmp/wg-fuzz-" + std::to_string(::getpid());
    std::filesystem::create_directories(dir);
    return (dir / "fuzz.properties").string();
  }();
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(text.data(), static_cast<std::streamsize>(text.size()));
  GraphalyticsSpec spec;
  try {
    spec = read_graphalytics_properties(path);
  } catch (const GraphError&) {
    return;
  }
  if (spec.weight_column >= 0 && static_cast<unsigned>(spec.weight_column) >= spec.edge_properties)
    broken("weight column beyond the edge properties", spec.weight_column);
  // The algorithms' parameters are kept as lines (config/ parses those a run
  // reads): each must be found again by its key.
  const std::string prefix = "graph." + spec.name + ".";
  for (const PropertyLine& p : spec.properties)
    if (p.key.rfind(prefix, 0) != 0 || spec.property(std::string_view(p.key).substr(prefix.size())) == nullptr)
      broken("a property line property() does not find", static_cast<double>(p.line));
}

template <class Each>
void each_line(std::string_view text, Each&& each) {
  while (!text.empty()) {
    const size_t end = text.find('\n');
    each(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

void edges(std::string_view text) {
  if (text.empty()) return;
  GraphalyticsSpec spec;
  const auto choice = static_cast<uint8_t>(text[0]);
  text.remove_prefix(1);
  spec.edge_properties = choice % 4;
  spec.weight_column = spec.edge_properties == 0 ? -1 : static_cast<int>((choice / 4) % (spec.edge_properties + 1)) - 1;
  each_line(text, [&](std::string_view line) {
    try {
      const reader::GraphalyticsEdge e = reader::parse_graphalytics_edge("fuzz.e", spec, line);
      if (e.fields < 2) broken("an edge with fewer than two fields", e.fields);
      if (!std::isfinite(e.weight) || e.weight < 0) broken("weight not finite and non-negative", e.weight);
      if (spec.weight_column < 0 && e.weight != 1) broken("unweighted edge with a weight", e.weight);
    } catch (const GraphError&) {
    }
  });
}

void vertices(std::string_view text) {
  each_line(text, [&](std::string_view line) {
    if (!reader::is_graphalytics_vertex_line(line)) return;
    try {
      (void)reader::parse_graphalytics_vertex("fuzz.v", line);
    } catch (const GraphError&) {
    }
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: properties(rest); break;
    case 1: edges(rest); break;
    default: vertices(rest); break;
  }
  return 0;
}
