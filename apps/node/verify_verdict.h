// What --verify found on one node (apps/node/verify.h), and what a program's
// run ends with: its exit code and that verdict, which the run's final
// summary reads (apps/node/run_program.h returns it).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace wg {

struct VerifyVerdict {
  enum class Outcome : uint8_t {
    kNotAsked,  // no --verify
    kValid,     // every check passed
    kInvalid,   // at least one failed: the node exits 1
    kSkipped,   // nothing could be checked (`note` says why)
  };
  enum class Method : uint8_t {
    kOracle,     // each of the node's vertices against the oracle on the whole graph
    kInvariant,  // the program's invariant on the edges whose two ends the node owns
    kEdgeOracle,  // each of the node's per-edge results against the oracle (apps/node/verify_edges.h)
  };
  Outcome outcome = Outcome::kNotAsked;
  Method method = Method::kOracle;
  uint64_t checked = 0;    // vertices (oracle) or edges (invariant) checked
  uint64_t differing = 0;  // of which failed
  // The first failure, ids as the result files write them:
  // "vertex 17 (the file's own id): got 3, expected 2".
  std::string first;
  std::string invariant;  // kInvariant: what was checked ("depth(v) <= depth(u) + 1")
  std::string note;       // why the invariant instead of the oracle, or why nothing was checked

  bool failed() const { return outcome == Outcome::kInvalid; }
  // "verify: VALID (1024 vertices checked against the single-node oracle)",
  // "verify: INVALID: vertex 17 (...): got 3, expected 2 (1 of 1024 vertices differ)", ...
  std::string line() const;
  // nodeR.json's `verify`: outcome, method, checked, differing, first, invariant, note.
  nlohmann::ordered_json json() const;
};

struct RunOutcome {
  int exit_code = 0;
  VerifyVerdict verify;
};

}  // namespace wg
