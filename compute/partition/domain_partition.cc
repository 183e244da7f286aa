#include "compute/partition/domain_partition.h"

#include <metis.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace wg {

namespace {

// The node-local subgraph in METIS's CSR form: undirected, no self-loops,
// each neighbour listed once with weight = number of directed edges between
// the pair (u->v and v->u both count). With these weights METIS's edge-cut
// objective is exactly the number of directed local edges that cross domains,
// the quantity we report and want small.
struct MetisGraph {
  std::vector<idx_t> xadj;
  std::vector<idx_t> adjncy;
  std::vector<idx_t> adjwgt;
};

constexpr uint64_t kIdxMax = static_cast<uint64_t>(std::numeric_limits<idx_t>::max());

// Calls f(source, target) for every directed edge of the node-local subgraph
// except self-loops. Every caller counts through here, so "local edge" means
// the same thing everywhere.
template <typename F>
void for_each_local_edge(const LocalGraph& g, F&& f) {
  const EdgeBlock& b = g.blocks[g.rank];
  for (size_t i = 0; i < b.sources.size(); ++i) {
    const uint32_t s = b.sources[i];
    for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e) {
      const uint32_t t = b.targets[e];
      if (s != t) f(s, t);
    }
  }
}

void check_local_graph(const LocalGraph& g) {
  if (g.rank >= g.blocks.size())
    throw std::invalid_argument("partition_domains: LocalGraph has no edge block for its own rank " +
                                std::to_string(g.rank));
  const EdgeBlock& b = g.blocks[g.rank];
  if (b.offsets.size() != b.sources.size() + 1 || b.offsets.back() != b.targets.size())
    throw std::invalid_argument("partition_domains: malformed local edge block (offsets do not match)");
  for (uint32_t s : b.sources)
    if (s >= g.num_local) throw std::invalid_argument("partition_domains: local source out of range");
  for (uint32_t t : b.targets)
    if (t >= g.num_local) throw std::invalid_argument("partition_domains: local target out of range");
}

