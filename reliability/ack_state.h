// What the receive path tells the send path about acking one peer, through
// single-writer atomics (no field has two writers).
//
// The receive path publishes its cumulative ack, a count of sequenced frames
// delivered, when the oldest delivery not yet acked happened, and a count of
// "ack now" requests (a frame held behind a gap, a duplicate, a frame beyond
// the window: the sender must hear of it at once). The send path publishes
// how many deliveries and requests its last ack covered. "An ack is pending"
// is deliveries != covered; "ack now" is requests != served, or ack_every
// deliveries not yet acked.
#pragma once

#include <atomic>
#include <cstdint>

namespace wg {

struct alignas(64) AckState {
  // Written by the receive path (accumulator role).
  std::atomic<uint32_t> rcv_ack{0};          // cumulative ack: next sequence number expected
  std::atomic<uint64_t> delivered{0};        // sequenced frames delivered
  std::atomic<uint64_t> pending_since{0};    // tsc of the first delivery after `covered`
  std::atomic<uint64_t> ack_now{0};          // requests to ack at once
  // Written by the send path (sender role).
  alignas(64) std::atomic<uint64_t> covered{0};  // `delivered` as of the last ack sent
  std::atomic<uint64_t> served{0};               // `ack_now` as of the last ack sent
};

}  // namespace wg
