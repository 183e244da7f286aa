// Receive scaling (issue #12): A accumulator lcores at once, each owning
// receive queue q of one net_ring port and a contiguous 1/A of Σ, fold
// buckets through the engine's receive path, against A = 1 in the same run.
//
//   bench_rx_scaling [EAL options] -- [--sigma-log2 K] [--records-log2 K]
//                    [--accumulators LIST] [--range-kib LIST] [--order blocked|random]
//                    [--mtu N] [--trials N] [--warmup N] [--seed S] [--json PATH]
//
// e.g. bench_rx_scaling --no-pci --vdev net_ring0 --lcores 0@0,1@1,2@0,3@1
//      --no-huge -m 2048 --file-prefix brx -- --accumulators 1,2,4
//
// net_ring0 has 16 queue pairs, each its own loopback ring (what is sent on
// tx queue q comes back on rx queue q), so queue q stands for a NIC queue
// that steering fills with the buckets of q's ranges (memif queue pairs,
// rte_flow or RSS source ports: dataplane/steering.h). Per pass and queue:
// 2^records-log2 / A PageRank records (u32 index, f32 value), uniformly
// random over q's part of Σ (2^sigma-log2 floats, 256 MiB by default), in
// the order a worker sends them (--order blocked: grouped by range of
// --range-kib of Σ, default 256 as the engine's, as its range-blocked buckets;
// several sizes: each measured in every round; random: as they come), packed
// into buckets of --mtu built once. Accumulator lcore q, alone on its data:
// tx_burst 32 of its frames on tx queue q (a reference is kept, so frames are
// reused), then Transport::receive_step(q): rx_burst on queue q, validation,
// the flow's receive window and in-order delivery, max_record_index and
// ScalarAccumulator<PageRank>::fold (the engine's own code), free. The
// loopback's tx is the part that a real receiver does not do: the rates
// understate a receiver's.
//
// Reported per A, side by side: the wall-clock rate (all records / the wall
// time of the slowest lcore) and the rate per CPU-second of an lcore (all
// records / the lcores' summed thread CPU time: what one accumulator lcore
// does with a CPU of its own), the CPUs the lcores got (CPU time over wall
// time: on a shared machine, fewer than A), the wall-clock ratio to the first
// A in the same round, and the share of the line rate of 10, 40 and 100 GbE
// at the same MTU.
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "apps/pagerank.h"
#include "bench/bench_common.h"
#include "compute/engine/accumulator.h"
#include "compute/partition/partition.h"
#include "dataplane/dataplane.h"
#include "dataplane/frame.h"
#include "reliability/transport.h"

