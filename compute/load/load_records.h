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
  static constexpr size_t kChunk = size_t{1} << 16;  // 512 or 768 KiB
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

// Edges held until the build: 8 bytes each (src, dst) for programs that
// ignore weights, 12 with the weight, 20 with a real weight.
class EdgeStore {
 public:
  explicit EdgeStore(bool weighted, bool real = false) : weighted_(weighted && !real), real_(real) {}
  void push(VertexId src, VertexId dst, Weight w, double rw) {
    if (real_)
      reals_.push(WideLoadRecord{LoadRecord{src, dst, 0}, rw});
    else if (weighted_)
      triples_.push(LoadRecord{src, dst, w});
    else
      pairs_.push(Pair{src, dst});
  }
  void append(const WideLoadRecord* r, unsigned n) { reals_.append(r, n); }
  void append(const LoadRecord* r, unsigned n) {
    if (weighted_) {
      triples_.append(r, n);
      return;
    }
    for (unsigned i = 0; i < n; ++i) pairs_.push(Pair{r[i].index, r[i].a});
  }
  // f(src, dst, weight, real weight) for every edge, in order (weight 1 and
  // real weight 0 when not kept).
  template <class F>
  void for_each(F&& f, bool release = false) {
    if (real_)
      reals_.for_each([&](const WideLoadRecord& r) { f(r.r.index, r.r.a, Weight{1}, r.weight); }, release);
    else if (weighted_)
      triples_.for_each([&](const LoadRecord& r) { f(r.index, r.a, r.b, 0.0); }, release);
    else
      pairs_.for_each([&](const Pair& p) { f(p.src, p.dst, Weight{1}, 0.0); }, release);
  }
  uint64_t size() const { return real_ ? reals_.size() : weighted_ ? triples_.size() : pairs_.size(); }

 private:
  struct Pair {
    uint32_t src, dst;
  };
  bool weighted_, real_;
  Chunks<WideLoadRecord> reals_;
  Chunks<LoadRecord> triples_;
  Chunks<Pair> pairs_;
};

// The held edges again, regrouped by local source for the build
// (compute/partition/partition.h, plan_source_buckets): bucket b holds the
// edges of local sources [b << shift, (b + 1) << shift), local source = src div
// P, in the order they were pushed. Read bucket by bucket, a source's edges
// come in the order of the stores they were drained from.
class SourceBuckets {
 public:
  SourceBuckets(bool weighted, bool real, unsigned nodes, SourceBucketPlan plan)
      : by_nodes_(nodes), shift_(plan.shift) {
    buckets_.reserve(plan.count);
    for (uint32_t b = 0; b < plan.count; ++b) buckets_.emplace_back(weighted, real);
  }
  // `src` must be one of this node's P-strided sources within the plan's
  // local vertices (the loader checks received edges before).
  void push(VertexId src, VertexId dst, Weight w, double rw) {
    buckets_[by_nodes_.div(src) >> shift_].push(src, dst, w, rw);
  }
  // f(src, dst, weight, real weight) for every edge, bucket by bucket; with
  // `release`, each chunk is freed once done.
  template <class F>
  void for_each(F&& f, bool release = false) {
    for (EdgeStore& b : buckets_) b.for_each(f, release);
  }
  uint64_t size() const {
    uint64_t n = 0;
    for (const EdgeStore& b : buckets_) n += b.size();
    return n;
  }
  size_t buckets() const { return buckets_.size(); }

 private:
  detail::FastDiv by_nodes_;
  unsigned shift_;
  std::vector<EdgeStore> buckets_;
};

}  // namespace wg::load
