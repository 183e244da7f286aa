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
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <type_traits>

#include "compute/engine/combiners.h"
#include "compute/engine/program_base.h"
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
template <class P, class M>
using SummaryDefaults =
    std::conditional_t<WritesSummary<P> || !std::is_arithmetic_v<typename P::Value>, Nothing<2>, DefaultSummary<P, M>>;

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
    if constexpr (requires { P::make(params, vertices); })
      return ProgramModel(P::make(params, vertices));
    else if constexpr (std::is_constructible_v<P, const ProgramParams&>)
      return ProgramModel(P(params));
    else
      return ProgramModel(P{});
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

  static void print_value(std::FILE* out, const Value& y) {
    if constexpr (requires { P::print_value(out, y); }) {
      P::print_value(out, y);
    } else if constexpr (std::is_floating_point_v<Value>) {
      std::fprintf(out, "%.9g", static_cast<double>(y));
    } else {
      static_assert(std::is_integral_v<Value>, "a Value that is not a number needs its own print_value(out, y)");
      if (model::kind_of<P>() == CombineKind::kMin && y == model::unset_value<P, Message>())
        std::fputs("inf", out);  // no message reached it
      else if constexpr (std::is_signed_v<Value>)
        std::fprintf(out, "%lld", static_cast<long long>(y));
      else
        std::fprintf(out, "%llu", static_cast<unsigned long long>(y));
    }
  }
  static double sort_key(const Value& y) {
    if constexpr (requires { P::sort_key(y); })
      return P::sort_key(y);
    else if constexpr (model::kind_of<P>() == CombineKind::kMin)
      return -static_cast<double>(y);  // the smallest first
    else
      return static_cast<double>(y);
  }
};

// What the engine compiles for program P.
template <class P>
using Completed = std::conditional_t<VertexProgram<P>, P, ProgramModel<P>>;

}  // namespace wg

// Registers the program of the header it is in: apps/list_programs.py
// collects these lines (one per line, at the start) into the program list
// (apps/programs.h). Here it checks that the program completes.
#define WG_PROGRAM(Type)                                          \
  static_assert(::wg::VertexProgram<::wg::Completed<Type>>,       \
                "WG_PROGRAM(" #Type "): not a vertex program, even with the defaults of "  \
                "compute/engine/program_model.h")
