#include "compute/load/snapshot_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "dataplane/crc32c.h"

namespace wg {

namespace {

// Appends sections to a file through a buffer, keeping the payload's CRC.
class SectionWriter {
 public:
  SectionWriter(std::string path, int fd) : path_(std::move(path)), fd_(fd) { buf_.reserve(kBuffer); }

  template <class Vec>
  void section(const Vec& v) {
    const uint64_t n = v.size();
    append(&n, sizeof n);
    append(v.data(), n * sizeof(typename Vec::value_type));
    static const char kZeros[8] = {};
    append(kZeros, (8 - n * sizeof(typename Vec::value_type) % 8) % 8);
  }
  void flush() {
    write_all(buf_.data(), buf_.size());
    buf_.clear();
  }
  uint64_t bytes() const { return bytes_; }
  uint32_t crc() const { return crc_; }

 private:
  static constexpr size_t kBuffer = size_t{1} << 20;

  void append(const void* p, size_t n) {
    crc_ = crc32c(static_cast<const uint8_t*>(p), n, crc_);
    bytes_ += n;
    if (buf_.size() + n > kBuffer) flush();
    if (n >= kBuffer) {
      write_all(p, n);  // a large array goes straight from where it lies
      return;
    }
    buf_.insert(buf_.end(), static_cast<const char*>(p), static_cast<const char*>(p) + n);
  }
  void write_all(const void* p, size_t n) {
    const char* c = static_cast<const char*>(p);
    while (n > 0) {
      const ssize_t w = ::write(fd_, c, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) throw SnapshotError(path_, 0, std::string("cannot write: ") + std::strerror(errno));
      c += w;
      n -= static_cast<size_t>(w);
    }
  }

  std::string path_;
  int fd_;
  std::vector<char> buf_;
  uint64_t bytes_ = 0;
  uint32_t crc_ = 0;
};

SnapshotFileHeader header_of(const LocalGraph& g, const SnapshotManifest& m) {
  SnapshotFileHeader h{};
  std::memcpy(h.magic, kSnapshotMagic, sizeof h.magic);
  h.version = kSnapshotVersion;
  h.header_bytes = sizeof h;
  std::strncpy(h.build, m.build.c_str(), sizeof h.build - 1);
  h.nodes = g.partition.nodes;
  h.rank = g.rank;
  h.vertices = g.num_vertices;
  h.edges = g.num_edges;
  h.fingerprint = m.fingerprint;
  h.num_local = g.num_local;
  h.domains = g.domains;
  h.symmetrize = m.rules.symmetrize;
  h.drop_self_loops = m.rules.drop_self_loops;
  h.drop_duplicates = m.rules.drop_duplicates;
  h.weights = static_cast<uint8_t>(m.rules.weights);
  h.degree_order = m.rules.degree_order;
  return h;
}

void write_payload(SectionWriter& w, const LocalGraph& g) {
  w.section(g.domain_offset);
  w.section(g.global_of);
  w.section(g.original_id);
  w.section(g.out_degree);
  w.section(g.in_degree);
  w.section(std::vector<uint64_t>{g.node_domain_offset.size()});
  for (const std::vector<uint32_t>& o : g.node_domain_offset) w.section(o);
  w.section(std::vector<uint64_t>{g.blocks.size()});
  for (const EdgeBlock& b : g.blocks) {
    w.section(b.sources);
    w.section(b.offsets);
    w.section(b.targets);
    w.section(b.weights);
    w.section(b.real_weights);
  }
  w.flush();
}

}  // namespace

uint64_t write_node_snapshot(const std::string& dir, const LocalGraph& g, const SnapshotManifest& m) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw SnapshotError(dir, 0, "cannot create the snapshot directory: " + ec.message());
  const std::string path = snapshot_file_path(dir, g.rank), tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw SnapshotError(tmp, 0, std::string("cannot create: ") + std::strerror(errno));
  try {
    SnapshotFileHeader h = header_of(g, m);
    if (::lseek(fd, sizeof h, SEEK_SET) < 0) throw SnapshotError(tmp, 0, "cannot seek");
    SectionWriter w(tmp, fd);
    write_payload(w, g);
    h.payload_bytes = w.bytes();
    h.payload_crc = w.crc();
    h.header_crc = crc32c(reinterpret_cast<const uint8_t*>(&h), offsetof(SnapshotFileHeader, header_crc), 0);
    if (::pwrite(fd, &h, sizeof h, 0) != static_cast<ssize_t>(sizeof h))
      throw SnapshotError(tmp, 0, std::string("cannot write the header: ") + std::strerror(errno));
    // On disk before it gets its name: a crash leaves the old file or the whole new one.
    if (::fdatasync(fd) != 0) throw SnapshotError(tmp, 0, std::string("cannot sync: ") + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw SnapshotError(path, 0, std::string("cannot rename the temporary file over it: ") + std::strerror(errno));
  return std::filesystem::file_size(path);
}

}  // namespace wg
