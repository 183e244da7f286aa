// The second-level partition of the whole cluster: for every node, its
// vertices split over k NUMA domains (even split refined by METIS,
// compute/domain_partition.h), turned into the slot numbering every node uses
// to address every other node's vertices (compute/slot_map.h).
//
// Every node computes every node's split (it holds the whole graph, and
// METIS with a fixed seed is deterministic), so senders know where each
// destination vertex lives without exchanging tables.
#pragma once

#include <vector>

#include "compute/edge_list.h"
#include "compute/slot_map.h"
#include "compute/domain_partition.h"

namespace wg {

struct DomainPlan {
  SlotMap map;
  DomainPartition mine;  // this node's split, for the partition report (k > 1 only)
};

// k = 1 gives the identity map (and no report: partition_domains(lg, 1, ...)
// on the node's LocalGraph makes the trivial one without building it twice). Throws like
// partition_domains (k larger than a node's vertex count, METIS failure).
DomainPlan plan_domains(const EdgeList& g, unsigned nodes, unsigned rank, unsigned k, bool refine_with_metis);

}  // namespace wg
