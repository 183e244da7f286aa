// Frames that arrive on another receive queue than their own: the receiving
// queue's path hands them to the owner's (reliability/receive_path.h, through
// the hand-over rings of dataplane/bucket_queues.h), which delivers them
// exactly once, in order, with the flow's other frames.
//
// A net_ring port with three queue pairs, each receive queue reading its own
// rte_ring, under a Dataplane (rank 1 of 2, --rx-queues 3: its steering is
// kNone, "frames land on any queue") and a Transport. The test plays node 0
// and a port that steers badly: it builds the data frames of flows (node 0,
// q), sequence numbers 0.. per flow, and puts each one straight onto the ring
// of the receive queue it chooses, its own or another. Every record carries
// an id; the receive path of queue q counts, per id, the records it delivers.
// Checks, from what the test placed, not from what the code reports:
//   - every record delivered exactly once, by the path of its flow's queue,
//     and nothing by another path;
//   - rx_q[q].handed_over equals the frames the test put on queue q that
//     belong to another queue (duplicates included);
//   - the duplicates the test sent are dropped by the owner (kDuplicate).
// Once with one lcore stepping the queues in turn (deterministic), once
// with an lcore per queue on the two CPUs, so that the three paths hand
// frames to each other concurrently (the hand-over ring has several
// producers).
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_ring.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dataplane/dataplane.h"
#include "dataplane/frame.h"
#include "dataplane/frame_auth.h"
#include "dataplane/idle.h"
#include "dataplane/wire.h"
#include "reliability/transport.h"
#include "tests/eal_test_main.h"

namespace wg {
namespace {

constexpr uint32_t kJob = 0x00ba70ff;
constexpr uint16_t kUdpPort = 47100;
constexpr unsigned kQueues = 3;
constexpr unsigned kPeer = 0, kRank = 1, kNodes = 2;
constexpr uint16_t kRecords = 20;  // per frame
const MacAddress kPeerMac = {0x02, 0, 0, 0, 0, 0x10};  // node 0's port

// One frame the test sends: flow (node 0, queue), its sequence number, and
// the receive queue it is put on.
struct Placed {
  unsigned queue;  // the flow's, named in the frame
  uint32_t seq;
  unsigned arrives_on;
};

class HandOver : public ::testing::Test {
 public:
  void SetUp() override {
    static unsigned n = 0;
    const std::string base = "wg_ho" + std::to_string(n++);
    for (unsigned q = 0; q < kQueues; ++q) {
      const std::string name = base + "_" + std::to_string(q);
      rings_[q] = rte_ring_create(name.c_str(), 2048, static_cast<int>(rte_socket_id()), RING_F_SP_ENQ | RING_F_SC_DEQ);
      ASSERT_NE(rings_[q], nullptr) << rte_strerror(rte_errno);
    }
    // Queue q's tx ring is its rx ring (nothing is sent here).
    const int port = rte_eth_from_rings(base.c_str(), rings_, kQueues, rings_, kQueues, rte_socket_id());
    ASSERT_GE(port, 0) << rte_strerror(rte_errno);
    DataplaneOptions o;
    o.job_token = kJob;
    o.rank = kRank;
    o.nodes = kNodes;
    o.udp_port = kUdpPort;
    o.mbufs = 4095;
    o.queues = kQueues;
    o.checksum = true;
    dp_ = std::make_unique<Dataplane>(o);
    ASSERT_EQ(dp_->steering(), Steering::kNone) << "net_ring cannot steer: any queue may get any frame";
    // What discovery does on node 0's hello (no key: a zero salt will do):
    // its frames count from port 0 and kPeerMac only, each flow starting at
    // its initial sequence number.
    ASSERT_TRUE(dp_->take_on_peer(kPeer, 0, kPeerMac, Salt{}));
    transport_ = std::make_unique<Transport>(*dp_, TransportConfig{});
    for (auto& d : delivered_) d.assign(size_t{kQueues} * kMaxFrames * kRecords, 0);
  }

  void TearDown() override {
    transport_.reset();
    dp_.reset();  // closes the port
    for (rte_ring* r : rings_) {
      if (r == nullptr) continue;
      void* m;
      while (rte_ring_dequeue(r, &m) == 0) rte_pktmbuf_free(static_cast<rte_mbuf*>(m));
      rte_ring_free(r);
    }
  }

  // Accumulator role q: one receive step, counting every delivered record
  // by id in delivered_[q] (written by that role only). Returns frames taken.
  unsigned step(unsigned q) {
    auto deliver = [this, q](rte_mbuf*, unsigned, const uint8_t* frame, const wire::BucketHeader* h) {
      if (h->queue != q) ++wrong_path_[q];
      const wire::Record* r = records(frame);
      for (unsigned i = 0; i < h->count; ++i) ++delivered_[q][r[i].value];
      records_delivered_.fetch_add(h->count, std::memory_order_release);
      return DropReason::kNone;
    };
    return transport_->receive_step(q, deliver, true);
  }