MetisGraph build_metis_graph(const LocalGraph& g, uint64_t local_edges) {
  const uint32_t n = g.num_local;
  // METIS counts vertices and sums edge weights and adjacency sizes in idx_t
  // (32-bit here).
  if (n > kIdxMax)
    throw std::runtime_error("partition_domains: " + std::to_string(n) +
                             " local vertices are too many for METIS's 32-bit idx_t");
  if (2 * local_edges > kIdxMax)
    throw std::runtime_error("partition_domains: the node-local subgraph has " + std::to_string(local_edges) +
                             " edges, too many for METIS's 32-bit idx_t");
  // Both directions of every edge, CSR by counting sort.
  std::vector<uint64_t> start(uint64_t{n} + 1, 0);
  for_each_local_edge(g, [&](uint32_t s, uint32_t t) {
    ++start[s + 1];
    ++start[t + 1];
  });
  for (uint32_t v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<idx_t> raw(start[n]);
  std::vector<uint64_t> cursor(start.begin(), start.end() - 1);
  for_each_local_edge(g, [&](uint32_t s, uint32_t t) {
    raw[cursor[s]++] = static_cast<idx_t>(t);
    raw[cursor[t]++] = static_cast<idx_t>(s);
  });
  // Sort each neighbour list and merge duplicates into weights. The merged
  // lists stay symmetric: u lists v k times exactly when v lists u k times.
  MetisGraph m;
  m.xadj.reserve(uint64_t{n} + 1);
  m.xadj.push_back(0);
  m.adjncy.reserve(raw.size());
  m.adjwgt.reserve(raw.size());
  for (uint32_t v = 0; v < n; ++v) {
    auto first = raw.begin() + static_cast<ptrdiff_t>(start[v]);
    auto last = raw.begin() + static_cast<ptrdiff_t>(start[v + 1]);
    std::sort(first, last);
    for (auto it = first; it != last;) {
      auto run_end = std::find_if(it, last, [&](idx_t x) { return x != *it; });
      m.adjncy.push_back(*it);
      m.adjwgt.push_back(static_cast<idx_t>(run_end - it));
      it = run_end;
    }
    m.xadj.push_back(static_cast<idx_t>(m.adjncy.size()));
  }
  return m;
}

std::string metis_error_text(int status) {
  switch (status) {
    case METIS_ERROR_INPUT: return "METIS_ERROR_INPUT (erroneous input graph or options)";
    case METIS_ERROR_MEMORY: return "METIS_ERROR_MEMORY (METIS could not allocate memory)";
    case METIS_ERROR: return "METIS_ERROR (unspecified METIS failure)";
    default: return "unknown METIS status " + std::to_string(status);
  }
}

// How far a domain's vertex count may exceed n/k in METIS's answer: loose,
// since work is what is balanced, but bounded so that METIS does not pile the
// isolated vertices (no work) into one domain's memory.
constexpr double kVertexTolerance = 1.5;

// Runs METIS_PartGraphKway with two constraints per vertex, its work and 1;
// returns the domain of each vertex.
std::vector<uint8_t> run_metis(const MetisGraph& m, const std::vector<idx_t>& work, uint32_t n, unsigned k,
                               double imbalance, double& seconds) {
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_OBJTYPE] = METIS_OBJTYPE_CUT;  // edge cut, not communication volume
  options[METIS_OPTION_NUMBERING] = 0;
  // A fixed seed makes the partition reproducible: every run of a job (and
  // every test) sees the same vertex placement.
  options[METIS_OPTION_SEED] = 1;
  options[METIS_OPTION_UFACTOR] = static_cast<idx_t>(std::lround((imbalance - 1.0) * 1000.0));
  idx_t nvtxs = static_cast<idx_t>(n);
  idx_t ncon = 2;
  std::vector<idx_t> vwgt(2 * uint64_t{n});
  for (uint32_t v = 0; v < n; ++v) {
    vwgt[2 * uint64_t{v}] = work[v];
    vwgt[2 * uint64_t{v} + 1] = 1;
  }
  real_t ubvec[2] = {static_cast<real_t>(imbalance), static_cast<real_t>(kVertexTolerance)};
  idx_t nparts = static_cast<idx_t>(k);
  idx_t objval = 0;
  std::vector<idx_t> part(n, 0);
  // Work within `imbalance` (why: see the header), vertex counts within
  // kVertexTolerance. METIS does not write to the graph arrays, but its C API
  // takes non-const pointers.
  const auto t0 = std::chrono::steady_clock::now();
  const int status = METIS_PartGraphKway(&nvtxs, &ncon, const_cast<idx_t*>(m.xadj.data()),
                                         const_cast<idx_t*>(m.adjncy.data()), vwgt.data(),
                                         /*vsize=*/nullptr, const_cast<idx_t*>(m.adjwgt.data()), &nparts,
                                         /*tpwgts=*/nullptr, ubvec, options, &objval, part.data());
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (status != METIS_OK)
    throw std::runtime_error("partition_domains: METIS_PartGraphKway(n=" + std::to_string(n) +
                             ", k=" + std::to_string(k) + ") failed: " + metis_error_text(status));
  std::vector<uint8_t> domain_of(n);
  for (uint32_t v = 0; v < n; ++v) {
    if (part[v] < 0 || part[v] >= nparts)
      throw std::runtime_error("partition_domains: METIS returned part " + std::to_string(part[v]) +
                               " for vertex " + std::to_string(v) + ", outside [0, " + std::to_string(k) + ")");
    domain_of[v] = static_cast<uint8_t>(part[v]);
  }
  return domain_of;
}