namespace {

using namespace wg;

// What a run measures (see usage()).
struct Options {
  unsigned sigma_log2 = 26;   // Σ of 2^26 floats: 256 MiB
  int records_log2 = -1;      // records per pass; default: sigma_log2
  std::vector<unsigned> accumulators = {1, 2};
  std::vector<unsigned> range_kib = {256};  // the engine's default (compute/engine/engine_options.h)
  bool blocked = true;
  unsigned mtu = wire::kMtu;
  unsigned trials = 5;
  unsigned warmup = 1;
  uint64_t seed = 1;
  std::string json;
};

using Acc = ScalarAccumulator<PageRank>;
using bench::Clock;
using bench::Stat;
constexpr uint32_t kJob = 0x00acc0ad;  // the frames' job token (node 1 -> node 0)
constexpr unsigned kBurst = Dataplane::kBurst;

// One accumulator lcore's share of a configuration: its queue, frames and Σ.
struct Share {
  unsigned queue = 0;
  std::vector<rte_mbuf*> frames;
  uint64_t records = 0;
  uint32_t seq = 0;             // the flow (node 1, queue)'s next sequence number
  uint32_t sigma_entries = 0;
  std::unique_ptr<Acc> acc;
  double seconds = 0;      // wall time of the pass on this lcore
  double cpu_seconds = 0;  // CPU time the lcore's thread got in it
  uint64_t folded = 0;
};

struct Pass {
  Dataplane* dp;
  Transport* transport;
  std::vector<Share>* shares;
  std::atomic<bool> go{false};
};

// Accumulator role of one queue for one pass (runs on its own lcore).
int accumulate(Pass& pass, Share& s) {
  while (!pass.go.load(std::memory_order_acquire)) rte_pause();
  const auto t0 = Clock::now();
  const double c0 = bench::thread_cpu_seconds();
  uint64_t folded = 0;
  auto deliver = [&](rte_mbuf*, unsigned, const uint8_t* frame, const wire::BucketHeader* h) {
    const auto* r = reinterpret_cast<const Acc::Record*>(records(frame));
    if (unlikely(max_record_index(records(frame), h->count) >= s.sigma_entries)) return DropReason::kIndexOutOfRange;
    s.acc->fold(r, h->count);
    folded += h->count;
    return DropReason::kNone;
  };
  rte_mbuf* burst[kBurst];
  for (size_t f = 0; f < s.frames.size(); f += kBurst) {
    const auto n = static_cast<uint16_t>(std::min<size_t>(kBurst, s.frames.size() - f));
    for (uint16_t i = 0; i < n; ++i) {
      rte_mbuf* m = s.frames[f + i];
      bucket_header(rte_pktmbuf_mtod(m, uint8_t*))->seq = s.seq++;
      rte_mbuf_refcnt_update(m, 1);  // the receive path frees one reference; the frame stays for the next pass
      burst[i] = m;
    }
    if (pass.dp->tx_burst(0, s.queue, burst, n) != n) throw std::runtime_error("net_ring refused frames");
    pass.transport->receive_step(s.queue, deliver, false);
  }
  for (int idle = 0; folded < s.records && idle < 1000; ++idle) pass.transport->receive_step(s.queue, deliver, false);
  s.seconds = bench::seconds_since(t0);
  s.cpu_seconds = bench::thread_cpu_seconds() - c0;
  s.folded = folded;
  return 0;
}

int accumulate_on_lcore(void* arg) {
  auto* p = static_cast<std::pair<Pass*, Share*>*>(arg);
  return accumulate(*p->first, *p->second);
}

class Bench {
 public:
  Bench(const Options& o, Dataplane& dp, Transport& t) : o_(o), dp_(dp), t_(t) {
    const uint64_t n = uint64_t{1} << o.records_log2;
    per_frame_ = wire::records_per_bucket(sizeof(wire::Record), o.mtu);
    frames_.resize((n + per_frame_ - 1) / per_frame_);
    for (auto& m : frames_)
      if ((m = dp_.alloc()) == nullptr) throw std::runtime_error("mbuf pool too small");
    addr_ = bench::loopback_address(kJob);
    for (unsigned q = 0; q < dp.queue_count(); ++q) seq_[q] = dp.auth().receive_isn(1, q);  // each flow's first
  }
  ~Bench() {
    for (rte_mbuf* m : frames_) rte_pktmbuf_free(m);
  }
  uint64_t records() const { return uint64_t{1} << o_.records_log2; }
  size_t frame_count() const { return frames_.size(); }
  unsigned records_per_frame() const { return per_frame_; }

  // Splits Σ and the frames over `a` queues and packs each queue's records,
  // blocked by ranges of `range_kib`.
  void configure(unsigned a, unsigned range_kib) {
    shares_.clear();
    shares_.resize(a);
    const uint64_t sigma = uint64_t{1} << o_.sigma_log2;
    std::mt19937_64 rng(o_.seed + a);
    for (unsigned q = 0; q < a; ++q) {
      Share& s = shares_[q];
      s.queue = q;
      s.seq = seq_[q];
      s.sigma_entries = static_cast<uint32_t>(sigma * (q + 1) / a - sigma * q / a);
      LocalGraph lg;
      lg.num_local = s.sigma_entries;
      lg.domains = 1;
      lg.domain_offset = {0, s.sigma_entries};
      s.acc = std::make_unique<Acc>(lg, 0);
      s.frames.assign(frames_.begin() + frames_.size() * q / a, frames_.begin() + frames_.size() * (q + 1) / a);
      s.records = std::min<uint64_t>(records() - std::min(records(), frames_.size() * q / a * per_frame_),
                                     s.frames.size() * uint64_t{per_frame_});
      std::vector<wire::Record> recs(s.records);
      for (uint64_t i = 0; i < s.records; ++i)
        recs[i] = wire::Record{static_cast<uint32_t>(rng() % s.sigma_entries),
                               std::bit_cast<uint32_t>(static_cast<float>(i & 1023) * 1e-3f)};
      if (o_.blocked) block_order(recs, s.sigma_entries, range_kib);
      pack(s, recs);
    }
  }

