#include "compute/engine/checkpointer.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <utility>

#include "compute/graph/memory_limit.h"

namespace wg {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

Checkpointer::Checkpointer(CheckpointStore& store, ProgramDriver& driver, uint32_t every, unsigned rank,
                           bool crash_in_write)
    : store_(store), driver_(driver), every_(every), rank_(rank), crash_in_write_(crash_in_write),
      lag_(every > kMinLag ? every : kMinLag) {
  // The copy's memory, taken and touched now rather than in the first
  // checkpoint's pause (the sections' sizes do not change).
  if (every_ != 0) {
    size_t total = 0;
    for (const std::span<uint8_t> part : driver_.checkpoint_sections(0)) total += part.size();
    buffer_.assign(total, 0);
  }
}

Checkpointer::~Checkpointer() {
  abandon_.store(true, std::memory_order_release);  // the hook's writer must not wait for a superstep that never comes
  if (writer_.joinable()) writer_.join();  // an error here has no one left to tell
  if (committer_.joinable()) committer_.join();
}

void Checkpointer::join_writer() {
  if (!writer_.joinable()) return;
  writer_.join();
  writing_ = -1;
  figures_.write_seconds += std::exchange(write_seconds_now_, 0.0);
  figures_.bytes += std::exchange(write_bytes_now_, 0);
  if (write_error_) std::rethrow_exception(std::exchange(write_error_, nullptr));
}

void Checkpointer::between(const StepControl& next) {
  const uint32_t s = next.superstep - 1;
  if (rank_ == 0) {
    // Every node's file of c is renamed once it sent its END of c + lag.
    std::optional<uint32_t> commit;
    while (!uncommitted_.empty() && uncommitted_.front() + lag_ <= s) {
      commit = uncommitted_.front();
      uncommitted_.pop_front();
    }
    // A commit is a small file and the directory fsynced, which on ext4
    // waits for the journal: a thread of its own does it during superstep
    // s+1, and before_end(s+1) waits for it.
    if (commit) {
      join_committer();
      committer_ = std::thread([this, c = *commit] {
        try {
          commit_now(c);
        } catch (...) {
          commit_error_ = std::current_exception();
        }
      });
    }
  }
  if (every_ == 0 || (s + 1) % every_ != 0) return;
  const auto t0 = std::chrono::steady_clock::now();
  join_writer();  // its buffer is about to be filled again
  const auto t1 = std::chrono::steady_clock::now();
  figures_.wait_seconds += std::chrono::duration<double>(t1 - t0).count();
  // Sized once (sections keep their sizes), before any span points into it.
  const std::vector<std::span<uint8_t>> sections = driver_.checkpoint_sections(s);
  size_t total = 0;
  for (const std::span<uint8_t> part : sections) total += part.size();
  if (buffer_.size() < total) buffer_.resize(total);
  std::vector<std::span<const uint8_t>> copies;
  size_t at = 0;
  for (const std::span<uint8_t> part : sections) {
    std::memcpy(buffer_.data() + at, part.data(), part.size());
    copies.emplace_back(buffer_.data() + at, part.size());
    at += part.size();
  }
  // The hook kills the second write, once the coordinator would wait for
  // it: by then the first is committed, so a resume must take it.
  const bool crash = crash_in_write_ && figures_.written == 1;
  crash_pending_ = crash;
  writing_ = s;
  ++figures_.written;
  if (rank_ == 0) uncommitted_.push_back(s);
  const CheckpointPoint point{s, next.phase, next.aggregate};
  writer_ = std::thread([this, point, parts = std::move(copies), crash] {
    if (crash) {
      while (!crash_now_.load(std::memory_order_acquire) && !abandon_.load(std::memory_order_acquire))
        std::this_thread::yield();
      if (abandon_.load(std::memory_order_acquire)) return;  // the node is failing for another reason
    }
    const auto w0 = std::chrono::steady_clock::now();
    try {
      write_bytes_now_ = store_.write(point, parts, crash);
    } catch (...) {
      write_error_ = std::current_exception();
    }
    write_seconds_now_ = seconds_since(w0);
  });
  figures_.copy_seconds += seconds_since(t1);
}

void Checkpointer::commit_now(uint32_t c) {
  std::string missing;
  const auto t0 = std::chrono::steady_clock::now();
  if (store_.commit(c, &missing)) {
    last_committed_now_ = c;
  } else if (!warned_) {
    warned_ = true;
    std::fprintf(stderr,
                 "wiregraph: warning: the checkpoint of superstep %u is not committed: %s is missing "
                 "(--checkpoint-dir must be one directory every node writes into, e.g. on a shared file "
                 "system)\n",
                 c, missing.c_str());
  }
  commit_seconds_now_ += seconds_since(t0);
}

void Checkpointer::join_committer() {
  if (!committer_.joinable()) return;
  committer_.join();
  figures_.last_committed = last_committed_now_;
  figures_.commit_seconds += std::exchange(commit_seconds_now_, 0.0);
  if (commit_error_) std::rethrow_exception(std::exchange(commit_error_, nullptr));
}

void Checkpointer::before_end(uint32_t s) {
  const auto t0 = std::chrono::steady_clock::now();
  if (committer_.joinable()) {
    // The commit started after superstep s-1 is done before this END: once a
    // peer has completed s (a crash may follow), the marker is on disk.
    join_committer();
    figures_.wait_seconds += seconds_since(t0);
  }
  if (writing_ < 0 || static_cast<int64_t>(s) < writing_ + lag_) return;
  if (crash_pending_) crash_now_.store(true, std::memory_order_release);  // the writer dies halfway
  join_writer();
  figures_.wait_seconds += seconds_since(t0);
}

void Checkpointer::finish() {
  crash_now_.store(true, std::memory_order_release);  // as in the destructor
  join_committer();
  join_writer();
}

StepControl Checkpointer::resume(const CheckpointStore& from) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::optional<uint32_t> s = CheckpointStore::committed(from.dir());
  if (!s)
    throw CheckpointError("--resume " + from.dir() + ": it holds no committed checkpoint (no " + from.dir() +
                          "/COMMIT: the job it was written for wrote none, or died before every node had)");
  const std::vector<std::span<uint8_t>> sections = driver_.checkpoint_sections(*s);
  const CheckpointPoint at = from.read(*s, sections);
  driver_.resumed(*s);
  figures_.resumed_from = *s;
  figures_.resume_seconds = seconds_since(t0);
  StepControl first;
  first.superstep = *s + 1;
  first.phase = at.next_phase;
  first.aggregate = at.aggregate;
  return first;
}

