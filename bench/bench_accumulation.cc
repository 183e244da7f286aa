// Accumulation: how fast one lcore folds received buckets into Σ arrays much
// larger than the caches, against a plain in-memory scatter-add over the same
// messages in the same run.
//
//   bench_accumulation [EAL options] -- [--sigma-log2 K] [--records-log2 K]
//                      [--block-kib KIB] [--trials N] [--warmup N] [--seed S] [--json PATH]
//
// e.g. bench_accumulation --no-pci --vdev net_ring0 -l 0 --no-huge -m 1536
//      --file-prefix bacc -- --sigma-log2 26
//
// Messages: 2^records-log2 PageRank records (u32 index, f32 value) with
// uniformly random indices into Σ (2^sigma-log2 floats, 256 MiB by default),
// packed 177 to a bucket into frames built once (wiregraph data buckets from
// node 1 to node 0) in mbufs. Each pass sends every frame through a net_ring
// port (a loopback: what is transmitted is received) and folds what comes
// back, on one lcore:
//   plain scatter-add  - baseline: the same records in one contiguous array,
//                        same order, folded by the same inline function
//                        (ScalarAccumulator<PageRank>::fold), no DPDK
//   ring, direct       - tx_burst 32 frames (a reference is kept, so the
//                        frames are reused), rx_burst, then per frame what the
//                        engine's receive path does: validate_frame,
//                        max_record_index against Σ's size, the accumulator's
//                        fold (compute/engine/accumulator.h, the engine's own inline
//                        function), free
//   ring, Transport    - the same through Transport::receive_step (validation,
//                        receive window, in-order delivery), delivering to the
//                        engine's receive_data steps minus the superstep ledger
//   ring, tx/rx only   - the loopback's own cost: tx_burst, rx_burst, no
//                        validation or fold (not part of a real receiver,
//                        whose frames arrive from the NIC)
//   plain, THP         - reference point: the plain loop into a Σ on
//                        transparent huge pages (the engine's is on 4 KiB pages)
// Then the same records grouped by destination block of Σ (--block-kib, 256
// KiB by default) before packing: sender-side propagation blocking, so each
// bucket's updates fall in one cache-sized range. Random and blocked orders
// fold the same multiset of records.
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "apps/pagerank.h"
#include "bench/bench_common.h"
#include "compute/engine/accumulator.h"
#include "compute/partition/partition.h"
#include "config/options.h"
#include "dataplane/dataplane.h"
#include "dataplane/frame.h"
#include "reliability/transport.h"

namespace {

using namespace wg;
using bench::Clock;
using bench::Stat;

constexpr uint32_t kJob = 0x00acc0ac;
constexpr unsigned kBurst = Dataplane::kBurst;

struct Options {
  unsigned sigma_log2 = 26;
  int records_log2 = -1;  // default: sigma_log2 (16 updates per Σ cache line per pass)
  unsigned block_kib = 256;
  unsigned trials = 5;
  unsigned warmup = 1;
  uint64_t seed = 1;
  std::string json;
};

using Acc = ScalarAccumulator<PageRank>;
// The benchmark's records carry float bit patterns in 8-byte wire::Records:
// the same bytes as PageRank's records.
const Acc::Record* as_pagerank(const wire::Record* r) { return reinterpret_cast<const Acc::Record*>(r); }

struct Result {
  std::string order;    // random | blocked
  std::string variant;  // plain | ring-direct | ring-transport | ring-txrx
  std::vector<double> rates;  // records/s per trial
  uint64_t dropped = 0;
};

class Bench {
 public:
  Bench(const Options& o, Dataplane& dp, uint64_t n_records, uint32_t sigma_entries)
      : o_(o), dp_(dp), n_(n_records), port_(0), seq_(dp.auth().receive_isn(1, 0)) {
    lg_.num_local = sigma_entries;  // one node, one domain: all ScalarAccumulator reads of the graph
    lg_.domains = 1;
    lg_.domain_offset = {0, sigma_entries};
    acc_ = std::make_unique<Acc>(lg_, 0);
    recs_.resize(n_);
    std::mt19937_64 rng(o.seed);
    for (uint64_t i = 0; i < n_; ++i)
      recs_[i] = wire::Record{static_cast<uint32_t>(rng() & (sigma_entries - 1)),
                              std::bit_cast<uint32_t>(static_cast<float>(i & 1023) * 1e-3f)};
    const uint64_t frames = (n_ + wire::kMaxRecords - 1) / wire::kMaxRecords;
    frames_.resize(frames);
    for (auto& m : frames_) {
      m = dp_.alloc();
      if (m == nullptr) throw std::runtime_error("mbuf pool too small");
    }
    addr_ = bench::loopback_address(kJob);
  }
  ~Bench() {
    for (rte_mbuf* m : frames_) rte_pktmbuf_free(m);
    std::free(thp_);
  }