  struct PassRate {
    double wall = 0;  // records/s: all records / the slowest lcore's wall time
    double cpu = 0;   // records per CPU second, over all lcores
    double cpus = 0;  // CPUs the pass got: CPU seconds / the slowest lcore's wall time
  };
  // One pass: every share's lcore at once.
  PassRate run_pass() {
    Pass pass{&dp_, &t_, &shares_};
    std::vector<std::pair<Pass*, Share*>> args;
    for (Share& s : shares_) args.emplace_back(&pass, &s);
    unsigned lcore = rte_get_main_lcore();
    for (size_t q = 1; q < shares_.size(); ++q) {
      lcore = rte_get_next_lcore(lcore, 1, 0);
      if (lcore >= RTE_MAX_LCORE) throw std::runtime_error("fewer lcores than accumulators (-l / --lcores)");
      if (rte_eal_remote_launch(accumulate_on_lcore, &args[q], lcore) != 0)
        throw std::runtime_error("cannot launch on lcore " + std::to_string(lcore));
    }
    pass.go.store(true, std::memory_order_release);
    accumulate(pass, shares_[0]);
    rte_eal_mp_wait_lcore();
    double slowest = 0, cpu = 0;
    uint64_t folded = 0;
    for (const Share& s : shares_) {
      if (s.folded != s.records)
        throw std::runtime_error("queue " + std::to_string(s.queue) + ": folded " + std::to_string(s.folded) + " of " +
                                 std::to_string(s.records));
      seq_[s.queue] = s.seq;
      slowest = std::max(slowest, s.seconds);
      cpu += s.cpu_seconds;
      folded += s.folded;
    }
    return {static_cast<double>(folded) / slowest, static_cast<double>(folded) / cpu, cpu / slowest};
  }

 private:
  // Groups records by range (a stable counting sort), as a worker's
  // range-blocked buckets arrive.
  static void block_order(std::vector<wire::Record>& recs, uint32_t entries, unsigned range_kib) {
    const uint64_t range = std::max<uint64_t>(1, uint64_t{range_kib} * 1024 / sizeof(float));
    std::vector<uint64_t> at(entries / range + 2, 0);
    for (const wire::Record& r : recs) ++at[r.index / range + 1];
    for (size_t b = 1; b < at.size(); ++b) at[b] += at[b - 1];
    std::vector<wire::Record> out(recs.size());
    for (const wire::Record& r : recs) out[at[r.index / range]++] = r;
    recs.swap(out);
  }

  void pack(Share& s, const std::vector<wire::Record>& recs) {
    for (size_t f = 0; f < s.frames.size(); ++f) {
      const uint64_t first = f * per_frame_;
      const auto count = static_cast<uint16_t>(std::min<uint64_t>(per_frame_, recs.size() - first));
      uint8_t* frame = rte_pktmbuf_mtod(s.frames[f], uint8_t*);
      write_bucket_header(frame, wire::Kind::kData, kJob, 1, 0, 0, count);
      bucket_header(frame)->queue = static_cast<uint8_t>(s.queue);
      std::memcpy(wg::records(frame), recs.data() + first, count * sizeof(wire::Record));
      FrameAddress a = addr_;
      a.dst_port = static_cast<uint16_t>(addr_.dst_port + s.queue);
      s.frames[f]->data_len = s.frames[f]->pkt_len =
          write_l2_l4(frame, a, static_cast<uint16_t>(sizeof(wire::BucketHeader) + count * sizeof(wire::Record)));
    }
  }

