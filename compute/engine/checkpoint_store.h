// Superstep checkpoints on disk (--checkpoint-every, --checkpoint-dir,
// --resume): one file per node and checkpoint, and the coordinator's commit
// marker. What goes into a file is the engine's business
// (ProgramDriver::checkpoint_sections); this is how it gets there and back
// without a crash ever leaving a checkpoint that looks complete:
//
//   DIR/node-R.step-S.tmp   written, fsynced, then renamed to
//   DIR/node-R.step-S       (the directory fsynced too)
//   DIR/COMMIT              "superstep S", "nodes P": rank 0 writes it (same way) once
//                           every node's file of S exists, i.e. after the
//                           next superstep, which no node starts before its
//                           file is renamed. Files of older supersteps go
//                           only after the marker moved past them.
//
// DIR must be one directory every node writes into (the local launcher's
// nodes share a machine; a lab cluster needs a shared file system, as
// Giraph's checkpoints do): rank 0 commits only what it can see.
//
// A file starts with the job's fingerprint; --resume refuses a checkpoint
// whose fingerprint differs, naming the field. Sections are raw bytes whose
// sizes the reader knows in advance (its own engine's), so a file of another
// shape is refused as well, and a CRC over everything catches a torn file.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/engine/engine_options.h"
#include "compute/engine/program_driver.h"

namespace wg {

class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a checkpoint must share with the job that resumes from it.
struct CheckpointFingerprint {
  uint32_t program_id = 0;     // JobIdentity's
  uint64_t params_digest = 0;  // the options every node must agree on
  uint32_t input_kind = 0;
  uint64_t input_size = 0;
  uint64_t input_digest = 0;
  uint32_t nodes = 0;          // P
  uint32_t rank = 0;
  uint64_t partition_digest = 0;  // this node's slots: which vertex each holds
  static CheckpointFingerprint of(const JobIdentity& job, unsigned nodes, unsigned rank, uint64_t partition_digest);
};

// Where the program goes on from: superstep `superstep` was the last one done.
struct CheckpointPoint {
  uint32_t superstep = 0;
  uint32_t next_phase = 0;       // the program's decision after it
  AggregateBytes aggregate{};    // the cluster-wide aggregate after it
};

class CheckpointStore {
 public:
  // Creates DIR (and its parents) when missing. name_program (JobIdentity's)
  // names the programs of a refused checkpoint; without it, their ids.
  CheckpointStore(std::string dir, unsigned rank, unsigned nodes, const CheckpointFingerprint& fp,
                  std::function<std::string(uint32_t)> name_program = {});

  const std::string& dir() const { return dir_; }

  // Writes this node's file of `at`: header, the sections in order, CRC;
  // returns its bytes. crash_midway (test hook, --crash-node R:checkpoint):
  // SIGKILL with half the sections written.
  uint64_t write(const CheckpointPoint& at, std::span<const std::span<const uint8_t>> sections,
                 bool crash_midway = false);
  // Rank 0: marks `superstep` committed if every node's file of it is in
  // DIR, then removes the files of older checkpoints. False (nothing
  // changed) when a node's file is missing; `missing` then names it.
  bool commit(uint32_t superstep, std::string* missing = nullptr);

  // The superstep DIR's marker commits, if any. Throws CheckpointError on a
  // marker it cannot read.
  static std::optional<uint32_t> committed(const std::string& dir);
  // Reads this node's file of `superstep` into `sections` (each exactly its
  // size) and returns where to go on from. Throws CheckpointError naming the
  // file and what is wrong: missing, another job's (the field), another
  // shape, torn (CRC).
  CheckpointPoint read(uint32_t superstep, std::span<const std::span<uint8_t>> sections) const;

  std::string node_file(unsigned rank, uint32_t superstep) const;

 private:
  std::string dir_;
  unsigned rank_, nodes_;
  CheckpointFingerprint fp_;
  std::function<std::string(uint32_t)> name_program_;
};

// What the hello compares with --resume DIR: `params_digest` with the
// superstep DIR's marker commits mixed in, so that nodes that would resume
// from different supersteps (per-host copies of DIR, a stale view of it)
// refuse each other before anything runs. Throws CheckpointError on a
// marker it cannot read.
uint64_t digest_with_resume_point(uint64_t params_digest, const std::string& dir);

// Which vertex each of a node's slots holds, as one number (the fingerprint's).
uint64_t partition_digest(std::span<const uint32_t> global_ids, uint64_t num_vertices, uint64_t edges);

}  // namespace wg
