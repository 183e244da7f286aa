#include "reliability/fault_injector.h"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "dataplane/wire.h"

namespace wg {

FaultSpec parse_fault_spec(const std::string& text) {
  FaultSpec f;
  if (text.empty()) return f;  // no faults
  size_t at = 0;
  for (;;) {
    size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(at, end - at);
    if (item.empty()) throw std::invalid_argument("'' is not KIND=FRACTION (an empty item in '" + text + "')");
    const size_t eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("'" + item + "' is not KIND=FRACTION");
    const std::string kind = item.substr(0, eq);
    const std::string value = item.substr(eq + 1);
    double v = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || p != value.data() + value.size() || !(v >= 0.0 && v <= 1.0))
      throw std::invalid_argument("'" + item + "': the fraction must be a number in [0, 1]");
    if (kind == "drop") f.drop = v;
    else if (kind == "dup" || kind == "duplicate") f.duplicate = v;
    else if (kind == "reorder") f.reorder = v;
    else if (kind == "corrupt") f.corrupt = v;
    else if (kind == "delay") f.delay = v;
    else if (kind == "burst") f.burst = v;
    else throw std::invalid_argument("'" + kind + "' is not a fault kind (drop, dup, reorder, corrupt, delay, burst)");
    if (end == text.size()) return f;
    at = end + 1;
  }
}

std::string describe(const FaultSpec& f) {
  char buf[192];
  int n = std::snprintf(buf, sizeof buf, "drop=%g,dup=%g,reorder=%g,corrupt=%g,delay=%g", f.drop, f.duplicate,
                        f.reorder, f.corrupt, f.delay);
  if (f.burst > 0) std::snprintf(buf + n, sizeof buf - static_cast<size_t>(n), ",burst=%g", f.burst);
  return buf;
}

FaultInjector::FaultInjector(const FaultSpec& spec, uint64_t seed, uint64_t delay_ticks, rte_mempool* pool,
                             bool copy_on_corrupt)
    : spec_(spec), state_(seed * 0x9e3779b97f4a7c15ULL + 1), delay_ticks_(delay_ticks), pool_(pool),
      copy_on_corrupt_(copy_on_corrupt) {}

FaultInjector::~FaultInjector() {
  for (rte_mbuf* m : reordered_) rte_pktmbuf_free(m);
  for (const Held& h : delayed_) rte_pktmbuf_free(h.m);
}

double FaultInjector::uniform() {
  // splitmix64: deterministic for a seed, independent of the C++ library.
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

rte_mbuf* FaultInjector::corrupt(rte_mbuf* m) {
  rte_mbuf* target = m;
  if (copy_on_corrupt_) {
    target = rte_pktmbuf_copy(m, pool_, 0, UINT32_MAX);
    if (target == nullptr) return m;  // no mbuf for a copy: send it intact
    rte_pktmbuf_free(m);              // the caller's reference moves to the copy
  }
  // Flip one bit after the UDP header: the wiregraph header or payload, where
  // only our own checks (validation, CRC32C) can catch it.
  const uint32_t len = rte_pktmbuf_data_len(target);
  if (len > wire::kHeaderOffset) {
    const uint32_t span = len - wire::kHeaderOffset;
    const uint32_t byte = wire::kHeaderOffset + static_cast<uint32_t>(uniform() * span) % span;
    const unsigned bit = static_cast<unsigned>(uniform() * 8) & 7;
    rte_pktmbuf_mtod(target, uint8_t*)[byte] ^= static_cast<uint8_t>(1u << bit);
    ++counts_.corrupted;
  }
  return target;
}

uint16_t FaultInjector::apply(rte_mbuf** pkts, uint16_t n, uint16_t cap, uint64_t now) {
  // Release what was held back: reordered frames now, delayed ones when due.
  rte_mbuf* out[2 * 64];
  uint16_t k = 0;
  const uint16_t limit = cap < 2 * 64 ? cap : 2 * 64;
  while (!reordered_.empty() && k < limit) {
    out[k++] = reordered_.front();
    reordered_.pop_front();
  }
  while (!delayed_.empty() && k < limit && delayed_.front().release_tsc <= now) {
    out[k++] = delayed_.front().m;
    delayed_.pop_front();
  }
  for (uint16_t i = 0; i < n; ++i) {
    rte_mbuf* m = pkts[i];
    ++counts_.seen;
    // Bursts draw from the generator only when asked for: the other kinds'
    // faults for a seed stay what they were.
    if (burst_left_ > 0 || (spec_.burst > 0 && uniform() < spec_.burst)) {
      burst_left_ = burst_left_ > 0 ? burst_left_ - 1 : kBurstFrames - 1;
      ++counts_.dropped;
      rte_pktmbuf_free(m);
      continue;
    }
    if (uniform() < spec_.drop) {
      ++counts_.dropped;
      rte_pktmbuf_free(m);
      continue;
    }
    if (uniform() < spec_.corrupt) m = corrupt(m);
    if (uniform() < spec_.reorder) {
      ++counts_.reordered;
      reordered_.push_back(m);
      continue;
    }
    if (uniform() < spec_.delay) {
      ++counts_.delayed;
      delayed_.push_back(Held{m, now + delay_ticks_});
      continue;
    }
    if (k >= limit) {  // no room: keep it for the next call, in order
      reordered_.push_back(m);
      continue;
    }
    out[k++] = m;
    if (uniform() < spec_.duplicate && k < limit) {
      rte_mbuf* copy = rte_pktmbuf_copy(m, pool_, 0, UINT32_MAX);
      if (copy != nullptr) {
        out[k++] = copy;
        ++counts_.duplicated;
      }
    }
  }
  std::memcpy(pkts, out, k * sizeof(rte_mbuf*));
  return k;
}

}  // namespace wg
