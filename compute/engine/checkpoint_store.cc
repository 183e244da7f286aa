#include "compute/engine/checkpoint_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <rte_hash_crc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace wg {

namespace {

constexpr char kMagic[8] = {'W', 'G', 'C', 'K', 'P', 'T', '0', '1'};
constexpr const char* kCommitName = "COMMIT";

struct FileHeader {
  char magic[8];
  CheckpointFingerprint fp;
  uint32_t superstep;
  uint32_t next_phase;
  AggregateBytes aggregate;
  uint64_t sections;
  uint64_t bytes;  // of the sections
};
static_assert(std::is_trivially_copyable_v<FileHeader>);

std::string errno_text() { return std::strerror(errno); }

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() {
    const int f = fd_;
    fd_ = -1;
    return f;
  }

 private:
  int fd_;
};

void write_all(int fd, const void* data, size_t n, const std::string& path) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw CheckpointError("checkpoint: cannot write " + path + ": " + errno_text());
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void read_all(int fd, void* data, size_t n, const std::string& path) {
  auto* p = static_cast<uint8_t*>(data);
  while (n > 0) {
    const ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw CheckpointError("checkpoint " + path + ": cannot read: " + errno_text());
    if (r == 0) throw CheckpointError("checkpoint " + path + " is shorter than its header says (torn?)");
    p += r;
    n -= static_cast<size_t>(r);
  }
}

void fsync_dir(const std::string& dir) {
  Fd d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY));
  if (d.get() >= 0) ::fsync(d.get());  // best effort: some file systems refuse it on directories
}

// Writes `text` to DIR/NAME through DIR/NAME.tmp, fsynced and renamed.
void write_durably(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name, tmp = path + ".tmp";
  Fd fd(::open(tmp.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644));
  if (fd.get() < 0) throw CheckpointError("checkpoint: cannot create " + tmp + ": " + errno_text());
  write_all(fd.get(), text.data(), text.size(), tmp);
  if (::fsync(fd.get()) != 0) throw CheckpointError("checkpoint: cannot fsync " + tmp + ": " + errno_text());
  ::close(fd.release());
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    throw CheckpointError("checkpoint: cannot rename " + tmp + " to " + path + ": " + errno_text());
  fsync_dir(dir);
}

uint32_t crc_of(const void* data, size_t n, uint32_t crc) {
  return rte_hash_crc(data, static_cast<uint32_t>(n), crc);
}

uint32_t crc_of_large(const uint8_t* data, uint64_t n, uint32_t crc) {
  constexpr uint64_t kStep = 1u << 30;
  for (uint64_t at = 0; at < n; at += kStep) crc = crc_of(data + at, std::min(kStep, n - at), crc);
  return crc;
}

// "node-3.step-12" -> (3, 12); false for any other name.
bool parse_node_file(const char* name, unsigned* rank, uint32_t* step) {
  unsigned r = 0;
  uint32_t s = 0;
  int used = 0;
  if (std::sscanf(name, "node-%u.step-%u%n", &r, &s, &used) != 2 || name[used] != '\0') return false;
  *rank = r;
  *step = s;
  return true;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

// The first field in which a checkpoint's fingerprint differs from the job's, named.
std::string mismatch(const CheckpointFingerprint& file, const CheckpointFingerprint& job,
                     const std::function<std::string(uint32_t)>& name_program) {
  auto num = [](uint64_t v) { return std::to_string(v); };
  auto program = [&name_program, &num](uint32_t id) { return name_program ? name_program(id) : "id " + num(id); };
  if (file.program_id != job.program_id)
    return "the program (it is a checkpoint of " + program(file.program_id) + ", this job runs " +
           program(job.program_id) + ")";
  if (file.nodes != job.nodes) return "the number of nodes (it has " + num(file.nodes) + ", this job " + num(job.nodes) + ")";
  if (file.rank != job.rank) return "the rank (it is node " + num(file.rank) + "'s)";
  if (file.input_kind != job.input_kind || file.input_size != job.input_size || file.input_digest != job.input_digest)
    return "the graph (an input of " + num(file.input_size) + " bytes or edges, digest " + hex(file.input_digest) +
           "; this job's " + num(job.input_size) + ", " + hex(job.input_digest) + ")";
  if (file.params_digest != job.params_digest)
    return "the program's parameters or the options every node must agree on (--source, --iterations, "
           "--damping, --domains, ...: digest " + hex(file.params_digest) + ", this job's " + hex(job.params_digest) + ")";
  if (file.partition_digest != job.partition_digest) return "the partition (this node's vertices)";
  return "";
}

// What COMMIT says (CheckpointStore::commit writes it): the superstep every
// node wrote, and the job's number of nodes (0 in a marker without the line).
struct CommitMarker {
  uint32_t superstep = 0;
  unsigned long nodes = 0;
};

// dir's COMMIT; none when there is no file. Throws CheckpointError when the
// file is not one wiregraph writes.
std::optional<CommitMarker> read_commit(const std::string& dir) {
  const std::string path = dir + "/" + kCommitName;
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string first, word;
  uint64_t step = 0;
  std::getline(in, first);
  if (first != "wiregraph checkpoint" || !(in >> word >> step) || word != "superstep" || step > UINT32_MAX)
    throw CheckpointError("checkpoint marker " + path + " is not one wiregraph writes (its first lines should be "
                          "'wiregraph checkpoint' and 'superstep N')");
  CommitMarker m{.superstep = static_cast<uint32_t>(step)};
  if (in >> word >> m.nodes && word != "nodes") m.nodes = 0;
  return m;
}

}  // namespace