  // Groups the records by Σ block (a stable counting sort): each block's
  // updates then arrive together, in buckets of their own.
  void block_order() {
    const unsigned shift = std::countr_zero(uint64_t{o_.block_kib} * 1024 / sizeof(float));
    const size_t blocks = (size_t{lg_.num_local} >> shift) + 1;
    std::vector<uint64_t> at(blocks + 1, 0);
    for (const wire::Record& r : recs_) ++at[(r.index >> shift) + 1];
    for (size_t b = 0; b < blocks; ++b) at[b + 1] += at[b];
    std::vector<wire::Record> out(recs_.size());
    for (const wire::Record& r : recs_) out[at[r.index >> shift]++] = r;
    recs_.swap(out);
  }

  // Packs the records, in order, 177 to a frame.
  void pack() {
    for (uint64_t f = 0; f < frames_.size(); ++f) {
      const uint64_t first = f * wire::kMaxRecords;
      const auto count = static_cast<uint16_t>(std::min<uint64_t>(wire::kMaxRecords, n_ - first));
      rte_mbuf* m = frames_[f];
      uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
      write_bucket_header(frame, wire::Kind::kData, kJob, 1, 0, 0, count);
      std::memcpy(records(frame), recs_.data() + first, count * sizeof(wire::Record));
      m->data_len = m->pkt_len =
          write_l2_l4(frame, addr_, static_cast<uint16_t>(sizeof(wire::BucketHeader) + count * sizeof(wire::Record)));
    }
  }

  // ---- one pass of each variant; returns records folded ----

  uint64_t plain() {
    acc_->fold(as_pagerank(recs_.data()), static_cast<unsigned>(n_));
    return n_;
  }

  // A reference point, not the engine: the same loop as the accumulator's
  // fold into a Σ of the same size on transparent huge pages
  // (madvise(MADV_HUGEPAGE); THP is in madvise mode on these machines), to
  // show what the 4 KiB pages of the engine's std::vector cost.
  uint64_t plain_thp() {
    if (thp_ == nullptr) {
      const size_t bytes = size_t{lg_.num_local} * sizeof(float);
      thp_ = static_cast<float*>(std::aligned_alloc(kHuge, (bytes + kHuge - 1) / kHuge * kHuge));
      if (thp_ == nullptr) throw std::runtime_error("cannot allocate the THP Σ");
      thp_advised_ = madvise(thp_, bytes, MADV_HUGEPAGE) == 0;
      std::fill(thp_, thp_ + lg_.num_local, PageRank::identity());
    }
    float* sigma = thp_;
    const wire::Record* r = recs_.data();
    for (uint64_t i = 0; i < n_; ++i)
      sigma[r[i].index] = PageRank::combine(sigma[r[i].index], std::bit_cast<float>(r[i].value));
    return n_;
  }
  bool thp_advised() const { return thp_advised_; }

