#include "reliability/membership.h"

#include <rte_cycles.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "dataplane/idle.h"
#include "reliability/wire_text.h"

namespace wg {

namespace {

constexpr double kHelloIntervalS = 0.02;
constexpr double kReplyIntervalS = 0.002;
// A node waiting for peers still starting wakes every millisecond at most, a
// twentieth of the hello interval: discovery ends within a hello interval
// of the last node's start either way, and the starting nodes keep the CPUs.
constexpr long kDiscoverySleepNs = 1'000'000;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

std::string rank_list(uint64_t mask) {
  std::string s;
  for (unsigned r = 0; r < 64; ++r)
    if (mask >> r & 1) s += (s.empty() ? "" : ", ") + std::to_string(r);
  return s;
}

}  // namespace

Membership::Membership(Dataplane& dp, const MembershipInfo& info)
    : dp_(dp),
      info_(info),
      rank_(dp.options().rank),
      all_peers_((info.nodes >= 64 ? ~0ULL : (1ULL << info.nodes) - 1) & ~(1ULL << rank_)),
      echo_(info.nodes, 0),
      last_heard_tsc_(std::make_unique<std::atomic<uint64_t>[]>(size_t{info.nodes} * dp.queue_count())) {
  const uint64_t now = rte_rdtsc();
  for (size_t i = 0; i < size_t{info.nodes} * dp.queue_count(); ++i) last_heard_tsc_[i].store(now, std::memory_order_relaxed);
}

double Membership::silent_for(unsigned rank) const {
  uint64_t last = 0;
  for (unsigned q = 0; q < dp_.queue_count(); ++q)
    last = std::max(last, last_heard_tsc_[q * info_.nodes + rank].load(std::memory_order_relaxed));
  const uint64_t now = rte_rdtsc();
  return now > last ? static_cast<double>(now - last) / static_cast<double>(rte_get_tsc_hz()) : 0.0;
}

void Membership::send_hello(bool reply) {
  const uint64_t now = rte_rdtsc();
  uint64_t& last = reply ? last_reply_tsc_ : last_hello_tsc_;
  const double interval = reply ? kReplyIntervalS : kHelloIntervalS;
  if (static_cast<double>(now - last) < interval * static_cast<double>(rte_get_tsc_hz())) return;
  last = now;
  uint8_t frame[wire::kPayloadOffset + sizeof(wire::HelloPayload)];
  write_bucket_header(frame, wire::Kind::kHello, dp_.options().job_token, rank_, wire::kBroadcastRank, 0,
                      sizeof(wire::HelloPayload));
  if (reply) bucket_header(frame)->flags = wire::kFlagHelloReply;
  wire::HelloPayload h{};
  h.nodes = info_.nodes;
  h.app = info_.app;
  h.input_kind = info_.input_kind;
  h.rx_steering = static_cast<uint32_t>(dp_.steering());
  h.input_size = info_.input_size;
  h.input_digest = info_.input_digest;
  h.params_digest = info_.params_digest;
  std::memcpy(h.salt, dp_.auth().salt().data(), sizeof h.salt);
  for (unsigned r = 0; r < info_.nodes; ++r) h.echo[r] = echo_[r];
  // port_mac: each port's own, written as it leaves (Dataplane::broadcast).
  std::memcpy(frame + wire::kPayloadOffset, &h, sizeof h);
  dp_.broadcast(frame + wire::kHeaderOffset, sizeof frame - wire::kHeaderOffset);
}

void Membership::discover(double timeout_s, const Pump& pump) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  IdleBackoff idle(kDiscoverySleepNs);
  while (heard_ != all_peers_ || heard_us_ != all_peers_) {
    send_hello(false);
    if (pump()) {
      idle.reset();
    } else {
      idle.wait();
    }
    if (std::chrono::duration<double>(Clock::now() - start).count() > timeout_s)
      throw PeerError(discovery_failure(timeout_s));
  }
}