CheckpointFingerprint CheckpointFingerprint::of(const JobIdentity& job, unsigned nodes, unsigned rank,
                                                uint64_t partition) {
  CheckpointFingerprint f;
  f.program_id = job.program_id;
  f.params_digest = job.params_digest;
  f.input_kind = job.input_kind;
  f.input_size = job.input_size;
  f.input_digest = job.input_digest;
  f.nodes = nodes;
  f.rank = rank;
  f.partition_digest = partition;
  return f;
}

uint64_t digest_with_resume_point(uint64_t params_digest, const std::string& dir) {
  const std::optional<uint32_t> step = CheckpointStore::committed(dir);
  const uint64_t point = step ? *step : UINT64_MAX;  // none: the resume itself says so, once past the hello
  return (params_digest ^ (0x9e3779b97f4a7c15ULL + point)) * 0x100000001b3ULL;
}

uint64_t partition_digest(std::span<const uint32_t> global_ids, uint64_t num_vertices, uint64_t edges) {
  uint32_t lo = crc_of_large(reinterpret_cast<const uint8_t*>(global_ids.data()), global_ids.size_bytes(), 0);
  uint32_t hi = crc_of(&num_vertices, sizeof num_vertices, 0x9e3779b9u);
  hi = crc_of(&edges, sizeof edges, hi);
  const uint64_t n = global_ids.size();
  hi = crc_of(&n, sizeof n, hi);
  return uint64_t{hi} << 32 | lo;
}

