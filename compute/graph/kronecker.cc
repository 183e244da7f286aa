#include "compute/graph/kronecker.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "compute/graph/graph_reader.h"

namespace wg {

namespace {

constexpr unsigned kMaxScale = 31;
constexpr unsigned kMaxDegree = 1024;
// Edges per independently seeded block. The block layout, not the thread
// count, fixes which random numbers each edge gets, so any number of threads
// produces the same graph.
constexpr uint64_t kBlockEdges = KroneckerGenerator::kBlockEdges;

// R-MAT quadrant thresholds on a 32-bit uniform: A, A+B, A+B+C.
constexpr double kA = KroneckerGenerator::kA, kB = KroneckerGenerator::kB, kC = KroneckerGenerator::kC;
constexpr uint64_t kTwo32 = uint64_t{1} << 32;
constexpr auto kThreshA = static_cast<uint32_t>(kA * kTwo32);
constexpr auto kThreshAB = static_cast<uint32_t>((kA + kB) * kTwo32);
constexpr auto kThreshABC = static_cast<uint32_t>((kA + kB + kC) * kTwo32);

uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// splitmix64: tiny, fast, and fully specified here, so every node (whatever
// its standard library) derives the same graph and the same fingerprint. The
// std:: distributions are implementation-defined and are avoided for that
// reason.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    return mix64(state_);
  }

 private:
  uint64_t state_;
};

// Independent streams for the permutation and for each block.
uint64_t stream_seed(uint64_t seed, uint64_t stream) {
  return mix64(mix64(seed ^ 0x6a09e667f3bcc909ULL) + stream * 0x9e3779b97f4a7c15ULL);
}
constexpr uint64_t kPermutationStream = ~uint64_t{0};

std::string spec_name(const KroneckerSpec& s) {
  return "kron:" + std::to_string(s.scale) + ":" + std::to_string(s.degree) + ":" + std::to_string(s.seed);
}

void check_range(const std::string& name, const char* what, uint64_t v, uint64_t max) {
  if (v < 1 || v > max)
    throw GraphError(name, 0,
                     std::string(what) + " " + std::to_string(v) + " is out of range 1.." + std::to_string(max));
}

void validate(const KroneckerSpec& s, const std::string& name) {
  check_range(name, "scale", s.scale, kMaxScale);
  check_range(name, "degree", s.degree, kMaxDegree);
}

// A keyed bijection on [0, 2^scale) standing in for a shuffled id table:
// xor with a key, multiplication by an odd number and a right xorshift are
// each invertible modulo 2^scale, so their composition is a permutation.
// Three rounds spread every input bit over the output, which is all the
// shuffle is for (degree must not follow id). Unlike a Fisher-Yates table it
// needs no memory (16 GiB of table at scale 31), no sequential pass, and no
// cache miss per endpoint, which cost half the run time at scale 22.
class IdPermutation {
 public:
  IdPermutation(unsigned scale, uint64_t seed)
      : mask_((uint64_t{1} << scale) - 1), shift_(std::max(1u, (scale + 1) / 2)) {
    Rng rng(stream_seed(seed, kPermutationStream));
    for (int r = 0; r < kRounds; ++r) {
      key_[r] = rng.next() & mask_;
      mult_[r] = rng.next() | 1;
    }
  }
  VertexId operator()(uint64_t x) const {
    for (int r = 0; r < kRounds; ++r) {
      x = ((x ^ key_[r]) * mult_[r]) & mask_;
      x ^= x >> shift_;
    }
    return static_cast<VertexId>(x);
  }

 private:
  static constexpr int kRounds = 3;
  uint64_t mask_;
  unsigned shift_;
  uint64_t key_[kRounds];
  uint64_t mult_[kRounds];
};

// Each level picks a quadrant with one 32-bit draw; a 64-bit draw serves two
// levels. Comparisons rather than branches because the choice is random and
// would defeat the branch predictor.
// Edges [0, count) of the block, in chunks of `chunk` (out has room for
// one), each passed to sink(edges, n); chunk = count writes them all to out.
template <class Sink>
void generate_block(const KroneckerSpec& s, const IdPermutation& perm, uint64_t block, Edge* out, uint64_t count,
                    uint64_t chunk, const Sink& sink) {
  Rng rng(stream_seed(s.seed, block));
  uint64_t k = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t src = 0, dst = 0, bits = 0;
    for (unsigned level = 0; level < s.scale; ++level) {
      if ((level & 1) == 0) bits = rng.next();
      const auto u = static_cast<uint32_t>(bits);
      bits >>= 32;
      const uint64_t src_bit = u >= kThreshAB;  // quadrant C or D
      const uint64_t dst_bit = (u >= kThreshA) & ((u < kThreshAB) | (u >= kThreshABC));  // quadrant B or D
      src = (src << 1) | src_bit;
      dst = (dst << 1) | dst_bit;
    }
    const auto weight = static_cast<Weight>(((rng.next() >> 32) * 255) >> 32) + 1;
    out[k++] = Edge{perm(src), perm(dst), weight};
    if (k == chunk) {
      sink(out, k);
      k = 0;
    }
  }
  if (k > 0) sink(out, k);
}

void generate_block(const KroneckerSpec& s, const IdPermutation& perm, uint64_t block, Edge* out, uint64_t count) {
  generate_block(s, perm, block, out, count, count, [](const Edge*, uint64_t) {});
}

