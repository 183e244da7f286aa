#include "compute/engine/lcore_layout.h"

#include <rte_lcore.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace wg {

LcoreLayout plan_lcores(const RolesSpec& roles, unsigned queues) {
  std::vector<unsigned> lcores{rte_get_main_lcore()};
  unsigned lcore;
  RTE_LCORE_FOREACH_WORKER(lcore) lcores.push_back(lcore);
  return plan_lcores(roles, queues, lcores);
}

LcoreLayout plan_lcores(const RolesSpec& roles, unsigned queues, const std::vector<unsigned>& lcores) {
  const auto n = static_cast<unsigned>(lcores.size());
  unsigned w = n, s = 0, a = 0;
  switch (roles.kind) {
    case RolesSpec::Kind::kShared: w = 1; break;
    case RolesSpec::Kind::kSplit:
      if (n == 2 || n == 3) {
        w = n - 1;
        a = 1;
      } else if (n >= 4) {
        s = 1;
        a = (n - 2) / 2;
        if (queues != 0) a = std::min(a, queues);  // an accumulator lcore per queue at most
        w = n - s - a;
      }
      break;
    case RolesSpec::Kind::kCounts:
      w = roles.workers;
      s = roles.senders;
      a = roles.accumulators;
      if (w + s + a != n)
        throw std::invalid_argument("--roles " + describe(roles) + " needs " + std::to_string(w + s + a) +
                                    " lcores, but the EAL has " + std::to_string(n) +
                                    " (give the EAL that many with -l or --lcores)");
      break;
  }
  LcoreLayout l;
  l.queues = queues != 0 ? queues : std::max(a, 1u);
  if (a > l.queues || s > l.queues)
    throw std::invalid_argument("--roles gives " + std::to_string(a) + " accumulator and " + std::to_string(s) +
                                " sender lcores, more than the " + std::to_string(l.queues) +
                                " receive queues (--rx-queues): each lcore needs a queue of its own");
  l.worker_lcores.assign(lcores.begin(), lcores.begin() + w);
  l.sender_lcores.assign(lcores.begin() + w, lcores.begin() + w + s);
  l.accumulator_lcores.assign(lcores.begin() + w + s, lcores.begin() + w + s + a);
  return l;
}

std::vector<LcoreLayout::NetworkRoles> LcoreLayout::network() const {
  std::vector<NetworkRoles> out;
  auto of = [&out](unsigned lcore) -> NetworkRoles& {
    for (NetworkRoles& r : out)
      if (r.lcore == lcore) return r;
    out.push_back(NetworkRoles{lcore, {}, {}, false});
    return out.back();
  };
  for (unsigned q = 0; q < queues; ++q) {
    NetworkRoles& acc = of(accumulator_lcore(q));
    acc.accumulators.push_back(q);
    acc.primary |= q == 0;
    of(sender_lcore(q)).senders.push_back(q);
  }
  std::sort(out.begin(), out.end(), [](const NetworkRoles& a, const NetworkRoles& b) { return a.lcore < b.lcore; });
  return out;
}

namespace {

// Appended piece by piece: GCC 12 misreports "x" + std::to_string (-Wrestrict).
std::string queue_list(const std::vector<unsigned>& qs) {
  std::string s = qs.size() == 1 ? "queue " : "queues ";
  for (size_t i = 0; i < qs.size(); ++i) {
    if (i > 0) s += ",";
    s += std::to_string(qs[i]);
  }
  return s;
}

}  // namespace

std::string LcoreLayout::describe() const {
  std::string s = "lcore " + std::to_string(worker_lcores[0]) + ": coordinator, worker 0";
  for (size_t i = 1; i < worker_lcores.size(); ++i)
    s += "; lcore " + std::to_string(worker_lcores[i]) + ": worker " + std::to_string(i);
  for (const NetworkRoles& r : network()) {
    std::string roles;
    if (!r.senders.empty()) {
      roles += "sender of ";
      roles += queue_list(r.senders);
    }
    if (!r.accumulators.empty()) {
      if (!roles.empty()) roles += ", ";
      roles += "accumulator of ";
      roles += queue_list(r.accumulators);
    }
    if (r.lcore != worker_lcores[0]) {
      s += "; lcore ";
      s += std::to_string(r.lcore);
    }
    s += r.lcore == worker_lcores[0] ? ", " : ": ";
    s += roles;
  }
  return s;
}

RolesSpec parse_roles(const std::string& text) {
  if (text == "split") return RolesSpec{};
  if (text == "shared") return RolesSpec::shared();
  RolesSpec r;
  r.kind = RolesSpec::Kind::kCounts;
  bool seen[3] = {false, false, false};
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument("'" + item + "' is not ROLE=COUNT (roles: workers, senders, accumulators)");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    int which = key == "workers" || key == "w" ? 0 : key == "senders" || key == "s" ? 1
              : key == "accumulators" || key == "a" ? 2 : -1;
    if (which < 0) throw std::invalid_argument("unknown role '" + key + "' (workers, senders, accumulators)");
    if (seen[which]) throw std::invalid_argument("role '" + key + "' given twice");
    seen[which] = true;
    char* end = nullptr;
    const unsigned long v = value.empty() ? 0 : std::strtoul(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || v > 128)
      throw std::invalid_argument("'" + value + "' is not a count of lcores (0..128) for " + key);
    (which == 0 ? r.workers : which == 1 ? r.senders : r.accumulators) = static_cast<unsigned>(v);
    at = comma + 1;
  }
  if (r.workers == 0) throw std::invalid_argument("at least one worker (the main lcore): workers=1 or more");
  if (r.accumulators == 0) throw std::invalid_argument("at least one accumulator lcore (or --roles shared)");
  return r;
}

std::string describe(const RolesSpec& r) {
  switch (r.kind) {
    case RolesSpec::Kind::kSplit: return "split";
    case RolesSpec::Kind::kShared: return "shared";
    case RolesSpec::Kind::kCounts: break;
  }
  return "workers=" + std::to_string(r.workers) + ",senders=" + std::to_string(r.senders) +
         ",accumulators=" + std::to_string(r.accumulators);
}

std::vector<std::pair<uint32_t, uint32_t>> worker_slices(const LocalGraph& g, unsigned w) {
  const unsigned k = g.numa_count();
  const std::vector<uint32_t>& domain_offset = g.numa_bounds();
  std::vector<std::pair<uint32_t, uint32_t>> slices;
  if (w <= k) {
    for (unsigned i = 0; i < w; ++i) slices.emplace_back(domain_offset[i * k / w], domain_offset[(i + 1) * k / w]);
    return slices;
  }
  for (unsigned d = 0; d < k; ++d) {
    unsigned n = 0;
    for (unsigned i = 0; i < w; ++i) n += i * k / w == d;
    const uint32_t begin = domain_offset[d], end = domain_offset[d + 1];
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
