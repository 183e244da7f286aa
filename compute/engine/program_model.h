// The engine's view of a vertex program: ProgramModel<P> derives from a
// program written in the minimal form (compute/engine/vertex_program.h: kTraits,
// Value, Combine, init, apply, scatter) and supplies every member it does
// not write, by detection. Completed<P> is what the engine, the registry and
// the tests compile against: P itself when P already writes every member
// (every built-in: the same type, so the engine instantiates the same
// templates for it as before), else ProgramModel<P>. Its members only
// forward, inline, to P's or to a default.
//
// The defaults:
//   make(params, V)       P::make, else P(params), else P{}
//   Message, identity(), combine()   from P::Combine (compute/engine/combiners.h)
//   apply(y, m, v, step)  P's with or without the step; without any, with
//                         Min or Max: keep the better of y and m, active when
//                         it improved (and then applies_only_with_messages:
//                         such an apply leaves y as it is on the identity)
//   scatter_value(y, v)   P::scatter(y, v) or P::scatter(y)
//   edge_message(m, w)    m
//   Aggregate, aggregate, merge, next   ProgramBase's: no aggregate, one
//                         phase, stop when no vertex was active
//   print_value, sort_key from a numeric Value (the identity of a Min
//                         program prints as "inf"; Min ranks the smallest first)
//   Summary               compute/engine/value_summary.h, for a numeric Value
//   kTraits               P's, with value_column and output "value" and the
//                         comparison from the Value where P leaves them out
//   reference()           none: --verify says it cannot verify the program
//                         (apps/node/verify.h)
//
// A program that runs on a driver of its own (compute/engine/program_driver.h,
// DriverProgram) is completed by DriverProgramModel<P> instead: its driver
// is P::Driver, else, for a program that declares kNeighbourhood
// (compute/engine/capabilities/neighbourhood.h), the neighbourhood service,
// NeighbourhoodDriver<P>, and for one that declares kCommunities
// (compute/engine/capabilities/communities.h) the community service,
// CommunityDriver<P>; make, print_value, sort_key, kTraits and, for
// per-vertex results, the Summary as above.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <type_traits>

#include "compute/engine/capabilities/communities.h"
#include "compute/engine/capabilities/neighbourhood.h"
#include "compute/engine/combiners.h"
#include "compute/engine/communities/community_driver.h"
#include "compute/engine/neighbourhood/neighbourhood_driver.h"
#include "compute/engine/program_base.h"
#include "compute/engine/program_driver.h"
#include "compute/engine/summary_stats.h"
#include "compute/engine/value_summary.h"
#include "compute/engine/vertex_program.h"

