// Small helpers the transport's send and receive paths share.
#pragma once

#include <rte_cycles.h>

#include <cstdint>

#include "reliability/transport_config.h"

namespace wg {

inline uint64_t us_to_ticks(double us) {
  return static_cast<uint64_t>(us * 1e-6 * static_cast<double>(rte_get_tsc_hz()));
}
inline double ticks_to_us(uint64_t t) { return static_cast<double>(t) * 1e6 / static_cast<double>(rte_get_tsc_hz()); }

// Seed of the receive fault injector of queue `queue` of port `port`; its
// transmit injector uses seed + 1 (distinct, reproducible streams per node,
// port, queue and direction; queue 0 keeps the one-queue seeds).
inline uint64_t fault_seed(const TransportConfig& cfg, unsigned rank, unsigned port, unsigned queue = 0) {
  return cfg.fault_seed * 1000003 + rank * 131 + port * 2 + uint64_t{queue} * 0x9e3779b97f4aULL;
}

}  // namespace wg
