// Dataplane send and receive paths over a real ethdev: a net_ring port whose
// TX and RX share one rte_ring, so every frame sent comes straight back
// (loopback). A separate binary from test_engine because the Dataplane takes
// every port the EAL has at construction, and the engine tests need none.
//
// Each test creates its own ring port before its Dataplane; the Dataplane's
// destructor closes (and so releases) the port, and the test frees the ring.
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ring.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "dataplane/dataplane.h"
#include "dataplane/frame.h"
#include "dataplane/frame_auth.h"
#include "dataplane/wire.h"
#include "reliability/transport.h"
#include "tests/eal_test_main.h"

namespace wg {
namespace {

constexpr uint32_t kJob = 0x00c0ffee;
constexpr uint16_t kPort = 47001;
const MacAddress kPeerMac{0x02, 0x11, 0x22, 0x33, 0x44, 0x55};

uint16_t be16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
uint32_t be32(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
}

// A loopback ring port and a Dataplane over it, torn down in the right order:
// Dataplane first (closes the port), then whatever is left in the ring, then
// the ring.
class Loopback : public ::testing::Test {
 protected:
  void make(unsigned ring_size, unsigned rank = 0, unsigned nodes = 2, const AuthOptions& auth = {}) {
    static unsigned n = 0;
    const std::string name = "wg_test_loop" + std::to_string(n++);
    ring_ = rte_ring_create(name.c_str(), ring_size, static_cast<int>(rte_socket_id()), RING_F_SP_ENQ | RING_F_SC_DEQ);
    ASSERT_NE(ring_, nullptr) << rte_strerror(rte_errno);
    const int port = rte_eth_from_ring(ring_);
    ASSERT_GE(port, 0) << rte_strerror(rte_errno);
    port_ = static_cast<uint16_t>(port);
    DataplaneOptions o;
    o.job_token = kJob;
    o.rank = rank;
    o.nodes = nodes;
    o.udp_port = kPort;
    o.mbufs = 2047;
    o.auth = auth;
    dp_ = std::make_unique<Dataplane>(o);
  }
  void TearDown() override {
    // Frames still in the ring belong to the Dataplane's pool: free them first.
    if (ring_ != nullptr) {
      void* m;
      while (rte_ring_dequeue(ring_, &m) == 0) rte_pktmbuf_free(static_cast<rte_mbuf*>(m));
    }
    const bool had_dataplane = dp_ != nullptr;
    dp_.reset();
    if (ring_ != nullptr) {
      if (had_dataplane) {
        EXPECT_FALSE(rte_eth_dev_is_valid_port(port_)) << "the Dataplane must close its ports";
      }
      rte_ring_free(ring_);
    }
  }

  // A data bucket from our rank to `dst`, addressed and queued.
  void send_data(unsigned dst, uint32_t superstep, uint16_t count, uint32_t first_value) {
    rte_mbuf* m = dp_->alloc();
    ASSERT_NE(m, nullptr);
    uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
    write_bucket_header(frame, wire::Kind::kData, kJob, dp_->options().rank, dst, superstep, count);
    wire::Record* r = records(frame);
    for (uint16_t i = 0; i < count; ++i) r[i] = wire::Record{i, first_value + i};
    dp_->address(m, dst, static_cast<uint16_t>(sizeof(wire::BucketHeader) + count * sizeof(wire::Record)));
    dp_->enqueue(dst, m);
  }

  // The sender's raw path without reliability: the peer's queue to the port.
  // Returns frames the port took; refused frames are freed (the transport,
  // not the Dataplane, keeps frames for a later attempt).
  unsigned send_queued(unsigned peer) {
    unsigned sent = 0;
    rte_mbuf* burst[Dataplane::kBurst];
    while (unsigned n = dp_->dequeue(peer, burst, Dataplane::kBurst)) {
      const uint16_t out = dp_->tx_burst(0, burst, static_cast<uint16_t>(n));
      for (unsigned i = out; i < n; ++i) rte_pktmbuf_free(burst[i]);
      sent += out;
    }
    return sent;
  }

  std::vector<rte_mbuf*> receive_all() {
    std::vector<rte_mbuf*> got;
    rte_mbuf* burst[Dataplane::kBurst];
    while (uint16_t n = dp_->rx_burst(0, burst, Dataplane::kBurst)) got.insert(got.end(), burst, burst + n);
    return got;
  }