  // `sequenced`: number the frames for the transport's receive window.
  // `freed`: the receiver frees each frame, so an extra reference is taken
  // before tx (an atomic increment, and the free an atomic decrement, that a
  // receiver of NIC frames with one reference does not pay); otherwise the
  // receiver does not free and the frames simply come round again.
  template <class Receive>
  uint64_t through_ring(bool sequenced, bool freed, Receive&& receive) {
    uint64_t folded = 0;
    rte_mbuf* burst[kBurst];
    for (size_t f = 0; f < frames_.size(); f += kBurst) {
      const auto n = static_cast<uint16_t>(std::min<size_t>(kBurst, frames_.size() - f));
      for (uint16_t i = 0; i < n; ++i) {
        rte_mbuf* m = frames_[f + i];
        if (sequenced) bucket_header(rte_pktmbuf_mtod(m, uint8_t*))->seq = seq_++;
        if (freed) rte_mbuf_refcnt_update(m, 1);  // the receiver frees one reference; we keep the frame
        burst[i] = m;
      }
      const uint16_t sent = rte_eth_tx_burst(dp_.port_id(port_), 0, burst, n);
      if (sent != n) throw std::runtime_error("net_ring refused frames: is its ring full?");
      folded += receive();
    }
    return folded;
  }

  uint64_t ring_direct(bool freed) {
    return through_ring(false, freed, [this, freed] {
      rte_mbuf* rx[kBurst];
      const uint16_t n = dp_.rx_burst(port_, rx, kBurst);
      uint64_t folded = 0;
      for (uint16_t i = 0; i < n; ++i) {
        if (i + 1 < n) rte_prefetch0(rte_pktmbuf_mtod(rx[i + 1], void*));
        const uint8_t* frame = rte_pktmbuf_mtod(rx[i], const uint8_t*);
        DropReason why = validate_frame(frame, rte_pktmbuf_data_len(rx[i]), dp_.validation());
        if (why == DropReason::kNone) {
          const wire::BucketHeader* h = bucket_header(frame);
          const wire::Record* r = records(frame);
          if (unlikely(max_record_index(r, h->count) >= lg_.num_local)) {
            why = DropReason::kIndexOutOfRange;
          } else {
            ++dp_.rx_q[0].data_buckets;
            dp_.rx_q[0].records += h->count;
            acc_->fold(as_pagerank(r), h->count);
            folded += h->count;
          }
        }
        if (why != DropReason::kNone) dp_.rx_q[0].drop(why);
        if (freed) rte_pktmbuf_free(rx[i]);
      }
      return folded;
    });
  }

  uint64_t ring_transport(Transport& t) {
    return through_ring(true, true, [this, &t] {
      uint64_t folded = 0;
      t.receive_step([this, &folded](rte_mbuf*, unsigned, const uint8_t* frame, const wire::BucketHeader* h) {
        // Engine::receive_data without the superstep ledger.
        const wire::Record* r = records(frame);
        if (unlikely(max_record_index(r, h->count) >= lg_.num_local)) return DropReason::kIndexOutOfRange;
        ++dp_.rx_q[0].data_buckets;
        dp_.rx_q[0].records += h->count;
        acc_->fold(as_pagerank(r), h->count);
        folded += h->count;
        return DropReason::kNone;
      });
      return folded;
    });
  }

  uint64_t ring_txrx() {
    return through_ring(false, false, [this] {
      rte_mbuf* rx[kBurst];
      const uint16_t n = dp_.rx_burst(port_, rx, kBurst);
      uint64_t recs = 0;
      for (uint16_t i = 0; i < n; ++i) recs += bucket_header(rte_pktmbuf_mtod(rx[i], const uint8_t*))->count;
      return recs;
    });
  }

  uint64_t records_count() const { return n_; }
  uint64_t frame_count() const { return frames_.size(); }
  // Mean updates per Σ cache line per visit of a block in the blocked order.
  double updates_per_line_per_visit() const {
    const double lines = static_cast<double>(lg_.num_local) * sizeof(float) / 64;
    return static_cast<double>(n_) / lines;
  }