namespace wg {

namespace model {

// Traits structs, not requires-expressions, in the members' signatures: gcc 12 cannot mangle those.
template <class P>
struct MessageOf {
  using type = CombinedMessage<typename P::Combine>;
};
template <class P>
  requires requires { typename P::Message; }
struct MessageOf<P> {
  using type = typename P::Message;
};
template <class P>
concept DeclaresAggregate = requires { typename P::Aggregate; };
template <class P>
struct AggregateOf {
  using type = NoAggregate;
};
template <DeclaresAggregate P>
struct AggregateOf<P> {
  using type = typename P::Aggregate;
};
template <class P>
constexpr CombineKind kind_of() {
  if constexpr (requires { typename P::Combine; })
    return combine_kind<typename P::Combine>;
  else
    return CombineKind::kOther;
}

template <int>
struct Nothing {};

// No aggregate, one phase: ProgramBase, unless P declares its Aggregate (and with it aggregate, merge, next).
template <class P>
using StepDefaults = std::conditional_t<DeclaresAggregate<P>, Nothing<0>, ProgramBase>;

template <class P, class M>
concept WritesApply = requires(const P& p, typename P::Value& y, const M& m, const VertexInfo& v) {
  { p.apply(y, m, v) } -> std::same_as<bool>;
} || requires(const P& p, typename P::Value& y, const M& m, const VertexInfo& v,
              const StepInfo<typename AggregateOf<P>::type>& s) {
  { p.apply(y, m, v, s) } -> std::same_as<bool>;
};

// A program without apply whose ⊕ is Min or Max keeps the better value.
template <class P>
constexpr bool keeps_better = !WritesApply<P, typename MessageOf<P>::type> &&
                              (kind_of<P>() == CombineKind::kMin || kind_of<P>() == CombineKind::kMax);

struct IdleWithoutMessages {
  static constexpr bool applies_only_with_messages(uint32_t) { return true; }
};
template <class P>
using ImpliedHints = std::conditional_t<keeps_better<P> && !declares_idle_phases<P>(), IdleWithoutMessages, Nothing<1>>;

// The value no message has touched: the identity of a ⊕ over the Value's own type, else a zero Value.
template <class P, class M>
constexpr typename P::Value unset_value() {
  if constexpr (std::is_same_v<typename P::Value, M> && requires { typename P::Combine; })
    return P::Combine::identity();
  else
    return typename P::Value{};
}

template <class P, class M>
struct DefaultSummary {
  using Summary = ValueSummary;
  static Summary summarize(std::span<const typename P::Value> values, const LocalGraph&) {
    return value_summary_of(values, unset_value<P, M>());
  }
  static ProgramOutcome describe(std::span<const Summary> nodes, const SummaryContext& c) {
    return describe_values(nodes, c);
  }
};
template <class P>
concept WritesSummary = requires { typename P::Summary; };
// (Per-edge results are summarized by their edges' values: apps/node/run_program.h.)
template <class P, class M>
using SummaryDefaults =
    std::conditional_t<WritesSummary<P> || !std::is_arithmetic_v<typename P::Value> || PerEdgeResults<P>, Nothing<2>,
                       DefaultSummary<P, M>>;

template <class P, class M>
constexpr ProgramTraits completed_traits() {
  ProgramTraits t = P::kTraits;
  using V = typename P::Value;
  if (t.output.empty()) t.output = "value";
  if (t.value_column.empty()) t.value_column = "value";
  if (t.comparison == Comparison::kUndeclared) {
    if constexpr (std::is_floating_point_v<V>) {
      t.comparison = Comparison::kReal;
      if (t.tolerance == 0) t.tolerance = 1e-9;
    } else {
      t.comparison = kind_of<P>() == CombineKind::kMin && std::is_same_v<V, M> ? Comparison::kDistance
                                                                              : Comparison::kExact;
    }
  }
  return t;
}

// make(params, V) as the model Model of P: P's own, else P(params), else P{}.
template <class Model, class P>
Model make_model(const ProgramParams& params, VertexId vertices) {
  if constexpr (requires { P::make(params, vertices); })
    return Model(P::make(params, vertices));
  else if constexpr (std::is_constructible_v<P, const ProgramParams&>)
    return Model(P(params));
  else
    return Model(P{});
}

// P's print_value, else a numeric Value's (M: the message, whose identity
// a Min program's unreached vertex holds).
template <class P, class M>
void print_value(std::FILE* out, const typename P::Value& y) {
  using Value = typename P::Value;
  if constexpr (requires { P::print_value(out, y); }) {
    P::print_value(out, y);
  } else if constexpr (std::is_floating_point_v<Value>) {
    std::fprintf(out, "%.9g", static_cast<double>(y));
  } else {
    static_assert(std::is_integral_v<Value>, "a Value that is not a number needs its own print_value(out, y)");
    if (kind_of<P>() == CombineKind::kMin && y == unset_value<P, M>())
      std::fputs("inf", out);  // no message reached it
    else if constexpr (std::is_signed_v<Value>)
      std::fprintf(out, "%lld", static_cast<long long>(y));
    else
      std::fprintf(out, "%llu", static_cast<unsigned long long>(y));
  }
}

// P's sort_key, else a numeric Value's rank.
template <class P>
double sort_key(const typename P::Value& y) {
  if constexpr (requires { P::sort_key(y); })
    return P::sort_key(y);
  else if constexpr (kind_of<P>() == CombineKind::kMin)
    return -static_cast<double>(y);  // the smallest first
  else
    return static_cast<double>(y);
}

// A program that names its driver, or declares what implies one.
template <class P>
concept DeclaresDriver =
    requires { typename P::Driver; } || requires { P::kNeighbourhood; } || requires { P::kCommunities; };

// The driver: P's own, else the neighbourhood service or the community service.
template <class P>
struct DriverOf {
  static_assert(NeighbourhoodProgram<P>,
                "kNeighbourhood needs its hooks: corner_credit and vertex_value, or edge_value "
                "(compute/engine/capabilities/neighbourhood.h)");
  using type = NeighbourhoodDriver<P>;
};
template <class P>
  requires requires { typename P::Driver; }
struct DriverOf<P> {
  using type = typename P::Driver;
};
template <class P>
  requires(!requires { typename P::Driver; } && requires { P::kCommunities; })
struct DriverOf<P> {
  static_assert(CommunityProgram<P>,
                "kCommunities needs its hooks: gain and quality (compute/engine/capabilities/communities.h)");
  using type = CommunityDriver<P>;
};

}  // namespace model

template <class P>
class ProgramModel : public P,
                     public model::StepDefaults<P>,
                     public model::ImpliedHints<P>,
                     public model::SummaryDefaults<P, typename model::MessageOf<P>::type> {
  const P& program() const { return *this; }

 public:
  using Value = typename P::Value;
  using Message = typename model::MessageOf<P>::type;
  using Aggregate = typename model::AggregateOf<P>::type;
  static constexpr ProgramTraits kTraits = model::completed_traits<P, Message>();

  ProgramModel() = default;
  explicit ProgramModel(const P& p) : P(p) {}

  static ProgramModel make(const ProgramParams& params, VertexId vertices) {
    return model::make_model<ProgramModel, P>(params, vertices);
  }

  static Message identity() {
    if constexpr (requires { P::identity(); })
      return P::identity();
    else
      return P::Combine::identity();
  }
  static Message combine(Message a, Message b) {
    if constexpr (requires { P::combine(a, b); })
      return P::combine(a, b);
    else
      return P::Combine::combine(a, b);
  }

  template <class In>
  bool apply(Value& y, const In& in, const VertexInfo& v, const StepInfo<Aggregate>& step) const {
    if constexpr (requires { program().apply(y, in, v, step); }) {
      return program().apply(y, in, v, step);
    } else if constexpr (requires { program().apply(y, in, v); }) {
      return program().apply(y, in, v);
    } else {
      static_assert(model::keeps_better<P>, "a program writes apply(y, m, vertex[, step]) unless its Combine is Min or Max");
      const bool better = model::kind_of<P>() == CombineKind::kMin ? in < y : y < in;
      if (better) y = in;
      return better;
    }
  }

  Message scatter_value(const Value& y, const VertexInfo& v) const {
    if constexpr (requires { program().scatter_value(y, v); })
      return program().scatter_value(y, v);
    else if constexpr (requires { program().scatter(y, v); })
      return program().scatter(y, v);
    else
      return program().scatter(y);
  }
  static Message edge_message(Message m, Weight w) {
    if constexpr (requires { P::edge_message(m, w); })
      return P::edge_message(m, w);
    else
      return m;
  }

  static void print_value(std::FILE* out, const Value& y) { model::print_value<P, Message>(out, y); }
  static double sort_key(const Value& y) { return model::sort_key<P>(y); }
};

// The view of a program on a driver of its own (DriverProgram): its driver
// (model::DriverOf), make, print_value and sort_key from a numeric Value,
// the summary of per-vertex values and kTraits, as ProgramModel's.
template <class P>
class DriverProgramModel : public P, public model::SummaryDefaults<P, typename P::Value> {
 public:
  using Value = typename P::Value;
  using Driver = typename model::DriverOf<P>::type;
  static constexpr ProgramTraits kTraits = model::completed_traits<P, Value>();

  DriverProgramModel() = default;
  explicit DriverProgramModel(const P& p) : P(p) {}

  static DriverProgramModel make(const ProgramParams& params, VertexId vertices) {
    return model::make_model<DriverProgramModel, P>(params, vertices);
  }
  static void print_value(std::FILE* out, const Value& y) { model::print_value<P, Value>(out, y); }
  static double sort_key(const Value& y) { return model::sort_key<P>(y); }
};

// What the engine (or P's driver) compiles for program P.
template <class P>
using Completed =
    std::conditional_t<RunnableProgram<P>, P,
                       std::conditional_t<model::DeclaresDriver<P>, DriverProgramModel<P>, ProgramModel<P>>>;

}  // namespace wg

// Registers the program of the header it is in: apps/list_programs.py
// collects these lines (one per line, at the start) into the program list
// (apps/programs.h). Here it checks that the program completes.
#define WG_PROGRAM(Type)                                          \
  static_assert(::wg::RunnableProgram<::wg::Completed<Type>>,     \
                "WG_PROGRAM(" #Type "): neither a vertex program nor one on its own driver, even with the "  \
                "defaults of compute/engine/program_model.h")