  // One lcore owning every queue: steps them in turn until a whole round
  // takes nothing (every receive ring and hand-over ring is empty).
  void drain() {
    for (unsigned rounds = 0, taken = 1; taken != 0; ++rounds) {
      taken = 0;
      for (unsigned q = 0; q < kQueues; ++q) taken += step(q);
      ASSERT_LT(rounds, 100000u) << "the receive paths never drain";
    }
  }

  uint64_t records_delivered() const { return records_delivered_.load(std::memory_order_acquire); }

 protected:
  static constexpr uint32_t kMaxFrames = 1024;  // per flow

  static uint32_t record_id(unsigned queue, uint32_t seq, unsigned i) {
    return (queue * kMaxFrames + seq) * kRecords + i;
  }

  // Builds the data frame (node 0 -> node 1, flow p.queue, p.seq) and puts
  // it on the receive ring of p.arrives_on, as a port that steered it there
  // would.
  void place(const Placed& p) {
    rte_mbuf* m = dp_->alloc();
    ASSERT_NE(m, nullptr) << "mbuf pool exhausted";
    uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
    write_bucket_header(frame, wire::Kind::kData, kJob, kPeer, kRank, 0, kRecords);
    wire::BucketHeader* h = bucket_header(frame);
    h->queue = static_cast<uint8_t>(p.queue);
    h->seq = dp_->auth().receive_isn(kPeer, p.queue) + p.seq;
    h->domain = static_cast<uint16_t>(p.queue);  // range q, owned by queue q
    wire::Record* r = records(frame);
    for (unsigned i = 0; i < kRecords; ++i) r[i] = wire::Record{i, record_id(p.queue, p.seq, i)};
    FrameAddress a;
    a.src_mac = kPeerMac;
    a.dst_mac = dp_->ports()[0].mac;
    a.src_ip = node_ipv4(kJob, kPeer);
    a.dst_ip = node_ipv4(kJob, kRank);
    a.src_port = kUdpPort;
    a.dst_port = static_cast<uint16_t>(kUdpPort + p.queue);  // the flow's queue, as the sender names it
    m->data_len = m->pkt_len =
        write_l2_l4(frame, a, static_cast<uint16_t>(sizeof(wire::BucketHeader) + kRecords * sizeof(wire::Record)));
    seal_bucket(frame, m->data_len);
    ASSERT_EQ(rte_ring_enqueue(rings_[p.arrives_on], m), 0);
    ++placed_on_[p.arrives_on];
    if (p.arrives_on != p.queue) ++foreign_on_[p.arrives_on];
  }

  // `frames` frames per flow, frame s of flow q arriving on arrives_on(q, s),
  // in the order (s, q); then `dups` of them again, each on a queue other
  // than its own.
  template <class Where>
  std::vector<Placed> plan(uint32_t frames, Where arrives_on, unsigned dups, std::mt19937& rng) {
    std::vector<Placed> out;
    for (uint32_t s = 0; s < frames; ++s)
      for (unsigned q = 0; q < kQueues; ++q) out.push_back({q, s, arrives_on(q, s)});
    for (unsigned d = 0; d < dups; ++d) {
      const unsigned q = d % kQueues;
      const auto s = static_cast<uint32_t>(rng() % frames);
      out.push_back({q, s, (q + 1 + (d / kQueues) % (kQueues - 1)) % kQueues});
      ++dups_of_[q];
    }
    return out;
  }

  // Every record of every flow delivered exactly once, by its own queue's
  // path; the hand-over and duplicate counts are what the test sent.
  void check(uint32_t frames) {
    EXPECT_EQ(records_delivered(), uint64_t{kQueues} * frames * kRecords);
    for (unsigned q = 0; q < kQueues; ++q) {
      SCOPED_TRACE("receive queue " + std::to_string(q));
      EXPECT_EQ(wrong_path_[q], 0u) << "frames of another queue delivered by this queue's path";
      uint64_t once = 0, wrong = 0;
      std::string first_wrong;
      for (unsigned f = 0; f < kQueues; ++f)
        for (uint32_t s = 0; s < frames; ++s)
          for (unsigned i = 0; i < kRecords; ++i) {
            const unsigned got = delivered_[q][record_id(f, s, i)], want = f == q ? 1 : 0;
            if (got == want) {
              once += want;
              continue;
            }
            if (wrong++ == 0)
              first_wrong = "flow " + std::to_string(f) + " frame " + std::to_string(s) + " record " +
                            std::to_string(i) + ": delivered " + std::to_string(got) + " times by this path";
          }
      EXPECT_EQ(once, uint64_t{frames} * kRecords);
      EXPECT_EQ(wrong, 0u) << first_wrong;
      const RxCounters& rx = dp_->rx_q[q];
      EXPECT_EQ(rx.handed_over, foreign_on_[q]) << "frames put on this queue that belong to another";
      EXPECT_EQ(rx.frames, placed_on_[q]) << "frames put on this queue";
      EXPECT_EQ(rx.dropped[static_cast<size_t>(DropReason::kDuplicate)], dups_of_[q]) << "duplicates of this flow";
      EXPECT_EQ(rx.total_dropped(), dups_of_[q]) << "nothing else dropped";
      EXPECT_EQ(transport_->receive_path(q).stats(kPeer).delivered, frames);
    }
  }

