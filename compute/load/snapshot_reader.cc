#include "compute/load/snapshot_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "dataplane/crc32c.h"

namespace wg {

namespace {

// Reads sections in the order snapshot_writer.cc wrote them, each straight
// into its vector, keeping the CRC; a count that would run past the payload
// is refused before anything is allocated for it.
class SectionReader {
 public:
  SectionReader(std::string path, int fd, uint64_t payload) : path_(std::move(path)), fd_(fd), left_(payload) {}

  template <class Vec>
  void section(Vec& v, const char* what) {
    uint64_t n = 0;
    read(&n, sizeof n, what);
    using T = typename Vec::value_type;
    if (n > left_ / sizeof(T))
      throw SnapshotError(path_, 0, std::string(what) + ": " + std::to_string(n) + " elements, more than the " +
                                        std::to_string(left_) + " bytes left in the file (damaged)");
    v.resize(n);
    read(v.data(), n * sizeof(T), what);
    char pad[8];
    read(pad, (8 - n * sizeof(T) % 8) % 8, what);
  }
  uint64_t count(const char* what, uint64_t most) {
    std::vector<uint64_t> n;
    section(n, what);
    if (n.size() != 1 || n[0] > most)
      throw SnapshotError(path_, 0, std::string(what) + ": not a count of at most " + std::to_string(most) + " (damaged)");
    return n[0];
  }
  uint64_t left() const { return left_; }
  uint32_t crc() const { return crc_; }

 private:
  void read(void* p, size_t n, const char* what) {
    if (n > left_) throw SnapshotError(path_, 0, std::string(what) + ": the file ends early (truncated or damaged)");
    char* c = static_cast<char*>(p);
    size_t got = 0;
    while (got < n) {
      const ssize_t r = ::read(fd_, c + got, n - got);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) throw SnapshotError(path_, 0, std::string("read error: ") + std::strerror(errno));
      if (r == 0) throw SnapshotError(path_, 0, std::string(what) + ": the file ends early (truncated)");
      got += static_cast<size_t>(r);
    }
    crc_ = crc32c(reinterpret_cast<const uint8_t*>(c), n, crc_);
    left_ -= n;
  }