std::string Membership::discovery_failure(double timeout_s) const {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", timeout_s);
  const RxCounters rx = dp_.rx_total();
  std::string hint;
  const uint64_t mismatched = rx.dropped[static_cast<size_t>(DropReason::kAuthMismatch)];
  const uint64_t forged = rx.dropped[static_cast<size_t>(DropReason::kBadMac)];
  if (mismatched > 0)
    hint = "; " + std::to_string(mismatched) + " frame(s) dropped as auth_mismatch: " +
           (dp_.auth().authenticated() ? "a node runs without a key (--no-auth) while this one has one"
                                       : "a node has a key while this one runs with --no-auth");
  else if (forged > 0 && dp_.auth().authenticated())
    hint = "; " + std::to_string(forged) + " frame(s) failed authentication (bad_mac): do all nodes have the same key?";
  // Without --job-id the token is derived from the input and --nodes, so a
  // node started with another --nodes (or graph) runs "another job": its
  // hellos are dropped as wrong_job, not refused by name.
  const uint64_t other_jobs = rx.dropped[static_cast<size_t>(DropReason::kWrongJob)];
  if (other_jobs > 0)
    hint += "; " + std::to_string(other_jobs) +
            " frame(s) of another job dropped (wrong_job): without --job-id the job id is derived from the "
            "input and --nodes, so a node started with a different --nodes or --graph runs another job; give every "
            "node the same --nodes and --graph (and the same --job-id, if any)";
  const uint64_t unheard = all_peers_ & ~heard_any_;
  if (unheard)
    return "no hello from node(s) " + rank_list(unheard) + " within " + seconds +
           " s (are they running, on the same link, with the same --job-id? " + dp_.link_state() + ")" + hint;
  const uint64_t unconfirmed = all_peers_ & ~(heard_ & heard_us_);
  return "node(s) " + rank_list(unconfirmed) + " never confirmed hearing this node within " +
         seconds + " s (" + dp_.link_state() + ")" + hint;
}

void Membership::check_same_job(unsigned peer, const wire::HelloPayload& h) const {
  auto differ = [peer](const char* what, const std::string& theirs, const std::string& ours) {
    return PeerError("node " + std::to_string(peer) + " runs a different job: " + what + " " + theirs +
                     " there, " + ours + " here");
  };
  if (h.nodes != info_.nodes) throw differ("--nodes", std::to_string(h.nodes), std::to_string(info_.nodes));
  if (h.app != info_.app) {
    auto name = [this](uint32_t app) { return info_.name_program ? info_.name_program(app) : "id " + std::to_string(app); };
    throw differ("--app", name(h.app), name(info_.app));
  }
  if (h.input_kind != info_.input_kind || h.input_size != info_.input_size || h.input_digest != info_.input_digest) {
    auto describe = [this](uint32_t kind, uint64_t size, uint64_t digest) {
      return info_.describe_input != nullptr ? info_.describe_input(kind, size, digest)
                                             : "input " + hex(kind) + "/" + std::to_string(size) + "/" + hex(digest);
    };
    throw differ("graph input (--graph, --format: every node must load the same file or spec)",
                 describe(h.input_kind, h.input_size, h.input_digest),
                 describe(info_.input_kind, info_.input_size, info_.input_digest));
  }
  if (h.params_digest != info_.params_digest)
    throw differ("parameters (--app options: --source, --iterations, --undirected, --checksum, --domains, "
                 "--domain-split, --rx-queues, --range-kib, --mtu; with --resume, the checkpoint its DIR commits)",
                 hex(h.params_digest), hex(info_.params_digest));
}

