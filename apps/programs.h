// Every program wiregraph runs: the one list that option parsing, --help,
// dispatch, --verify and the tests iterate (apps/registry.h). Adding a
// program: write apps/NAME.h (its kTraits and its oracle, reference(), say
// everything the rest needs), include it here and add it to AllPrograms.
// Nothing else names a program (docs/PROGRAMS.md).
#pragma once

#include "apps/bc.h"
#include "apps/bfs.h"
#include "apps/cc.h"
#include "apps/indegree.h"
#include "apps/jaccard.h"
#include "apps/kcore.h"
#include "apps/label_propagation.h"
#include "apps/lcc.h"
#include "apps/pagerank.h"
#include "apps/pagerank_weighted.h"
#include "apps/ppr.h"
#include "apps/scc.h"
#include "apps/sssp.h"
#include "apps/sssp_real.h"
#include "apps/tc.h"

namespace wg {

template <VertexProgram... Programs>
struct ProgramList {};

using AllPrograms =
    ProgramList<PageRank, Sssp, Bfs, ConnectedComponents, LabelPropagation, KCore, Lcc, TriangleCount, Bc, InDegree,
                Jaccard, Ppr, StronglyConnectedComponents>;

// What --precision double runs instead (the default for Graphalytics graphs,
// whose rules forbid single precision): the program itself unless named here.
template <class P>
struct DoublePrecision {
  using type = P;
};
template <>
struct DoublePrecision<PageRank> {
  using type = BasicPageRank<double>;
};
template <>
struct DoublePrecision<Sssp> {
  using type = RealSssp;  // real weights and distances
};

// What --weighted runs instead: the program itself unless named here (sssp
// reads its weights always).
template <class P>
struct Weighted {
  using type = P;
};
template <>
struct Weighted<PageRank> {
  using type = WeightedPageRank;  // networkx's weight='weight', in double precision
};

// The message widths a program is instantiated for, narrowest first: the
// narrowest whose Message holds the run's K (ProgramParams::seed_ids) runs
// (apps/registry.cc). K is a run-time option, a message's width a
// compile-time one (compute/engine/capabilities/wide_message.h).
template <class P>
struct Widths {
  using type = ProgramList<P>;
};
template <>
struct Widths<Ppr> {
  using type = ProgramList<BasicPpr<1>, BasicPpr<2>, BasicPpr<4>, BasicPpr<8>, BasicPpr<16>>;
};

}  // namespace wg
