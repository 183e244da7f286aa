#include "compute/lcore_layout.h"

#include <rte_lcore.h>

namespace wg {

LcoreLayout plan_lcores(bool split_roles) {
  LcoreLayout l;
  l.worker_lcores.push_back(rte_get_main_lcore());
  std::vector<unsigned> others;
  unsigned lcore;
  RTE_LCORE_FOREACH_WORKER(lcore) others.push_back(lcore);
  l.split = split_roles && !others.empty();
  if (!l.split) return l;
  l.network_lcore = others.back();
  others.pop_back();
  l.worker_lcores.insert(l.worker_lcores.end(), others.begin(), others.end());
  return l;
}

std::string LcoreLayout::describe(unsigned domains) const {
  const std::string network = "sender, accumulators of " + std::to_string(domains) + " domain(s)";
  std::string s = "lcore " + std::to_string(worker_lcores[0]) + ": coordinator, worker 0";
  if (!split) return s + ", " + network;
  for (size_t i = 1; i < worker_lcores.size(); ++i)
    s += "; lcore " + std::to_string(worker_lcores[i]) + ": worker " + std::to_string(i);
  return s + "; lcore " + std::to_string(network_lcore) + ": " + network;
}

std::vector<std::pair<uint32_t, uint32_t>> worker_slices(const LocalGraph& g, unsigned w) {
  const unsigned k = g.domains;
  std::vector<std::pair<uint32_t, uint32_t>> slices;
  if (w <= k) {
    for (unsigned i = 0; i < w; ++i) slices.emplace_back(g.domain_offset[i * k / w], g.domain_offset[(i + 1) * k / w]);
    return slices;
  }
  for (unsigned d = 0; d < k; ++d) {
    unsigned n = 0;
    for (unsigned i = 0; i < w; ++i) n += i * k / w == d;
    const uint32_t begin = g.domain_offset[d], end = g.domain_offset[d + 1];
    uint64_t total = 0;
    for (uint32_t v = begin; v < end; ++v) total += g.out_degree[v] + 1;
    uint32_t lo = begin;
    uint64_t seen = 0;
    for (unsigned j = 0; j < n; ++j) {
      uint32_t hi = lo;
      const uint64_t goal = total * (j + 1) / n;
      while (hi < end && (j + 1 == n || seen + g.out_degree[hi] + 1 <= goal)) seen += g.out_degree[hi++] + 1;
      slices.emplace_back(lo, hi);
      lo = hi;
    }
  }
  return slices;
}

}  // namespace wg
