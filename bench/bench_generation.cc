// Generation: how fast one lcore turns PageRank's scatter into buckets on a
// port. The real worker (wg::Worker<wg::PageRank>, compute/engine/worker.h) scatters
// over node 0's part of a P-node round-robin partition (P = 2 by default, so
// about half of the records go to the remote peer) into its BucketRingGroup;
// remote buckets go to a net_null port, same-node buckets are freed (or folded,
// --local fold).
//
//   bench_generation [EAL options] -- [--graph SPEC] [--nodes P] [--trials N]
//                    [--warmup N] [--mbufs N] [--membw-mib MB] [--local free|fold]
//                    [--no-reliable] [--json PATH]
//
// e.g. bench_generation --no-pci --vdev net_null0,no-rx=1 -l 0 --no-huge -m 1024
//      --file-prefix bgen -- --graph kron:20:16
//
// Variants, run in turn in each round after warm-up rounds (median, min, max
// of the rounds; the baseline runs in every round too):
//   edge-copy ceiling  - every edge's record copied from the CSR in a chunked,
//                        vectorisable loop into a BucketRingGroup on the same
//                        ports, no per-vertex work: what the bucket path allows
//   worker loop, chunked copy
//                      - Worker::scatter_block's per-vertex work with that
//                        chunked copy instead of a full-bucket check per
//                        record: a proposal for compute/engine/worker.h, measured here
//   no reliability     - Worker::scatter, the sender role drains each peer's
//                        descriptor queue straight to the port (dp.dequeue +
//                        dp.tx_burst): no sequence numbers, no send window
//   with reliability   - the same with Transport::send_step as the sender
//                        (sequence numbers, send window, ack stamping, the
//                        CRC), run in turn on the same lcore as in --roles
//                        shared. The peers are reached through a net_ring port
//                        this benchmark adds, which loops frames back; ideal
//                        peers take them off it and answer with ACK frames
//                        acking everything received so far, and the
//                        transport's receive_step processes those (freeing
//                        the window). Pass net_null with no-rx=1 so
//                        receive_step does not also poll the null port's
//                        dummy packets.
// Baseline (same run): single-core sequential write bandwidth of a 512 MiB
// buffer with a non-zero pattern (MACHINE-NOTES: zero writes overstate it).
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <bit>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "apps/pagerank.h"
#include "compute/engine/accumulator.h"
#include "bench/bench_common.h"
#include "compute/graph/graph_reader.h"
#include "compute/partition/partition.h"
#include "compute/engine/worker.h"
#include "apps/node/node.h"
#include "config/options.h"
#include "dataplane/bucket_ring.h"
#include "dataplane/dataplane.h"
#include "dataplane/frame.h"
#include "reliability/sequence.h"
#include "reliability/transport.h"

namespace {

using namespace wg;
using bench::Clock;
using bench::Stat;

constexpr uint32_t kJob = 0x00b0b0b0;
constexpr char kAckPortName[] = "net_ring_bgenack";

struct Options {
  std::string graph = "kron:20:16";
  unsigned nodes = 2;
  unsigned trials = 5;
  unsigned warmup = 1;
  unsigned mbufs = 16383;
  size_t membw_mib = 512;
  bool fold_local = false;
  bool reliable = true;
  std::string json;
};

// Frame and record counts of one trial.
struct Trial {
  double seconds = 0;
  double cpu_seconds = 0;      // CPU time of this thread during the trial
  uint64_t records = 0;        // every record written (remote + local)
  uint64_t local_records = 0;
  uint64_t frames = 0;         // frames handed to the port (remote buckets; with reliability + nothing else)
  uint64_t bytes = 0;          // their L2 bytes
  uint64_t local_buckets = 0;  // same-node buckets drained from the local queue
  uint64_t local_bytes = 0;    // their frame bytes (as if they had gone on a wire)
};

// The records a pass wrote, from what wrote them (a BucketRingGroup or a
// Worker: both count per destination node); node 0 is the local one.
template <class Writer>
Trial records_of(const Writer& w, unsigned nodes) {
  Trial tr;
  for (unsigned d = 0; d < nodes; ++d) tr.records += w.records_to(d);
  tr.local_records = w.records_to(0);
  return tr;
}

// The sender role without reliability plus the local-queue drain: every
// remote bucket straight from its peer's queue to port 0 (net_null).
class Sink {
 public:
  Sink(Dataplane& dp, unsigned nodes, bool fold_local, const LocalGraph& lg)
      : dp_(dp), nodes_(nodes), fold_(fold_local) {
    for (unsigned d = 0; d < lg.domains; ++d) sigma_.emplace_back(lg, d);
  }