uint64_t parse_field(const std::string& spec, std::string_view tok, const char* what) {
  uint64_t v = 0;
  const char* end = tok.data() + tok.size();
  const auto [ptr, ec] = std::from_chars(tok.data(), end, v);
  if (tok.empty() || ec != std::errc() || ptr != end)
    throw GraphError(spec, 0, std::string(what) + " '" + std::string(tok) +
                                  "' is not a non-negative integer; expected kron:SCALE:DEGREE[:SEED]");
  return v;
}

}  // namespace

KroneckerSpec parse_kronecker_spec(const std::string& spec) {
  constexpr std::string_view kPrefix = "kron:";
  if (spec.rfind(kPrefix, 0) != 0) throw GraphError(spec, 0, "not a Kronecker spec; expected kron:SCALE:DEGREE[:SEED]");
  std::vector<std::string_view> parts;
  std::string_view rest(spec);
  rest.remove_prefix(kPrefix.size());
  for (;;) {
    const size_t colon = rest.find(':');
    parts.push_back(rest.substr(0, colon));
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  if (parts.size() < 2 || parts.size() > 3)
    throw GraphError(spec, 0, "expected kron:SCALE:DEGREE[:SEED] (" + std::to_string(parts.size()) +
                                  " field" + (parts.size() == 1 ? "" : "s") + " after 'kron:')");
  const uint64_t scale = parse_field(spec, parts[0], "scale");
  const uint64_t degree = parse_field(spec, parts[1], "degree");
  // Range-check before narrowing so that e.g. 2^32 + 1 is reported, not wrapped.
  check_range(spec, "scale", scale, kMaxScale);
  check_range(spec, "degree", degree, kMaxDegree);
  KroneckerSpec s;
  s.scale = static_cast<unsigned>(scale);
  s.degree = static_cast<unsigned>(degree);
  if (parts.size() == 3) s.seed = parse_field(spec, parts[2], "seed");
  return s;
}

void check_generated_vertices(const std::string& spec, const KroneckerSpec& k, uint64_t vertices) {
  const uint64_t generated = uint64_t{1} << k.scale;
  if (vertices != 0 && vertices != generated)
    throw GraphError(spec, 0, "--vertices " + std::to_string(vertices) + " contradicts the generator, which makes " +
                                  std::to_string(generated) + " vertices (2^" + std::to_string(k.scale) +
                                  "): drop --vertices, or give " + std::to_string(generated));
}

EdgeList generate_kronecker(const KroneckerSpec& spec) {
  const std::string name = spec_name(spec);
  validate(spec, name);
  const uint64_t num_vertices = uint64_t{1} << spec.scale;
  const uint64_t num_edges = num_vertices * spec.degree;
  EdgeList g;
  g.num_vertices = static_cast<VertexId>(num_vertices);
  g.weighted = true;
  try {
    g.edges.resize(num_edges);
  } catch (const std::bad_alloc&) {
    throw GraphError(name, 0, "not enough memory for " + std::to_string(num_edges) + " edges (" +
                                  std::to_string(num_edges * sizeof(Edge) >> 20) + " MiB)");
  } catch (const std::length_error&) {
    throw GraphError(name, 0, "too many edges: " + std::to_string(num_edges));
  }
  const IdPermutation perm(spec.scale, spec.seed);

  const uint64_t num_blocks = (num_edges + kBlockEdges - 1) / kBlockEdges;
  std::atomic<uint64_t> next_block{0};
  auto worker = [&] {
    for (uint64_t b; (b = next_block.fetch_add(1, std::memory_order_relaxed)) < num_blocks;) {
      const uint64_t first = b * kBlockEdges;
      generate_block(spec, perm, b, g.edges.data() + first, std::min(kBlockEdges, num_edges - first));
    }
  };
  const uint64_t threads =
      std::min<uint64_t>(std::max(1u, std::thread::hardware_concurrency()), num_blocks);
  std::vector<std::thread> pool;
  // Failing to start a thread only costs speed: the others take its blocks.
  try {
    for (uint64_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  } catch (const std::system_error&) {
  }
  worker();
  for (std::thread& t : pool) t.join();
  return g;
}

KroneckerGenerator::KroneckerGenerator(const KroneckerSpec& spec) : spec_(spec) { validate(spec, spec_name(spec)); }

uint64_t KroneckerGenerator::edges_in_block(uint64_t b) const {
  const uint64_t first = b * kBlockEdges;
  return first < num_edges() ? std::min(kBlockEdges, num_edges() - first) : 0;
}

uint64_t KroneckerGenerator::block(uint64_t b, Edge* out) const {
  const uint64_t count = edges_in_block(b);
  // The permutation is a few draws from its own stream: cheaper to remake
  // per block of 65536 edges than to share.
  generate_block(spec_, IdPermutation(spec_.scale, spec_.seed), b, out, count);
  return count;
}

void KroneckerGenerator::block_in_chunks(uint64_t b, Edge* out,
                                         const std::function<void(const Edge*, uint64_t)>& sink) const {
  generate_block(spec_, IdPermutation(spec_.scale, spec_.seed), b, out, edges_in_block(b), kChunkEdges, sink);
}

}  // namespace wg
