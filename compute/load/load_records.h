// What the loading phase (compute/load/graph_loader.h) sends and holds: its
// 12-byte records, and the chunked stores that keep edges until the build.
// Internal to compute/.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "compute/graph/edge_list.h"
#include "compute/partition/partition.h"

namespace wg::load {

// Every record of the loading phase: 12 bytes, three words.
//   edges:   (src, dst, weight)
//   degrees: (target's local index on the receiver, in-edges from the sender, 0)
//   slots:   (vertex, its slot on its owner, its domain)
struct __attribute__((packed, aligned(4))) LoadRecord {
  uint32_t index;
  uint32_t a;
  uint32_t b;
};
static_assert(sizeof(LoadRecord) == 12 && sizeof(LoadRecord) == sizeof(Edge));

// Every record of the loading phase when the program reads real weights
// (Graphalytics' SSSP): a LoadRecord and the edge's weight as a double (0 in
// the supersteps that carry no edges). 20 bytes: a record of a 16-byte message.
struct __attribute__((packed, aligned(4))) WideLoadRecord {
  LoadRecord r;
  double weight;
};
static_assert(sizeof(WideLoadRecord) == 20);

// Records in chunks, so that growing never copies (or doubles) what is
// held, and the build frees each chunk once it has placed its edges. The
// chunks are mapped, not taken from malloc, so that a freed chunk goes back
// to the system at once: from malloc (above its mmap threshold only until
// the first large free raises the threshold) they filled the heap and stayed
// resident after the build, under everything the run allocated next
// (PageRank on GAP's kron22 at P=2: 400 MB of heap through the whole run).
template <class Record>
class Chunks {
 public:
  void push(const Record& r) {
    if (fill_ == kChunk || chunks_.empty()) grow();
    chunks_.back()[fill_++] = r;
    ++size_;
  }
  void append(const Record* r, unsigned n) {
    while (n > 0) {
      if (fill_ == kChunk || chunks_.empty()) grow();
      const unsigned take = std::min<unsigned>(n, static_cast<unsigned>(kChunk - fill_));
      std::memcpy(chunks_.back().get() + fill_, r, take * sizeof(Record));
      fill_ += take;
      size_ += take;
      r += take;
      n -= take;
    }
  }
  // Calls f(record) for every record, in order; with `release`, frees each
  // chunk once it is done (the records are gone afterwards).
  template <class F>
  void for_each(F&& f, bool release = false) {
    for (size_t c = 0; c < chunks_.size(); ++c) {
      const size_t n = c + 1 == chunks_.size() ? fill_ : kChunk;
      for (size_t i = 0; i < n; ++i) f(chunks_[c][i]);
      if (release) chunks_[c].reset();
    }
    if (release) clear();
  }
  // Calls f(records, n) for every chunk, in order; with `release`, frees
  // each chunk once f returns (the records are gone afterwards).
  template <class F>
  void for_each_chunk(F&& f, bool release = false) {
    for (size_t c = 0; c < chunks_.size(); ++c) {
      f(static_cast<const Record*>(chunks_[c].get()), c + 1 == chunks_.size() ? fill_ : kChunk);
      if (release) chunks_[c].reset();
    }
    if (release) clear();
  }
  uint64_t size() const { return size_; }
  static constexpr size_t chunk_records() { return kChunk; }
  void clear() {
    chunks_.clear();
    chunks_.shrink_to_fit();
    fill_ = 0;
    size_ = 0;
  }

