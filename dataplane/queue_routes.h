// Which receive queue of its destination node a data bucket travels to:
// every node's slots are split into ranges (compute/engine/range_plan.h), the same
// number on every node, each range owned by one queue (its accumulator). A
// bucket holds one range's records (the header's `domain`), so its flow is
// (destination node, queue of that range). The loading phase has one range
// per node, on queue 0.
//
// Written by the coordinator between phases (the phase's driver provides
// it: compute/engine/program_driver.h), read by workers (bucket_ring.h) and
// accumulators (ownership checks) during the phase.
#pragma once

#include <cstdint>
#include <vector>

namespace wg {

class QueueRoutes {
 public:
  QueueRoutes() = default;
  // queue_of_range[r]: the queue of range r on every node.
  QueueRoutes(unsigned queues, std::vector<uint8_t> queue_of_range)
      : queues_(queues), queue_(std::move(queue_of_range)) {}
  // Everything on queue 0 (one range per node).
  static QueueRoutes single() { return QueueRoutes(1, {0}); }

  unsigned queues() const { return queues_; }
  unsigned ranges() const { return static_cast<unsigned>(queue_.size()); }
  unsigned queue(unsigned range) const { return range < queue_.size() ? queue_[range] : 0; }

 private:
  unsigned queues_ = 1;
  std::vector<uint8_t> queue_{0};
};

}  // namespace wg