// Contiguous ranges of local indices with about equal work: domain d starts
// at the last vertex whose work prefix is at most d/k of the total, clamped so
// that every domain keeps at least one vertex. With unit work (a graph without
// edges, vertex_work) this is [d*n/k, (d+1)*n/k), the vertex-count split.
std::vector<uint8_t> even_split(const std::vector<uint64_t>& work, unsigned k) {
  const uint32_t n = static_cast<uint32_t>(work.size());
  std::vector<uint64_t> prefix(uint64_t{n} + 1, 0);
  for (uint32_t v = 0; v < n; ++v) prefix[v + 1] = prefix[v] + work[v];
  const uint64_t total = prefix[n];
  std::vector<uint32_t> start(k + 1, n);
  start[0] = 0;
  for (unsigned d = 1; d < k; ++d) {
    // Largest v with prefix[v] * k <= d * total (prefix does not decrease).
    const uint64_t target = uint64_t{d} * total;
    uint32_t lo = 0;
    uint32_t hi = n;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo + 1) / 2;
      if (prefix[mid] * k <= target) lo = mid; else hi = mid - 1;
    }
    start[d] = std::clamp(lo, start[d - 1] + 1, n - (k - d));
  }
  std::vector<uint8_t> domain_of(n);
  for (unsigned d = 0; d < k; ++d)
    std::fill(domain_of.begin() + start[d], domain_of.begin() + start[d + 1], static_cast<uint8_t>(d));
  return domain_of;
}

std::vector<uint32_t> domain_sizes(const std::vector<uint8_t>& domain_of, unsigned k) {
  std::vector<uint32_t> sizes(k, 0);
  for (uint8_t d : domain_of) ++sizes[d];
  return sizes;
}

std::vector<uint64_t> domain_work(const std::vector<uint8_t>& domain_of, const std::vector<uint64_t>& work,
                                  unsigned k) {
  std::vector<uint64_t> sums(k, 0);
  for (uint32_t v = 0; v < domain_of.size(); ++v) sums[domain_of[v]] += work[v];
  return sums;
}

// Moves vertices until every domain holds at least one vertex and at most
// `cap` work units. METIS treats the balance bound as a target, not a
// promise: it overshoots on skewed graphs, where a few hubs weigh more than
// the tolerance, and can leave a part empty on tiny graphs. Each batch moves
// the vertices of the heaviest domain whose move adds the fewest cut edges
// to the lightest one, with gains taken against the placement before the
// batch. Returns how many moved.
uint32_t rebalance(const MetisGraph& m, const std::vector<uint64_t>& work, unsigned k, uint64_t cap,
                   std::vector<uint8_t>& domain_of) {
  std::vector<uint32_t> sizes = domain_sizes(domain_of, k);
  std::vector<uint64_t> load = domain_work(domain_of, work, k);
  uint32_t moved = 0;
  // Candidates in `from`, cheapest (largest gain) first.
  auto by_gain = [&](unsigned from, unsigned to) {
    std::vector<std::pair<int64_t, uint32_t>> order;  // (-gain, vertex)
    for (uint32_t v = 0; v < domain_of.size(); ++v) {
      if (domain_of[v] != from) continue;
      int64_t gain = 0;  // cut edges saved by moving v
      for (idx_t e = m.xadj[v]; e < m.xadj[v + 1]; ++e) {
        const uint8_t d = domain_of[static_cast<uint32_t>(m.adjncy[e])];
        gain += d == to ? m.adjwgt[e] : d == from ? -m.adjwgt[e] : 0;
      }
      order.emplace_back(-gain, v);
    }
    std::sort(order.begin(), order.end());
    return order;
  };
  auto move = [&](uint32_t v, unsigned from, unsigned to) {
    domain_of[v] = static_cast<uint8_t>(to);
    --sizes[from];
    ++sizes[to];
    load[from] -= work[v];
    load[to] += work[v];
    ++moved;
  };
  auto most = [](const auto& x) { return static_cast<unsigned>(std::max_element(x.begin(), x.end()) - x.begin()); };
  auto least = [](const auto& x) { return static_cast<unsigned>(std::min_element(x.begin(), x.end()) - x.begin()); };
  // An empty domain takes the cheapest vertex of the most populous, which
  // holds >= 2 since n >= k; one vertex's work is at most cap.
  for (unsigned d = 0; d < k; ++d)
    if (sizes[d] == 0) {
      const unsigned from = most(sizes);
      move(by_gain(from, d).front().second, from, d);
    }
  // cap >= total/k + the largest vertex's work, and the lightest domain is at
  // most total/k, so each batch moves at least one vertex with work (moving
  // one without does not help) and never lifts a domain above cap: the excess
  // over cap falls every batch. `from` cannot empty: its last vertex alone is
  // within cap.
  for (unsigned from = most(load); load[from] > cap; from = most(load)) {
    const unsigned to = least(load);
    for (const auto& [neg_gain, v] : by_gain(from, to)) {
      if (load[from] <= cap) break;
      if (work[v] > 0 && load[to] + work[v] <= cap) move(v, from, to);
    }
  }
  return moved;
}

