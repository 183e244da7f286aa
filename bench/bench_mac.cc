// Message authentication candidates for every frame, in the same run:
// nanoseconds per bucket (the bytes after the UDP header: 1472 at MTU 1500,
// 8972 at MTU 9000), median of the rounds, with the bucket's CRC32C as the
// yardstick. Each candidate is keyed once and then, per bucket, given a
// fresh nonce where it takes one (as the transport would: a counter).
//
//   gmac_ipsec_mb      AES-128-GMAC, intel-ipsec-mb's direct API (init,
//                      update, finalize; the key schedule and GHASH powers
//                      precomputed once)
//   gmac_openssl       AES-128-GMAC through OpenSSL 3's EVP (a GCM context
//                      keyed once; per bucket: IV, the bucket as AAD, final,
//                      the tag)
//   poly1305_sodium    Poly1305 with a one-time key per frame: libsodium's
//                      chacha20-poly1305-ietf, detached, empty message, the
//                      bucket as additional data
//   siphash_sodium     SipHash-2-4, libsodium's crypto_shorthash (64-bit tag,
//                      no nonce)
//   blake2b_sodium     keyed BLAKE2b, libsodium's crypto_generichash, 16-byte tag
//   hmac_sha256        HMAC-SHA256, OpenSSL 3's EVP_MAC (re-initialised per
//                      bucket with the key kept), 32-byte tag
//   frame_mac          the transport's own call with the chosen primitive
//                      (dataplane/frame_mac.h seal_frame: gmac_ipsec_mb over
//                      the bucket in three parts, the tag field as zeros)
//   bucket_crc         the transport's CRC32C: the yardstick
//
// The two GMACs must give the same tag for the same key, IV and bytes (checked
// before timing: "same tag"). Candidates run interleaved round by round (the
// machine is shared), each over ~384 KiB of buckets (in L2) repeated within a
// round; the ratio to bucket_crc is taken within each round, then the median.
// Time is the measuring thread's CPU time (CLOCK_THREAD_CPUTIME_ID): on a
// machine with more runnable threads than CPUs, wall time mostly measures
// how long the thread waited for a CPU.
//
//   build/bench/bench_mac [--trials N] [--json FILE]
#include <intel-ipsec-mb.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <sodium.h>

#include <time.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/bench_common.h"
#include "dataplane/frame.h"
#include "dataplane/frame_mac.h"
#include "dataplane/wire.h"

namespace wg {
namespace {

constexpr size_t kBytesPerRound = 384 * 1024;  // buckets of one size per pass: fits L2
constexpr unsigned kRepeats = 24;              // passes over them per round (at most 256 buckets)

double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// 12-byte nonce from a counter, as the transport builds it.
void nonce_of(uint64_t n, uint8_t iv[12]) {
  std::memset(iv, 0, 12);
  std::memcpy(iv + 4, &n, 8);
}

// A candidate: keyed once (by its constructor), then tag(bucket, len) per bucket.
struct Candidate {
  std::string name;
  unsigned tag_bytes;
  std::function<uint64_t(const uint8_t*, size_t)> tag;  // returns the tag's first 8 bytes (a sink)
};

uint64_t first8(const uint8_t* t) {
  uint64_t v;
  std::memcpy(&v, t, 8);
  return v;
}

class IpsecMbGmac {
 public:
  explicit IpsecMbGmac(const uint8_t key[16]) {
    mgr_ = alloc_mb_mgr(0);
    if (mgr_ == nullptr) throw std::runtime_error("alloc_mb_mgr failed");
    init_mb_mgr_auto(mgr_, &arch_);
    if (imb_get_errno(mgr_) != 0) throw std::runtime_error("init_mb_mgr_auto failed");
    IMB_AES128_GCM_PRE(mgr_, key, &key_);
  }
  ~IpsecMbGmac() { free_mb_mgr(mgr_); }
  IpsecMbGmac(const IpsecMbGmac&) = delete;
  IpsecMbGmac& operator=(const IpsecMbGmac&) = delete;
  void tag(const uint8_t iv[12], const uint8_t* b, size_t n, uint8_t out[16]) {
    gcm_context_data ctx;
    IMB_AES128_GMAC_INIT(mgr_, &key_, &ctx, iv, 12);
    IMB_AES128_GMAC_UPDATE(mgr_, &key_, &ctx, b, n);
    IMB_AES128_GMAC_FINALIZE(mgr_, &key_, &ctx, out, 16);
  }
  const char* arch() const {
    switch (arch_) {
      case IMB_ARCH_SSE: return "sse";
      case IMB_ARCH_AVX: return "avx";
      case IMB_ARCH_AVX2: return "avx2";
      case IMB_ARCH_AVX512: return "avx512";
      default: return "other";
    }
  }

