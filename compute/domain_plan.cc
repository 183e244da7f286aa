#include "compute/domain_plan.h"

#include "compute/partition.h"

namespace wg {

DomainPlan plan_domains(const EdgeList& g, unsigned nodes, unsigned rank, unsigned k, bool refine_with_metis) {
  DomainPlan plan;
  if (k == 1) {  // nothing to split; the caller reports on the graph it builds anyway
    plan.map = identity_slot_map(g.num_vertices, nodes);
    (void)rank;
    return plan;
  }
  SlotMap& m = plan.map;
  m.nodes = nodes;
  m.domains = k;
  m.slot_of.assign(g.num_vertices, 0);
  m.domain_of.assign(g.num_vertices, 0);
  m.domain_offset.resize(nodes);
  for (unsigned r = 0; r < nodes; ++r) {
    const LocalGraph lg = build_local_graph(g, nodes, r, false);
    DomainPartition p = partition_domains(lg, k, refine_with_metis);
    // Slots: domain 0's vertices first (in local-index order), then domain 1's...
    std::vector<uint32_t>& off = m.domain_offset[r];
    off.assign(k + 1, 0);
    for (unsigned d = 0; d < k; ++d) off[d + 1] = off[d] + p.vertices_per_domain[d];
    std::vector<uint32_t> next(off.begin(), off.end() - 1);
    for (uint32_t i = 0; i < lg.num_local; ++i) {
      const VertexId v = lg.global_id(i);
      const unsigned d = p.domain_of[i];
      m.slot_of[v] = next[d]++;
      m.domain_of[v] = static_cast<uint8_t>(d);
    }
    if (r == rank) plan.mine = std::move(p);
  }
  return plan;
}

}  // namespace wg