 private:
  static constexpr size_t kChunk = size_t{1} << 16;  // 256 KiB (4-byte records) to 896 KiB (14)
  static constexpr size_t kChunkBytes = kChunk * sizeof(Record);
  struct Unmap {
    void operator()(Record* p) const { munmap(p, kChunkBytes); }
  };
  void grow() {
    void* p = mmap(nullptr, kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    chunks_.emplace_back(static_cast<Record*>(p));
    fill_ = 0;
  }
  std::vector<std::unique_ptr<Record[], Unmap>> chunks_;
  size_t fill_ = 0;
  uint64_t size_ = 0;
};

// Edges held until the build, grouped as they arrive by local source (src
// div P) in buckets of 2^16 consecutive local sources (source_buckets,
// compute/partition/partition.h). A record keeps its source's low 16 bits
// (the bucket tells the rest), its target and its weight when kept. Without
// a weight, a target below 2^24 packs with them into 5 bytes (the graphs of
// up to 16.7 M vertices: GAP's kron24 included), a larger one takes 6;
// where (src, dst) took 8. A weighted record takes 10 bytes, 14 with a real
// weight. Both passes of the build's counting sort read the buckets in
// order, the second freeing each chunk once placed, so that the random
// writes of a bucket (counts, cursors, targets) fall in its 2^16 sources'
// share of their arrays. Grouping on arrival needs no V, which an edge list
// only tells at its end; a chunk's pages are resident only once written, so
// a bucket's part-filled last chunk costs at most a page.
class HeldEdges {
 public:
  HeldEdges(bool weighted, bool real, unsigned nodes, unsigned rank)
      : weighted_(weighted && !real), real_(real), nodes_(nodes), rank_(rank), by_nodes_(nodes) {}
  void push(VertexId src, VertexId dst, Weight w, double rw) {
    const uint32_t local = by_nodes_.div(src);
    if (local * nodes_ + rank_ != src) [[unlikely]] {
      note_foreign(src, dst);
      return;
    }
    push_local(local, dst, w, rw);
  }
  // The same for a source the caller knows is this node's, by its local
  // index (src div P): the loader's route has divided already.
  void push_local(uint32_t local, VertexId dst, Weight w, double rw) {
    const uint32_t b = local >> kSourceBucketShift;
    const auto low = static_cast<uint16_t>(local & kLowMask);
    if (real_) {
      bucket(reals_, b).push(Real{low, dst, rw});
    } else if (weighted_) {
      bucket(triples_, b).push(Triple{low, dst, w});
    } else if (dst < kPackedTargets) [[likely]] {
      bucket(packed_, b).push(Packed::of(low, dst));
      ++packed_size_;
    } else {
      bucket(pairs_, b).push(Pair{low, dst});
    }
    ++size_;
  }
  // Edge records as they travel: (src, dst, weight), and a real weight.
  void append(const LoadRecord* r, unsigned n) {
    for (unsigned i = 0; i < n; ++i) push(r[i].index, r[i].a, r[i].b, 0.0);
  }
  void append(const WideLoadRecord* r, unsigned n) {
    for (unsigned i = 0; i < n; ++i) push(r[i].r.index, r[i].r.a, Weight{1}, r[i].weight);
  }
  // Buckets that may hold edges: bucket b holds local sources [b << 16, (b + 1) << 16).
  size_t buckets() const {
    return real_ ? reals_.size() : weighted_ ? triples_.size() : std::max(packed_.size(), pairs_.size());
  }
  // f(src, dst, weight, real weight) for every edge of bucket b (weight 1
  // and real weight 0 when not kept): in the order pushed, except that
  // without weights the targets of 2^24 and up come after the others; with
  // `release`, each chunk is freed once done.
  template <class F>
  void for_each_in(size_t b, F&& f, bool release = false) {
    if (b >= buckets()) return;
    const VertexId first = static_cast<VertexId>(b << kSourceBucketShift);
    auto src = [&](uint16_t low) { return (first + low) * nodes_ + rank_; };
    uint64_t done = 0;
    if (real_) {
      reals_[b].for_each([&](const Real& r) { f(src(r.low), r.dst, Weight{1}, r.weight), ++done; }, release);
    } else if (weighted_) {
      triples_[b].for_each([&](const Triple& r) { f(src(r.low), r.dst, r.weight, 0.0), ++done; }, release);
    } else {
      uint64_t packed = 0;
      if (b < packed_.size())
        packed_[b].for_each([&](const Packed& r) { f(src(r.low()), r.dst(), Weight{1}, 0.0), ++packed; }, release);
      if (b < pairs_.size())
        pairs_[b].for_each([&](const Pair& r) { f(src(r.low), r.dst, Weight{1}, 0.0), ++done; }, release);
      done += packed;
      if (release) packed_size_ -= packed;
    }
    if (release) size_ -= done;
  }
  template <class F>
  void for_each(F&& f, bool release = false) {
    for (size_t b = 0; b < buckets(); ++b) for_each_in(b, f, release);
  }
  uint64_t size() const { return size_; }
  // What this store's edges take together.
  uint64_t bytes() const {
    const uint64_t record = real_ ? sizeof(Real) : weighted_ ? sizeof(Triple) : sizeof(Pair);
    return size_ * record - packed_size_ * (sizeof(Pair) - sizeof(Packed));
  }
  // Edges pushed whose source is not this node's (only corrupted frames or
  // a foreign job send them): counted, not held; the first one named.
  uint64_t foreign() const { return foreign_; }
  std::pair<VertexId, VertexId> first_foreign() const { return first_foreign_; }

 private:
  struct __attribute__((packed)) Pair {
    uint16_t low;
    uint32_t dst;
  };
  struct __attribute__((packed)) Triple {
    uint16_t low;
    uint32_t dst;
    Weight weight;
  };
  struct __attribute__((packed)) Real {
    uint16_t low;
    uint32_t dst;
    double weight;
  };
  // Low 16 bits of the source and a target below 2^24 in 40 bits.
  struct __attribute__((packed)) Packed {
    uint32_t word;
    uint8_t top;
    static Packed of(uint16_t low, uint32_t dst) {
      const uint64_t v = uint64_t{low} | uint64_t{dst} << kSourceBucketShift;
      return Packed{static_cast<uint32_t>(v), static_cast<uint8_t>(v >> 32)};
    }
    uint16_t low() const { return static_cast<uint16_t>(word & kLowMask); }
    uint32_t dst() const { return static_cast<uint32_t>((uint64_t{word} | uint64_t{top} << 32) >> kSourceBucketShift); }
  };
  static constexpr uint32_t kLowMask = (1u << kSourceBucketShift) - 1;
  static constexpr uint32_t kPackedTargets = uint32_t{1} << (40 - kSourceBucketShift);
  static_assert(sizeof(Pair) == 6 && sizeof(Packed) == 5 && sizeof(Triple) == 10 && sizeof(Real) == 14);
  template <class Record>
  static Chunks<Record>& bucket(std::vector<Chunks<Record>>& buckets, uint32_t b) {
    if (b >= buckets.size()) [[unlikely]]
      buckets.resize(size_t{b} + 1);
    return buckets[b];
  }
  void note_foreign(VertexId src, VertexId dst) {
    if (foreign_++ == 0) first_foreign_ = {src, dst};
  }
  bool weighted_, real_;
  unsigned nodes_, rank_;
  detail::FastDiv by_nodes_;
  std::vector<Chunks<Packed>> packed_;
  std::vector<Chunks<Pair>> pairs_;
  std::vector<Chunks<Triple>> triples_;
  std::vector<Chunks<Real>> reals_;
  uint64_t size_ = 0;
  uint64_t packed_size_ = 0;  // of size_, in Packed records
  uint64_t foreign_ = 0;
  std::pair<VertexId, VertexId> first_foreign_{0, 0};
};

}  // namespace wg::load