 private:
  IMB_MGR* mgr_;
  IMB_ARCH arch_ = IMB_ARCH_NONE;
  alignas(64) gcm_key_data key_;
};

class OpensslGmac {
 public:
  explicit OpensslGmac(const uint8_t key[16]) : ctx_(EVP_CIPHER_CTX_new()) {
    if (ctx_ == nullptr || EVP_EncryptInit_ex(ctx_, EVP_aes_128_gcm(), nullptr, key, nullptr) != 1)
      throw std::runtime_error("EVP aes-128-gcm init failed");
  }
  ~OpensslGmac() { EVP_CIPHER_CTX_free(ctx_); }
  OpensslGmac(const OpensslGmac&) = delete;
  OpensslGmac& operator=(const OpensslGmac&) = delete;
  void tag(const uint8_t iv[12], const uint8_t* b, size_t n, uint8_t out[16]) {
    int len = 0;
    EVP_EncryptInit_ex(ctx_, nullptr, nullptr, nullptr, iv);  // the key schedule stays
    EVP_EncryptUpdate(ctx_, nullptr, &len, b, static_cast<int>(n));
    EVP_EncryptFinal_ex(ctx_, nullptr, &len);
    EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_GCM_GET_TAG, 16, out);
  }

 private:
  EVP_CIPHER_CTX* ctx_;
};

class OpensslHmac {
 public:
  explicit OpensslHmac(const uint8_t key[32]) {
    mac_ = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    ctx_ = mac_ ? EVP_MAC_CTX_new(mac_) : nullptr;
    char digest[] = "SHA256";
    const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                                 OSSL_PARAM_construct_end()};
    if (ctx_ == nullptr || EVP_MAC_init(ctx_, key, 32, params) != 1) throw std::runtime_error("EVP HMAC init failed");
  }
  ~OpensslHmac() {
    EVP_MAC_CTX_free(ctx_);
    EVP_MAC_free(mac_);
  }
  OpensslHmac(const OpensslHmac&) = delete;
  OpensslHmac& operator=(const OpensslHmac&) = delete;
  void tag(const uint8_t* b, size_t n, uint8_t out[32]) {
    size_t len = 0;
    EVP_MAC_init(ctx_, nullptr, 0, nullptr);  // same key: restarts from the precomputed pads
    EVP_MAC_update(ctx_, b, n);
    EVP_MAC_final(ctx_, out, &len, 32);
  }

 private:
  EVP_MAC* mac_ = nullptr;
  EVP_MAC_CTX* ctx_ = nullptr;
};

struct Result {
  std::string name;
  unsigned tag_bytes = 0;
  std::vector<double> ns;     // per bucket, per round
  std::vector<double> ratio;  // this / bucket_crc, per round
};

