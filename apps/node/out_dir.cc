#include "apps/node/out_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "compute/report/build_info.h"

namespace wg {

namespace fs = std::filesystem;

namespace {

// Files of ours that no manifest lists: the lock that serialises claims, the
// runs' locks, the manifest being written, the writability probe.
constexpr const char* kClaimLock = ".wiregraph-run.lock";
constexpr const char* kManifestNew = ".wiregraph-run.json.new";
constexpr const char* kProbePrefix = ".wiregraph-write-test-";

std::string run_hex(uint64_t run) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, run);
  return buf;
}

std::string run_lock_name(uint64_t run) { return ".wiregraph-" + run_hex(run) + ".lock"; }

bool same_file(int fd, const fs::path& path) {
  struct stat held {}, named {};
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
         held.st_ino == named.st_ino;
}

// Opens (creating it) and flocks DIR/<name> with `operation`; -1 and errno
// when it cannot. A lock file is removed by the last process that holds it
// (under LOCK_EX): a lock that ends up on a file removed meanwhile is let go
// and taken again on the file that now has the name.
int lock_file(const fs::path& path, int operation) {
  for (;;) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    if (::flock(fd, operation) != 0) {
      const int e = errno;
      ::close(fd);
      errno = e;
      return -1;
    }
    if (same_file(fd, path)) return fd;
    ::close(fd);
  }
}

// Removes a lock file this process holds, if no other process holds it
// (its lock becomes exclusive, or it stays), then lets it go.
void release_lock_file(int fd, const fs::path& path) {
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0 && same_file(fd, path)) ::unlink(path.c_str());
  ::close(fd);
}

bool is_own_bookkeeping(const std::string& name) {
  if (name == kManifestName || name == kClaimLock || name == kManifestNew) return true;
  if (name.rfind(kProbePrefix, 0) == 0) return true;
  return name.size() == run_lock_name(0).size() && name.rfind(".wiregraph-", 0) == 0 &&
         name.compare(name.size() - 5, 5, ".lock") == 0;
}

[[noreturn]] void refuse(const std::string& dir, const std::string& why) { throw ConfigError("--out " + dir + ": " + why); }

std::optional<OutDirRun> read_manifest(const std::string& dir) {
  const fs::path path = fs::path(dir) / kManifestName;
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  std::ifstream in(path);
  nlohmann::json j;
  OutDirRun r;
  try {
    in >> j;
    r.run = std::stoull(j.at("run").get<std::string>(), nullptr, 16);
    r.nodes = j.at("nodes").get<unsigned>();
    r.program = j.value("program", "");
    r.graph = j.value("graph", "");
    r.started = j.value("started", "");
    r.files = j.at("files").get<std::vector<std::string>>();
  } catch (const std::exception& e) {
    refuse(dir, std::string(kManifestName) + " is not a wiregraph run's manifest (" + e.what() +
                    "): remove it, or choose another directory");
  }
  for (const std::string& f : r.files)
    if (f.empty() || f[0] == '/' || f.find("..") != std::string::npos)
      refuse(dir, std::string(kManifestName) + " lists '" + f + "', a name outside the directory");
  return r;
}

void write_manifest(const std::string& dir, const OutDirRun& r) {
  nlohmann::ordered_json j;
  j["wiregraph"] = build::version();
  j["commit"] = build::commit();
  j["run"] = run_hex(r.run);
  j["nodes"] = r.nodes;
  j["program"] = r.program;
  j["graph"] = r.graph;
  j["started"] = r.started;
  j["files"] = r.files;
  const fs::path tmp = fs::path(dir) / kManifestNew;
  {
    std::ofstream out(tmp);
    out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
    out.close();
    if (!out) refuse(dir, std::string("cannot write ") + kManifestNew + ": " + std::strerror(errno));
  }
  std::error_code ec;
  fs::rename(tmp, fs::path(dir) / kManifestName, ec);
  if (ec) refuse(dir, std::string("cannot write ") + kManifestName + ": " + ec.message());
}

// Whether a process holds a lock on DIR/<name> (a run that is alive).
bool lock_is_held(const std::string& dir, const std::string& name) {
  const int fd = ::open((fs::path(dir) / name).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;  // no lock file: nobody holds it
  const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return held;
}

// The entries of DIR that neither `owner` lists (nor their temporaries and
// the directories that hold them) nor are our own bookkeeping.
std::vector<std::string> strangers(const std::string& dir, const std::optional<OutDirRun>& owner) {
  std::set<std::string> known;
  if (owner)
    for (const std::string& f : owner->files) {
      known.insert(f + ".part");
      known.insert(fs::path(f).begin()->string());  // the file itself, or its first directory
    }
  std::vector<std::string> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!is_own_bookkeeping(name) && known.count(name) == 0) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string some_names(const std::vector<std::string>& names, size_t most) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < most; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > most) s += " and " + std::to_string(names.size() - most) + " more";
  return s;
}

void refuse_if_alive(const std::string& dir, const OutDirRun& owner) {
  if (lock_is_held(dir, run_lock_name(owner.run)))
    refuse(dir, "another run (" + owner.program + " on " + owner.graph + ", " + std::to_string(owner.nodes) +
                    " nodes, started " + owner.started +
                    ") is writing into it: wait for it to end, or choose another directory");
}

void refuse_strangers(const std::string& dir, const std::vector<std::string>& others, bool manifest) {
  refuse(dir, "holds " + std::to_string(others.size()) + " file" + (others.size() == 1 ? "" : "s") + " " +
                  (manifest ? std::string("its last run's manifest does not list") : "of no wiregraph run") + " (" +
                  some_names(others, 3) + "): choose an empty or new directory, remove them, or keep them with "
                  "--out-keep-others");
}

