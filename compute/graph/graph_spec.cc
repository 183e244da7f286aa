#include "compute/graph/graph_spec.h"

#include <string_view>

#include "compute/graph/graph_error.h"
#include "compute/graph/graphalytics_input.h"

namespace wg {

namespace {

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

GraphSpec parse_graph_spec(const std::string& text, GraphFormat format) {
  constexpr std::string_view kSnapshot = "snapshot:";
  GraphSpec g;
  g.text = text;
  if (starts_with(text, "kron:")) {
    g.kind = GraphSpec::Kind::kGenerator;
    g.kron = parse_kronecker_spec(text);
  } else if (starts_with(text, kSnapshot)) {
    g.kind = GraphSpec::Kind::kSnapshot;
    g.snapshot_dir = text.substr(kSnapshot.size());
    if (g.snapshot_dir.empty())
      throw GraphError(text, 0, "expected snapshot:DIR, the directory a run's --save-snapshot DIR wrote");
  } else if (format == GraphFormat::kAuto && is_graphalytics_path(text)) {
    g.kind = GraphSpec::Kind::kGraphalytics;
    g.format = GraphFormat::kEdgeList;  // its lines are edge-list lines with 64-bit ids
  } else {
    g.kind = GraphSpec::Kind::kFile;
    g.format = format == GraphFormat::kAuto ? format_from_extension(text) : format;
  }
  return g;
}

}  // namespace wg