// max / mean over domains (1 = perfectly even; 0 when everything is 0).
template <typename T>
double imbalance_of(const std::vector<T>& per_domain) {
  if (per_domain.empty()) return 0.0;
  uint64_t sum = 0;
  T top = 0;
  for (T x : per_domain) {
    sum += x;
    top = std::max(top, x);
  }
  if (sum == 0) return 0.0;
  return static_cast<double>(top) * static_cast<double>(per_domain.size()) / static_cast<double>(sum);
}

}  // namespace

uint64_t max_domain_work(uint64_t total, uint64_t largest, unsigned k, double imbalance) {
  const uint64_t even = (total + k - 1) / k + largest;
  // The epsilon keeps 1.03 * 200 / 2 from flooring to 102 through rounding.
  const double scaled = std::floor(static_cast<double>(total) * imbalance / k + 1e-9);
  if (scaled >= static_cast<double>(total)) return total;
  return std::max(even, static_cast<uint64_t>(scaled));
}

std::vector<uint64_t> vertex_work(const LocalGraph& g) {
  std::vector<uint64_t> work(g.num_local, 0);
  uint64_t total = 0;
  for (uint32_t v = 0; v < g.num_local && v < g.out_degree.size(); ++v) total += work[v] = g.out_degree[v];
  if (total == 0) std::fill(work.begin(), work.end(), 1);
  return work;
}

uint32_t repair_domains(const LocalGraph& g, unsigned k, double imbalance, std::vector<uint8_t>& domain_of) {
  check_local_graph(g);
  if (k == 0 || k > kMaxDomains || k > g.num_local || domain_of.size() != g.num_local)
    throw std::invalid_argument("repair_domains: " + std::to_string(k) + " domains for " +
                                std::to_string(domain_of.size()) + " placed of " + std::to_string(g.num_local) +
                                " vertices");
  for (uint8_t d : domain_of)
    if (d >= k) throw std::invalid_argument("repair_domains: domain " + std::to_string(d) + " is not below k = " +
                                            std::to_string(k));
  uint64_t local_edges = 0;
  for_each_local_edge(g, [&](uint32_t, uint32_t) { ++local_edges; });
  const std::vector<uint64_t> work = vertex_work(g);
  uint64_t total = 0;
  uint64_t largest = 0;
  for (uint64_t w : work) {
    total += w;
    largest = std::max(largest, w);
  }
  return rebalance(build_metis_graph(g, local_edges), work, k, max_domain_work(total, largest, k, imbalance),
                   domain_of);
}

uint64_t count_cross_domain_edges(const LocalGraph& g, const std::vector<uint8_t>& domain_of) {
  uint64_t cross = 0;
  for_each_local_edge(g, [&](uint32_t s, uint32_t t) { cross += domain_of[s] != domain_of[t]; });
  return cross;
}