  rte_ring* rings_[kQueues] = {};
  std::unique_ptr<Dataplane> dp_;
  std::unique_ptr<Transport> transport_;
  std::vector<uint8_t> delivered_[kQueues];  // [path][record id]: deliveries
  uint64_t wrong_path_[kQueues] = {};        // [path]: written by that path only
  std::atomic<uint64_t> records_delivered_{0};
  uint64_t placed_on_[kQueues] = {}, foreign_on_[kQueues] = {}, dups_of_[kQueues] = {};
};

// One lcore, the queues stepped in turn: frame s of flow q arrives on queue
// (q + s) mod 3, so two thirds are handed over and each flow's frames reach
// its owner out of order (its own first, the handed ones a step later):
// held, then released in order.
TEST_F(HandOver, OneLcoreEveryQueueInTurn) {
  constexpr uint32_t kFrames = 120;
  std::mt19937 rng(12);
  const std::vector<Placed> frames =
      plan(kFrames, [](unsigned q, uint32_t s) { return static_cast<unsigned>((q + s) % kQueues); }, 9, rng);
  for (const Placed& p : frames) ASSERT_NO_FATAL_FAILURE(place(p));
  for (unsigned q = 0; q < kQueues; ++q) ASSERT_EQ(foreign_on_[q], 2u * kFrames / 3 + 3) << "the plan, queue " << q;
  ASSERT_NO_FATAL_FAILURE(drain());
  check(kFrames);
  uint64_t held = 0;
  for (unsigned q = 0; q < kQueues; ++q) held += transport_->receive_path(q).stats(kPeer).held;
  EXPECT_GT(held, 0u) << "handed-over frames should have filled gaps";
}

// The accumulator role of one queue on its own lcore, until every record
// has been delivered by some path, or until `give_up` if that never happens
// (a broken hand-over would otherwise hang the test instead of failing it).
struct QueueRole {
  HandOver* test;
  unsigned queue;
  uint64_t expected;
  std::chrono::steady_clock::time_point give_up;
};

int run_queue_role(void* arg) {
  const auto* role = static_cast<QueueRole*>(arg);
  IdleBackoff idle;
  while (role->test->records_delivered() < role->expected) {
    if (role->test->step(role->queue) != 0) {
      idle.reset();
      continue;
    }
    if (std::chrono::steady_clock::now() > role->give_up) break;
    idle.wait();
  }
  return 0;
}

// An lcore per queue (three lcores on the two CPUs), every frame on a
// random queue and the flows interleaved at random, so the three paths hand
// frames to each other while they run. The lcores stop once every record
// has been delivered; the main lcore then owns every queue and drains what
// is left (duplicates), so that the counts are final when checked.
TEST_F(HandOver, AnLcorePerQueueConcurrently) {
  if (rte_lcore_count() < kQueues) GTEST_SKIP() << "needs " << kQueues << " EAL lcores";
  constexpr uint32_t kFrames = 400;
  std::mt19937 rng(2024);
  std::vector<Placed> frames =
      plan(kFrames, [&rng](unsigned, uint32_t) { return static_cast<unsigned>(rng() % kQueues); }, 30, rng);
  // Interleave the flows at random; each flow's frames stay in sequence
  // order per ring only by chance.
  std::shuffle(frames.begin(), frames.end(), rng);
  for (const Placed& p : frames) ASSERT_NO_FATAL_FAILURE(place(p));
  for (unsigned q = 0; q < kQueues; ++q) ASSERT_GT(foreign_on_[q], 100u) << "the plan, queue " << q;

  const uint64_t expected = uint64_t{kQueues} * kFrames * kRecords;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::vector<QueueRole> roles;
  for (unsigned q = 0; q < kQueues; ++q) roles.push_back({this, q, expected, give_up});
  unsigned lcore = rte_get_main_lcore();
  for (unsigned q = 1; q < kQueues; ++q) {
    lcore = rte_get_next_lcore(lcore, 1, 0);
    ASSERT_EQ(rte_eal_remote_launch(run_queue_role, &roles[q], lcore), 0) << "lcore " << lcore;
  }
  run_queue_role(&roles[0]);
  rte_eal_mp_wait_lcore();
  EXPECT_EQ(records_delivered(), expected) << "the roles gave up: records lost between the queues";
  ASSERT_NO_FATAL_FAILURE(drain());
  check(kFrames);
}

}  // namespace
}  // namespace wg

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  // Three lcores on the two CPUs: the concurrent test's accumulator roles
  // (they yield when idle, as the node's do).
  if (!wg::test::init_test_eal("test_hand_over", "wg_test_hand_over", 256, {"--lcores", "0@0,1@1,2@0"})) return 1;
  const int rc = RUN_ALL_TESTS();
  rte_eal_cleanup();
  return rc;
}
