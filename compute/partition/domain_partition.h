// Level-2 partition: this node's vertices over k NUMA domains.
//
// Start from an even split (contiguous ranges of local indices) and, if asked,
// refine it with METIS (METIS_PartGraphKway on the node-local subgraph) so
// that fewer local edges cross domains: a worker and the accumulator of the
// edge's target then mostly touch the same domain's memory. k is a parameter
// rather than the machine's domain count so that the partition can be run and
// tested on a one-domain machine (DESIGN.md "Partitioning").
//
// What is balanced is work, not vertex count. Workers are assigned per
// domain, so a domain's superstep takes as long as its out-edges (one message
// each): a vertex's work is its out-degree (all destinations; in a graph
// without edges every vertex weighs 1, so the split is by vertex count). With
// unit weights METIS packed the hubs of power-law graphs together (kron:20:16,
// P=1, k=2: 14.2 M vs 2.55 M out-edges) and one domain's workers idled most
// of each superstep. METIS gets two constraints per vertex, work within
// `imbalance` and 1 within a looser 1.5 (so that it does not pile the isolated
// vertices, which weigh nothing, into one domain's memory); kron:12:16 ends at
// 1.03 for edges and 1.06 (k=2) / 1.12 (k=4) for vertices, the cut 1-2% above
// what work alone allowed. Only the work bound is promised and repaired.
//
// The even split cuts contiguous ranges by work (prefix sums), so it obeys
// the same bound as METIS and "never worse than even" compares like with
// like; without edges it is the old [d*n/k, (d+1)*n/k) vertex split.
//
// METIS's answer is first repaired where it misses the work bound or leaves
// a domain empty (it treats balance as a target; a hub can weigh more than
// the tolerance), by moving the vertices that cost the fewest cut edges. The
// result is never worse than the even split: if the repaired answer does not
// cut fewer edges it is discarded, and `note` says why.
//
// What METIS gets: the node-local subgraph (blocks[rank]) made undirected and
// simple, each pair weighted by its number of directed edges, so METIS's
// edge-cut is exactly cross_metis, and (work, 1) as vertex weights.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compute/partition/partition.h"

namespace wg {

// Domain ids are stored in one byte per vertex and index small per-domain
// tables; 64 is far above any real machine's NUMA domain count.
inline constexpr unsigned kMaxDomains = 64;

struct DomainPartition {
  unsigned domains = 0;                     // k
  std::vector<uint8_t> domain_of;           // per local vertex, < domains
  std::vector<uint32_t> vertices_per_domain;
  std::vector<uint64_t> edges_per_domain;   // out-edges whose source is in the domain, all destinations
  double vertex_imbalance = 0.0;  // largest vertices_per_domain / mean (1 = even)
  double edge_imbalance = 0.0;    // largest edges_per_domain / mean (0 when there are no edges)
  uint64_t local_edges = 0;   // directed edges with both ends on this node, self-loops excluded
  uint64_t cross_even = 0;    // of those, crossing domains with the even split
  uint64_t cross_metis = 0;   // crossing with the returned domain_of (= cross_even unless METIS was used)
  double metis_seconds = 0.0; // METIS_PartGraphKway alone (0 when not called)
  bool used_metis = false;    // domain_of is METIS's answer (not the even split)
  std::string note;           // why METIS was skipped or its answer rejected; empty otherwise
};

// Work per local vertex: its out-degree (all destinations), or 1 for every
// vertex when the node has no out-edges at all.
std::vector<uint64_t> vertex_work(const LocalGraph& g);

// The most work a domain may hold: max(ceil(W/k) + largest, floor(W/k * imbalance))
// for total work W and the heaviest vertex's `largest`. The first term is what
// a contiguous split can always meet (also with imbalance 1, and when one hub
// outweighs the tolerance).
uint64_t max_domain_work(uint64_t total, uint64_t largest, unsigned k, double imbalance);

// Splits g's num_local vertices over k domains. `imbalance` (>= 1) bounds the
// largest domain's work relative to W/k (METIS's UFACTOR = (imbalance - 1) * 1000;
// max_domain_work is the bound the result keeps).
// Throws std::invalid_argument for k == 0, k > kMaxDomains, k > num_local or
// imbalance < 1 (or not finite); std::runtime_error if METIS fails or the
// local subgraph does not fit METIS's 32-bit indices.
DomainPartition partition_domains(const LocalGraph& g, unsigned k, bool refine_with_metis,
                                  double imbalance = 1.03);

// The repair partition_domains applies to METIS's answer: moves vertices of
// `domain_of` (any placement of g's vertices over k domains) until every
// domain holds at least one vertex and at most max_domain_work, taking first
// those whose move adds the fewest cut edges. Returns how many moved. Public
// so that it is tested on placements METIS does not produce on small graphs.
// Throws std::invalid_argument if the placement does not fit g and k.
uint32_t repair_domains(const LocalGraph& g, unsigned k, double imbalance, std::vector<uint8_t>& domain_of);

// Directed local edges (blocks[rank], self-loops excluded) whose ends lie in
// different domains under `domain_of`. Also used to fill cross_even/cross_metis.
uint64_t count_cross_domain_edges(const LocalGraph& g, const std::vector<uint8_t>& domain_of);

// Multi-line text: per-domain vertices and edges, both imbalances, cross-domain fractions for
// the even split and after METIS, METIS time and the note.
std::string format_partition_report(const DomainPartition& p);

// The same fields as one JSON object (the "partition" member of node<R>.json).
nlohmann::ordered_json partition_report_json(const DomainPartition& p);

// This node's vertices per degree, as the graph the program runs on has them
// (made undirected where the program asks), out and, only where the graph
// keeps in-degrees, in. A few thousand pairs at most on power-law graphs
// (the distinct degrees).
struct NodeDegreeCounts {
  std::optional<DegreeCounts> out, in;
};
NodeDegreeCounts node_degree_counts(const LocalGraph& g);

// {"out": [[degree, vertices], ...], "in": [...]}, ascending: the "degrees"
// member of node<R>.json, which scripts/wiregraph-plot sums into the graph's
// degree distribution.
nlohmann::ordered_json degree_counts_json(const NodeDegreeCounts& counts);

}  // namespace wg