CheckpointStore::CheckpointStore(std::string dir, unsigned rank, unsigned nodes, const CheckpointFingerprint& fp,
                                 std::function<std::string(uint32_t)> name_program)
    : dir_(std::move(dir)), rank_(rank), nodes_(nodes), fp_(fp), name_program_(std::move(name_program)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  struct stat st{};
  if (::stat(dir_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw CheckpointError("--checkpoint-dir " + dir_ + ": not a directory" + (ec ? " (" + ec.message() + ")" : ""));
}

std::string CheckpointStore::node_file(unsigned rank, uint32_t superstep) const {
  return dir_ + "/node-" + std::to_string(rank) + ".step-" + std::to_string(superstep);
}

uint64_t CheckpointStore::write(const CheckpointPoint& at, std::span<const std::span<const uint8_t>> sections,
                                bool crash_midway) {
  FileHeader h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.fp = fp_;
  h.superstep = at.superstep;
  h.next_phase = at.next_phase;
  h.aggregate = at.aggregate;
  h.sections = sections.size();
  for (const auto& s : sections) h.bytes += s.size();
  const std::string path = node_file(rank_, at.superstep), tmp = path + ".tmp";
  Fd fd(::open(tmp.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644));
  if (fd.get() < 0) throw CheckpointError("checkpoint: cannot create " + tmp + ": " + errno_text());
  uint32_t crc = crc_of(&h, sizeof h, 0);
  write_all(fd.get(), &h, sizeof h, tmp);
  std::vector<uint64_t> sizes;
  for (const auto& s : sections) sizes.push_back(s.size());
  write_all(fd.get(), sizes.data(), sizes.size() * sizeof(uint64_t), tmp);
  crc = crc_of(sizes.data(), sizes.size() * sizeof(uint64_t), crc);
  for (size_t i = 0; i < sections.size(); ++i) {
    if (crash_midway && i == sections.size() / 2) {
      ::fsync(fd.get());  // what a crash leaves: a partly written .tmp
      std::raise(SIGKILL);
    }
    write_all(fd.get(), sections[i].data(), sections[i].size(), tmp);
    crc = crc_of_large(sections[i].data(), sections[i].size(), crc);
  }
  write_all(fd.get(), &crc, sizeof crc, tmp);
  if (::fsync(fd.get()) != 0) throw CheckpointError("checkpoint: cannot fsync " + tmp + ": " + errno_text());
  ::close(fd.release());
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    throw CheckpointError("checkpoint: cannot rename " + tmp + " to " + path + ": " + errno_text());
  fsync_dir(dir_);
  return sizeof h + sizes.size() * sizeof(uint64_t) + h.bytes + sizeof crc;
}

bool CheckpointStore::commit(uint32_t superstep, std::string* missing) {
  for (unsigned r = 0; r < nodes_; ++r) {
    struct stat st{};
    if (::stat(node_file(r, superstep).c_str(), &st) != 0) {
      if (missing) *missing = node_file(r, superstep);
      return false;
    }
  }
  write_durably(dir_, kCommitName,
                "wiregraph checkpoint\nsuperstep " + std::to_string(superstep) + "\nnodes " + std::to_string(nodes_) + "\n");
  // Older checkpoints, and what writers killed midway left.
  if (DIR* d = ::opendir(dir_.c_str())) {
    std::vector<std::string> old;
    while (const dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      const bool tmp = name.size() > 4 && name.ends_with(".tmp") && name.starts_with("node-");
      if (tmp) name.resize(name.size() - 4);
      unsigned r = 0;
      uint32_t s = 0;
      if (parse_node_file(name.c_str(), &r, &s) && (s < superstep || (tmp && s <= superstep)))
        old.push_back(dir_ + "/" + e->d_name);
    }
    ::closedir(d);
    for (const std::string& f : old) ::unlink(f.c_str());
  }
  return true;
}

std::optional<uint32_t> CheckpointStore::committed(const std::string& dir) {
  const std::optional<CommitMarker> m = read_commit(dir);
  if (!m) return std::nullopt;
  return m->superstep;
}

CheckpointPoint CheckpointStore::read(uint32_t superstep, std::span<const std::span<uint8_t>> sections) const {
  const std::string path = node_file(rank_, superstep);
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    const std::string why = errno_text();
    // A job of more nodes has ranks without a file: say that, as the other
    // nodes do, whichever node reads first.
    const std::optional<CommitMarker> commit = read_commit(dir_);
    const unsigned long nodes = commit ? commit->nodes : 0;
    if (nodes != 0 && nodes != nodes_)
      throw CheckpointError("checkpoint " + dir_ + "/" + kCommitName +
                            " is of another job: it differs in the number of nodes (it has " + std::to_string(nodes) +
                            ", this job " + std::to_string(nodes_) + ")");
    throw CheckpointError("checkpoint " + path + ": cannot open it (" + why + "): " + dir_ + "/COMMIT says superstep " +
                          std::to_string(superstep) + " was written by every node");
  }
  FileHeader h{};
  read_all(fd.get(), &h, sizeof h, path);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    throw CheckpointError("checkpoint " + path + " is not a wiregraph checkpoint of this version");
  if (const std::string m = mismatch(h.fp, fp_, name_program_); !m.empty())
    throw CheckpointError("checkpoint " + path + " is of another job: it differs in " + m);
  if (h.superstep != superstep)
    throw CheckpointError("checkpoint " + path + " holds superstep " + std::to_string(h.superstep));
  uint32_t crc = crc_of(&h, sizeof h, 0);
  if (h.sections != sections.size())
    throw CheckpointError("checkpoint " + path + " has " + std::to_string(h.sections) + " sections, this job's engine " +
                          std::to_string(sections.size()) + " (another program or build)");
  std::vector<uint64_t> sizes(h.sections);
  read_all(fd.get(), sizes.data(), sizes.size() * sizeof(uint64_t), path);
  crc = crc_of(sizes.data(), sizes.size() * sizeof(uint64_t), crc);
  for (size_t i = 0; i < sections.size(); ++i) {
    if (sizes[i] != sections[i].size())
      throw CheckpointError("checkpoint " + path + ": section " + std::to_string(i) + " holds " +
                            std::to_string(sizes[i]) + " bytes, this job's engine " + std::to_string(sections[i].size()));
    read_all(fd.get(), sections[i].data(), sections[i].size(), path);
    crc = crc_of_large(sections[i].data(), sections[i].size(), crc);
  }
  uint32_t stored = 0;
  read_all(fd.get(), &stored, sizeof stored, path);
  if (stored != crc) throw CheckpointError("checkpoint " + path + " is damaged (its CRC does not match)");
  return CheckpointPoint{h.superstep, h.next_phase, h.aggregate};
}

}  // namespace wg
