#include "dataplane/frame_auth.h"

#include <stdexcept>
#include <string>

namespace wg {

FrameAuth::FrameAuth(const AuthOptions& o, unsigned nodes, unsigned rank, unsigned queues, const Salt* salt)
    : authenticated_(o.authenticated),
      key_(o.authenticated ? o.key : MasterKey{}),
      nodes_(nodes),
      rank_(rank),
      queues_(queues),
      salt_(salt != nullptr ? *salt : random_salt()),
      own_key_(derive_frame_key(key_, salt_, rank)),
      receive_isn_(size_t{nodes} * wire::kMaxQueues, 0),
      peers_(std::make_unique<Peer[]>(nodes)) {
  if (queues == 0 || queues > wire::kMaxQueues) throw std::invalid_argument("FrameAuth: 1 to 16 queues");
  for (unsigned src = 0; src < nodes; ++src)
    if (src != rank)
      for (unsigned q = 0; q < queues; ++q) receive_isn_[src * wire::kMaxQueues + q] = derive_isn(key_, salt_, src, rank, q);
}

void FrameAuth::confirm(unsigned peer, const Salt& salt) {
  Peer& p = peers_[peer];
  if (p.confirmed.load(std::memory_order_relaxed)) return;  // ours: membership is the only writer
  p.salt = salt;
  p.key = derive_frame_key(key_, salt, peer);
  for (unsigned q = 0; q < queues_; ++q) p.send_isn[q] = derive_isn(key_, salt, rank_, peer, q);
  p.confirmed.store(true, std::memory_order_release);
}

void FrameAuth::seal_control(uint8_t* frame, uint32_t len) {
  if (!authenticated_) {
    seal_bucket(frame, len);
    return;
  }
  const uint64_t n = control_nonce_.fetch_add(1, std::memory_order_relaxed);
  if (n >= kNonceLimit) throw std::runtime_error("control frames: the 48-bit nonce counter is used up");
  seal_frame(own_key_, n, frame, len);
}

FrameSealer::FrameSealer(const FrameAuth& auth, unsigned queue, bool checksum)
    : authenticated_(auth.authenticated()), checksum_(checksum), context_(static_cast<uint8_t>(queue)),
      key_(auth.own_key()) {}

void FrameSealer::refuse(const uint8_t* frame) const {
  if (nonce_ >= kNonceLimit)
    throw std::runtime_error("sender role " + std::to_string(context_) +
                             ": the 48-bit nonce counter of its frame MACs is used up (2^48 frames)");
  throw std::logic_error("sender role " + std::to_string(context_) + " asked to seal a frame of queue " +
                         std::to_string(bucket_header(frame)->queue) + ": its IVs would repeat another role's");
}

}  // namespace wg
