#include "dataplane/frame_mac.h"

#include <intel-ipsec-mb.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace wg {

static_assert(sizeof(gcm_key_data) == FrameKey::kScheduleBytes, "FrameKey's storage is intel-ipsec-mb's gcm_key_data");
static_assert(sizeof(wire::BucketHeader::tag) == 16 && sizeof(wire::BucketHeader::nonce) == 6);

namespace {

// intel-ipsec-mb's direct GMAC functions for this CPU (init_mb_mgr_auto picks
// the widest code path it has). The manager is set up once; the function
// pointers are read-only afterwards, so every lcore calls them with its own
// key copy and its own per-frame context on its stack.
struct GmacFunctions {
  aes_gcm_pre_t pre;
  aes_gmac_init_t init;
  aes_gmac_update_t update;
  aes_gmac_finalize_t finalize;
};

const GmacFunctions& gmac_functions() {
  static const GmacFunctions f = [] {
    IMB_MGR* mgr = alloc_mb_mgr(0);
    if (mgr == nullptr) throw std::runtime_error("intel-ipsec-mb: alloc_mb_mgr failed");
    init_mb_mgr_auto(mgr, nullptr);
    if (imb_get_errno(mgr) != 0)
      throw std::runtime_error(std::string("intel-ipsec-mb: ") + imb_get_strerror(imb_get_errno(mgr)));
    const GmacFunctions g{mgr->gcm128_pre, mgr->gmac128_init, mgr->gmac128_update, mgr->gmac128_finalize};
    // The manager's job queues are not used; the functions live in the library.
    free_mb_mgr(mgr);
    return g;
  }();
  return f;
}

void frame_iv(uint8_t context, uint64_t counter, uint8_t iv[12]) {
  std::memset(iv, 0, 12);
  iv[0] = context;
  std::memcpy(iv + 4, &counter, 8);
}

constexpr size_t kTagOffset = offsetof(wire::BucketHeader, tag);

}  // namespace

void hkdf_sha256(std::span<const uint8_t> ikm, std::span<const uint8_t> salt, std::span<const uint8_t> info,
                 std::span<uint8_t> out) {
  // Fetched once: a provider lookup per call would cost more than the derivation.
  static EVP_KDF* const kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  if (kdf == nullptr) throw std::runtime_error("OpenSSL: no HKDF");
  EVP_KDF_CTX* ctx = EVP_KDF_CTX_new(kdf);
  if (ctx == nullptr) throw std::runtime_error("OpenSSL: EVP_KDF_CTX_new failed");
  char digest[] = "SHA256";
  // OpenSSL's parameters are not const; it does not write through them.
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<uint8_t*>(ikm.data()), ikm.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<uint8_t*>(salt.data()), salt.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<uint8_t*>(info.data()), info.size()),
      OSSL_PARAM_construct_end()};
  const int ok = EVP_KDF_derive(ctx, out.data(), out.size(), params);
  EVP_KDF_CTX_free(ctx);
  if (ok != 1) throw std::runtime_error("OpenSSL: HKDF-SHA256 failed");
}

Salt random_salt() {
  Salt s{};
  for (;;) {
    size_t got = 0;
    while (got < s.size()) {
      const ssize_t n = getrandom(s.data() + got, s.size() - got, 0);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error(std::string("getrandom: ") + std::strerror(errno));
      }
      got += static_cast<size_t>(n);
    }
    if (salt_prefix(s) != 0) return s;
  }
}

uint64_t salt_prefix(const Salt& s) {
  uint64_t v;
  std::memcpy(&v, s.data(), sizeof v);
  return v;
}

FrameKey::FrameKey(const std::array<uint8_t, 16>& raw) {
  gmac_functions().pre(raw.data(), reinterpret_cast<gcm_key_data*>(schedule_));
}

void FrameKey::gmac(const uint8_t iv[12], const uint8_t* data, size_t len, uint8_t tag[16]) const {
  const GmacFunctions& f = gmac_functions();
  const auto* k = reinterpret_cast<const gcm_key_data*>(schedule_);
  gcm_context_data ctx;
  f.init(k, &ctx, iv, 12);
  f.update(k, &ctx, data, len);
  f.finalize(k, &ctx, tag, 16);
}

FrameKey derive_frame_key(const MasterKey& k, const Salt& salt, unsigned rank) {
  static constexpr char kLabel[] = "wiregraph 5 frame key";
  uint8_t info[sizeof kLabel];  // the label without its NUL, then the rank
  std::memcpy(info, kLabel, sizeof kLabel - 1);
  info[sizeof kLabel - 1] = static_cast<uint8_t>(rank);
  std::array<uint8_t, 16> raw{};
  hkdf_sha256(k, salt, info, raw);
  FrameKey key(raw);
  OPENSSL_cleanse(raw.data(), raw.size());
  return key;
}

uint32_t derive_isn(const MasterKey& k, const Salt& receiver_salt, unsigned src, unsigned dst, unsigned queue) {
  static constexpr char kLabel[] = "wiregraph 5 isn";
  uint8_t info[sizeof kLabel + 2];
  std::memcpy(info, kLabel, sizeof kLabel - 1);
  info[sizeof kLabel - 1] = static_cast<uint8_t>(src);
  info[sizeof kLabel] = static_cast<uint8_t>(dst);
  info[sizeof kLabel + 1] = static_cast<uint8_t>(queue);
  uint8_t out[4];
  hkdf_sha256(k, receiver_salt, info, out);
  uint32_t isn;
  std::memcpy(&isn, out, sizeof isn);
  return isn;
}

uint8_t sealing_context(const wire::BucketHeader& h) {
  const auto kind = static_cast<wire::Kind>(h.kind);
  return kind == wire::Kind::kHello || kind == wire::Kind::kAbort ? kControlContext : h.queue;
}

void frame_tag(const FrameKey& k, uint8_t* frame, uint32_t len, uint8_t tag[16]) {
  uint8_t* bucket = frame + wire::kHeaderOffset;
  const wire::BucketHeader& h = *reinterpret_cast<const wire::BucketHeader*>(bucket);
  uint8_t iv[12];
  frame_iv(sealing_context(h), frame_nonce(h), iv);
  uint8_t held[16];
  std::memcpy(held, bucket + kTagOffset, 16);
  std::memset(bucket + kTagOffset, 0, 16);
  k.gmac(iv, bucket, len - wire::kHeaderOffset, tag);
  std::memcpy(bucket + kTagOffset, held, 16);
}

void seal_frame(const FrameKey& k, uint64_t counter, uint8_t* frame, uint32_t len) {
  wire::BucketHeader& h = *reinterpret_cast<wire::BucketHeader*>(frame + wire::kHeaderOffset);
  set_frame_nonce(h, counter);
  h.flags |= wire::kFlagMac;
  uint8_t tag[16];
  frame_tag(k, frame, len, tag);
  std::memcpy(h.tag, tag, 16);
}

bool frame_mac_ok(const FrameKey& k, uint8_t* frame, uint32_t len) {
  uint8_t tag[16];
  frame_tag(k, frame, len, tag);
  const auto& h = *reinterpret_cast<const wire::BucketHeader*>(frame + wire::kHeaderOffset);
  return CRYPTO_memcmp(tag, h.tag, 16) == 0;
}

}  // namespace wg