  rte_ring* ring_ = nullptr;
  uint16_t port_ = 0;
  std::unique_ptr<Dataplane> dp_;
};

// The receive pool's default (DataplaneOptions::rx_mbufs = 0): twice each
// flow's window, what the ports hold in their RX descriptors, 4095 to spare.
TEST(DataplaneDefaults, ReceivePoolFromNodesAndWindow) {
  EXPECT_EQ(Dataplane::default_rx_mbufs(1, 512, 1, 0), 4095u);
  EXPECT_EQ(Dataplane::default_rx_mbufs(2, 512, 1, 2048), 4095u + 2048u + 1024u);
  EXPECT_EQ(Dataplane::default_rx_mbufs(4, 1000, 2, 0), 4095u + 3u * 2u * 2000u);
  // Launchers' estimate: one port holding full rings (2048 descriptors per port in all).
  EXPECT_EQ(Dataplane::estimated_rx_mbufs(16, 512, 1), 4095u + 2048u + 15u * 1024u);
  EXPECT_EQ(Dataplane::estimated_rx_mbufs(3, 512, 4), 4095u + 2048u + 2u * 4u * 1024u);
}

// net_ring takes an mbuf per frame as it arrives: it holds none in its descriptors.
TEST_F(Loopback, ARingPortHoldsNoReceiveMbufs) {
  make(1024);
  EXPECT_EQ(Ports::held_rx_mbufs(1), 0u);
}

// What -m must hold: a pool is its mbufs (2 KiB buffers, headroom, mbuf
// and mempool headers), packed, its ring and its lcore caches.
TEST(DataplaneDefaults, EalMemoryIsThePoolsRingsAndTheEals) {
  const uint64_t pool = Pools::pool_bytes(10000, 1500);
  EXPECT_GT(pool, 10000u * (2048u + 128u + 128u));
  EXPECT_LT(pool, 10000u * 2600u + (4u << 20));
  EXPECT_GT(Pools::pool_bytes(10000, 9000), pool + 10000u * 7000u) << "jumbo frames, larger buffers";
  DataplaneOptions o;
  o.nodes = 16;
  o.rx_mbufs = 30000;
  EXPECT_GT(Dataplane::eal_memory_bytes(o, 1),
            Pools::pool_bytes(o.mbufs, o.mtu) + Pools::pool_bytes(30000, o.mtu) + Dataplane::kEalOwnBytes);
  EXPECT_GT(Dataplane::eal_memory_bytes(o, 2), Dataplane::eal_memory_bytes(o, 1) + Pools::pool_bytes(o.mbufs, o.mtu))
      << "a transmit pool per socket";
}

TEST_F(Loopback, TheRingPortIsTheDataplanesPort) {
  make(1024);
  ASSERT_EQ(dp_->num_ports(), 1u);
  EXPECT_EQ(dp_->port_id(0), port_);
  EXPECT_EQ(dp_->queued(1), 0u);
  EXPECT_NE(dp_->port_summary().find("port " + std::to_string(port_)), std::string::npos) << dp_->port_summary();
}

TEST_F(Loopback, LearnPeer) {
  make(1024);
  EXPECT_FALSE(dp_->peer_known(1));
  EXPECT_TRUE(dp_->learn_peer(1, 0, kPeerMac));
  EXPECT_TRUE(dp_->peer_known(1));
  EXPECT_FALSE(dp_->peer_known(0));
  EXPECT_TRUE(dp_->learn_peer(1, 0, kPeerMac)) << "the same address again is fine";
  MacAddress other = kPeerMac;
  other[5] ^= 1;
  EXPECT_FALSE(dp_->learn_peer(1, 0, other)) << "a second MAC claiming rank 1";
  EXPECT_EQ(dp_->address_of(1).dst_mac, kPeerMac) << "the first claim stands";

  rte_ether_addr mac;
  ASSERT_EQ(rte_eth_macaddr_get(port_, &mac), 0);
  const FrameAddress& a = dp_->address_of(1);
  EXPECT_EQ(std::memcmp(a.src_mac.data(), mac.addr_bytes, 6), 0) << "we send from the port's MAC";
  EXPECT_EQ(a.src_ip, (169u << 24 | 254u << 16 | 0xeeu << 8 | 1u));  // rank 0 -> .1
  EXPECT_EQ(a.dst_ip, (169u << 24 | 254u << 16 | 0xeeu << 8 | 2u));  // rank 1 -> .2
  EXPECT_EQ(a.src_port, kPort);
  EXPECT_EQ(a.dst_port, kPort);
}

TEST_F(Loopback, BucketComesBackIntact) {
  make(1024);
  ASSERT_TRUE(dp_->learn_peer(1, 0, kPeerMac));
  constexpr uint16_t kCount = 13;
  send_data(1, 6, kCount, 1000);
  EXPECT_EQ(dp_->queued(1), 1u);
  EXPECT_EQ(send_queued(1), 1u);
  EXPECT_EQ(dp_->queued(1), 0u);
  const uint32_t len = 96 + kCount * 8;
  EXPECT_EQ(dp_->tx_q[0].frames, 1u);
  EXPECT_EQ(dp_->tx_q[0].bytes, len);
  EXPECT_EQ(dp_->tx_q[0].ring_full, 0u);

  std::vector<rte_mbuf*> got = receive_all();
  ASSERT_EQ(got.size(), 1u);
  rte_mbuf* m = got[0];
  EXPECT_EQ(m->nb_segs, 1);
  ASSERT_EQ(m->data_len, len);
  EXPECT_EQ(m->pkt_len, len);
  const uint8_t* f = rte_pktmbuf_mtod(m, const uint8_t*);

  rte_ether_addr mac;
  ASSERT_EQ(rte_eth_macaddr_get(port_, &mac), 0);
  EXPECT_EQ(std::memcmp(f, kPeerMac.data(), 6), 0) << "to the learned MAC";
  EXPECT_EQ(std::memcmp(f + 6, mac.addr_bytes, 6), 0) << "from the port's MAC";
  EXPECT_EQ(be16(f + 12), 0x0800);
  EXPECT_EQ(be16(f + 16), len - 14);
  EXPECT_EQ(be32(f + 26), 0xa9feee01u);
  EXPECT_EQ(be32(f + 30), 0xa9feee02u);
  EXPECT_EQ(be16(f + 34), kPort);
  EXPECT_EQ(be16(f + 36), kPort);
  const wire::BucketHeader* h = bucket_header(f);
  EXPECT_EQ(h->kind, static_cast<uint8_t>(wire::Kind::kData));
  EXPECT_EQ(h->src_rank, 0);
  EXPECT_EQ(h->dst_rank, 1);
  EXPECT_EQ(h->superstep, 6u);
  EXPECT_EQ(h->count, kCount);
  const wire::Record* r = records(f);
  for (uint32_t i = 0; i < kCount; ++i) {
    EXPECT_EQ(r[i].index, i);
    EXPECT_EQ(r[i].value, 1000 + i);
  }

  // Valid for the node it is addressed to; dropped by the sender itself.
  EXPECT_EQ(validate_frame(f, m->data_len, ValidationContext{kJob, 1, 2, kPort}), DropReason::kNone);
  EXPECT_EQ(validate_frame(f, m->data_len, dp_->validation()), DropReason::kBadRank);
  EXPECT_EQ(validate_frame(f, m->data_len, ValidationContext{kJob + 1, 1, 2, kPort}), DropReason::kWrongJob);
  rte_pktmbuf_free(m);
}

TEST_F(Loopback, ManyBucketsInOrder) {
  make(1024, 2, 4);  // rank 2 of 4, sending to 0, 1 and 3
  for (unsigned p : {0u, 1u, 3u}) ASSERT_TRUE(dp_->learn_peer(p, 0, kPeerMac));
  constexpr unsigned kBuckets = 150;
  for (unsigned i = 0; i < kBuckets; ++i) send_data(i % 2 ? 3 : (i % 3 == 0 ? 0 : 1), i, 1 + i % wire::kMaxRecords, i * 1000);
  unsigned sent = 0;
  for (unsigned p : {0u, 1u, 3u}) sent += send_queued(p);
  EXPECT_EQ(sent, kBuckets);
  std::vector<rte_mbuf*> got = receive_all();
  ASSERT_EQ(got.size(), kBuckets);
  uint64_t bytes = 0;
  // Each peer's queue is FIFO: per destination, buckets come out in the
  // order they were queued (the sender drains one peer queue at a time).
  std::vector<uint32_t> next_index(4, 0);
  std::vector<std::vector<unsigned>> expected(4);
  for (unsigned i = 0; i < kBuckets; ++i) expected[i % 2 ? 3 : (i % 3 == 0 ? 0 : 1)].push_back(i);
  for (unsigned k = 0; k < kBuckets; ++k) {
    const uint8_t* f = rte_pktmbuf_mtod(got[k], const uint8_t*);
    const wire::BucketHeader* h = bucket_header(f);
    const unsigned dst = h->dst_rank;
    ASSERT_LT(dst, 4u);
    ASSERT_LT(next_index[dst], expected[dst].size());
    const unsigned i = expected[dst][next_index[dst]++];
    EXPECT_EQ(h->superstep, i) << "out of order for node " << dst;
    EXPECT_EQ(h->count, 1 + i % wire::kMaxRecords);
    EXPECT_EQ(be32(f + 30), 0xa9feee00u + dst + 1);
    EXPECT_EQ(records(f)[0].value, i * 1000);
    EXPECT_EQ(validate_frame(f, got[k]->data_len, ValidationContext{kJob, dst, 4, kPort}), DropReason::kNone) << i;
    bytes += got[k]->pkt_len;
    rte_pktmbuf_free(got[k]);
  }
  EXPECT_EQ(dp_->tx_q[0].frames, kBuckets);
  EXPECT_EQ(dp_->tx_q[0].bytes, bytes);
}

TEST_F(Loopback, BackPressureIsCountedAndOrderKept) {
  // The ring holds 63 frames: tx_burst takes 63 of 100 and reports the rest
  // refused (the transport keeps them for a later attempt, see the send
  // window tests); what was taken comes back in queue order.
  make(64);
  ASSERT_TRUE(dp_->learn_peer(1, 0, kPeerMac));
  constexpr unsigned kBuckets = 100;
  for (unsigned i = 0; i < kBuckets; ++i) send_data(1, i, 2, i);
  EXPECT_EQ(dp_->queued(1), kBuckets);
  EXPECT_EQ(send_queued(1), 63u);
  EXPECT_GE(dp_->tx_q[0].ring_full, 1u);
  EXPECT_EQ(dp_->tx_q[0].frames, 63u);
  EXPECT_EQ(dp_->tx_q[0].bytes, 63u * (96u + 16u)) << "refused frames are not counted as sent";
  std::vector<rte_mbuf*> got = receive_all();
  ASSERT_EQ(got.size(), 63u);
  for (unsigned i = 0; i < got.size(); ++i) {
    EXPECT_EQ(bucket_header(rte_pktmbuf_mtod(got[i], const uint8_t*))->superstep, i) << "position " << i;
    rte_pktmbuf_free(got[i]);
  }
}

TEST_F(Loopback, HelloBroadcast) {
  make(1024);
  uint8_t bucket[sizeof(wire::BucketHeader) + sizeof(wire::HelloPayload)] = {};
  // write_bucket_header works on whole frames: build one, send its bucket part.
  uint8_t frame[wire::kPayloadOffset + sizeof(wire::HelloPayload)] = {};
  write_bucket_header(frame, wire::Kind::kHello, kJob, 0, wire::kBroadcastRank, 0, sizeof(wire::HelloPayload));
  std::memcpy(bucket, frame + wire::kHeaderOffset, sizeof bucket);
  dp_->broadcast_now(bucket, sizeof bucket);
  EXPECT_EQ(dp_->tx_q[0].frames, 1u);
  std::vector<rte_mbuf*> got = receive_all();
  ASSERT_EQ(got.size(), 1u);
  const uint8_t* f = rte_pktmbuf_mtod(got[0], const uint8_t*);
  ASSERT_EQ(got[0]->data_len, wire::kPayloadOffset + sizeof(wire::HelloPayload));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(f[i], 0xff) << "broadcast MAC";
  EXPECT_EQ(be32(f + 30), 0xffffffffu);
  // The bucket as given, except that hellos always carry their CRC32C (no
  // key here) and name the port they leave by.
  EXPECT_TRUE(bucket_crc_ok(f, got[0]->data_len)) << "hellos are sealed whatever --checksum says";
  EXPECT_EQ(std::memcmp(f + wire::kPayloadOffset + offsetof(wire::HelloPayload, port_mac), f + 6, 6), 0)
      << "the hello's port_mac is its Ethernet source";
  std::vector<uint8_t> sent(f + wire::kHeaderOffset, f + wire::kHeaderOffset + sizeof bucket);
  std::memset(sent.data() + offsetof(wire::BucketHeader, tag), 0, sizeof(wire::BucketHeader::tag));
  std::memset(sent.data() + sizeof(wire::BucketHeader) + offsetof(wire::HelloPayload, port_mac), 0, 6);
  EXPECT_EQ(std::memcmp(sent.data(), bucket, sizeof bucket), 0);
  EXPECT_EQ(validate_frame(f, got[0]->data_len, ValidationContext{kJob, 1, 2, kPort}), DropReason::kNone);
  rte_pktmbuf_free(got[0]);
}

// Authenticated frames through the transport's receive path (validation,
// FrameVerifier, the receive window, delivery): this node is rank 0 of a
// two-node job with a key; the test plays rank 1, sending its frames into
// the loopback port as that node would seal them, and forgeries beside them.
TEST_F(Loopback, TransportDeliversOnlyAuthenticFramesOfATakenOnPeer) {
  MasterKey key{};
  for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(3 * i + 1);
  make(1024, 0, 2, AuthOptions{true, key});
  TransportConfig tc;
  Transport transport(*dp_, tc);
  const Salt peer_salt = random_salt();
  FrameAuth peer(AuthOptions{true, key}, 2, 1, 1, &peer_salt);
  FrameSealer sealer(peer, 0, false);
  MasterKey other = key;
  other[0] ^= 1;
  FrameAuth stranger(AuthOptions{true, other}, 2, 1, 1, &peer_salt);
  FrameSealer stranger_sealer(stranger, 0, false);

  // A data bucket of two records (values v, v+1) from rank 1, sealed by `s`.
  auto emit = [&](uint32_t seq, uint32_t value, const MacAddress& from, FrameSealer& s, bool bend = false) {
    rte_mbuf* m = dp_->alloc();
    ASSERT_NE(m, nullptr);
    uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
    write_bucket_header(frame, wire::Kind::kData, kJob, 1, 0, 0, 2);
    bucket_header(frame)->seq = seq;
    records(frame)[0] = wire::Record{0, value};
    records(frame)[1] = wire::Record{1, value + 1};
    FrameAddress a;
    a.src_mac = from;
    a.dst_mac = dp_->ports()[0].mac;
    a.src_port = a.dst_port = kPort;
    m->data_len = m->pkt_len = write_l2_l4(frame, a, sizeof(wire::BucketHeader) + 2 * sizeof(wire::Record));
    s.seal(frame, m->data_len);
    if (bend) records(frame)[1].value ^= 1;  // changed after sealing: in flight
    ASSERT_EQ(rte_eth_tx_burst(port_, 0, &m, 1), 1);
  };
  std::vector<std::pair<uint32_t, uint32_t>> delivered;  // (seq, first value)
  auto receive = [&] {
    transport.receive_step([&](rte_mbuf*, unsigned, const uint8_t* f, const wire::BucketHeader* h) {
      if (h->kind == static_cast<uint8_t>(wire::Kind::kData)) delivered.emplace_back(h->seq, records(f)[0].value);
      return DropReason::kNone;
    });
  };
  auto dropped = [&](DropReason r) { return dp_->rx_q[0].dropped[static_cast<size_t>(r)]; };

  const uint32_t isn = dp_->auth().receive_isn(1, 0);
  peer.confirm(0, dp_->auth().salt());  // rank 1 took us on: it starts its flow at our ISN
  EXPECT_EQ(peer.send_isn(0, 0), isn);
  emit(isn, 100, kPeerMac, sealer);
  receive();
  EXPECT_TRUE(delivered.empty());
  EXPECT_EQ(dropped(DropReason::kUnverifiedPeer), 1u) << "no hello verified: no key to check rank 1 with";

  ASSERT_TRUE(dp_->take_on_peer(1, 0, kPeerMac, peer_salt));  // what discovery does
  emit(isn, 100, kPeerMac, sealer);                     // resent: delivered now
  emit(isn + 1, 200, kPeerMac, sealer, true);           // bent in flight
  emit(isn + 1, 300, kPeerMac, stranger_sealer);        // another key
  emit(isn + 1, 400, MacAddress{0x02, 0, 0, 0, 0, 0x66}, sealer);  // a good MAC from another address
  emit(isn + 1, 500, kPeerMac, sealer);
  emit(isn + 7, 600, kPeerMac, stranger_sealer);        // would be held: refused before the window sees it
  receive();
  EXPECT_EQ(delivered, (std::vector<std::pair<uint32_t, uint32_t>>{{isn, 100}, {isn + 1, 500}}));
  EXPECT_EQ(dropped(DropReason::kBadMac), 3u);
  EXPECT_EQ(dropped(DropReason::kWrongAddress), 1u);
  EXPECT_EQ(transport.report()[0].receive.held, 0u) << "no forged frame reached the receive window";
  EXPECT_EQ(transport.report()[0].receive.delivered, 2u);
}

}  // namespace
}  // namespace wg

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (!wg::test::init_test_eal("test_dataplane", "wg_test_dataplane", 256)) return 1;
  const int rc = RUN_ALL_TESTS();
  rte_eal_cleanup();
  return rc;
}
