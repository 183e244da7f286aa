#include "compute/load/snapshot_format.h"

#include "compute/load/graph_loader.h"

namespace wg {

const char* snapshot_weights_name(SnapshotWeights w) {
  switch (w) {
    case SnapshotWeights::kNone: return "none";
    case SnapshotWeights::kInteger: return "integer";
    case SnapshotWeights::kReal: return "real";
  }
  return "unknown";
}

SnapshotRules SnapshotRules::of(const LoadOptions& o) {
  SnapshotRules r;
  r.symmetrize = o.symmetrize;
  r.drop_self_loops = o.drop_self_loops;
  r.drop_duplicates = o.drop_duplicates;
  r.weights = o.real_weights ? SnapshotWeights::kReal : o.keep_weights ? SnapshotWeights::kInteger : SnapshotWeights::kNone;
  r.domains = o.domains;
  r.degree_order = o.degree_order;
  return r;
}

namespace {

void differ(std::string& out, const char* rule, const std::string& saved, const std::string& wanted) {
  if (saved == wanted) return;
  out += std::string(out.empty() ? "" : "; ") + rule + ": saved " + saved + ", this job needs " + wanted;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

}  // namespace

std::string describe_rule_differences(const SnapshotRules& saved, const SnapshotRules& wanted) {
  std::string out;
  differ(out, "symmetrized (undirected)", yes_no(saved.symmetrize), yes_no(wanted.symmetrize));
  differ(out, "self-loops dropped", yes_no(saved.drop_self_loops), yes_no(wanted.drop_self_loops));
  differ(out, "duplicate edges dropped", yes_no(saved.drop_duplicates), yes_no(wanted.drop_duplicates));
  differ(out, "weights", snapshot_weights_name(saved.weights), snapshot_weights_name(wanted.weights));
  differ(out, "NUMA domains per node (--domains)", std::to_string(saved.domains), std::to_string(wanted.domains));
  differ(out, "vertex order (--vertex-order)", saved.degree_order ? "degree" : "id", wanted.degree_order ? "degree" : "id");
  return out;
}

std::string snapshot_file_path(const std::string& dir, unsigned rank) {
  return dir + "/node" + std::to_string(rank) + ".snap";
}

std::string snapshot_manifest_path(const std::string& dir) { return dir + "/manifest.json"; }

}  // namespace wg
