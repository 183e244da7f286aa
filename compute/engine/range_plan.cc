#include "compute/engine/range_plan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wg {

namespace {

constexpr uint32_t kAlign = 64;  // range boundaries: multiples of this many accumulators from the domain's start

}  // namespace

std::vector<std::vector<unsigned>> domain_owners(unsigned k, unsigned queues) {
  std::vector<std::vector<unsigned>> owners(k);
  if (queues <= k) {
    for (unsigned q = 0; q < queues; ++q)
      for (unsigned d = q * k / queues; d < (q + 1) * k / queues; ++d) owners[d].push_back(q);
  } else {
    for (unsigned q = 0; q < queues; ++q) owners[q * k / queues].push_back(q);
  }
  return owners;
}

uint64_t ranges_in_domain(uint64_t largest, unsigned owners, uint32_t range_entries) {
  owners = std::max(owners, 1u);
  range_entries = std::max(range_entries, 1u);
  const uint64_t need = std::max<uint64_t>(1, (largest + range_entries - 1) / range_entries);
  return (std::max<uint64_t>(need, owners) + owners - 1) / owners * owners;
}

RangePlan plan_ranges(const std::vector<std::vector<uint32_t>>& numa_offsets, unsigned queues,
                      uint32_t range_entries) {
  if (numa_offsets.empty() || numa_offsets[0].size() < 2 || queues == 0 || range_entries == 0)
    throw std::invalid_argument("plan_ranges: no domains, queues or range size");
  const unsigned nodes = static_cast<unsigned>(numa_offsets.size());
  const unsigned k = static_cast<unsigned>(numa_offsets[0].size() - 1);
  for (const auto& o : numa_offsets)
    if (o.size() != k + 1) throw std::invalid_argument("plan_ranges: nodes with different domain counts");
  const std::vector<std::vector<unsigned>> owners = domain_owners(k, queues);
  RangePlan plan;
  plan.nodes = nodes;
  plan.queues = queues;
  plan.offset.assign(nodes, {});
  // Every node cuts domain d into the same number of ranges: enough for its
  // largest instance, and a whole number per owning queue.
  std::vector<unsigned> per_domain(k);
  for (unsigned d = 0; d < k; ++d) {
    uint32_t largest = 0;
    for (const auto& o : numa_offsets) largest = std::max(largest, o[d + 1] - o[d]);
    const unsigned owners_d = static_cast<unsigned>(owners[d].size());
    per_domain[d] = static_cast<unsigned>(ranges_in_domain(largest, owners_d, range_entries));
    for (unsigned j = 0; j < per_domain[d]; ++j) {
      plan.numa.push_back(static_cast<uint8_t>(d));
      plan.queue.push_back(static_cast<uint8_t>(owners[d][uint64_t{j} * owners_d / per_domain[d]]));
    }
  }
  plan.ranges = static_cast<unsigned>(plan.numa.size());
  for (unsigned p = 0; p < nodes; ++p) {
    std::vector<uint32_t>& off = plan.offset[p];
    for (unsigned d = 0; d < k; ++d) {
      const uint32_t lo = numa_offsets[p][d], size = numa_offsets[p][d + 1] - lo;
      for (unsigned j = 0; j < per_domain[d]; ++j)
        off.push_back(lo + static_cast<uint32_t>(uint64_t{j} * size / per_domain[d]) / kAlign * kAlign);
    }
    off.push_back(numa_offsets[p][k]);
  }
  return plan;
}