std::string local_time_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

}  // namespace

OutDirLease::~OutDirLease() {
  if (fd_ >= 0) release_lock_file(fd_, path_);
}

std::vector<std::string> run_files(unsigned nodes) {
  std::vector<std::string> f;
  for (unsigned r = 0; r < nodes; ++r) f.push_back("result-" + std::to_string(r) + ".txt");
  for (unsigned r = 0; r < nodes; ++r) f.push_back("node" + std::to_string(r) + ".json");
  f.push_back("summary.json");
  return f;
}

void check_out_dir(const std::string& dir, bool keep_others) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;
  if (!fs::is_directory(dir, ec)) refuse(dir, "exists and is not a directory");
  // The nodes of a job on one host check DIR at once, before they have met:
  // under the claim lock, one node's look at a run's lock (taken for a
  // moment, exclusively) is not another's "a live run holds it". A DIR this
  // process cannot lock in is one no node can write (prepare_out_dir says so).
  const fs::path claim_path = fs::path(dir) / kClaimLock;
  std::optional<OutDirLease> claiming;
  if (const int claim = lock_file(claim_path, LOCK_EX); claim >= 0) claiming.emplace(claim, claim_path);
  // No node of this run has claimed DIR yet (each claims only once all have
  // joined): a live owner is another run.
  const std::optional<OutDirRun> owner = read_manifest(dir);
  if (owner) refuse_if_alive(dir, *owner);
  if (const std::vector<std::string> others = strangers(dir, owner); !others.empty() && !keep_others)
    refuse_strangers(dir, others, owner.has_value());
}

void prepare_out_dir(const std::string& dir, bool keep_others) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) refuse(dir, "exists and is not a directory");
  fs::create_directories(dir, ec);
  if (ec) refuse(dir, "cannot create the directory: " + ec.message());
  if (!fs::is_directory(dir)) refuse(dir, "exists and is not a directory");
  const std::string probe = dir + "/" + kProbePrefix + std::to_string(::getpid());
  std::FILE* f = std::fopen(probe.c_str(), "w");
  if (f == nullptr) refuse(dir, std::string("cannot write there: ") + std::strerror(errno));
  std::fclose(f);
  fs::remove(probe, ec);
  check_out_dir(dir, keep_others);
}

std::unique_ptr<OutDirLease> claim_out_dir(const std::string& dir, const OutDirRun& run, bool keep_others,
                                           std::string* said) {
  said->clear();
  const fs::path claim_path = fs::path(dir) / kClaimLock;
  const int claim = lock_file(claim_path, LOCK_EX);
  if (claim < 0) refuse(dir, std::string("cannot lock ") + kClaimLock + ": " + std::strerror(errno));
  const OutDirLease claiming(claim, claim_path);  // removed once the claim is made or refused
  const std::optional<OutDirRun> owner = read_manifest(dir);
  const bool ours = owner && owner->run == run.run;
  std::vector<std::string> removed;
  size_t kept = 0;
  if (!ours) {
    if (owner) refuse_if_alive(dir, *owner);
    const std::vector<std::string> others = strangers(dir, owner);
    if (!others.empty() && !keep_others) refuse_strangers(dir, others, owner.has_value());
    kept = others.size();
    if (owner) {
      std::error_code ec;
      for (const std::string& f : owner->files) {
        if (fs::remove(fs::path(dir) / f, ec)) removed.push_back(f);
        fs::remove(fs::path(dir) / (f + ".part"), ec);
        for (fs::path up = fs::path(f).parent_path(); !up.empty(); up = up.parent_path())
          fs::remove(fs::path(dir) / up, ec);  // only if empty: a stranger's file keeps it
      }
      fs::remove(fs::path(dir) / run_lock_name(owner->run), ec);
    }
  }
  const fs::path run_lock = fs::path(dir) / run_lock_name(run.run);
  const int fd = lock_file(run_lock, LOCK_SH | LOCK_NB);
  if (fd < 0) refuse(dir, "cannot lock " + run_lock_name(run.run) + ": " + std::strerror(errno));
  auto lease = std::make_unique<OutDirLease>(fd, run_lock);
  if (ours) return lease;
  write_manifest(dir, run);
  std::string line = "out: " + dir + " is this run's";
  if (!owner)
    line += kept ? "" : " (it was empty)";
  else if (removed.empty())
    line += " (the run before, started " + owner->started + ", left no files)";
  else
    line += "; removed the " + std::to_string(removed.size()) + " file" + (removed.size() == 1 ? "" : "s") +
            " of the run before (" + owner->program + ", " + std::to_string(owner->nodes) + " node" +
            (owner->nodes == 1 ? "" : "s") + ", started " + owner->started + "): " + some_names(removed, 8);
  if (kept) line += "; " + std::to_string(kept) + " other file" + (kept == 1 ? "" : "s") + " left alone (--out-keep-others)";
  *said = line;
  return lease;
}

void claim_out_dir(const Config& cfg, uint64_t run_id) {
  static std::unique_ptr<OutDirLease> held;  // for the rest of the process: the kernel drops the lock at exit
  OutDirRun run;
  run.run = run_id;
  run.nodes = cfg.nodes;
  run.program = cfg.app;
  run.graph = cfg.graph;
  run.started = local_time_now();
  run.files = run_files(cfg.nodes);
  std::string said;
  held = claim_out_dir(cfg.out_dir, run, cfg.out_keep_others, &said);
  if (!said.empty()) {
    std::printf("%s\n", said.c_str());
    std::fflush(stdout);
  }
}

}  // namespace wg