DomainPartition partition_domains(const LocalGraph& g, unsigned k, bool refine_with_metis, double imbalance) {
  const uint32_t n = g.num_local;
  if (k == 0) throw std::invalid_argument("partition_domains: k (NUMA domains) must be at least 1");
  if (k > kMaxDomains)
    throw std::invalid_argument("partition_domains: k = " + std::to_string(k) + " domains exceeds the maximum " +
                                std::to_string(kMaxDomains));
  if (k > 1 && k > n)
    throw std::invalid_argument("--domains " + std::to_string(k) + " is more than this node's " + std::to_string(n) +
                                " vertices (a node owns about V / --nodes of them)");
  if (!std::isfinite(imbalance) || imbalance < 1.0)
    throw std::invalid_argument("partition_domains: imbalance must be a finite number >= 1, got " +
                                std::to_string(imbalance));
  check_local_graph(g);

  DomainPartition p;
  p.domains = k;
  const std::vector<uint64_t> work = vertex_work(g);
  p.domain_of = even_split(work, k);
  for_each_local_edge(g, [&](uint32_t, uint32_t) { ++p.local_edges; });
  // (one domain: no edge crosses, and a pass over every edge is spared)
  p.cross_even = k == 1 ? 0 : count_cross_domain_edges(g, p.domain_of);
  p.cross_metis = p.cross_even;

  if (k == 1) {
    p.note = "one domain: nothing to partition";
  } else if (!refine_with_metis) {
    p.note = "METIS refinement not requested: even split";
  } else if (p.local_edges == 0) {
    p.note = "node-local subgraph has no edges (self-loops excluded): even split kept, METIS not called";
  } else {
    const MetisGraph m = build_metis_graph(g, p.local_edges);
    uint64_t total = 0;
    uint64_t largest = 0;
    for (uint64_t w : work) {
      total += w;
      largest = std::max(largest, w);
    }
    // METIS sums vertex weights in idx_t too.
    if (total > kIdxMax)
      throw std::runtime_error("partition_domains: " + std::to_string(total) +
                               " out-edges are too many for METIS's 32-bit idx_t");
    const std::vector<idx_t> metis_work(work.begin(), work.end());
    std::vector<uint8_t> candidate = run_metis(m, metis_work, n, k, imbalance, p.metis_seconds);
    const uint64_t limit = max_domain_work(total, largest, k, imbalance);
    const uint32_t moved = rebalance(m, work, k, limit, candidate);
    const uint64_t cross = count_cross_domain_edges(g, candidate);
    const std::vector<uint32_t> sizes = domain_sizes(candidate, k);
    const std::vector<uint64_t> loads = domain_work(candidate, work, k);
    const std::string metis_cut = "METIS cut " + std::to_string(cross) + " vs even " + std::to_string(p.cross_even);
    if (*std::min_element(sizes.begin(), sizes.end()) == 0 || *std::max_element(loads.begin(), loads.end()) > limit) {
      // rebalance() rules this out; kept so a bug there cannot unbalance the work.
      p.note = "METIS domains still unbalanced after repair (" + metis_cut + "): even split kept";
    } else if (cross >= p.cross_even) {
      // On a tie the contiguous split wins: same cut, and a domain is a plain range.
      p.note = metis_cut + " is no better: even split kept";
    } else {
      p.domain_of = std::move(candidate);
      p.cross_metis = cross;
      p.used_metis = true;
      if (moved > 0)
        p.note = "METIS missed the balance bound of " + std::to_string(limit) + " out-edges per domain: moved " +
                 std::to_string(moved) + " vertices";
    }
  }

  p.vertices_per_domain = domain_sizes(p.domain_of, k);
  p.edges_per_domain.assign(k, 0);
  for (uint32_t v = 0; v < n; ++v)
    if (v < g.out_degree.size()) p.edges_per_domain[p.domain_of[v]] += g.out_degree[v];
  p.vertex_imbalance = imbalance_of(p.vertices_per_domain);
  p.edge_imbalance = imbalance_of(p.edges_per_domain);
  return p;
}

NodeDegreeCounts node_degree_counts(const LocalGraph& g) {
  NodeDegreeCounts c;
  if (g.out_degree.size() >= g.num_local) c.out = count_degrees(g.out_degree.data(), g.num_local);
  if (g.in_degree.size() >= g.num_local && g.num_local > 0) c.in = count_degrees(g.in_degree.data(), g.num_local);
  return c;
}

nlohmann::ordered_json degree_counts_json(const NodeDegreeCounts& counts) {
  auto pairs = [](const DegreeCounts& c) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& [d, n] : c) j.push_back({d, n});
    return j;
  };
  nlohmann::ordered_json j;
  if (counts.out) j["out"] = pairs(*counts.out);
  if (counts.in) j["in"] = pairs(*counts.in);
  return j;
}

}  // namespace wg
