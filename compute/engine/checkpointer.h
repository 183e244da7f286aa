// When a node checkpoints and commits (--checkpoint-every N): the program
// phase's hooks between supersteps and before a superstep's END
// (compute/engine/superstep_runtime.h, PhaseOptions).
//
// After superstep s, with (s + 1) % N == 0, the node copies its state
// (ProgramDriver::checkpoint_sections) into a buffer and a writer thread
// writes it (CheckpointStore::write: temporary file, fsync, rename) while
// the next supersteps run. The node sends its END of superstep s+L (the lag:
// N, at least 2) only once that file is renamed. So when rank 0 has
// completed superstep s+L (every peer's END of it in), every node's file of
// s exists, and rank 0 commits s: no frame of its own, the superstep's END
// exchange carries the proof (rank 0's own commit, a small file and the
// directory fsynced, runs in a thread during superstep s+L+1, done before
// its END). A node killed at any point leaves the last committed checkpoint
// whole: a file not yet renamed is not a file, and the previous files go
// only once the marker has moved past them. A crash loses at most N+L
// supersteps.
//
// On the critical path: the copy (memory bandwidth; its buffer is taken at
// the start), and a wait before END when the write takes longer than L
// supersteps' work. Writing synchronously (fsync before the next superstep)
// cost PageRank on kron:22:16 at P=2 about 30% of its time with a
// checkpoint every 5 supersteps (docs/CHECKPOINTS.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "compute/engine/checkpoint_store.h"
#include "compute/engine/program_driver.h"

namespace wg {

struct CheckpointFigures {
  uint64_t written = 0;       // checkpoints this node wrote
  uint64_t bytes = 0;         // their bytes, all together
  double copy_seconds = 0;    // on the critical path: copying the state for the writer
  double wait_seconds = 0;    // on the critical path: waiting for the writer (before END, or for its last job)
  double write_seconds = 0;   // the writer thread's time (write, fsync, rename), off the critical path
  double commit_seconds = 0;  // rank 0: the committing thread's time
  int64_t last_committed = -1;  // rank 0: the last superstep it committed
  int64_t resumed_from = -1;  // the checkpoint this run went on from
  double resume_seconds = 0;  // reading it
  double pause() const { return copy_seconds + wait_seconds; }
};

class Checkpointer {
 public:
  // Supersteps between a checkpoint and its commit, at least: the write
  // overlaps max(N, kMinLag) supersteps' work.
  static constexpr uint32_t kMinLag = 2;
  uint32_t lag() const { return lag_; }

  // every: supersteps between checkpoints (0: none, e.g. a resumed run
  // that writes no more). crash_in_write: test hook (--crash-node
  // R:checkpoint): SIGKILL halfway through the second checkpoint's write,
  // when the node would wait for it before its END (so that the first is
  // committed by then, whatever the timing, with N >= 2).
  Checkpointer(CheckpointStore& store, ProgramDriver& driver, uint32_t every, unsigned rank, bool crash_in_write);
  ~Checkpointer();  // waits for the writer
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // PhaseOptions::between_supersteps: after superstep next.superstep - 1.
  void between(const StepControl& next);
  // PhaseOptions::before_end: superstep s is about to send its END.
  // Rethrows a failed write (CheckpointError).
  void before_end(uint32_t s);

  // --resume: reads the checkpoint `from` committed into the driver;
  // returns the phase's first step (the superstep after it). Throws
  // CheckpointError.
  StepControl resume(const CheckpointStore& from);

  // Once the phase is over: the last write done (or failed: rethrown).
  void finish();
  const CheckpointFigures& figures() const { return figures_; }
  // nodeR.json's "checkpoints".
  nlohmann::ordered_json json(double compute_seconds) const;
  // "checkpoints: 4 written every 5 supersteps into DIR (16 MiB each, 0.004 s on the critical path and
  // 0.09 s in the writer: 1.0% of the computation); the last committed after superstep 14"; "" with none.
  std::string line(double compute_seconds) const;

 private:
  void join_writer();
  void commit_now(uint32_t c);  // rank 0's committing thread
  void join_committer();

  CheckpointStore& store_;
  ProgramDriver& driver_;
  const uint32_t every_;
  const unsigned rank_;
  const bool crash_in_write_;
  const uint32_t lag_;
  std::deque<uint32_t> uncommitted_;  // rank 0: checkpoints written (or being written), not committed yet
  bool warned_ = false;
  // The writer: one checkpoint at a time, from buffer_ (the coordinator
  // fills it only once the previous write is joined). Rank 0's committer:
  // one commit at a time, joined before the next superstep's END.
  std::vector<uint8_t> buffer_;
  std::thread writer_;
  int64_t writing_ = -1;  // the superstep being written, until joined
  std::atomic<bool> crash_now_{false};  // the hook's writer waits for it (coordinator -> writer)
  std::atomic<bool> abandon_{false};    // ... or for this: the node is going down (destructor)
  bool crash_pending_ = false;          // this write is the hook's
  std::exception_ptr write_error_;
  double write_seconds_now_ = 0;  // written by the writer, read after the join
  uint64_t write_bytes_now_ = 0;
  int64_t last_committed_now_ = -1;  // written by the committer, read after its join
  double commit_seconds_now_ = 0;
  std::exception_ptr commit_error_;  // written by the committer, read after its join
  std::thread committer_;
  CheckpointFigures figures_;
};

}  // namespace wg
