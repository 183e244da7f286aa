#include "compute/report/telemetry.h"

#include <rte_telemetry.h>

#include <sched.h>

#include <atomic>
#include <cstdio>
#include <string>

namespace wg {

namespace {

std::atomic<const TelemetrySource*> g_source{nullptr};
// Telemetry callbacks (on DPDK's telemetry thread) inside a read of
// g_source: unpublishing waits for them, so a source is never read after its
// engine has returned. Both sides are seq_cst: a callback either is counted
// before the source is cleared, or sees it cleared.
std::atomic<int> g_readers{0};

// A callback's hold on the current source (nullptr once unpublished).
class Reading {
 public:
  Reading() { g_readers.fetch_add(1); }
  ~Reading() { g_readers.fetch_sub(1); }
  Reading(const Reading&) = delete;
  Reading& operator=(const Reading&) = delete;
  const TelemetrySource* source() const { return g_source.load(); }
};

int stats(const char*, const char*, rte_tel_data* d) {
  rte_tel_data_start_dict(d);
  const Reading reading;
  const TelemetrySource* s = reading.source();
  if (s == nullptr) return 0;
  const Dataplane& dp = *s->dataplane;
  const TxCounters tx = dp.tx_total();
  const RxCounters rx = dp.rx_total();
  rte_tel_data_add_dict_u64(d, "rank", s->rank);
  rte_tel_data_add_dict_int(d, "superstep", static_cast<int>(s->superstep->load(std::memory_order_relaxed)));
  rte_tel_data_add_dict_u64(d, "tx_frames", tx.frames);
  rte_tel_data_add_dict_u64(d, "tx_bytes", tx.bytes);
  rte_tel_data_add_dict_u64(d, "tx_nic_full", tx.ring_full);
  rte_tel_data_add_dict_u64(d, "rx_frames", rx.frames);
  rte_tel_data_add_dict_u64(d, "rx_bytes", rx.bytes);
  rte_tel_data_add_dict_u64(d, "rx_data_buckets", rx.data_buckets);
  rte_tel_data_add_dict_u64(d, "rx_records", rx.records);
  rte_tel_data_add_dict_u64(d, "rx_dropped", rx.total_dropped());
  rte_tel_data_add_dict_u64(d, "rx_handed_over", rx.handed_over);
  return 0;
}

int drops(const char*, const char*, rte_tel_data* d) {
  rte_tel_data_start_dict(d);
  const Reading reading;
  const TelemetrySource* s = reading.source();
  if (s == nullptr) return 0;
  const RxCounters rx = s->dataplane->rx_total();
  for (size_t i = 1; i < rx.dropped.size(); ++i)
    rte_tel_data_add_dict_u64(d, drop_reason_name(static_cast<DropReason>(i)), rx.dropped[i]);
  return 0;
}

int links(const char*, const char*, rte_tel_data* d) {
  rte_tel_data_start_dict(d);
  const Reading reading;
  const TelemetrySource* s = reading.source();
  if (s == nullptr || s->transport == nullptr) return 0;
  for (const ConnectionReport& c : s->transport->report()) {
    rte_tel_data* peer = rte_tel_data_alloc();
    if (peer == nullptr) return -1;
    rte_tel_data_start_dict(peer);
    rte_tel_data_add_dict_u64(peer, "n", c.n);
    rte_tel_data_add_dict_u64(peer, "ast_ns", static_cast<uint64_t>(c.ast_us * 1000));
    rte_tel_data_add_dict_u64(peer, "max_n", c.send.max_n);
    rte_tel_data_add_dict_u64(peer, "srtt_us", static_cast<uint64_t>(c.srtt_us));
    rte_tel_data_add_dict_u64(peer, "rto_us", static_cast<uint64_t>(c.rto_us));
    rte_tel_data_add_dict_u64(peer, "frames", c.send.frames);
    rte_tel_data_add_dict_u64(peer, "retransmissions", c.send.retransmissions);
    rte_tel_data_add_dict_u64(peer, "lost", c.send.lost);
    rte_tel_data_add_dict_u64(peer, "probes", c.send.probes);
    rte_tel_data_add_dict_u64(peer, "timeouts", c.send.timeouts);
    rte_tel_data_add_dict_u64(peer, "congestion_rounds", c.send.congestion_rounds);
    rte_tel_data_add_dict_u64(peer, "stale_acks", c.send.stale_acks);
    rte_tel_data_add_dict_u64(peer, "duplicates_received", c.receive.duplicates);
    const std::string name = "node" + std::to_string(c.peer) + (c.queue ? "/q" + std::to_string(c.queue) : "");
    rte_tel_data_add_dict_container(d, name.c_str(), peer, 0);
  }
  return 0;
}

}  // namespace

void publish_telemetry(const TelemetrySource* src) {
  static const bool registered = [] {
    rte_telemetry_register_cmd("/wiregraph/stats", stats,
                               "wiregraph node counters: superstep, frames, bytes, records, drops");
    rte_telemetry_register_cmd("/wiregraph/drops", drops, "wiregraph received frames dropped, by reason");
    rte_telemetry_register_cmd("/wiregraph/links", links,
                               "wiregraph transport per peer: N, AST, SRTT, RTO, retransmissions, losses, probes, timeouts");
    return true;
  }();
  (void)registered;
  g_source.store(src);
  if (src == nullptr)
    while (g_readers.load() != 0) sched_yield();  // callbacks take microseconds
}

}  // namespace wg
