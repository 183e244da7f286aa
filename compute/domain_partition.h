// Level-2 partition: this node's vertices over k NUMA domains.
//
// Start from an even split (contiguous ranges of local indices) and, if asked,
// refine it with METIS (METIS_PartGraphKway on the node-local subgraph) so
// that fewer local edges cross domains: a worker and the accumulator of the
// edge's target then mostly touch the same domain's memory. k is a parameter
// rather than the machine's domain count so that the partition can be run and
// tested on a one-domain machine (DESIGN.md "Partitioning").
//
// METIS's answer is first repaired where it misses the balance bound or
// leaves a domain empty (it treats balance as a target), by moving the
// vertices that cost the fewest cut edges. The result is never worse than
// the even split: if the repaired answer does not cut fewer edges it is
// discarded, and `note` says why.
//
// What METIS gets: the node-local subgraph (blocks[rank]) made undirected and
// simple, each pair weighted by its number of directed edges, so METIS's
// edge-cut is exactly cross_metis. Vertex weights are 1, so domains balance
// vertex counts: what a domain must hold in its own memory (vertex values,
// accumulators, message slots) is per vertex, and local indices stay evenly
// spread. Out-edges (scatter work) are reported per domain but not balanced;
// on skewed graphs they can differ a lot (ca-GrQc, P=2, k=4: 45% vs 8%).
// Balancing both would take METIS's multi-constraint mode (ncon = 2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compute/partition.h"

namespace wg {

// Domain ids are stored in one byte per vertex and index small per-domain
// tables; 64 is far above any real machine's NUMA domain count.
inline constexpr unsigned kMaxDomains = 64;

struct DomainPartition {
  unsigned domains = 0;                     // k
  std::vector<uint8_t> domain_of;           // per local vertex, < domains
  std::vector<uint32_t> vertices_per_domain;
  std::vector<uint64_t> edges_per_domain;   // local out-edges whose source is in the domain, all destinations
  uint64_t local_edges = 0;   // directed edges with both ends on this node, self-loops excluded
  uint64_t cross_even = 0;    // of those, crossing domains with the even split
  uint64_t cross_metis = 0;   // crossing with the returned domain_of (= cross_even unless METIS was used)
  double metis_seconds = 0.0; // METIS_PartGraphKway alone (0 when not called)
  bool used_metis = false;    // domain_of is METIS's answer (not the even split)
  std::string note;           // why METIS was skipped or its answer rejected; empty otherwise
};

// The largest domain a partition may have: max(ceil(n/k), floor(n/k * imbalance)).
// ceil(n/k) so that the even split always fits, also with imbalance 1.
uint32_t max_domain_vertices(uint32_t num_local, unsigned k, double imbalance);

// Splits g's num_local vertices over k domains. `imbalance` (>= 1) bounds the
// largest domain relative to n/k (METIS's UFACTOR = (imbalance - 1) * 1000).
// Throws std::invalid_argument for k == 0, k > kMaxDomains, k > num_local or
// imbalance < 1 (or not finite); std::runtime_error if METIS fails or the
// local subgraph does not fit METIS's 32-bit indices.
DomainPartition partition_domains(const LocalGraph& g, unsigned k, bool refine_with_metis,
                                  double imbalance = 1.03);

// Directed local edges (blocks[rank], self-loops excluded) whose ends lie in
// different domains under `domain_of`. Also used to fill cross_even/cross_metis.
uint64_t count_cross_domain_edges(const LocalGraph& g, const std::vector<uint8_t>& domain_of);

// Multi-line text: per-domain vertices and edges, cross-domain fractions for
// the even split and after METIS, METIS time and the note.
std::string format_partition_report(const DomainPartition& p);

// The same fields as one JSON object (the "partition" member of node<R>.json).
nlohmann::ordered_json partition_report_json(const DomainPartition& p);

}  // namespace wg
