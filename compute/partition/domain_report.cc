// The partition report of compute/partition/domain_partition.h: the text block every
// node prints at start-up and the JSON object in nodeR.json.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>

#include "compute/partition/domain_partition.h"

namespace wg {

namespace {

double fraction(uint64_t part, uint64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

std::string format_partition_report(const DomainPartition& p) {
  std::string o;
  char line[256];
  uint64_t all_edges = 0;
  for (uint64_t e : p.edges_per_domain) all_edges += e;
  uint64_t all_vertices = 0;
  for (uint32_t v : p.vertices_per_domain) all_vertices += v;
  std::snprintf(line, sizeof line, "NUMA domain partition: %u domains, %" PRIu64 " vertices, %" PRIu64
                " out-edges (%s)\n", p.domains, all_vertices, all_edges, p.used_metis ? "METIS" : "even split");
  o += line;
  for (unsigned d = 0; d < p.vertices_per_domain.size(); ++d) {
    const uint64_t e = d < p.edges_per_domain.size() ? p.edges_per_domain[d] : 0;
    std::snprintf(line, sizeof line, "  domain %2u: %10u vertices (%5.1f%%) %12" PRIu64 " out-edges (%5.1f%%)\n", d,
                  p.vertices_per_domain[d], 100.0 * fraction(p.vertices_per_domain[d], all_vertices), e,
                  100.0 * fraction(e, all_edges));
    o += line;
  }
  std::snprintf(line, sizeof line, "  imbalance (largest / mean): vertices %.3f, out-edges %.3f\n", p.vertex_imbalance,
                p.edge_imbalance);
  o += line;
  std::snprintf(line, sizeof line, "  local edges (both ends on this node, no self-loops): %" PRIu64 "\n",
                p.local_edges);
  o += line;
  std::snprintf(line, sizeof line, "  cross-domain, even split: %" PRIu64 " (%.2f%%)\n", p.cross_even,
                100.0 * fraction(p.cross_even, p.local_edges));
  o += line;
  std::snprintf(line, sizeof line, "  cross-domain, after METIS: %" PRIu64 " (%.2f%%)%s\n", p.cross_metis,
                100.0 * fraction(p.cross_metis, p.local_edges), p.used_metis ? "" : " [even split kept]");
  o += line;
  std::snprintf(line, sizeof line, "  METIS time: %.3f ms\n", p.metis_seconds * 1e3);
  o += line;
  if (!p.note.empty()) o += "  note: " + p.note + "\n";
  return o;
}

nlohmann::ordered_json partition_report_json(const DomainPartition& p) {
  auto real = [](double x) { return std::isfinite(x) ? x : 0.0; };
  // domain_of is left out: it has one entry per vertex.
  return {{"domains", p.domains},
          {"vertices_per_domain", p.vertices_per_domain},
          {"edges_per_domain", p.edges_per_domain},
          {"vertex_imbalance", real(p.vertex_imbalance)},
          {"edge_imbalance", real(p.edge_imbalance)},
          {"local_edges", p.local_edges},
          {"cross_even", p.cross_even},
          {"cross_metis", p.cross_metis},
          {"cross_even_fraction", real(fraction(p.cross_even, p.local_edges))},
          {"cross_metis_fraction", real(fraction(p.cross_metis, p.local_edges))},
          {"metis_seconds", real(p.metis_seconds)},
          {"used_metis", p.used_metis},
          {"note", p.note}};
}

}  // namespace wg