  void drain_remote() {
    rte_mbuf* b[Dataplane::kBurst];
    for (unsigned p = 1; p < nodes_; ++p) {
      unsigned n;
      while ((n = dp_.dequeue(p, b, Dataplane::kBurst)) > 0) {
        unsigned sent = dp_.tx_burst(kNullPort, b, static_cast<uint16_t>(n));
        // net_null takes everything; a port that does not would be retried.
        for (unsigned tries = 0; sent < n && tries < 1000000; ++tries)
          sent += dp_.tx_burst(kNullPort, b + sent, static_cast<uint16_t>(n - sent));
        if (sent < n) rte_pktmbuf_free_bulk(b + sent, n - sent);
      }
    }
  }

  void drain_local() {
    rte_mbuf* b[Dataplane::kBurst];
    for (unsigned d = 0; d < sigma_.size(); ++d) {
      unsigned n;
      while ((n = dp_.dequeue_local(d, b, Dataplane::kBurst)) > 0) {
        for (unsigned i = 0; i < n; ++i) {
          ++local_buckets;
          local_bytes += rte_pktmbuf_data_len(b[i]);
          if (fold_) {
            // The engine's same-node fold (Engine::network_step): the accumulator's inline fold.
            const uint8_t* frame = rte_pktmbuf_mtod(b[i], const uint8_t*);
            sigma_[d].fold(reinterpret_cast<const wire::RecordOf<float>*>(records(frame)), bucket_header(frame)->count);
          }
        }
        rte_pktmbuf_free_bulk(b, n);
      }
    }
  }

  uint64_t local_buckets = 0;
  uint64_t local_bytes = 0;

 private:
  static constexpr unsigned kNullPort = 0;
  Dataplane& dp_;
  unsigned nodes_;
  bool fold_;
  std::vector<ScalarAccumulator<PageRank>> sigma_;  // per domain: Σ of the same-node records (--local fold)
};

// The ideal peers of the reliable variant. The peers are reached through a
// net_ring port that loops frames back: these peers take node 0's frames
// off it (as their ports would: the frames leave node 0) and answer with
// ACK frames acking every frame received so far, as each peer sends them
// (from the address node 0 learned it at, checksummed when node 0 checks),
// which come back through the same port to the transport's receive_step.
class AckLoop {
 public:
  AckLoop(Dataplane& dp, unsigned ring_port_index, unsigned nodes)
      : dp_(dp), port_(dp.port_id(ring_port_index)), nodes_(nodes), next_(nodes, 0), heard_(nodes, false),
        unacked_(nodes, 0) {}

  // Takes the frames off the ring, then acks each peer's after 16 frames
  // (or whatever is unacked, when `all`).
  void ack(bool all) {
    rte_mbuf* b[Dataplane::kBurst];
    for (uint16_t n; (n = rte_eth_rx_burst(port_, 0, b, Dataplane::kBurst)) > 0;) {
      for (uint16_t i = 0; i < n; ++i) {
        const wire::BucketHeader* h = bucket_header(rte_pktmbuf_mtod(b[i], const uint8_t*));
        if (!wire::is_sequenced(static_cast<wire::Kind>(h->kind)) || h->dst_rank >= nodes_) continue;
        const unsigned p = h->dst_rank;
        // No loss on the ring: frames come in order, a resent one behind them.
        if (!heard_[p] || seq_gt(h->seq + 1, next_[p])) next_[p] = h->seq + 1;
        heard_[p] = true;
        ++unacked_[p];
      }
      rte_pktmbuf_free_bulk(b, n);
    }
    for (unsigned p = 1; p < nodes_; ++p) {
      if (unacked_[p] == 0 || (!all && unacked_[p] < 16)) continue;
      rte_mbuf* m = dp_.alloc();
      if (m == nullptr) return;
      uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
      // An ACK frame as a peer sends it: cumulative ack, no hole (an empty
      // selective ack), no echo.
      const uint16_t payload = wire::ack_payload_bytes(0);
      write_bucket_header(frame, wire::Kind::kAck, kJob, p, 0, 0, payload);
      bucket_header(frame)->ack = next_[p];
      std::memset(frame + wire::kPayloadOffset, 0, payload);
      FrameAddress a = dp_.address_of(p);
      std::swap(a.src_mac, a.dst_mac);
      std::swap(a.src_ip, a.dst_ip);
      m->data_len = m->pkt_len = write_l2_l4(frame, a, static_cast<uint16_t>(sizeof(wire::BucketHeader) + payload));
      if (dp_.options().checksum) seal_bucket(frame, m->data_len);
      if (rte_eth_tx_burst(port_, 0, &m, 1) != 1) {
        rte_pktmbuf_free(m);
        return;
      }
      unacked_[p] = 0;
      ++acks;
    }
  }

