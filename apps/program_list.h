// A list of programs as a type (what the registry, --help, dispatch,
// --verify and the tests iterate: apps/programs.h), and the twins a program
// may name for --precision double and --weighted.
#pragma once

#include <type_traits>

#include "compute/engine/program_model.h"

namespace wg {

template <RunnableProgram... Programs>
struct ProgramList {};

// `list` with P appended, unless it holds P already.
template <class List, class P>
struct AppendOnce;
template <class... Ps, class P>
struct AppendOnce<ProgramList<Ps...>, P> {
  using type = std::conditional_t<(std::is_same_v<Ps, P> || ...), ProgramList<Ps...>, ProgramList<Ps..., P>>;
};

// Program types as written (full or minimal), for a list kept by hand.
template <class... Programs>
struct ProgramTypes {};

// `list`, then each of `more` (completed here) that it does not hold yet.
template <class List, class... More>
struct AppendEach {
  using type = List;
};
template <class List, class P, class... More>
struct AppendEach<List, P, More...> {
  using type = typename AppendEach<typename AppendOnce<List, Completed<P>>::type, More...>::type;
};
// The programs listed by hand, in their order, then the registered ones they do not hold.
template <class Hand, class Registered>
struct JoinedList;
template <class... Hand, class... Registered>
struct JoinedList<ProgramTypes<Hand...>, ProgramList<Registered...>> : AppendEach<ProgramList<>, Hand..., Registered...> {};
template <class Hand, class Registered>
using Joined = typename JoinedList<Hand, Registered>::type;

// What --precision double runs instead: the program itself unless it names
// its DoublePrecisionTwin (a member alias: apps/pagerank.h, apps/sssp.h).
template <class P>
struct DoublePrecision {
  using type = P;
};
template <class P>
  requires requires { typename P::DoublePrecisionTwin; }
struct DoublePrecision<P> {
  using type = Completed<typename P::DoublePrecisionTwin>;
};

// What --weighted runs instead: the program itself unless it names its
// WeightedTwin (apps/pagerank.h; sssp reads its weights always).
template <class P>
struct Weighted {
  using type = P;
};
template <class P>
  requires requires { typename P::WeightedTwin; }
struct Weighted<P> {
  using type = Completed<typename P::WeightedTwin>;
};

// The message widths a program is instantiated for, narrowest first: the
// narrowest whose Message holds the run's K (ProgramParams::seed_ids) runs
// (apps/registry.cc). K is a run-time option, a message's width a
// compile-time one (compute/engine/capabilities/wide_message.h). A program
// with several widths specialises this in its own header (apps/ppr.h).
template <class P>
struct Widths {
  using type = ProgramList<P>;
};

}  // namespace wg