  std::string path_;
  int fd_;
  uint64_t left_;
  uint32_t crc_ = 0;
};

template <class T>
void expect(const std::string& path, const char* field, const T& found, const T& wanted, const char* why) {
  if (found != wanted)
    throw SnapshotError(path, 0, std::string("field ") + field + " is " + std::to_string(found) + ", the manifest says " +
                                     std::to_string(wanted) + " (" + why + ")");
}

SnapshotFileHeader read_header(const std::string& path, int fd, uint64_t size, unsigned rank, const SnapshotManifest& m) {
  SnapshotFileHeader h{};
  if (size < sizeof h || ::read(fd, &h, sizeof h) != static_cast<ssize_t>(sizeof h))
    throw SnapshotError(path, 0, std::to_string(size) + " bytes: shorter than a snapshot header (truncated)");
  if (std::memcmp(h.magic, kSnapshotMagic, sizeof h.magic) != 0)
    throw SnapshotError(path, 0, "is not a wiregraph snapshot file (no WGSNAP magic)");
  if (crc32c(reinterpret_cast<const uint8_t*>(&h), offsetof(SnapshotFileHeader, header_crc), 0) != h.header_crc)
    throw SnapshotError(path, 0, "the header's CRC does not match: the file is damaged");
  const char* other = "a file of another snapshot";
  expect(path, "format version", h.version, kSnapshotVersion, "this build reads only its own format");
  expect(path, "header_bytes", h.header_bytes, static_cast<uint32_t>(sizeof h), other);
  const std::string build(h.build, strnlen(h.build, sizeof h.build));
  if (build != m.build.substr(0, sizeof h.build - 1))
    throw SnapshotError(path, 0, "field build is '" + build + "', the manifest says '" + m.build + "' (" + other + ")");
  expect(path, "nodes", h.nodes, m.nodes, other);
  expect(path, "rank", h.rank, static_cast<uint32_t>(rank), "another node's file under this node's name");
  expect(path, "vertices", h.vertices, m.vertices, other);
  expect(path, "edges", h.edges, m.edges, other);
  expect(path, "fingerprint", h.fingerprint, m.fingerprint, other);
  expect(path, "domains", h.domains, m.rules.domains, other);
  expect<unsigned>(path, "weights", h.weights, static_cast<unsigned>(m.rules.weights), other);
  expect<unsigned>(path, "symmetrize", h.symmetrize, m.rules.symmetrize, other);
  expect<unsigned>(path, "drop_self_loops", h.drop_self_loops, m.rules.drop_self_loops, other);
  expect<unsigned>(path, "drop_duplicates", h.drop_duplicates, m.rules.drop_duplicates, other);
  expect<unsigned>(path, "degree_order", h.degree_order, m.rules.degree_order, other);
  if (size != sizeof h + h.payload_bytes)
    throw SnapshotError(path, 0, std::to_string(size) + " bytes, the header says " +
                                     std::to_string(sizeof h + h.payload_bytes) + " (truncated or damaged)");
  return h;
}

// What the engine indexes with these arrays, checked once: a damaged file
// that passed its CRC by chance (or a hand-made one) is refused, not read
// out of bounds.
void check_shape(const std::string& path, const LocalGraph& g) {
  auto bad = [&](const std::string& what) { throw SnapshotError(path, 0, what + " (damaged)"); };
  const unsigned k = g.domains;
  if (g.domain_offset.size() != k + 1u || g.domain_offset.back() != g.num_local) bad("domain offsets do not end at the vertex count");
  if (!g.global_of.empty() && g.global_of.size() != g.num_local) bad("the slot table does not have one entry per vertex");
  if (!g.original_id.empty() && g.original_id.size() != g.num_local) bad("the original ids do not have one entry per vertex");
  if (g.out_degree.size() != g.num_local || g.in_degree.size() != g.num_local) bad("the degrees do not have one entry per vertex");
  if (g.node_domain_offset.size() != g.partition.nodes) bad("the domain offsets are not one list per node");
  for (const auto& o : g.node_domain_offset)
    if (o.size() != k + 1u) bad("a node's domain offsets are not domains + 1");
  if (g.blocks.size() != size_t{g.partition.nodes} * k) bad("the edge blocks are not one per (node, domain)");
  for (const EdgeBlock& b : g.blocks) {
    if (b.offsets.size() != b.sources.size() + 1 || b.offsets.front() != 0 || b.offsets.back() != b.targets.size())
      bad("an edge block's offsets do not match its sources and targets");
    if ((!b.weights.empty() && b.weights.size() != b.targets.size()) ||
        (!b.real_weights.empty() && b.real_weights.size() != b.targets.size()))
      bad("an edge block's weights do not have one per edge");
    for (size_t i = 0; i < b.sources.size(); ++i)
      if (b.sources[i] >= g.num_local || b.offsets[i] > b.offsets[i + 1]) bad("an edge block's sources are out of range");
  }
}

}  // namespace

LocalGraph read_node_snapshot(const std::string& dir, unsigned rank, const SnapshotManifest& m, uint64_t* bytes_read) {
  const std::string path = snapshot_file_path(dir, rank);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw SnapshotError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st{};
  if (::fstat(fd, &st) != 0) throw SnapshotError(path, 0, std::string("cannot stat: ") + std::strerror(errno));
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  const SnapshotFileHeader h = read_header(path, fd, size, rank, m);
  LocalGraph g;
  g.partition.nodes = h.nodes;
  g.rank = h.rank;
  g.num_vertices = static_cast<VertexId>(h.vertices);
  g.num_edges = h.edges;
  g.num_local = h.num_local;
  g.domains = h.domains;
  SectionReader r(path, fd, h.payload_bytes);
  r.section(g.domain_offset, "domain offsets");
  r.section(g.global_of, "slot table");
  r.section(g.original_id, "original ids");
  r.section(g.out_degree, "out-degrees");
  r.section(g.in_degree, "in-degrees");
  g.node_domain_offset.resize(r.count("node count", h.nodes));
  for (std::vector<uint32_t>& o : g.node_domain_offset) r.section(o, "a node's domain offsets");
  g.blocks.resize(r.count("block count", uint64_t{h.nodes} * h.domains));
  for (EdgeBlock& b : g.blocks) {
    r.section(b.sources, "block sources");
    r.section(b.offsets, "block offsets");
    r.section(b.targets, "block targets");
    r.section(b.weights, "block weights");
    r.section(b.real_weights, "block real weights");
  }
  if (r.left() != 0)
    throw SnapshotError(path, 0, std::to_string(r.left()) + " bytes after the last section (damaged)");
  if (r.crc() != h.payload_crc) throw SnapshotError(path, 0, "the data's CRC does not match: the file is damaged");
  check_shape(path, g);
  if (bytes_read) *bytes_read = size;
  return g;
}

}  // namespace wg
