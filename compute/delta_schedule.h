// Which of a worker's vertices scatter which of their edges in a superstep
// of a prioritized program (delta-stepping, Meyer and Sanders 2003; the
// light/heavy split of GAP's sssp.cc): compute/vertex_program.h, bucket(y)
// and light_below().
//
//   - an improved vertex waits in PendingBuckets for its bucket;
//   - each superstep the worker's lowest bucket is taken: its vertices send
//     along their light edges (weight < delta), which may land in the same
//     bucket, so the bucket can come back in later supersteps;
//   - once the worker's lowest bucket is another one, the vertices of the
//     one before that have not improved again send along their heavy edges,
//     once: a heavy edge cannot land in the bucket it leaves, so sending it
//     before the distance is settled would only send it again.
// Hubs of a power-law graph hold most edges and improve many times before
// they settle; Bellman-Ford (every improved vertex sends along every edge,
// every superstep) sent 96 M records for GAP's 31 M-edge kron20.
// Owner: the worker.
#pragma once

#include <cstdint>
#include <vector>

#include "compute/bitmap.h"
#include "compute/pending_buckets.h"

namespace wg {

class DeltaSchedule {
 public:
  enum EdgeClass : uint8_t { kLight = 1, kHeavy = 2, kAll = 3 };

  explicit DeltaSchedule(uint32_t slice = 0) : pending_(slice), owed_(slice) {}

  // Vertex i (relative to the slice) improved into bucket b.
  void improved(uint32_t i, uint64_t b) { pending_.add(i, b); }

  // This superstep's senders: light(i) for the lowest bucket's vertices,
  // heavy(i) for those of the bucket settled just before. bucket_of(i) is
  // vertex i's bucket now.
  template <class BucketOf, class Light, class Heavy>
  void next(BucketOf&& bucket_of, Light&& light, Heavy&& heavy) {
    const uint64_t low = pending_.lowest(bucket_of);
    if (low != current_) {
      for (uint32_t i : settling_)
        if (owed_.test(i)) {
          owed_.reset(i);
          heavy(i);
        }
      settling_.clear();
      current_ = low;
    }
    if (low == PendingBuckets::kNone) return;
    pending_.take(low, [&](uint32_t i) {
      light(i);
      if (!owed_.test(i)) {
        owed_.set(i);
        settling_.push_back(i);
      }
    });
  }

 private:
  PendingBuckets pending_;
  Bitmap owed_;                    // taken in the current bucket, heavy edges not sent yet
  std::vector<uint32_t> settling_;  // those vertices
  uint64_t current_ = PendingBuckets::kNone;
};

}  // namespace wg