DropReason Membership::on_hello(const uint8_t* frame, const wire::BucketHeader* h, unsigned port) {
  const unsigned src = h->src_rank;
  wire::HelloPayload hello;
  std::memcpy(&hello, frame + wire::kPayloadOffset, sizeof hello);
  check_same_job(src, hello);
  Salt salt;
  std::memcpy(salt.data(), hello.salt, salt.size());
  MacAddress mac;
  std::memcpy(mac.data(), frame + 6, 6);  // Ethernet source address (the hello's port_mac: the verifier checked)
  const bool echoes_us = hello.echo[rank_] == salt_prefix(dp_.auth().salt());
  FrameAuth& auth = dp_.auth();
  if (auth.confirmed(src)) {
    const bool same = auth.peer_salt(src) == salt && dp_.port_of(src) == port && dp_.address_of(src).dst_mac == mac;
    if (!same) {
      // Only a node that holds the key and heard us in this run can send a
      // verified hello that echoes our salt (without a key: anyone).
      if (echoes_us)
        throw PeerError("two nodes claim rank " + std::to_string(src) +
                        " (hellos from different addresses or runs: check every node's --rank)");
      return DropReason::kWrongAddress;  // an earlier hello replayed from elsewhere
    }
  } else if (echoes_us) {
    dp_.set_peer_steering(src, static_cast<Steering>(hello.rx_steering));
    // Publishes the peer to every role: its address, key and ISNs.
    if (!dp_.take_on_peer(src, port, mac, salt))
      throw PeerError("two nodes claim rank " + std::to_string(src) + " (hellos from different addresses)");
    heard_ |= 1ULL << src;
  }
  echo_[src] = salt_prefix(salt);
  heard_any_ |= 1ULL << src;
  if (echoes_us) heard_us_ |= 1ULL << src;
  // Requests come only from nodes still discovering: answer them (at most
  // one reply per 2 ms), so a node that finished early still confirms
  // itself to a late one. A request that does not echo us yet is answered
  // too: our reply's echo is what lets it take us on.
  if (!(h->flags & wire::kFlagHelloReply)) send_hello(true);
  return DropReason::kNone;
}

DropReason Membership::on_control(const uint8_t* frame, const wire::BucketHeader* h, unsigned port) {
  const unsigned src = h->src_rank;
  const uint8_t* payload = frame + wire::kPayloadOffset;
  switch (static_cast<wire::Kind>(h->kind)) {
    case wire::Kind::kHello: return on_hello(frame, h, port);
    case wire::Kind::kAbort: {
      wire::AbortPayload a;
      std::memcpy(&a, payload, sizeof a);
      const size_t n = std::min<size_t>(a.reason_len, sizeof a.reason);
      throw PeerError("node " + std::to_string(src) + " aborted: " + printable(std::string_view(a.reason, n)));
    }
    case wire::Kind::kAck: return DropReason::kNone;  // the transport used its ack; it proves liveness
    case wire::Kind::kData:
    case wire::Kind::kEnd:
    case wire::Kind::kFin: break;  // the runtime's (compute/engine/superstep_runtime.h)
  }
  return DropReason::kBadKind;
}

void Membership::send_control(unsigned peer, wire::Kind kind, uint32_t superstep, const void* payload,
                              uint16_t bytes, const Pump& pump, unsigned queue) {
  rte_mbuf* m;
  IdleBackoff idle;
  while ((m = dp_.alloc()) == nullptr) {
    if (pump()) idle.reset();
    else idle.wait();
  }
  uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
  write_bucket_header(frame, kind, dp_.options().job_token, rank_, peer, superstep, bytes);
  std::memcpy(frame + wire::kPayloadOffset, payload, bytes);
  dp_.address(m, peer, static_cast<uint16_t>(sizeof(wire::BucketHeader) + bytes), queue);
  dp_.enqueue(peer, queue, m);
}

void Membership::abort_cluster(Dataplane& dp, const std::string& reason) {
  if (dp.options().nodes < 2) return;
  uint8_t frame[wire::kPayloadOffset + sizeof(wire::AbortPayload)] = {};
  write_bucket_header(frame, wire::Kind::kAbort, dp.options().job_token, dp.options().rank, wire::kBroadcastRank, 0,
                      sizeof(wire::AbortPayload));
  wire::AbortPayload a{};
  std::memcpy(a.salt, dp.auth().salt().data(), sizeof a.salt);
  a.reason_len = static_cast<uint32_t>(std::min(reason.size(), sizeof a.reason));
  std::memcpy(a.reason, reason.data(), a.reason_len);
  std::memcpy(frame + wire::kPayloadOffset, &a, sizeof a);
  dp.broadcast_now(frame + wire::kHeaderOffset, sizeof frame - wire::kHeaderOffset);
}

}  // namespace wg
