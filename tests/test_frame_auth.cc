// Authenticated frames (dataplane/frame_mac.h, frame_auth.h,
// frame_verifier.h) and the sanitising of wire text (reliability/wire_text.h).
// No EAL: pure functions over byte buffers.
//
// References independent of the code under test: NIST's GCM test vectors
// (GMAC = GCM with an empty plaintext), RFC 5869's HKDF test case, and
// OpenSSL's AES-128-GCM (EVP) for GMAC over arbitrary lengths.
#include <openssl/evp.h>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dataplane/frame.h"
#include "dataplane/frame_auth.h"
#include "dataplane/frame_mac.h"
#include "dataplane/frame_verifier.h"
#include "dataplane/peer_table.h"
#include "reliability/wire_text.h"

namespace wg {
namespace {

std::vector<uint8_t> hex(const char* s) {
  std::vector<uint8_t> v;
  for (size_t i = 0; s[i] != '\0'; i += 2) v.push_back(static_cast<uint8_t>(std::stoi(std::string(s + i, 2), nullptr, 16)));
  return v;
}

std::array<uint8_t, 16> key16(const std::vector<uint8_t>& v) {
  std::array<uint8_t, 16> k{};
  std::memcpy(k.data(), v.data(), 16);
  return k;
}

// OpenSSL's GMAC: AES-128-GCM with the data as additional data and no plaintext.
std::array<uint8_t, 16> openssl_gmac(const std::array<uint8_t, 16>& key, const uint8_t iv[12], const uint8_t* data,
                                     size_t len) {
  EVP_CIPHER_CTX* c = EVP_CIPHER_CTX_new();
  int out = 0;
  std::array<uint8_t, 16> tag{};
  EXPECT_EQ(EVP_EncryptInit_ex(c, EVP_aes_128_gcm(), nullptr, key.data(), iv), 1);
  if (len > 0) {
    EXPECT_EQ(EVP_EncryptUpdate(c, nullptr, &out, data, static_cast<int>(len)), 1);
  }
  EXPECT_EQ(EVP_EncryptFinal_ex(c, nullptr, &out), 1);
  EXPECT_EQ(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag.data()), 1);
  EVP_CIPHER_CTX_free(c);
  return tag;
}

// ---- the primitives --------------------------------------------------------

TEST(Gmac, NistGcmVectorsWithoutPlaintext) {
  uint8_t tag[16];
  // The GCM specification's test case 1: key, IV and data all empty or zero.
  const std::vector<uint8_t> zero(16, 0);
  FrameKey(key16(zero)).gmac(zero.data(), nullptr, 0, tag);
  EXPECT_EQ(std::vector<uint8_t>(tag, tag + 16), hex("58e2fccefa7e3061367f1d57a4e7455a"));
  // gcmEncryptExtIV128.rsp, PTlen 0, AADlen 128, count 0.
  const std::vector<uint8_t> iv = hex("e0e00f19fed7ba0136a797f3"), aad = hex("7a43ec1d9c0a5a78a0b16533a6213cab");
  FrameKey(key16(hex("77be63708971c4e240d1cb79e8d77feb"))).gmac(iv.data(), aad.data(), aad.size(), tag);
  EXPECT_EQ(std::vector<uint8_t>(tag, tag + 16), hex("209fcc8d3675ed938e9c7166709dd946"));
}

TEST(Gmac, AgreesWithOpenSslAtEveryLength) {
  std::mt19937 rng(14);
  std::vector<uint8_t> data(9100);
  for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
  std::array<uint8_t, 16> raw{};
  for (uint8_t& b : raw) b = static_cast<uint8_t>(rng());
  const FrameKey key(raw);
  uint8_t iv[12];
  for (uint8_t& b : iv) b = static_cast<uint8_t>(rng());
  std::vector<size_t> lengths;
  for (size_t n = 0; n <= 300; ++n) lengths.push_back(n);
  for (size_t n : {1472u, 1473u, 8972u, 9100u}) lengths.push_back(n);
  for (size_t n : lengths) {
    uint8_t tag[16];
    key.gmac(iv, data.data(), n, tag);
    const std::array<uint8_t, 16> want = openssl_gmac(raw, iv, data.data(), n);
    EXPECT_EQ(std::vector<uint8_t>(tag, tag + 16), std::vector<uint8_t>(want.begin(), want.end())) << n << " bytes";
  }
}

TEST(Hkdf, Rfc5869TestCase1) {
  const std::vector<uint8_t> ikm(22, 0x0b), salt = hex("000102030405060708090a0b0c"), info = hex("f0f1f2f3f4f5f6f7f8f9");
  std::vector<uint8_t> okm(42);
  hkdf_sha256(ikm, salt, info, okm);
  EXPECT_EQ(okm, hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"));
}

MasterKey master(uint8_t seed) {
  MasterKey k{};
  for (size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(seed * 31 + i);
  return k;
}
Salt salt(uint8_t seed) {
  Salt s{};
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<uint8_t>(seed * 17 + i + 1);
  return s;
}

// The tag a key gives 64 fixed bytes: a fingerprint of the key.
std::vector<uint8_t> fingerprint(const FrameKey& k) {
  uint8_t data[64], iv[12] = {}, tag[16];
  for (size_t i = 0; i < sizeof data; ++i) data[i] = static_cast<uint8_t>(i);
  k.gmac(iv, data, sizeof data, tag);
  return {tag, tag + 16};
}

TEST(KeyDerivation, DeterministicAndSeparatedByEveryInput) {
  const MasterKey k = master(1);
  EXPECT_EQ(fingerprint(derive_frame_key(k, salt(1), 3)), fingerprint(derive_frame_key(k, salt(1), 3)));
  EXPECT_NE(fingerprint(derive_frame_key(k, salt(1), 3)), fingerprint(derive_frame_key(k, salt(2), 3))) << "salt";
  EXPECT_NE(fingerprint(derive_frame_key(k, salt(1), 3)), fingerprint(derive_frame_key(k, salt(1), 4))) << "rank";
  EXPECT_NE(fingerprint(derive_frame_key(k, salt(1), 3)), fingerprint(derive_frame_key(master(2), salt(1), 3)))
      << "master key";
  // The frame key is HKDF-SHA256's first 16 bytes for the documented info.
  std::array<uint8_t, 16> raw{};
  std::string info = "wiregraph 5 frame key";
  info += static_cast<char>(3);
  const Salt s = salt(1);
  hkdf_sha256(k, s, std::vector<uint8_t>(info.begin(), info.end()), raw);
  EXPECT_EQ(fingerprint(derive_frame_key(k, s, 3)), fingerprint(FrameKey(raw)));

  std::set<uint32_t> isns;
  for (unsigned src = 0; src < 4; ++src)
    for (unsigned dst = 0; dst < 4; ++dst)
      for (unsigned q = 0; q < 4; ++q) {
        const uint32_t isn = derive_isn(k, s, src, dst, q);
        EXPECT_EQ(isn, derive_isn(k, s, src, dst, q));
        isns.insert(isn);
      }
  EXPECT_EQ(isns.size(), 64u) << "every flow its own ISN";
  EXPECT_NE(derive_isn(k, s, 0, 1, 0), derive_isn(k, salt(2), 0, 1, 0)) << "a fresh salt, a fresh ISN";
  EXPECT_NE(derive_isn(k, s, 0, 1, 0), derive_isn(master(2), s, 0, 1, 0)) << "unpredictable without the key";
  std::string isn_info = "wiregraph 5 isn";
  isn_info += {static_cast<char>(2), static_cast<char>(1), static_cast<char>(3)};
  uint8_t out[4];
  hkdf_sha256(k, s, std::vector<uint8_t>(isn_info.begin(), isn_info.end()), out);
  EXPECT_EQ(derive_isn(k, s, 2, 1, 3), uint32_t{out[0]} | uint32_t{out[1]} << 8 | uint32_t{out[2]} << 16 |
                                           uint32_t{out[3]} << 24);
}

TEST(KeyDerivation, RandomSaltsDifferAndNeverStartWithEightZeros) {
  std::set<std::string> seen;  // (GCC 12 warns falsely on std::array's <=> in a set)
  for (int i = 0; i < 100; ++i) {
    const Salt s = random_salt();
    EXPECT_NE(salt_prefix(s), 0u);
    seen.insert(std::string(s.begin(), s.end()));
  }
  EXPECT_EQ(seen.size(), 100u);
}

// A sender and a receiver agree on every flow's first sequence number: the
// receiver from its own salt, the sender once it has taken the receiver on.
TEST(FrameAuthState, SenderAndReceiverAgreeOnEveryIsn) {
  const AuthOptions o{true, master(5)};
  const Salt s0 = salt(10), s1 = salt(11), s2 = salt(12);
  FrameAuth n0(o, 3, 0, 4, &s0), n1(o, 3, 1, 4, &s1), n2(o, 3, 2, 4, &s2);
  EXPECT_FALSE(n0.confirmed(1));
  n0.confirm(1, s1);
  n0.confirm(2, s2);
  n1.confirm(0, s0);
  EXPECT_TRUE(n0.confirmed(1));
  for (unsigned q = 0; q < 4; ++q) {
    EXPECT_EQ(n0.send_isn(1, q), n1.receive_isn(0, q)) << q;
    EXPECT_EQ(n0.send_isn(2, q), n2.receive_isn(0, q)) << q;
    EXPECT_EQ(n1.send_isn(0, q), n0.receive_isn(1, q)) << q;
    EXPECT_EQ(n1.receive_isn(0, q), derive_isn(master(5), s1, 0, 1, q));
  }
  EXPECT_EQ(fingerprint(n0.peer_key(1)), fingerprint(n1.own_key())) << "the receiver derives the sender's key";
  // Without a key the same derivation runs under a key of zeros.
  FrameAuth open(AuthOptions{}, 3, 1, 1, &s1);
  EXPECT_FALSE(open.authenticated());
  EXPECT_EQ(open.receive_isn(0, 0), derive_isn(MasterKey{}, s1, 0, 1, 0));
}

// ---- frames ----------------------------------------------------------------------

constexpr uint32_t kJob = 0xfeed0001;
constexpr uint16_t kPort = 47000;
constexpr unsigned kNodes = 3;
const MacAddress kPortMac{0x02, 0, 0, 0, 0, 0xaa};

MacAddress mac_of(unsigned rank) { return {0x02, 0, 0, 0, 0, static_cast<uint8_t>(rank + 1)}; }

std::vector<uint8_t> frame_of(wire::Kind kind, unsigned src, unsigned dst, uint16_t payload_bytes, unsigned queue = 0,
                              const MacAddress& from = MacAddress{}) {
  std::vector<uint8_t> f(wire::kPayloadOffset + payload_bytes, 0);
  const uint16_t count = kind == wire::Kind::kData ? static_cast<uint16_t>(payload_bytes / 8) : payload_bytes;
  write_bucket_header(f.data(), kind, kJob, src, dst, 4, count);
  bucket_header(f.data())->queue = static_cast<uint8_t>(queue);
  bucket_header(f.data())->seq = 77;
  for (size_t i = wire::kPayloadOffset; i < f.size(); ++i) f[i] = static_cast<uint8_t>(i * 7);
  FrameAddress a;
  a.src_mac = from == MacAddress{} ? mac_of(src) : from;
  a.dst_mac = kPortMac;
  a.src_port = kPort;
  a.dst_port = static_cast<uint16_t>(kPort + queue);
  write_l2_l4(f.data(), a, static_cast<uint16_t>(sizeof(wire::BucketHeader) + payload_bytes));
  return f;
}

uint32_t len_of(const std::vector<uint8_t>& f) { return static_cast<uint32_t>(f.size()); }

TEST(FrameSeal, EveryBitOfTheBucketIsCoveredAndTheL2HeadersAreNot) {
  const AuthOptions o{true, master(3)};
  const Salt s = salt(3);
  FrameAuth sender(o, kNodes, 2, 2, &s);
  FrameSealer sealer(sender, 1, false);
  std::vector<uint8_t> f = frame_of(wire::Kind::kData, 2, 1, 5 * 8, 1);
  sealer.seal(f.data(), len_of(f));
  EXPECT_NE(bucket_header(f.data())->flags & wire::kFlagMac, 0);
  const FrameKey& k = sender.own_key();
  ASSERT_TRUE(frame_mac_ok(k, f.data(), len_of(f)));
  for (size_t byte = 0; byte < f.size(); ++byte)
    for (int bit = 0; bit < 8; ++bit) {
      f[byte] ^= static_cast<uint8_t>(1u << bit);
      EXPECT_EQ(frame_mac_ok(k, f.data(), len_of(f)), byte < wire::kHeaderOffset) << "byte " << byte << " bit " << bit;
      f[byte] ^= static_cast<uint8_t>(1u << bit);
    }
  // The tag itself is the GMAC, under the IV (context = queue 1, nonce 0), of
  // the bucket with its tag field zero: recomputed with OpenSSL.
  std::vector<uint8_t> bucket(f.begin() + wire::kHeaderOffset, f.end());
  std::fill(bucket.begin() + offsetof(wire::BucketHeader, tag), bucket.begin() + sizeof(wire::BucketHeader), 0);
  uint8_t iv[12] = {1};
  std::array<uint8_t, 16> raw{};
  std::string info = "wiregraph 5 frame key";
  info += static_cast<char>(2);
  hkdf_sha256(master(3), s, std::vector<uint8_t>(info.begin(), info.end()), raw);
  const std::array<uint8_t, 16> want = openssl_gmac(raw, iv, bucket.data(), bucket.size());
  EXPECT_EQ(std::memcmp(bucket_header(f.data())->tag, want.data(), 16), 0);
  // Another master key, or another node's key: not authentic.
  FrameAuth other(AuthOptions{true, master(4)}, kNodes, 2, 2, &s);
  EXPECT_FALSE(frame_mac_ok(other.own_key(), f.data(), len_of(f)));
  FrameAuth sibling(o, kNodes, 0, 2, &s);
  EXPECT_FALSE(frame_mac_ok(sibling.own_key(), f.data(), len_of(f)));
}

// Nonces never repeat under one key: each seal takes the next, a resent
// frame included, and a frame moved to another nonce no longer verifies.
TEST(FrameSeal, EverySealTakesAFreshNonce) {
  const Salt s = salt(4);
  FrameAuth sender(AuthOptions{true, master(4)}, kNodes, 0, 1, &s);
  FrameSealer sealer(sender, 0, false);
  std::vector<uint8_t> f = frame_of(wire::Kind::kEnd, 0, 1, sizeof(wire::EndPayload));
  std::set<uint64_t> nonces;
  std::set<std::string> tags;
  for (int i = 0; i < 5; ++i) {  // the same frame resent five times
    sealer.seal(f.data(), len_of(f));
    nonces.insert(frame_nonce(*bucket_header(f.data())));
    const uint8_t* tag = bucket_header(f.data())->tag;
    tags.insert(std::string(tag, tag + 16));
  }
  EXPECT_EQ(nonces, (std::set<uint64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(tags.size(), 5u);
  EXPECT_EQ(sealer.sealed(), 5u);
  ASSERT_TRUE(frame_mac_ok(sender.own_key(), f.data(), len_of(f)));
  // The last seal's tag replayed under an earlier nonce: refused.
  set_frame_nonce(*bucket_header(f.data()), 2);
  EXPECT_FALSE(frame_mac_ok(sender.own_key(), f.data(), len_of(f)));
  // Control frames take one shared counter, from any thread.
  std::vector<uint8_t> a = frame_of(wire::Kind::kAbort, 0, wire::kBroadcastRank, sizeof(wire::AbortPayload));
  sender.seal_control(a.data(), len_of(a));
  EXPECT_EQ(frame_nonce(*bucket_header(a.data())), 0u);
  sender.seal_control(a.data(), len_of(a));
  EXPECT_EQ(frame_nonce(*bucket_header(a.data())), 1u);
  EXPECT_EQ(sealing_context(*bucket_header(a.data())), kControlContext);
  EXPECT_TRUE(frame_mac_ok(sender.own_key(), a.data(), len_of(a)));
  // A sender role seals only its own queue's frames: its counter names its context.
  std::vector<uint8_t> q1 = frame_of(wire::Kind::kData, 0, 1, 16, 1);
  EXPECT_THROW(sealer.seal(q1.data(), len_of(q1)), std::logic_error);
}

// The receiving side: who may send what (frame_verifier.h).
class Verifier : public ::testing::Test {
 protected:
  Verifier()
      : s0_(salt(20)), s1_(salt(21)), s2_(salt(22)), o_{true, master(7)}, me_(o_, kNodes, 1, 2, &s1_),
        n0_(o_, kNodes, 0, 2, &s0_), n2_(o_, kNodes, 2, 2, &s2_), peers_(kNodes, kJob, 1, kPort) {}

  // What membership does when node r's hello verifies and echoes us.
  void take_on(unsigned r) {
    ASSERT_TRUE(peers_.learn(r, 0, kPortMac, mac_of(r)));
    me_.confirm(r, r == 0 ? s0_ : s2_);
  }
  FrameAuth& node(unsigned r) { return r == 0 ? n0_ : n2_; }
  std::vector<uint8_t> sealed(wire::Kind kind, unsigned src, uint16_t payload, unsigned queue = 0,
                              const MacAddress& from = MacAddress{}) {
    std::vector<uint8_t> f = frame_of(kind, src, kind == wire::Kind::kHello || kind == wire::Kind::kAbort
                                                     ? wire::kBroadcastRank
                                                     : 1,
                                      payload, queue, from);
    uint8_t* p = f.data() + wire::kPayloadOffset;
    if (kind == wire::Kind::kHello) {
      std::memcpy(p + offsetof(wire::HelloPayload, salt), node(src).salt().data(), kSaltBytes);
      std::memcpy(p + offsetof(wire::HelloPayload, port_mac), f.data() + 6, 6);
    }
    if (kind == wire::Kind::kAbort) std::memcpy(p + offsetof(wire::AbortPayload, salt), node(src).salt().data(), kSaltBytes);
    if (kind == wire::Kind::kHello || kind == wire::Kind::kAbort) {
      node(src).seal_control(f.data(), len_of(f));
    } else {
      FrameSealer(node(src), queue, false).seal(f.data(), len_of(f));
    }
    return f;
  }
  DropReason check(FrameVerifier& v, const std::vector<uint8_t>& f, unsigned port = 0) {
    std::vector<uint8_t> g = f;
    const DropReason r = v.check(g.data(), len_of(g), port);
    EXPECT_EQ(g, f) << "checking a frame leaves it as it was";
    return r;
  }

  Salt s0_, s1_, s2_;
  AuthOptions o_;
  FrameAuth me_, n0_, n2_;
  PeerTable peers_;
};

TEST_F(Verifier, OnlyTakenOnPeersAtTheirAddressWithTheirKey) {
  FrameVerifier v(me_, peers_, false);
  const std::vector<uint8_t> data = sealed(wire::Kind::kData, 0, 3 * 8, 1);
  EXPECT_EQ(check(v, data), DropReason::kUnverifiedPeer) << "no hello verified yet: no key to check it";
  take_on(0);
  EXPECT_EQ(check(v, data), DropReason::kNone);
  EXPECT_EQ(check(v, sealed(wire::Kind::kAck, 0, wire::ack_payload_bytes(0), 0)), DropReason::kNone);
  EXPECT_EQ(check(v, data, 1), DropReason::kWrongAddress) << "another port";
  EXPECT_EQ(check(v, sealed(wire::Kind::kData, 0, 24, 1, mac_of(2))), DropReason::kWrongAddress)
      << "another source MAC";
  // A frame claiming rank 0 sealed by node 2 (which has the key: not a
  // stranger, but not rank 0 either), from rank 0's address.
  std::vector<uint8_t> f = frame_of(wire::Kind::kData, 0, 1, 24, 1);
  FrameSealer(n2_, 1, false).seal(f.data(), len_of(f));
  EXPECT_EQ(check(v, f), DropReason::kBadMac);
  // Tampered: one record byte.
  std::vector<uint8_t> bent = data;
  bent.back() ^= 1;
  EXPECT_EQ(check(v, bent), DropReason::kBadMac);
  // A forger who cannot compute MACs clears the flag: not a frame of this job.
  bent = data;
  bucket_header(bent.data())->flags = 0;
  EXPECT_EQ(check(v, bent), DropReason::kAuthMismatch);
  // A node without a key drops authenticated frames the same way.
  FrameAuth open(AuthOptions{}, kNodes, 1, 2, &s1_);
  open.confirm(0, s0_);
  FrameVerifier ov(open, peers_, true);
  EXPECT_EQ(check(ov, data), DropReason::kAuthMismatch);
}

TEST_F(Verifier, HellosCarryTheirOwnKey) {
  FrameVerifier v(me_, peers_, false);
  const std::vector<uint8_t> hello = sealed(wire::Kind::kHello, 2, sizeof(wire::HelloPayload));
  EXPECT_EQ(check(v, hello), DropReason::kNone) << "verified with the key of the salt it names";
  EXPECT_EQ(check(v, hello), DropReason::kNone) << "again, from the cached key";
  // A hello naming a salt whose key did not seal it: the wrong salt-derived key.
  std::vector<uint8_t> wrong = hello;
  wrong[wire::kPayloadOffset + offsetof(wire::HelloPayload, salt)] ^= 1;
  EXPECT_EQ(check(v, wrong), DropReason::kBadMac);
  // Sealed under another master key (another job's, or a guess).
  FrameAuth stranger(AuthOptions{true, master(8)}, kNodes, 2, 2, &s2_);
  std::vector<uint8_t> forged = hello;
  stranger.seal_control(forged.data(), len_of(forged));
  EXPECT_EQ(check(v, forged), DropReason::kBadMac);
  // A genuine hello resent from another address: its payload names the port it left by.
  std::vector<uint8_t> moved = hello;
  std::memcpy(moved.data() + 6, mac_of(0).data(), 6);
  EXPECT_EQ(check(v, moved), DropReason::kWrongAddress);
}

TEST_F(Verifier, AbortsCountOnlyUnderAKeyOfThisRun) {
  FrameVerifier v(me_, peers_, false);
  const std::vector<uint8_t> abort = sealed(wire::Kind::kAbort, 2, sizeof(wire::AbortPayload));
  // Node 2 not heard yet: an abort under a salt this run has not seen could
  // be one recorded in an earlier run with the same key.
  EXPECT_EQ(check(v, abort), DropReason::kUnverifiedPeer);
  // Once a verified hello named that salt, its abort counts (it may fail
  // before it is taken on).
  ASSERT_EQ(check(v, sealed(wire::Kind::kHello, 2, sizeof(wire::HelloPayload))), DropReason::kNone);
  EXPECT_EQ(check(v, abort), DropReason::kNone);
  take_on(2);
  FrameVerifier fresh(me_, peers_, false);
  EXPECT_EQ(check(fresh, abort), DropReason::kNone);
  std::vector<uint8_t> other_salt = abort;
  other_salt[wire::kPayloadOffset] ^= 1;
  EXPECT_EQ(check(fresh, other_salt), DropReason::kBadMac);
  EXPECT_EQ(check(fresh, sealed(wire::Kind::kAbort, 2, sizeof(wire::AbortPayload), 0, mac_of(0))),
            DropReason::kWrongAddress);
}

TEST_F(Verifier, WithoutAKeyTheCrcAndTheAddressStillCount) {
  FrameAuth open(AuthOptions{}, kNodes, 1, 2, &s1_);
  FrameVerifier checked(open, peers_, true), unchecked(open, peers_, false);
  std::vector<uint8_t> f = frame_of(wire::Kind::kData, 0, 1, 24, 1);
  seal_bucket(f.data(), len_of(f));
  EXPECT_EQ(check(checked, f), DropReason::kUnverifiedPeer);
  ASSERT_TRUE(peers_.learn(0, 0, kPortMac, mac_of(0)));
  open.confirm(0, s0_);
  EXPECT_EQ(check(checked, f), DropReason::kNone);
  f.back() ^= 1;
  EXPECT_EQ(check(checked, f), DropReason::kBadChecksum);
  EXPECT_EQ(check(unchecked, f), DropReason::kNone) << "--checksum off";
  EXPECT_EQ(check(unchecked, f, 1), DropReason::kWrongAddress);
  // Hellos and aborts always carry the CRC.
  std::vector<uint8_t> hello = frame_of(wire::Kind::kHello, 2, wire::kBroadcastRank, sizeof(wire::HelloPayload));
  std::memcpy(hello.data() + wire::kPayloadOffset + offsetof(wire::HelloPayload, port_mac), hello.data() + 6, 6);
  open.seal_control(hello.data(), len_of(hello));
  EXPECT_EQ(check(unchecked, hello), DropReason::kNone);
  hello[200] ^= 1;
  EXPECT_EQ(check(unchecked, hello), DropReason::kBadChecksum);
}

// ---- text from the wire ----------------------------------------------------------

TEST(WireText, OnlyPrintableAsciiReachesATerminal) {
  EXPECT_EQ(printable("node 2: bad input (line 7)"), "node 2: bad input (line 7)");
  EXPECT_EQ(printable("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(printable("\x1b]0;owned\x07"), "\\x1b]0;owned\\x07") << "a terminal title sequence";
  EXPECT_EQ(printable("line\nwiregraph: fake\r"), "line\\x0awiregraph: fake\\x0d");
  EXPECT_EQ(printable("back\\slash"), "back\\\\slash") << "so that \\x41 in the text is not read as an escape";
  EXPECT_EQ(printable(std::string("nul\0!", 5)), "nul\\x00!");
  EXPECT_EQ(printable("caf\xc3\xa9 \x7f"), "caf\\xc3\\xa9 \\x7f");
  EXPECT_EQ(printable(""), "");
}

}  // namespace
}  // namespace wg
