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

}  // namespace wg