  const Options& o_;
  Dataplane& dp_;
  Transport& t_;
  unsigned per_frame_ = 0;
  std::vector<rte_mbuf*> frames_;
  std::vector<Share> shares_;
  uint32_t seq_[16] = {};  // per queue: the flow's next sequence number, across configurations
  FrameAddress addr_;
};

// Records/s that fill `gbps` of Ethernet with frames of `mtu` carrying
// `per_frame` records (preamble, inter-frame gap and FCS: 24 bytes a frame).
double line_records(double gbps, unsigned mtu, unsigned per_frame) {
  return gbps * 1e9 / 8 / (wire::frame_bytes(mtu) + 24.0) * per_frame;
}

void usage() {
  std::printf(
      "usage: bench_rx_scaling [EAL options] -- [--sigma-log2 K] [--records-log2 K] [--accumulators LIST]\n"
      "       [--range-kib LIST] [--order blocked|random] [--mtu N] [--trials N] [--warmup N] [--seed S] [--json PATH]\n"
      "EAL options must create one net_ring port and as many lcores as the largest A in LIST, e.g.\n"
      "  --no-pci --vdev net_ring0 --lcores 0@0,1@1,2@0,3@1 --no-huge -m 2048 --file-prefix brx\n"
      "(lcores may share CPUs: oversubscribed lcores take turns). DPDK memory: about 2.4 KiB per frame\n"
      "(2^records-log2 / 177 frames at MTU 1500) plus 64 MiB.\n");
}

// "1,2,4": numbers 1..max.
std::vector<unsigned> parse_list(const std::string& text, const std::string& option, unsigned max) {
  std::vector<unsigned> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const unsigned long v = item.find_first_not_of("0123456789") == std::string::npos && !item.empty()
                                ? std::stoul(item) : 0;
    if (v < 1 || v > max) throw std::runtime_error(option + ": " + item + " is not 1.." + std::to_string(max));
    out.push_back(static_cast<unsigned>(v));
  }
  if (out.empty()) throw std::runtime_error(option + ": empty list");
  return out;
}

