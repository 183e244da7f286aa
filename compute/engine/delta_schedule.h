// Which of a worker's vertices scatter which of their edges in a superstep
// of a prioritized program (delta-stepping, Meyer and Sanders 2003; the
// light/heavy split of GAP's sssp.cc): compute/engine/vertex_program.h, bucket(y)
// and light_below().
//
//   - an improved vertex waits in PendingBuckets for its bucket;
//   - each superstep the worker's lowest bucket is taken (and the next ones
//     while few vertices were taken): its vertices send along their light
//     edges (weight < delta), which may land in the same bucket, so the
//     bucket can come back in later supersteps;
//   - once a bucket is lower than every pending one, its vertices send
//     along their heavy edges, once: a heavy edge cannot land in the bucket
//     it leaves, so sending it before the distance is settled would only
//     send it again.
// Hubs of a power-law graph hold most edges and improve many times before
// they settle; Bellman-Ford (every improved vertex sends along every edge,
// every superstep) sent 96 M records for GAP's 31 M-edge kron20.
// Owner: the worker.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compute/engine/bitmap.h"
#include "compute/engine/pending_buckets.h"

namespace wg {

class DeltaSchedule {
 public:
  enum EdgeClass : uint8_t { kLight = 1, kHeavy = 2, kAll = 3 };

  // min_take: buckets are taken together until this many vertices are.
  explicit DeltaSchedule(uint32_t slice = 0, uint64_t min_take = kMinTake)
      : pending_(slice), owed_(slice), min_take_(min_take) {}

  // Vertex i (relative to the slice) improved into bucket b.
  void improved(uint32_t i, uint64_t b) { pending_.add(i, b); }

  // This superstep's senders: light(i) for the vertices of the lowest
  // bucket (and of the next ones while fewer than min_take_ were taken),
  // heavy(i) for those taken from buckets that are done, i.e. lower than
  // the lowest still pending. bucket_of(i) is vertex i's bucket now.
  template <class BucketOf, class Light, class Heavy>
  void next(BucketOf&& bucket_of, Light&& light, Heavy&& heavy) {
    first_ = PendingBuckets::kNone;
    uint64_t low = pending_.lowest(bucket_of);
    size_t kept = 0;
    for (const Settling& e : settling_) {
      if (!owed_.test(e.i)) continue;
      if (e.b < low) {
        owed_.reset(e.i);
        heavy(e.i);
      } else {
        settling_[kept++] = e;
      }
    }
    settling_.resize(kept);
    uint64_t taken = 0;
    while (low != PendingBuckets::kNone) {
      taken += take_light(low, light);
      if (taken >= min_take_) return;
      low = pending_.lowest(bucket_of);
    }
  }

  // A local round (compute/engine/worker/local_rounds.h): the vertices that improved into the
  // lowest bucket the last next() took (or below it) since, by messages
  // applied within the superstep, send along their light edges, light(i)
  // each. Returns how many; 0 once there are none. Only that bucket: the
  // ones next() takes with it (while they hold few vertices) are further
  // ahead of the other workers, whose messages may still improve them;
  // relaxing every taken bucket again, lowest first, sent 28 M records for
  // kron:20:16 at P=2, against 17.4 M without local rounds and 18 M this way.
  template <class BucketOf, class Light>
  uint64_t again(BucketOf&& bucket_of, Light&& light) {
    if (first_ == PendingBuckets::kNone) return 0;
    const uint64_t low = pending_.lowest(bucket_of);
    if (low == PendingBuckets::kNone || low > first_) return 0;
    return take_light(low, light);
  }

 private:
  // A superstep costs a scan of Σ and a round of END frames whatever it
  // sends, so small buckets are taken together: on kron20 (P=2) every other
  // superstep held only the few hundred vertices a bucket's light edges had
  // brought back into it. Taking at least 256 cut 66 supersteps to 40 for
  // the same 33.4 M records and CPU; 1024 and 4096 (38, 32 supersteps) sent
  // 37.5 M and cost 10-15% more CPU, 1/32 of the slice (23) 41.4 M.
  static constexpr uint64_t kMinTake = 256;

  // Takes bucket b (light(i) for each of its vertices), which then owe
  // their heavy edges; returns how many.
  template <class Light>
  uint64_t take_light(uint64_t b, Light& light) {
    uint64_t taken = 0;
    pending_.take(b, [&](uint32_t i) {
      light(i);
      ++taken;
      if (!owed_.test(i)) {
        owed_.set(i);
        settling_.push_back({i, b});
      }
    });
    if (first_ == PendingBuckets::kNone) first_ = b;  // buckets are taken lowest first
    return taken;
  }

  struct Settling {
    uint32_t i;
    uint64_t b;  // the bucket it was taken from
  };
  PendingBuckets pending_;
  Bitmap owed_;                    // taken, heavy edges not sent yet
  std::vector<Settling> settling_;  // those vertices
  uint64_t min_take_;
  uint64_t first_ = PendingBuckets::kNone;  // the lowest bucket the last next() took
};

}  // namespace wg