nlohmann::ordered_json Checkpointer::json(double compute_seconds) const {
  nlohmann::ordered_json j;
  j["dir"] = store_.dir();
  j["every"] = every_;
  j["lag"] = lag_;
  j["written"] = figures_.written;
  j["bytes"] = figures_.bytes;
  j["copy_seconds"] = figures_.copy_seconds;
  j["wait_seconds"] = figures_.wait_seconds;
  j["write_seconds"] = figures_.write_seconds;
  if (rank_ == 0) j["commit_seconds"] = figures_.commit_seconds;
  j["share_of_compute"] = compute_seconds > 0 ? figures_.pause() / compute_seconds : 0.0;
  if (figures_.last_committed >= 0) j["last_committed"] = figures_.last_committed;
  if (figures_.resumed_from >= 0) {
    j["resumed_from"] = figures_.resumed_from;
    j["resume_seconds"] = figures_.resume_seconds;
  }
  return j;
}

std::string Checkpointer::line(double compute_seconds) const {
  if (figures_.written == 0) return "";
  char b[512];
  const double n = static_cast<double>(figures_.written);
  std::snprintf(b, sizeof b,
                "checkpoints: %llu written every %u superstep%s into %s (%s each; on this node %.3f s copying "
                "and %.3f s waiting for writes and commits each, %.1f%% of the computation; the writer thread %.3f s each)",
                static_cast<unsigned long long>(figures_.written), every_, every_ == 1 ? "" : "s", store_.dir().c_str(),
                format_bytes(figures_.bytes / figures_.written).c_str(), figures_.copy_seconds / n,
                figures_.wait_seconds / n, compute_seconds > 0 ? 100.0 * figures_.pause() / compute_seconds : 0.0,
                figures_.write_seconds / n);
  std::string out = b;
  if (figures_.last_committed >= 0)
    out += "; the last committed after superstep " + std::to_string(figures_.last_committed);
  return out;
}

}  // namespace wg