int main_mac(int argc, char** argv) {
  unsigned trials = 9;
  std::string json_path;
  if (int status = 0; !bench::parse_trials_and_json(argc, argv, &trials, &json_path, &status)) return status;
  if (sodium_init() < 0) {
    std::fprintf(stderr, "bench_mac: sodium_init failed\n");
    return 1;
  }
  std::mt19937_64 rng(42);
  uint8_t key[32];
  for (uint8_t& k : key) k = static_cast<uint8_t>(rng());
  IpsecMbGmac ipsec(key);
  std::array<uint8_t, 16> raw{};
  std::memcpy(raw.data(), key, raw.size());
  const FrameKey frame_key(raw);
  OpensslGmac ossl(key);
  OpensslHmac hmac(key);
  uint64_t counter = 0;

  // The same key, IV and bytes must give the same GMAC through both libraries.
  bool same_tag = true;
  {
    std::vector<uint8_t> b(8972);
    for (uint8_t& x : b) x = static_cast<uint8_t>(rng());
    for (size_t n : {size_t{0}, size_t{1}, size_t{38}, size_t{1472}, size_t{8972}}) {
      uint8_t iv[12], t1[16], t2[16];
      nonce_of(n + 7, iv);
      ipsec.tag(iv, b.data(), n, t1);
      ossl.tag(iv, b.data(), n, t2);
      same_tag &= std::memcmp(t1, t2, 16) == 0;
    }
  }

  const std::vector<Candidate> candidates = {
      {"gmac_ipsec_mb", 16,
       [&](const uint8_t* b, size_t n) {
         uint8_t iv[12], t[16];
         nonce_of(++counter, iv);
         ipsec.tag(iv, b, n, t);
         return first8(t);
       }},
      {"gmac_openssl", 16,
       [&](const uint8_t* b, size_t n) {
         uint8_t iv[12], t[16];
         nonce_of(++counter, iv);
         ossl.tag(iv, b, n, t);
         return first8(t);
       }},
      {"poly1305_sodium", 16,
       [&](const uint8_t* b, size_t n) {
         uint8_t iv[12], t[16], none[1] = {0};  // no message: an empty ciphertext
         unsigned long long tl = 0;
         nonce_of(++counter, iv);
         crypto_aead_chacha20poly1305_ietf_encrypt_detached(none, t, &tl, none, 0, b, n, nullptr, iv, key);
         return first8(t);
       }},
      {"siphash_sodium", 8,
       [&](const uint8_t* b, size_t n) {
         uint8_t t[crypto_shorthash_BYTES];
         crypto_shorthash(t, b, n, key);
         return first8(t);
       }},
      {"blake2b_sodium", 16,
       [&](const uint8_t* b, size_t n) {
         uint8_t t[16];
         crypto_generichash(t, 16, b, n, key, 32);
         return first8(t);
       }},
      {"hmac_sha256", 32,
       [&](const uint8_t* b, size_t n) {
         uint8_t t[32];
         hmac.tag(b, n, t);
         return first8(t);
       }},
      {"frame_mac", 16,
       [&](const uint8_t* b, size_t n) {
         // The transport's own call: seal_frame (nonce, flag, the GMAC of the
         // bucket with the tag field as zero, read in three parts).
         uint8_t* frame = const_cast<uint8_t*>(b) - wire::kHeaderOffset;
         seal_frame(frame_key, ++counter & (kNonceLimit - 1), frame, static_cast<uint32_t>(n + wire::kHeaderOffset));
         return first8(bucket_header(frame)->tag);
       }},
      {"bucket_crc", 4,
       [](const uint8_t* b, size_t n) {
         return uint64_t{bucket_crc(b - wire::kHeaderOffset, static_cast<uint32_t>(n + wire::kHeaderOffset))};
       }},
  };
  const size_t crc_index = candidates.size() - 1;

  nlohmann::ordered_json j;
  j["trials"] = trials;
  j["ipsec_mb_arch"] = ipsec.arch();
  j["ipsec_mb_version"] = IMB_VERSION_STR;
  j["openssl_version"] = OpenSSL_version(OPENSSL_VERSION);
  j["sodium_version"] = sodium_version_string();
  j["gmac_same_tag"] = same_tag;
  std::printf("intel-ipsec-mb %s (%s code path), %s, libsodium %s; GMAC tags of both libraries %s\n",
              IMB_VERSION_STR, ipsec.arch(), OpenSSL_version(OPENSSL_VERSION), sodium_version_string(),
              same_tag ? "agree" : "DIFFER");
  // A full bucket at MTU 1500 and 9000, and an ACK frame's (header and a
  // selective ack of one word): what a frame costs whatever its size.
  struct Size {
    const char* what;
    uint32_t mtu;
    size_t bytes;
  };
  const Size sizes[] = {
      {"full bucket, MTU 1500", wire::kMtu, wire::payload_bytes(wire::kMtu) + sizeof(wire::BucketHeader)},
      {"full bucket, MTU 9000", wire::kMaxMtu, wire::payload_bytes(wire::kMaxMtu) + sizeof(wire::BucketHeader)},
      {"ACK frame, one sack word", wire::kMtu, sizeof(wire::BucketHeader) + wire::ack_payload_bytes(1)},
  };
  for (const Size& size : sizes) {
    const uint32_t mtu = size.mtu;
    const size_t bytes = size.bytes;
    const size_t stride = (wire::frame_bytes(mtu) + 63) / 64 * 64;
    const size_t buckets = std::clamp<size_t>(kBytesPerRound / bytes, 8, 256);
    // Frames of random bytes; the buckets start 42 bytes in, as on the wire.
    std::vector<uint8_t> frames(buckets * stride);
    for (uint8_t& x : frames) x = static_cast<uint8_t>(rng());
    auto bucket = [&](size_t i) { return frames.data() + i * stride + wire::kHeaderOffset; };
    std::vector<Result> results(candidates.size());
    for (size_t c = 0; c < candidates.size(); ++c) {
      results[c].name = candidates[c].name;
      results[c].tag_bytes = candidates[c].tag_bytes;
    }
    for (unsigned t = 0; t < trials + 1; ++t) {  // round 0 warms up
      std::vector<double> round(candidates.size());
      for (size_t c = 0; c < candidates.size(); ++c) {
        uint64_t acc = 0;
        const double t0 = thread_seconds();
        for (unsigned r = 0; r < kRepeats; ++r)
          for (size_t i = 0; i < buckets; ++i) acc += candidates[c].tag(bucket(i), bytes);
        const double s = thread_seconds() - t0;
        asm volatile("" ::"r"(acc));
        round[c] = s * 1e9 / (kRepeats * static_cast<double>(buckets));
      }
      if (t == 0) continue;
      for (size_t c = 0; c < candidates.size(); ++c) {
        results[c].ns.push_back(round[c]);
        results[c].ratio.push_back(round[c] / round[crc_index]);
      }
    }
    std::printf("\n%zu bytes (%s), median of %u rounds (min-max) of thread CPU time, each over %zu buckets x %u\n\n", bytes,
                size.what, trials, buckets, kRepeats);
    std::printf("| candidate | tag bytes | ns per bucket | GB/s | x bucket_crc |\n|---|--:|--:|--:|--:|\n");
    nlohmann::ordered_json size_json;
    size_json["what"] = size.what;
    size_json["mtu"] = mtu;
    size_json["bucket_bytes"] = bytes;
    for (const Result& r : results) {
      const double ns = median(r.ns);
      std::printf("| %s | %u | %.1f (%.1f-%.1f) | %.2f | %.2f |\n", r.name.c_str(), r.tag_bytes, ns,
                  *std::min_element(r.ns.begin(), r.ns.end()), *std::max_element(r.ns.begin(), r.ns.end()),
                  static_cast<double>(bytes) / ns, median(r.ratio));
      size_json["candidates"].push_back({{"name", r.name},
                                         {"tag_bytes", r.tag_bytes},
                                         {"ns_per_bucket", ns},
                                         {"ns_all", r.ns},
                                         {"gb_per_s", static_cast<double>(bytes) / ns},
                                         {"x_bucket_crc", median(r.ratio)}});
    }
    j["sizes"].push_back(size_json);
  }
  if (!json_path.empty()) {
    std::ofstream(json_path) << j.dump(2) << '\n';
    std::printf("\nJSON: %s\n", json_path.c_str());
  }
  return same_tag ? 0 : 1;
}

}  // namespace
}  // namespace wg

int main(int argc, char** argv) { return wg::main_mac(argc, argv); }