 private:
  const Options& o_;
  Dataplane& dp_;
  uint64_t n_;
  unsigned port_;
  LocalGraph lg_;
  std::unique_ptr<Acc> acc_;
  std::vector<wire::Record> recs_;
  std::vector<rte_mbuf*> frames_;
  FrameAddress addr_;
  uint32_t seq_;  // next sequence number of the transport variant's frames (from the flow's ISN)
  static constexpr size_t kHuge = 2u << 20;
  float* thp_ = nullptr;
  bool thp_advised_ = false;
};

void usage() {
  std::printf(
      "usage: bench_accumulation [EAL options] -- [--sigma-log2 K] [--records-log2 K] [--block-kib KIB]\n"
      "       [--trials N] [--warmup N] [--seed S] [--json PATH]\n"
      "EAL options must create a net_ring port (a loopback), e.g.\n"
      "  --no-pci --vdev net_ring0 -l 0 --no-huge -m 1536 --file-prefix bacc\n"
      "DPDK memory: about 2.4 KiB per frame (2^records-log2 / 177 frames) plus 64 MiB.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (const int rc = wg::bench::start(argc, argv, "bench_accumulation", usage); rc >= 0) return rc;
  Options o;
  try {
    bench::Args a(argc, argv);
    o.sigma_log2 = a.number<unsigned>("--sigma-log2", o.sigma_log2);
    o.records_log2 = a.number<int>("--records-log2", o.records_log2);
    o.block_kib = a.number<unsigned>("--block-kib", o.block_kib);
    o.trials = a.number<unsigned>("--trials", o.trials);
    o.warmup = a.number<unsigned>("--warmup", o.warmup);
    o.seed = a.number<uint64_t>("--seed", o.seed);
    o.json = a.string("--json", "");
    a.finish();
    if (o.records_log2 < 0) o.records_log2 = static_cast<int>(o.sigma_log2);
    if (o.sigma_log2 < 10 || o.sigma_log2 > 31 || o.records_log2 < 10 || o.records_log2 > 31 || o.trials == 0 ||
        !std::has_single_bit(o.block_kib))
      throw std::runtime_error("need 10 <= log2 sizes <= 31, --trials >= 1, --block-kib a power of two");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_accumulation: %s\n", e.what());
    usage();
    return 2;
  }
  if (rte_eth_dev_count_avail() != 1) {
    std::fprintf(stderr, "bench_accumulation: need exactly one port, a net_ring (e.g. --vdev net_ring0)\n");
    return 2;
  }

  int rc = 0;
  const double load_start = bench::loadavg();
  try {
    const uint64_t n = uint64_t{1} << o.records_log2;
    const uint32_t sigma = uint32_t{1} << o.sigma_log2;
    const unsigned frames = static_cast<unsigned>((n + wire::kMaxRecords - 1) / wire::kMaxRecords);
    Dataplane dp(DataplaneOptions{.job_token = kJob, .rank = 0, .nodes = 2, .mbufs = frames + 4096});
    bench::take_on_loopback_peer(dp, kJob);
    char port_name[RTE_ETH_NAME_MAX_LEN] = "?";
    rte_eth_dev_get_name_by_port(dp.port_id(0), port_name);
    const auto tb = Clock::now();
    Bench b(o, dp, n, sigma);
    std::printf("accumulation: Σ %u floats (%.0f MiB), %lu records in %lu buckets of up to %u, port %s, lcore %u; "
                "set up in %.2f s\n",
                sigma, sigma * 4.0 / (1 << 20), static_cast<unsigned long>(n), static_cast<unsigned long>(b.frame_count()),
                wire::kMaxRecords, port_name, rte_lcore_id(), bench::seconds_since(tb));
    std::printf("all figures: median [min, max] of %u rounds after %u warm-up; a round is one pass over every record "
                "by each variant in turn; load average %.2f\n",
                o.trials, o.warmup, load_start);
    std::fflush(stdout);

    TransportConfig tc;  // defaults of the wiregraph binary
    Transport transport(dp, tc);
    std::vector<Result> results;
    for (const char* order : {"random", "blocked"}) {
      if (std::string(order) == "blocked") b.block_order();
      b.pack();
      struct V {
        const char* name;
        std::function<uint64_t()> pass;
      };
      const V variants[] = {
          {"plain", [&] { return b.plain(); }},
          {"ring-direct", [&] { return b.ring_direct(false); }},
          {"ring-direct-free", [&] { return b.ring_direct(true); }},
          {"ring-transport", [&] { return b.ring_transport(transport); }},
          {"ring-txrx", [&] { return b.ring_txrx(); }},
          {"plain-thp", [&] { return b.plain_thp(); }},
      };
      // Variants interleaved round by round, so that a busy machine slows
      // them alike; ratios are taken within a round.
      std::vector<Result> rs;
      for (const V& v : variants) rs.push_back(Result{order, v.name, {}, 0});
      for (unsigned t = 0; t < o.warmup + o.trials; ++t) {
        for (size_t k = 0; k < rs.size(); ++k) {
          const uint64_t drops0 = dp.rx_q[0].total_dropped();
          const auto t0 = Clock::now();
          const uint64_t folded = variants[k].pass();
          const double sec = bench::seconds_since(t0);
          rs[k].dropped += dp.rx_q[0].total_dropped() - drops0;
          if (folded != n)
            throw std::runtime_error(std::string(variants[k].name) + ": folded " + std::to_string(folded) + " of " +
                                     std::to_string(n));
          if (t >= o.warmup) rs[k].rates.push_back(static_cast<double>(folded) / sec);
        }
      }
      for (Result& r : rs) {
        const Stat st = bench::summarize(r.rates);
        std::printf("  %-8s %-17s %8.1f M records/s [%.1f, %.1f]\n", order, r.variant.c_str(), st.median * 1e-6,
                    st.min * 1e-6, st.max * 1e-6);
        results.push_back(std::move(r));
      }
      std::fflush(stdout);
    }

    auto find = [&](const std::string& order, const std::string& variant) -> const Result& {
      for (const Result& r : results)
        if (r.order == order && r.variant == variant) return r;
      throw std::runtime_error("no result " + order + "/" + variant);
    };
    auto med = [&](const std::string& order, const std::string& variant) {
      return bench::summarize(find(order, variant).rates).median;
    };
    // Median over rounds of a/b, both measured in the same round.
    auto ratio = [&](const std::string& oa, const std::string& va, const std::string& ob, const std::string& vb) {
      const Result &a = find(oa, va), &b2 = find(ob, vb);
      std::vector<double> q;
      for (size_t t = 0; t < a.rates.size() && t < b2.rates.size(); ++t) q.push_back(a.rates[t] / b2.rates[t]);
      return bench::summarize(q);
    };
    // The fold path alone, without the loopback's tx/rx: 1/(1/ring - 1/txrx).
    auto derived = [&](const std::string& order, const std::string& variant) {
      const double x = med(order, variant), t = med(order, "ring-txrx");
      return x > 0 && t > x ? 1.0 / (1.0 / x - 1.0 / t) : 0.0;
    };
    // MACHINE-NOTES figures (one core, another machine kind) for reference.
    constexpr double kNotesRandom = 189e6, kNotesBlockedLo = 650e6, kNotesBlockedHi = 850e6;

    bench::ordered_json j;
    j["benchmark"] = "accumulation";
    j["sigma_entries"] = sigma;
    j["records"] = n;
    j["frames"] = b.frame_count();
    j["block_kib"] = o.block_kib;
    j["port"] = port_name;
    j["trials"] = o.trials;
    j["warmup"] = o.warmup;
    j["loadavg_start"] = load_start;
    j["loadavg_end"] = bench::loadavg();
    j["blocked_updates_per_line_per_visit"] = b.updates_per_line_per_visit();
    j["thp_madvise_ok"] = b.thp_advised();
    j["results"] = bench::ordered_json::array();
    for (const Result& r : results)
      j["results"].push_back({{"order", r.order},
                              {"variant", r.variant},
                              {"records_per_s", bench::stat_json(bench::summarize(r.rates))},
                              {"vs_plain_same_order", bench::stat_json(ratio(r.order, r.variant, r.order, "plain"))},
                              {"dropped", r.dropped}});

    std::printf("\nratios: median [min, max] over rounds of (variant / baseline) measured in the same round\n");
    for (const char* order : {"random", "blocked"}) {
      const Stat d = ratio(order, "ring-direct", order, "plain");
      const Stat df = ratio(order, "ring-direct-free", order, "plain");
      const Stat tr = ratio(order, "ring-transport", order, "plain");
      const double plain = med(order, "plain");
      std::printf("%s order vs the plain scatter-add: ring direct %.1f%% [%.1f, %.1f]; ring direct + free %.1f%%; "
                  "ring through Transport::receive_step %.1f%% [%.1f, %.1f]; without the loopback's tx/rx (derived "
                  "from medians) %.1f%% / %.1f%%\n",
                  order, 100 * d.median, 100 * d.min, 100 * d.max, 100 * df.median, 100 * tr.median, 100 * tr.min,
                  100 * tr.max, 100 * derived(order, "ring-direct") / plain,
                  100 * derived(order, "ring-transport") / plain);
      j[order] = {{"ring_direct_vs_plain", bench::stat_json(d)},
                  {"ring_direct_free_vs_plain", bench::stat_json(df)},
                  {"ring_transport_vs_plain", bench::stat_json(tr)},
                  {"ring_direct_without_txrx_vs_plain", derived(order, "ring-direct") / plain},
                  {"ring_transport_without_txrx_vs_plain", derived(order, "ring-transport") / plain},
                  {"target_80pct_met_direct", d.median >= 0.8},
                  {"target_80pct_met_transport", tr.median >= 0.8}};
    }
    const Stat gain_plain = ratio("blocked", "plain", "random", "plain");
    const Stat gain_ring = ratio("blocked", "ring-direct", "random", "ring-direct");
    const Stat gain_tr = ratio("blocked", "ring-transport", "random", "ring-transport");
    std::printf("blocked vs random (%u KiB blocks, %.1f updates per Σ cache line per block visit; rounds of the two "
                "orders paired by index): plain x%.2f, ring direct x%.2f [%.2f, %.2f], ring Transport x%.2f: blocked "
                "%s random\n",
                o.block_kib, b.updates_per_line_per_visit(), gain_plain.median, gain_ring.median, gain_ring.min,
                gain_ring.max, gain_tr.median, gain_ring.median > 1.0 ? "BEATS" : "does NOT beat");
    std::printf("vs MACHINE-NOTES (another machine kind): plain random %.2f x 189 M/s; plain blocked %.2f x 650 M/s; "
                "ring direct random %.2f x 189 M/s; ring direct blocked %.2f x 650 M/s\n",
                med("random", "plain") / kNotesRandom, med("blocked", "plain") / kNotesBlockedLo,
                med("random", "ring-direct") / kNotesRandom, med("blocked", "ring-direct") / kNotesBlockedLo);
    for (const char* order : {"random", "blocked"}) {
      const Stat d = ratio(order, "ring-direct", order, "plain");
      const Stat tr = ratio(order, "ring-transport", order, "plain");
      std::printf("target: accumulation >= 80%% of the plain scatter-add (%s): ring direct %s, through Transport %s\n",
                  order, d.median >= 0.8 ? "MET" : "NOT MET", tr.median >= 0.8 ? "MET" : "NOT MET");
    }
    std::printf("target: blocked beats random (ring direct): %s\n", gain_ring.median > 1.0 ? "MET" : "NOT MET");
    j["blocked_gain_plain"] = bench::stat_json(gain_plain);
    j["blocked_gain_ring_direct"] = bench::stat_json(gain_ring);
    j["blocked_gain_ring_transport"] = bench::stat_json(gain_tr);
    j["blocked_beats_random"] = gain_ring.median > 1.0;
    j["machine_notes"] = {{"plain_random_per_s", kNotesRandom},
                          {"blocked_lo_per_s", kNotesBlockedLo},
                          {"blocked_hi_per_s", kNotesBlockedHi}};
    if (!bench::write_json(o.json, j)) {
      std::fprintf(stderr, "bench_accumulation: cannot write %s\n", o.json.c_str());
      rc = 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_accumulation: error: %s\n", e.what());
    rc = 1;
  }
  rte_eal_cleanup();
  return rc;
}
