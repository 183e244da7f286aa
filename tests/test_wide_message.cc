// Wide messages (compute/engine/capabilities/wide_message.h): records of the
// new sizes (16 to 68 bytes) travel through a frame as the engine writes and
// reads them, pass the receive checks, fold lane by lane into the scalar
// accumulator with the program's combine, and survive a checkpoint of its
// bytes. The expected sums are plain per-lane loops over the values sent.
#include "compute/engine/capabilities/wide_message.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <random>
#include <vector>

#include "compute/engine/accumulator.h"
#include "compute/engine/vertex_program.h"
#include "dataplane/frame.h"
#include "dataplane/wire.h"

namespace wg {
namespace {

constexpr uint32_t kJob = 0x2468ace0;
constexpr uint16_t kPort = 47000;
constexpr unsigned kMe = 0;
constexpr unsigned kPeer = 1;
constexpr uint32_t kVertices = 40;  // the receiver's one domain

// The accumulator needs no more of a program than its message and ⊕.
template <class M, bool kMin>
struct LaneProgram {
  using Message = M;
  using T = std::remove_cvref_t<decltype(M{}.v[0])>;
  static Message identity() { return Message::filled(kMin ? std::numeric_limits<T>::max() : T{0}); }
  static Message combine(Message a, Message b) {
    if constexpr (kMin) return min(a, b);
    else return a + b;
  }
};

LocalGraph receiver_graph() {
  LocalGraph g;
  g.partition.nodes = 2;
  g.rank = kMe;
  g.domains = 1;
  g.num_local = kVertices;
  g.domain_offset = {0, kVertices};
  g.in_degree.assign(kVertices, 1);
  g.out_degree.assign(kVertices, 0);
  return g;
}

FrameAddress address() {
  FrameAddress a;
  a.src_mac = {0x02, 0, 0, 0, 0, kPeer};
  a.dst_mac = {0x02, 0, 0, 0, 0, kMe};
  a.src_ip = node_ipv4(kJob, kPeer);
  a.dst_ip = node_ipv4(kJob, kMe);
  a.src_port = a.dst_port = kPort;
  return a;
}

// A full data frame of records of message M, as a sender lays them out
// (the records start kPayloadOffset into the frame).
template <class M>
std::vector<uint8_t> frame_of(const std::vector<wire::RecordOf<M>>& records) {
  using Record = wire::RecordOf<M>;
  std::vector<uint8_t> f(wire::kMaxFrameBytes, 0);
  const auto count = static_cast<uint16_t>(records.size());
  write_bucket_header(f.data(), wire::Kind::kData, kJob, kPeer, kMe, 3, count);
  std::memcpy(f.data() + wire::kPayloadOffset, records.data(), records.size() * sizeof(Record));
  const uint16_t len =
      write_l2_l4(f.data(), address(), static_cast<uint16_t>(sizeof(wire::BucketHeader) + count * sizeof(Record)));
  f.resize(len);
  return f;
}

template <class M>
ValidationContext context() {
  ValidationContext c{kJob, kMe, 2, kPort};
  c.record_bytes = sizeof(wire::RecordOf<M>);
  return c;
}

// Random records filling one frame: index in [0, kVertices), lanes small
// integers (so float sums are exact whatever the order).
template <class M>
std::vector<wire::RecordOf<M>> random_records(unsigned count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<wire::RecordOf<M>> r(count);
  for (auto& rec : r) {
    rec.index = rng() % kVertices;
    for (unsigned j = 0; j < M::kWidth; ++j) rec.value.v[j] = static_cast<decltype(rec.value.v[0] + 0)>(rng() % 1000);
  }
  return r;
}

template <class M, bool kMin>
void round_trip_and_fold() {
  using Record = wire::RecordOf<M>;
  using T = std::remove_cvref_t<decltype(M{}.v[0])>;
  const uint16_t fits = wire::records_per_bucket(sizeof(Record));
  const std::vector<Record> sent = random_records<M>(fits, sizeof(Record) * 7 + kMin);
  const std::vector<uint8_t> f = frame_of<M>(sent);
  ASSERT_LE(f.size(), wire::kMaxFrameBytes);
  ASSERT_EQ(validate_frame(f.data(), static_cast<uint32_t>(f.size()), context<M>()), DropReason::kNone);
  EXPECT_EQ(uint32_t{bucket_header(f.data())->count} * sizeof(Record), frame_payload_bytes(f.data()));

  // The receive path: the payload read as the program's records, folded.
  const auto* got = reinterpret_cast<const Record*>(f.data() + wire::kPayloadOffset);
  const LocalGraph g = receiver_graph();
  ScalarAccumulator<LaneProgram<M, kMin>> acc(g, 0);
  ASSERT_TRUE(acc.fold(got, fits));

  std::vector<std::vector<T>> want(kVertices, std::vector<T>(M::kWidth, kMin ? std::numeric_limits<T>::max() : T(0)));
  std::vector<bool> reached(kVertices, false);
  for (const Record& r : sent) {
    reached[r.index] = true;
    for (unsigned j = 0; j < M::kWidth; ++j)
      want[r.index][j] = kMin ? std::min(want[r.index][j], r.value.v[j]) : want[r.index][j] + r.value.v[j];
  }
  // A checkpoint copies the accumulator's bytes; a fresh one restored from
  // them takes the same messages.
  ScalarAccumulator<LaneProgram<M, kMin>> restored(g, 0);
  auto from = acc.state(), into = restored.state();
  ASSERT_EQ(from.size(), into.size());
  for (size_t k = 0; k < from.size(); ++k) {
    ASSERT_EQ(from[k].size(), into[k].size());
    std::memcpy(into[k].data(), from[k].data(), from[k].size());
  }
  for (uint32_t v = 0; v < kVertices; ++v) {
    const M m = restored.take(v);
    for (unsigned j = 0; j < M::kWidth; ++j) ASSERT_EQ(m.v[j], want[v][j]) << "vertex " << v << " lane " << j;
  }
  // take_received visits exactly the vertices that got a record.
  std::vector<bool> taken(kVertices, false);
  acc.take_received(0, kVertices, [&](uint32_t i, const M&) { taken[i] = true; });
  EXPECT_EQ(taken, reached);

  // One record more than a frame holds is refused by the frame checks.
  std::vector<Record> over = sent;
  over.push_back(sent[0]);
  std::vector<uint8_t> big(wire::kMaxFrameBytes + sizeof(Record), 0);
  write_bucket_header(big.data(), wire::Kind::kData, kJob, kPeer, kMe, 3, static_cast<uint16_t>(over.size()));
  std::memcpy(big.data() + wire::kPayloadOffset, over.data(), over.size() * sizeof(Record));
  const uint16_t len = write_l2_l4(big.data(), address(),
                                   static_cast<uint16_t>(sizeof(wire::BucketHeader) + over.size() * sizeof(Record)));
  EXPECT_EQ(validate_frame(big.data(), len, context<M>()), DropReason::kBadCount);
}

TEST(WideMessage, RecordSizes) {
  EXPECT_EQ(sizeof(wire::RecordOf<WideMessage<float, 1>>), 8u);
  EXPECT_EQ(sizeof(wire::RecordOf<WideMessage<float, 2>>), 12u);
  EXPECT_EQ(sizeof(wire::RecordOf<WideMessage<float, 4>>), 20u);
  EXPECT_EQ(sizeof(wire::RecordOf<WideMessage<float, 8>>), 36u);
  EXPECT_EQ(sizeof(wire::RecordOf<WideMessage<float, 16>>), 68u);
  EXPECT_EQ(sizeof(wire::RecordOf<WideMessage<double, 8>>), 68u);
  EXPECT_EQ(wire::records_per_bucket(36), 39);
  EXPECT_EQ(wire::records_per_bucket(68), 20);
  static_assert(WireMessage<WideMessage<float, 16>> && WireMessage<WideMessage<double, 8>>);
  static_assert(WireMessage<WideMessage<float, 3>>);        // 12 bytes: any whole number of words
  static_assert(!WireMessage<WideMessage<float, 17>>);      // beyond wire::kMaxMessageBytes
  static_assert(!WireMessage<WideMessage<uint16_t, 3>>);    // not whole 4-byte words
}

TEST(WideMessage, ElementWise) {
  const auto a = WideMessage<float, 4>{{1, 5, -2, 8}}, b = WideMessage<float, 4>{{3, 4, 0, 8}};
  EXPECT_EQ(a + b, (WideMessage<float, 4>{{4, 9, -2, 16}}));
  EXPECT_EQ(min(a, b), (WideMessage<float, 4>{{1, 4, -2, 8}}));
  EXPECT_NE(a, b);
  EXPECT_EQ((WideMessage<float, 4>::filled(0)), (WideMessage<float, 4>{}));
}

TEST(WideMessage, FramesRoundTripAndFoldSums) {
  round_trip_and_fold<WideMessage<float, 3>, false>();
  round_trip_and_fold<WideMessage<float, 8>, false>();
  round_trip_and_fold<WideMessage<float, 16>, false>();
  round_trip_and_fold<WideMessage<double, 8>, false>();
}

TEST(WideMessage, FramesRoundTripAndFoldMinima) {
  round_trip_and_fold<WideMessage<float, 16>, true>();
  round_trip_and_fold<WideMessage<uint32_t, 5>, true>();
}

}  // namespace
}  // namespace wg