namespace {

// Block (node, NUMA domain) -> its ranges' blocks, targets made relative to
// their range. `bounds`: the ranges' starts relative to the domain, then the
// domain's size.
void split_block(EdgeBlock&& old, const std::vector<uint32_t>& bounds, EdgeBlock* out, uint64_t discard_every) {
  const size_t n = bounds.size() - 1;
  if (n == 1 && bounds[0] == 0) {  // one range, the whole domain: the block as it is (a copy would double it)
    *out = std::move(old);
    return;
  }
  const bool weighted = !old.weights.empty(), real = !old.real_weights.empty();
  auto range_of = [&](uint32_t t) {
    return static_cast<size_t>(std::upper_bound(bounds.begin() + 1, bounds.end() - 1, t) - bounds.begin() - 1);
  };
  // Pass 1: sources and edges per range.
  std::vector<uint64_t> sources(n, 0), edges(n, 0), seen(n, UINT64_MAX);
  for (size_t i = 0; i < old.sources.size(); ++i)
    for (uint64_t e = old.offsets[i]; e < old.offsets[i + 1]; ++e) {
      const size_t r = range_of(old.targets[e]);
      ++edges[r];
      if (seen[r] != i) {
        seen[r] = i;
        ++sources[r];
      }
    }
  for (size_t r = 0; r < n; ++r) {
    out[r].sources.reserve(sources[r]);
    out[r].offsets.reserve(sources[r] + 1);
    out[r].offsets.assign(1, 0);
    out[r].targets.reserve(edges[r]);
    if (weighted) out[r].weights.reserve(edges[r]);
    if (real) out[r].real_weights.reserve(edges[r]);
  }
  // Pass 2: each source's edges, in their order, into their ranges' blocks.
  // The ranges' blocks grow as old is read, so old's pages go back to the
  // kernel behind the reader (discard_pages) and the two are held together
  // for a few MiB of edges, not for the block's: PageRank on GAP's kron24 at
  // P=2 (128 ranges a node, before a program that only pulls kept Σ whole)
  // rose 500 MB a block above the CSR as it split.
  uint64_t discarded = 0, discarded_weights = 0, discarded_real = 0;
  std::fill(seen.begin(), seen.end(), UINT64_MAX);
  std::vector<size_t> touched;
  for (size_t i = 0; i < old.sources.size(); ++i) {
    if (old.offsets[i] - discarded >= discard_every) {
      discarded = discard_pages(old.targets, discarded, old.offsets[i]);
      if (weighted) discarded_weights = discard_pages(old.weights, discarded_weights, old.offsets[i]);
      if (real) discarded_real = discard_pages(old.real_weights, discarded_real, old.offsets[i]);
    }
    touched.clear();
    for (uint64_t e = old.offsets[i]; e < old.offsets[i + 1]; ++e) {
      const uint32_t t = old.targets[e];
      const size_t r = range_of(t);
      out[r].targets.push_back(t - bounds[r]);
      if (weighted) out[r].weights.push_back(old.weights[e]);
      if (real) out[r].real_weights.push_back(old.real_weights[e]);
      if (seen[r] != i) {
        seen[r] = i;
        touched.push_back(r);
      }
    }
    for (size_t r : touched) {
      out[r].sources.push_back(old.sources[i]);
      out[r].offsets.push_back(out[r].targets.size());
    }
  }
  old = EdgeBlock{};
}

}  // namespace

void split_into_ranges(LocalGraph& g, const RangePlan& plan, uint64_t discard_every) {
  const unsigned nodes = g.partition.nodes, k = g.domains, R = plan.ranges;
  if (g.numa_domains != 0) throw std::logic_error("split_into_ranges: already split");
  if (plan.nodes != nodes || g.node_domain_offset.size() != nodes || plan.offset[g.rank].size() != R + 1)
    throw std::logic_error("split_into_ranges: the plan is not for this graph");
  std::vector<EdgeBlock> blocks(size_t{nodes} * R);
  // In-edge blocks (a program that scatters along in-edges) have the same
  // groups and their targets lie in the same domains: split alike.
  const bool in_edges = !g.in_blocks.empty();
  std::vector<EdgeBlock> in_blocks(in_edges ? blocks.size() : 0);
  std::vector<unsigned> first(k + 1, 0);  // ranges of domain d: [first[d], first[d+1])
  for (unsigned r = 0; r < R; ++r) first[plan.numa[r] + 1] = r + 1;
  for (unsigned d = 0; d < k; ++d) first[d + 1] = std::max(first[d + 1], first[d]);
  for (unsigned p = 0; p < nodes; ++p)
    for (unsigned d = 0; d < k; ++d) {
      const uint32_t lo = g.node_domain_offset[p][d];
      std::vector<uint32_t> bounds;
      for (unsigned r = first[d]; r < first[d + 1]; ++r) bounds.push_back(plan.offset[p][r] - lo);
      bounds.push_back(g.node_domain_offset[p][d + 1] - lo);
      split_block(std::move(g.blocks[size_t{p} * k + d]), bounds, &blocks[size_t{p} * R + first[d]], discard_every);
      if (in_edges)
        split_block(std::move(g.in_blocks[size_t{p} * k + d]), bounds, &in_blocks[size_t{p} * R + first[d]],
                    discard_every);
    }
  g.blocks = std::move(blocks);
  g.in_blocks = std::move(in_blocks);
  g.numa_domains = k;
  g.numa_offset = g.domain_offset;
  g.domains = R;
  g.domain_offset = plan.offset[g.rank];
  g.node_range_offset = plan.offset;
  g.range_numa = plan.numa;
  g.range_queue = plan.queue;
}

}  // namespace wg
