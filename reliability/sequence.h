// Wrap-safe arithmetic on 32-bit sequence numbers (RFC 1982 style): valid
// while the two numbers compared are less than 2^31 apart, which the send
// window (at most 2^16 frames) guarantees.
#pragma once

#include <cstdint>

namespace wg {

inline bool seq_lt(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) < 0; }
inline bool seq_le(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) <= 0; }
inline bool seq_gt(uint32_t a, uint32_t b) { return seq_lt(b, a); }
inline uint32_t seq_distance(uint32_t from, uint32_t to) { return to - from; }  // to >= from

// Transmission (ts_a, seq_a) left after (ts_b, seq_b): by send time (32-bit,
// wrapping tsval units), then by sequence number (a burst shares one time and
// goes out in sequence order).
inline bool sent_after(uint32_t ts_a, uint32_t seq_a, uint32_t ts_b, uint32_t seq_b) {
  return static_cast<int32_t>(ts_a - ts_b) > 0 || (ts_a == ts_b && seq_gt(seq_a, seq_b));
}

}  // namespace wg
