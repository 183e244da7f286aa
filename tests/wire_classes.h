// The programs as the wire and the receive path see them, grouped into the
// classes that decide how their records travel and are folded. The cluster
// tests of the fast default (docs/TESTING.md) vary link, P, receive queues and
// faults with one program per class instead of every program: what a cluster
// adds to a program's semantics (frames, windows, acks, steering, folding on
// receive) depends on the record's width and on how it is folded, not on the
// algorithm, which tests/test_engine.cc checks for every program in-process.
// test_engine's WireClasses test fails when a registered program falls in no
// class or in a class whose members leave it out, so a new program is not
// silently left out of every cluster run.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace wg::test {

enum class WireClass {
  kScalar4,    // 4-byte messages folded into one value per vertex (bfs, cc, sssp, indegree, minlabel, scc;
               // pagerank in single precision; ppr from one seed: its wider messages, K seeds, are tests/test_ppr.py's)
  kScalar8,    // 8-byte messages (pagerank and sssp under --precision double, bc): wider records, fewer per frame
  kSlot,       // a slot per in-edge (SlotAccumulator: kcore, cd): a record folded twice overflows its vertex's slots
  kOwnDriver,  // a driver of its own, not the superstep loop: the neighbourhood service (neighbour lists, then
               // counts: tc, lcc, jaccard), the community service (moves to every node, contraction: louvain)
};

inline constexpr WireClass kWireClasses[] = {WireClass::kScalar4, WireClass::kScalar8, WireClass::kSlot,
                                             WireClass::kOwnDriver};

// A program as a cluster test runs it: --app NAME and the options that put it
// in its class.
struct ProgramRun {
  std::string_view app;           // --app
  std::vector<std::string> args;  // more node options (--precision double)
  std::string label;              // in test names: the app, or app64 under --precision double
  bool operator==(const ProgramRun&) const = default;
};

inline ProgramRun plain_run(std::string_view app) { return {app, {}, std::string(app)}; }
inline ProgramRun double_run(std::string_view app) {
  return {app, {"--precision", "double"}, std::string(app) + "64"};
}

// The members of a class in the order they take turns. Sum folds (pagerank)
// and min folds (the traversals) are both scalar: a record folded twice
// changes a sum, and the launcher's message balance catches it for both.
inline std::vector<ProgramRun> class_members(WireClass c) {
  switch (c) {
    case WireClass::kScalar4:
      return {plain_run("sssp"),     plain_run("cc"),       plain_run("minlabel"), plain_run("bfs"),
              plain_run("pagerank"), plain_run("indegree"), plain_run("ppr"),      plain_run("scc")};
    case WireClass::kScalar8: return {double_run("pagerank"), double_run("sssp"), plain_run("bc")};
    case WireClass::kSlot: return {plain_run("kcore"), plain_run("cd")};
    case WireClass::kOwnDriver:
      return {plain_run("lcc"), plain_run("tc"), plain_run("jaccard"), plain_run("louvain")};
  }
  return {};
}

// The member whose turn it is: turn t takes member t mod the class's size, so
// that a matrix turning through its cells runs every member somewhere.
inline ProgramRun representative(WireClass c, size_t turn) {
  const std::vector<ProgramRun> members = class_members(c);
  return members[turn % members.size()];
}

// The traversals among the scalar programs (bfs, cc, sssp), for tests whose
// graph is built for them (tests/graphs_for_tests.h's traversal graph).
inline ProgramRun traversal_representative(size_t turn) {
  const ProgramRun runs[] = {plain_run("sssp"), plain_run("cc"), plain_run("bfs")};
  return runs[turn % 3];
}

// The cases of `all` that `taken` does not hold: the full suite's share of a
// matrix whose fast share is `taken`, so that nothing of the matrix is lost.
template <class Case>
std::vector<Case> without(const std::vector<Case>& all, const std::vector<Case>& taken) {
  std::vector<Case> rest;
  for (const Case& c : all)
    if (std::find(taken.begin(), taken.end(), c) == taken.end()) rest.push_back(c);
  return rest;
}

}  // namespace wg::test