// The benchmark's own options (after the EAL's); false after printing why not.
bool parse_options(int argc, char** argv, Options* out) {
  Options& o = *out;
  try {
    bench::Args a(argc, argv);
    o.sigma_log2 = a.number<unsigned>("--sigma-log2", o.sigma_log2);
    o.records_log2 = a.number<int>("--records-log2", o.records_log2);
    o.accumulators = parse_list(a.string("--accumulators", "1,2"), "--accumulators", 16);
    o.range_kib = parse_list(a.string("--range-kib", "256"), "--range-kib", 1u << 21);
    const std::string order = a.string("--order", "blocked");
    o.mtu = a.number<unsigned>("--mtu", o.mtu);
    o.trials = a.number<unsigned>("--trials", o.trials);
    o.warmup = a.number<unsigned>("--warmup", o.warmup);
    o.seed = a.number<uint64_t>("--seed", o.seed);
    o.json = a.string("--json", "");
    a.finish();
    if (o.records_log2 < 0) o.records_log2 = static_cast<int>(o.sigma_log2);
    if (order != "blocked" && order != "random") throw std::runtime_error("--order: blocked or random");
    o.blocked = order == "blocked";
    if (o.sigma_log2 < 10 || o.sigma_log2 > 31 || o.records_log2 < 10 || o.records_log2 > 31 || o.trials == 0 ||
        o.mtu < wire::kMtu || o.mtu > wire::kMaxMtu)
      throw std::runtime_error("need 10 <= log2 sizes <= 31, --trials >= 1, --mtu 1500..9000");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_rx_scaling: %s\n", e.what());
    usage();
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (const int rc = wg::bench::start(argc, argv, "bench_rx_scaling", usage); rc >= 0) return rc;
  Options o;
  if (!parse_options(argc, argv, &o)) return 2;
  if (rte_eth_dev_count_avail() != 1) {
    std::fprintf(stderr, "bench_rx_scaling: need exactly one port, a net_ring (e.g. --vdev net_ring0)\n");
    return 2;
  }
  const unsigned max_a = *std::max_element(o.accumulators.begin(), o.accumulators.end());
  if (max_a > rte_lcore_count()) {
    std::fprintf(stderr, "bench_rx_scaling: %u accumulators need %u lcores, the EAL has %u\n", max_a, max_a,
                 rte_lcore_count());
    return 2;
  }

  int rc = 0;
  const double load_start = bench::loadavg();
  try {
    const uint64_t n = uint64_t{1} << o.records_log2;
    const unsigned per_frame = wire::records_per_bucket(sizeof(wire::Record), o.mtu);
    const auto frames = static_cast<unsigned>((n + per_frame - 1) / per_frame);
    Dataplane dp(DataplaneOptions{
        .job_token = kJob, .rank = 0, .nodes = 2, .mbufs = frames + 4096, .queues = max_a, .mtu = o.mtu});
    bench::take_on_loopback_peer(dp, kJob);
    TransportConfig tc;  // defaults of the wiregraph binary
    Transport transport(dp, tc);
    Bench b(o, dp, transport);
    std::printf("rx scaling: Σ %u floats (%g MiB) split over A accumulator lcores, %lu records a pass in %zu buckets "
                "of up to %u (MTU %u), order %s, %u lcores, load average %.2f\n",
                1u << o.sigma_log2, (1u << o.sigma_log2) * 4.0 / (1 << 20), static_cast<unsigned long>(n),
                b.frame_count(), per_frame, o.mtu, o.blocked ? "blocked" : "random", rte_lcore_count(),
                load_start);
    std::printf("all figures: median [min, max] of %u rounds after %u warm-up; a round runs every A in turn\n",
                o.trials, o.warmup);
    std::fflush(stdout);

    // Every (A, range size) pair, in turn within each round.
    std::vector<std::pair<unsigned, unsigned>> config;
    for (unsigned r : o.range_kib)
      for (unsigned a : o.accumulators) config.emplace_back(a, r);
    const size_t configs = config.size();
    std::vector<std::vector<double>> rates(configs), per_cpu(configs), cpus(configs);
    for (unsigned t = 0; t < o.warmup + o.trials; ++t)
      for (size_t c = 0; c < configs; ++c) {
        b.configure(config[c].first, config[c].second);
        const Bench::PassRate r = b.run_pass();
        if (t < o.warmup) continue;
        rates[c].push_back(r.wall);
        per_cpu[c].push_back(r.cpu);
        cpus[c].push_back(r.cpus);
      }

    bench::ordered_json j;
    j["benchmark"] = "rx_scaling";
    j["sigma_entries"] = 1u << o.sigma_log2;
    j["records"] = n;
    j["frames"] = b.frame_count();
    j["mtu"] = o.mtu;
    j["records_per_frame"] = per_frame;
    j["order"] = o.blocked ? "blocked" : "random";
    j["lcores"] = rte_lcore_count();
    j["trials"] = o.trials;
    j["loadavg_start"] = load_start;
    j["loadavg_end"] = bench::loadavg();
    j["results"] = bench::ordered_json::array();
    const double gbe[] = {10, 40, 100};
    std::printf("\n  A   range KiB   M records/s wall-clock (all lcores)   M records per CPU-second (per lcore)   "
                "CPUs got   wall-clock vs the first (same round)   %% of line rate 10 / 40 / 100 GbE\n");
    for (size_t c = 0; c < configs; ++c) {
      const Stat st = bench::summarize(rates[c]);
      std::vector<double> ratio;
      for (size_t t = 0; t < rates[c].size(); ++t) ratio.push_back(rates[c][t] / rates[0][t]);
      const Stat vs = bench::summarize(ratio);
      const auto [a, range_kib] = config[c];
      const Stat pc = bench::summarize(per_cpu[c]), got = bench::summarize(cpus[c]);
      std::printf("  %-3u %-9u %8.1f [%.1f, %.1f]   %8.1f [%.1f, %.1f]   %.2f   x%.2f [%.2f, %.2f]   %5.1f%% / %5.1f%% / %5.1f%%\n",
                  a, o.blocked ? range_kib : 0, st.median * 1e-6, st.min * 1e-6, st.max * 1e-6, pc.median * 1e-6,
                  pc.min * 1e-6, pc.max * 1e-6, got.median, vs.median, vs.min, vs.max,
                  100 * st.median / line_records(10, o.mtu, per_frame), 100 * st.median / line_records(40, o.mtu, per_frame),
                  100 * st.median / line_records(100, o.mtu, per_frame));
      bench::ordered_json line = {{"accumulators", a},
                                  {"range_kib", o.blocked ? range_kib : 0},
                                  {"records_per_s", bench::stat_json(st)},
                                  {"vs_first", bench::stat_json(vs)},
                                  {"cpus", bench::stat_json(got)},
                                  {"records_per_cpu_s", bench::stat_json(pc)}};
      for (double g : gbe) line["pct_line_" + std::to_string(static_cast<int>(g)) + "gbe"] =
          100 * st.median / line_records(g, o.mtu, per_frame);
      j["results"].push_back(line);
    }
    std::printf("(vs the first: the first A of --accumulators with the first --range-kib. CPUs got: the lcores' CPU seconds over the wall time; with "
                "fewer free CPUs than lcores the wall rate follows it, while the rate per CPU-second shows what one "
                "accumulator lcore does with a CPU of its own)\n");
    if (!o.json.empty() && !bench::write_json(o.json, j)) rc = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_rx_scaling: %s\n", e.what());
    rc = 1;
  }
  rte_eal_cleanup();
  return rc;
}