  uint64_t acks = 0;

 private:
  Dataplane& dp_;
  uint16_t port_;
  unsigned nodes_;
  std::vector<uint32_t> next_;      // per peer: the sequence number after the last frame it received
  std::vector<bool> heard_;         // per peer: next_ is set
  std::vector<uint64_t> unacked_;   // per peer: frames received since its last ACK
};

double gbps_l1(uint64_t bytes, uint64_t frames, double s) {
  return s > 0 ? (static_cast<double>(bytes) + static_cast<double>(frames) * wire::kWireOverheadBytes) * 8e-9 / s : 0;
}

struct Variant {
  std::string name;
  std::string what;
  std::vector<Trial> trials;
};

// The figures of one variant, over wall-clock or CPU seconds.
struct Figures {
  Stat seconds, msgs, fps, wire, all_l1, rec_bytes, bucket_bytes, rec_vs_bw, bucket_vs_bw;
};

Figures figures(const Variant& v, bool cpu, const std::vector<double>& bw) {
  std::vector<double> f[9];
  for (size_t i = 0; i < v.trials.size(); ++i) {
    const Trial& t = v.trials[i];
    const double s = cpu ? t.cpu_seconds : t.seconds;
    f[0].push_back(s);
    f[1].push_back(t.records / s);
    f[2].push_back(t.frames / s);
    f[3].push_back(gbps_l1(t.bytes, t.frames, s));
    f[4].push_back(gbps_l1(t.bytes + t.local_bytes, t.frames + t.local_buckets, s));
    f[5].push_back(t.records * 8.0 / s);
    f[6].push_back((t.bytes + t.local_bytes) / s);
    f[7].push_back(t.records * 8.0 / s / bw[i]);  // vs the bandwidth of the same round
    f[8].push_back((t.bytes + t.local_bytes) / s / bw[i]);
  }
  return Figures{bench::summarize(f[0]), bench::summarize(f[1]), bench::summarize(f[2]),
                 bench::summarize(f[3]), bench::summarize(f[4]), bench::summarize(f[5]),
                 bench::summarize(f[6]), bench::summarize(f[7]), bench::summarize(f[8])};
}

void print_figures(const char* clock, const Figures& f) {
  std::printf("  per %s second:\n", clock);
  std::printf("    messages/s      %8.1f M [%.1f, %.1f]\n", f.msgs.median * 1e-6, f.msgs.min * 1e-6, f.msgs.max * 1e-6);
  std::printf("    frames/s        %8.3f M [%.3f, %.3f] to the port\n", f.fps.median * 1e-6, f.fps.min * 1e-6,
              f.fps.max * 1e-6);
  std::printf("    wire L1         %8.2f Gbps [%.2f, %.2f] (frames to the port + %zu B each)", f.wire.median, f.wire.min,
              f.wire.max, wire::kWireOverheadBytes);
  for (double r : bench::kLineRatesGbps) std::printf(", %.0f%% of %.0fGbE", 100 * f.wire.median / r, r);
  std::printf("\n    all buckets L1  %8.2f Gbps [%.2f, %.2f] (remote + same-node buckets, as if all went on a wire)",
              f.all_l1.median, f.all_l1.min, f.all_l1.max);
  for (double r : bench::kLineRatesGbps) std::printf(", %.0f%% of %.0fGbE", 100 * f.all_l1.median / r, r);
  std::printf("\n    vs baseline: records*8 B/s %.2f GB/s = %.3f [%.3f, %.3f] of the write bandwidth; bucket bytes/s "
              "%.2f GB/s = %.3f [%.3f, %.3f] of it\n",
              f.rec_bytes.median * 1e-9, f.rec_vs_bw.median, f.rec_vs_bw.min, f.rec_vs_bw.max,
              f.bucket_bytes.median * 1e-9, f.bucket_vs_bw.median, f.bucket_vs_bw.min, f.bucket_vs_bw.max);
}

bench::ordered_json json_figures(const Figures& f) {
  bench::ordered_json j;
  j["seconds"] = bench::stat_json(f.seconds);
  j["messages_per_s"] = bench::stat_json(f.msgs);
  j["frames_per_s"] = bench::stat_json(f.fps);
  j["wire_l1_gbps"] = bench::stat_json(f.wire);
  j["all_buckets_l1_gbps"] = bench::stat_json(f.all_l1);
  j["record_bytes_per_s"] = bench::stat_json(f.rec_bytes);
  j["bucket_bytes_per_s"] = bench::stat_json(f.bucket_bytes);
  j["record_bytes_vs_write_bw"] = bench::stat_json(f.rec_vs_bw);
  j["bucket_bytes_vs_write_bw"] = bench::stat_json(f.bucket_vs_bw);
  bench::ordered_json& wire = j["pct_of_line_rate_wire"] = bench::ordered_json::object();
  for (double r : bench::kLineRatesGbps) wire[std::to_string(static_cast<int>(r)) + "GbE"] = 100 * f.wire.median / r;
  bench::ordered_json& all = j["pct_of_line_rate_all_buckets"] = bench::ordered_json::object();
  for (double r : bench::kLineRatesGbps) all[std::to_string(static_cast<int>(r)) + "GbE"] = 100 * f.all_l1.median / r;
  j["target_40gbps_all_buckets_met"] = f.all_l1.median >= 40.0;
  j["target_40gbps_wire_met"] = f.wire.median >= 40.0;
  return j;
}

void usage() {
  std::printf(
      "usage: bench_generation [EAL options] -- [--graph SPEC] [--nodes P] [--trials N] [--warmup N]\n"
      "       [--mbufs N] [--membw-mib MB] [--local free|fold] [--no-reliable] [--json PATH]\n"
      "EAL options must create one port to send on (port 0), e.g.\n"
      "  --no-pci --vdev net_null0,no-rx=1 -l 0 --no-huge -m 1024 --file-prefix bgen\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (const int rc = wg::bench::start(argc, argv, "bench_generation", usage); rc >= 0) return rc;
  Options o;
  try {
    bench::Args a(argc, argv);
    o.graph = a.string("--graph", o.graph);
    o.nodes = a.number<unsigned>("--nodes", o.nodes);
    o.trials = a.number<unsigned>("--trials", o.trials);
    o.warmup = a.number<unsigned>("--warmup", o.warmup);
    o.mbufs = a.number<unsigned>("--mbufs", o.mbufs);
    o.membw_mib = a.number<size_t>("--membw-mib", o.membw_mib);
    o.fold_local = a.string("--local", "free") == "fold";
    o.reliable = !a.flag("--no-reliable");
    o.json = a.string("--json", "");
    a.finish();
    if (o.nodes < 2 || o.nodes > 64 || o.trials == 0) throw std::runtime_error("need 2 <= --nodes <= 64, --trials >= 1");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_generation: %s\n", e.what());
    usage();
    return 2;
  }
  if (rte_eth_dev_count_avail() == 0) {
    std::fprintf(stderr, "bench_generation: no port: pass e.g. --vdev net_null0,no-rx=1 before --\n");
    return 2;
  }
  // The ack loop-back port of the reliable variant, created before the
  // Dataplane so that it configures and starts it with the others.
  if (o.reliable && rte_eal_hotplug_add("vdev", kAckPortName, "") != 0) {
    std::fprintf(stderr, "bench_generation: cannot create %s; skipping the reliable variant\n", kAckPortName);
    o.reliable = false;
  }

  int rc = 0;
  const double load_start = bench::loadavg();
  try {
    // ---- node 0 of a P-node PageRank job, assembled as the binary does it
    // (apps/node/node.h); its ports are the bench's own (net_null, the ack ring)
    Config cfg;
    cfg.app = PageRank::kTraits.name;
    cfg.program = PageRank::kTraits;
    cfg.graph = o.graph;
    cfg.nodes = o.nodes;
    cfg.job_token = kJob;
    cfg.mbufs = o.mbufs;
    cfg.domains = 1;
    cfg.iterations = 20;
    Node node(cfg);
    Dataplane& dp = node.dataplane();

    // ---- graph: node 0's part of a P-node partition ----
    const auto tl = Clock::now();
    LocalGraph lg;
    {
      // One process plays node 0 of P: it builds node 0's part from the
      // whole graph (the loader's shuffle would need the other P-1 nodes).
      const EdgeList g = load_graph(o.graph);
      lg = build_local_graph(g, o.nodes, 0, false);
    }
    uint64_t edges_remote = 0, edges_local = 0, runs = 0;
    for (unsigned p = 0; p < o.nodes; ++p)
      for (unsigned d = 0; d < lg.domains; ++d) {
        (p == 0 ? edges_local : edges_remote) += lg.blocks[lg.group(p, d)].num_edges();
        runs += lg.blocks[lg.group(p, d)].sources.size();
      }
    // Records written per (source, destination block): the length of the
    // worker's inner loop, over which its per-vertex work is spread.
    const double mean_run = runs ? static_cast<double>(edges_remote + edges_local) / static_cast<double>(runs) : 0.0;
    std::printf("generation: graph %s: %u vertices, %lu edges; node 0 of P=%u: %u local vertices, %lu out-edges "
                "(%lu to other nodes, %lu same-node), built in %.2f s\n",
                o.graph.c_str(), lg.num_vertices, static_cast<unsigned long>(lg.num_edges), o.nodes, lg.num_local,
                static_cast<unsigned long>(edges_remote + edges_local), static_cast<unsigned long>(edges_remote),
                static_cast<unsigned long>(edges_local), bench::seconds_since(tl));
    std::printf("scatter runs: %lu (source, destination block) pairs, %.2f records each on average\n",
                static_cast<unsigned long>(runs), mean_run);

    char port_name[RTE_ETH_NAME_MAX_LEN] = "?";
    rte_eth_dev_get_name_by_port(dp.port_id(0), port_name);
    // What discovery would do (the reliable variant's peers answer on the
    // ack ring; the other variants send to port 0 whatever the peer table says).
    const unsigned peer_port = o.reliable ? dp.num_ports() - 1 : 0;
    for (unsigned p = 1; p < o.nodes; ++p)
      dp.take_on_peer(p, peer_port, MacAddress{0x02, 0xbe, 0x0c, 0x00, 0x00, static_cast<uint8_t>(p)}, random_salt());
    std::printf("dataplane: %s; remote buckets to port 0 (%s)%s; %u mbufs; lcore %u\n", dp.port_summary().c_str(),
                port_name, o.reliable ? ", with reliability to peers on the ack ring" : "", o.mbufs, rte_lcore_id());
    std::fflush(stdout);

    // ---- PageRank state: superstep 0's init makes every vertex active ----
    const PageRank prog(lg.num_vertices, 20);
    std::vector<double> values(lg.num_local);
    std::vector<uint8_t> active(lg.num_local, 1);  // the proposal variant's flags: init activates every vertex
    std::vector<ScalarAccumulator<PageRank>> sigma_in;  // Σin that apply reads (init ignores it), per domain
    for (unsigned d = 0; d < lg.domains; ++d) sigma_in.emplace_back(lg, d);
    Sink sink(dp, o.nodes, o.fold_local, lg);

    std::vector<Variant> variants;
    std::vector<std::function<Trial(uint32_t)>> passes;  // one superstep of each variant
    std::vector<double> membw_rates, membw_cpu_rates;    // the baseline, per wall and CPU second, one per round
    uint32_t superstep = 1;

    // 1 and 2: the worker's bucket path with a restructured copy loop, written
    // here (compute/ is not changed): instead of checking for a full bucket
    // before every record, copy min(edges left, room left) records in a
    // tight loop over local pointers, which the compiler vectorises. Closing,
    // reopening and draining are as in Worker::roll.
    BucketRingGroup<wire::Record> ring(dp, o.nodes, lg.domains, 0);
    unsigned since = 0;
    const auto roll = [&](unsigned group) {
      ring.close(group);
      if (++since >= 8) {
        since = 0;
        sink.drain_remote();
        sink.drain_local();
      }
      while (!ring.reopen(group)) {
        sink.drain_remote();
        sink.drain_local();
      }
    };
    // Appends n records (targets[0..n), value) to group's open bucket(s).
    const auto append = [&](unsigned group, const uint32_t* __restrict targets, uint64_t n, uint32_t value) {
      BucketRingGroup<wire::Record>::Open& open = ring.open(group);
      while (n > 0) {
        if (unlikely(open.cursor == open.end)) roll(group);
        wire::Record* __restrict c = open.cursor;
        const uint64_t k = std::min<uint64_t>(n, static_cast<uint64_t>(open.end - c));
        for (uint64_t i = 0; i < k; ++i) c[i] = wire::Record{targets[i], value};
        open.cursor = c + k;
        targets += k;
        n -= k;
      }
    };
    const auto finish = [&](uint32_t) {
      sink.drain_remote();
      sink.drain_local();
      return records_of(ring, o.nodes);
    };
    const unsigned groups = o.nodes * lg.domains;
    const std::string local_what = std::string(o.fold_local ? "folded" : "freed");

    const uint32_t bits = std::bit_cast<uint32_t>(1.0f / static_cast<float>(lg.num_vertices));
    variants.push_back(Variant{"edge-copy ceiling",
                               "every edge's record copied from the CSR targets in one chunked loop per destination "
                               "(no per-vertex work) into a BucketRingGroup; remote buckets dp.dequeue + "
                               "dp.tx_burst to the port, same-node buckets " + local_what,
                               {}});
    passes.push_back([&](uint32_t s) {
      ring.start_superstep(s);
      for (unsigned k = 1; k <= groups; ++k) {
        const unsigned group = k % groups;  // lg.group(node, domain), node 0's last, as Worker::scatter
        append(group, lg.blocks[group].targets.data(), lg.blocks[group].targets.size(), bits);
        ring.close(group);
      }
      return finish(s);
    });

    // The scatter values as Worker::apply leaves them (one per vertex).
    std::vector<float> scatter_values(lg.num_local);
    for (uint32_t u = 0; u < lg.num_local; ++u) scatter_values[u] = prog.scatter_value(1.0 / lg.num_vertices, VertexInfo{0, lg.out_degree[u], 0, 0.0});
    variants.push_back(Variant{"worker loop, chunked copy",
                               "Worker<PageRank>::scatter_block's per-vertex work (sources, active flag, "
                               "scatter value from apply, offsets) with the chunked copy instead of a per-record "
                               "full-bucket check: a proposal for compute/engine/worker.h, measured here; same ring and ports",
                               {}});
    passes.push_back([&](uint32_t s) {
      ring.start_superstep(s);
      for (unsigned k = 1; k <= groups; ++k) {
        const unsigned group = k % groups;
        const EdgeBlock& blk = lg.blocks[group];
        for (size_t i = 0; i < blk.sources.size(); ++i) {
          const uint32_t u = blk.sources[i];
          if (!active[u]) continue;
          const float sv = scatter_values[u];
          const uint64_t e = blk.offsets[i];
          append(group, blk.targets.data() + e, blk.offsets[i + 1] - e,
                 std::bit_cast<uint32_t>(PageRank::edge_message(sv, 1)));
        }
        ring.close(group);
      }
      return finish(s);
    });

    // 2. the real worker, sender without reliability.
    // Sparse: one record per edge, the rate this benchmark is about (a dense
    // superstep sends one per destination; end_to_end.py measures its effect).
    Worker<PageRank> w2(dp, lg, prog, 0, lg.num_local, ScatterMode::kSparse);
    const Worker<PageRank>::Stall no_stall = [](bool) {};
    w2.apply(StepInfo<PageRank::Aggregate>{0, 0, lg.num_vertices, {}}, values, sigma_in, no_stall);  // init: rank 1/V, every vertex active
    const Worker<PageRank>::Stall stall2 = [&](bool) {
      sink.drain_remote();
      sink.drain_local();
    };
    variants.push_back(Variant{"no reliability",
                               "Worker<PageRank>::scatter (all vertices active); sender role without reliability: "
                               "dp.dequeue(peer) + dp.tx_burst straight to the port; same-node buckets " +
                                   std::string(o.fold_local ? "folded" : "freed"),
                               {}});
    passes.push_back([&](uint32_t s) {
      w2.scatter(s, s, stall2);
      sink.drain_remote();
      sink.drain_local();
      return records_of(w2, o.nodes);
    });

    // 2b. the same with the worker's apply first: a worker's whole superstep.
    // apply takes Σin, runs PageRank's apply and computes each vertex's
    // scatter value once, which the scatter then reads (compute/engine/worker.h); so
    // the figures above leave out one division per vertex, these do not.
    const PageRank prog_forever(lg.num_vertices, UINT32_MAX);  // every superstep active, however many passes
    Worker<PageRank> w4(dp, lg, prog_forever, 0, lg.num_local, ScatterMode::kSparse);
    std::vector<double> values4(lg.num_local);
    w4.apply(StepInfo<PageRank::Aggregate>{0, 0, lg.num_vertices, {}}, values4, sigma_in, no_stall);
    variants.push_back(Variant{"apply + scatter",
                               "Worker<PageRank>::apply then ::scatter, a worker's whole superstep (Σin is empty: "
                               "nothing folds into it here); sender as in \"no reliability\"",
                               {}});
    passes.push_back([&](uint32_t s) {
      w4.apply(StepInfo<PageRank::Aggregate>{s, 0, lg.num_vertices, {}}, values4, sigma_in, no_stall);
      w4.scatter(s, s, stall2);
      sink.drain_remote();
      sink.drain_local();
      return records_of(w4, o.nodes);
    });

    // 3. the real worker, Transport::send_step as the sender, acks looped back.
    TransportConfig tc;  // defaults of the wiregraph binary
    std::unique_ptr<Transport> transport;
    std::unique_ptr<AckLoop> acks;
    Worker<PageRank> w3(dp, lg, prog, 0, lg.num_local, ScatterMode::kSparse);
    const auto deliver = [&](rte_mbuf*, unsigned, const uint8_t*, const wire::BucketHeader* h) {
      return h->kind == static_cast<uint8_t>(wire::Kind::kAck) ? DropReason::kNone : DropReason::kBadKind;
    };
    // One pass of the network roles, as Engine::network_step on a shared lcore.
    const auto network_step = [&](bool all) {
      transport->send_step();
      acks->ack(all);
      transport->receive_step(deliver);
      sink.drain_local();
    };
    const Worker<PageRank>::Stall stall3 = [&](bool) { network_step(false); };
    if (o.reliable) {
      transport = std::make_unique<Transport>(dp, tc);
      acks = std::make_unique<AckLoop>(dp, dp.num_ports() - 1, o.nodes);
      w3.apply(StepInfo<PageRank::Aggregate>{0, 0, lg.num_vertices, {}}, values, sigma_in, no_stall);
      variants.push_back(Variant{"with reliability",
                                 "Worker<PageRank>::scatter; Transport::send_step (sequence numbers, send window of " +
                                     std::to_string(tc.window) +
                                     ", ack stamping, CRC) as the sender to peers behind a net_ring loop-back; ideal "
                                     "peers take the frames off it and ACK every 16, handled by Transport::receive_step; one "
                                     "lcore, roles in turn as --roles shared; same-node buckets " +
                                     std::string(o.fold_local ? "folded" : "freed"),
                                 {}});
      passes.push_back([&](uint32_t s) {
        w3.scatter(s, s, stall3);
        while (!transport->all_acked()) network_step(true);
        return records_of(w3, o.nodes);
      });
    }

    // Rounds: the baseline and every variant once per round, interleaved so
    // that a busy machine slows them alike; ratios are taken within a round.
    const size_t membw_bytes = o.membw_mib << 20;
    std::vector<uint64_t> membw_buf(membw_bytes / sizeof(uint64_t));
    for (size_t i = 0; i < membw_buf.size(); ++i) membw_buf[i] = i | 1;  // fault in
    for (unsigned t = 0; t < o.warmup + o.trials; ++t) {
      const auto bw = bench::write_pass(membw_buf.data(), membw_buf.size(), t);
      if (t >= o.warmup) {
        membw_rates.push_back(bw.first);
        membw_cpu_rates.push_back(bw.second);
      }
      for (size_t k = 0; k < passes.size(); ++k) {
        const TxCounters tx0 = dp.tx_q[0];
        const uint64_t lb0 = sink.local_buckets, lbytes0 = sink.local_bytes;
        const double c0 = bench::thread_cpu_seconds();
        const auto t0 = Clock::now();
        Trial tr = passes[k](superstep++);
        tr.seconds = bench::seconds_since(t0);
        tr.cpu_seconds = bench::thread_cpu_seconds() - c0;
        tr.frames = dp.tx_q[0].frames - tx0.frames;
        tr.bytes = dp.tx_q[0].bytes - tx0.bytes;
        tr.local_buckets = sink.local_buckets - lb0;
        tr.local_bytes = sink.local_bytes - lbytes0;
        if (t >= o.warmup) variants[k].trials.push_back(tr);
      }
    }
    membw_buf = {};
    const Stat membw = bench::summarize(membw_rates), membw_cpu = bench::summarize(membw_cpu_rates);
    std::printf("baseline: sequential write bandwidth, one core, %zu MiB, non-zero pattern: %.2f GB/s [%.2f, %.2f] per "
                "wall second, %.2f GB/s [%.2f, %.2f] per CPU second\n",
                o.membw_mib, membw.median * 1e-9, membw.min * 1e-9, membw.max * 1e-9, membw_cpu.median * 1e-9,
                membw_cpu.min * 1e-9, membw_cpu.max * 1e-9);

    uint64_t invalid_acks = 0, not_ours = 0, timeouts = 0, retrans = 0, acks_looped = 0, first_tx = 0;
    if (o.reliable) {
      for (const ConnectionReport& c : transport->report()) {
        invalid_acks += c.send.invalid_acks;
        timeouts += c.send.timeouts;
        retrans += c.send.retransmissions;
        first_tx += c.send.frames;
      }
      not_ours = dp.rx_q[0].total_dropped();
      acks_looped = acks->acks;
    }

    // ---- report ----
    bench::ordered_json j;
    j["benchmark"] = "generation";
    j["graph"] = o.graph;
    j["nodes"] = o.nodes;
    j["num_vertices"] = lg.num_vertices;
    j["num_edges"] = lg.num_edges;
    j["local_vertices"] = lg.num_local;
    j["edges_remote"] = edges_remote;
    j["edges_local"] = edges_local;
    j["scatter_runs"] = runs;
    j["records_per_run"] = mean_run;
    j["port"] = port_name;
    j["trials"] = o.trials;
    j["warmup"] = o.warmup;
    j["local_buckets"] = o.fold_local ? "folded" : "freed";
    j["lcore"] = rte_lcore_id();
    j["loadavg_start"] = load_start;
    j["loadavg_end"] = bench::loadavg();
    j["baseline"] = {
        {"what", "single-core sequential write, non-zero pattern, " + std::to_string(o.membw_mib) + " MiB buffer"},
        {"bytes_per_s", bench::stat_json(membw)},
        {"bytes_per_cpu_s", bench::stat_json(membw_cpu)}};
    j["variants"] = bench::ordered_json::array();
    std::printf("\nall figures: median [min, max] of %u rounds after %u warm-up; each round runs the baseline and every "
                "variant once (one superstep each); one lcore; load average %.2f at the start, %.2f now\n",
                o.trials, o.warmup, load_start, bench::loadavg());
    for (const Variant& v : variants) {
      const Figures wall = figures(v, false, membw_rates), cpu = figures(v, true, membw_cpu_rates);
      const Trial& t0 = v.trials.front();
      std::printf("\n[%s] %s\n", v.name.c_str(), v.what.c_str());
      std::printf("  per superstep: %lu records (%lu same-node), %lu frames to the port (%lu bytes), %lu same-node "
                  "buckets; %.4f s [%.4f, %.4f] wall, %.4f s CPU\n",
                  static_cast<unsigned long>(t0.records), static_cast<unsigned long>(t0.local_records),
                  static_cast<unsigned long>(t0.frames), static_cast<unsigned long>(t0.bytes),
                  static_cast<unsigned long>(t0.local_buckets), wall.seconds.median, wall.seconds.min,
                  wall.seconds.max, cpu.seconds.median);
      print_figures("wall-clock", wall);
      print_figures("CPU", cpu);
      j["variants"].push_back({{"name", v.name},
                               {"what", v.what},
                               {"records_per_superstep", t0.records},
                               {"local_records_per_superstep", t0.local_records},
                               {"frames_per_superstep", t0.frames},
                               {"local_buckets_per_superstep", t0.local_buckets},
                               {"wall", json_figures(wall)},
                               {"cpu", json_figures(cpu)}});
    }
    if (o.reliable) {
      std::printf("\nreliable variant checks: %lu ACK frames looped back, %lu invalid acks, %lu timeouts, %lu "
                  "retransmissions, %lu frames dropped on receive%s\n",
                  static_cast<unsigned long>(acks_looped), static_cast<unsigned long>(invalid_acks),
                  static_cast<unsigned long>(timeouts), static_cast<unsigned long>(retrans),
                  static_cast<unsigned long>(not_ours),
                  not_ours ? " (the null port produced dummy packets: pass net_null0,no-rx=1)" : "");
      j["reliable_checks"] = {{"acks_looped", acks_looped},   {"invalid_acks", invalid_acks},
                              {"timeouts", timeouts},         {"retransmissions", retrans},
                              {"rx_dropped", not_ours},
                              {"frames_first_transmitted", first_tx}};
    }
    // Target from the issue: >= 40 Gbps L1 of 1500-byte buckets per worker lcore.
    const double remote_pct = 100.0 * edges_remote / static_cast<double>(edges_remote + edges_local);
    for (const Variant& v : variants) {
      if (v.name != "no reliability" && v.name != "with reliability") continue;
      for (const bool c : {false, true}) {
        const Figures f = figures(v, c, c ? membw_cpu_rates : membw_rates);
        std::printf("target >= 40 Gbps L1 of buckets per worker lcore [%s, per %s second]: all buckets %.1f Gbps: %s; "
                    "on the wire alone (P=%u, %.0f%% of records remote) %.1f Gbps: %s\n",
                    v.name.c_str(), c ? "CPU" : "wall-clock", f.all_l1.median, f.all_l1.median >= 40 ? "MET" : "NOT MET",
                    o.nodes, remote_pct, f.wire.median, f.wire.median >= 40 ? "MET" : "NOT MET");
      }
    }
    if (!bench::write_json(o.json, j)) {
      std::fprintf(stderr, "bench_generation: cannot write %s\n", o.json.c_str());
      rc = 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_generation: error: %s\n", e.what());
    rc = 1;
  }
  rte_eal_cleanup();
  return rc;
}
