// Result values in LDBC Graphalytics' output format (--output-format
// graphalytics; github.com/ldbc/ldbc_graphalytics_docs, tex/definition.tex,
// "Output Validation" and the algorithms' sections): one "id value" line per
// vertex under the vertex's original id; reals in scientific notation with
// 15 digits after the point (%.15e, as Graphalytics' reference outputs, e.g.
// 1.477629166666667e-01); BFS depths as integers with 9223372036854775807
// (2^63 - 1) for an unreachable vertex; SSSP distances as reals with
// "infinity"; WCC and CDLP labels as original vertex ids. A program of
// several values a vertex (no Graphalytics algorithm: personalized PageRank)
// writes them all on the vertex's line, "id v1 v2 ... vK".
#pragma once

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "compute/engine/capabilities/multi_value.h"
#include "compute/engine/program_traits.h"
#include "compute/engine/vertex_program.h"

namespace wg {

inline constexpr int64_t kGraphalyticsUnreachable = INT64_MAX;  // BFS

inline void write_graphalytics_real(std::FILE* out, double x) {
  if (std::isinf(x))
    std::fputs(x > 0 ? "infinity" : "-infinity", out);
  else
    std::fprintf(out, "%.15e", x);
}

// A vertex's value; `label_id(y)` gives the original id of a label (kLabel).
// The min-propagation programs (bfs, sssp, cc, cd) hold 32-bit values with
// UINT32_MAX for "unreachable".
template <class Prog, class LabelId>
void write_graphalytics_value(std::FILE* out, const typename Prog::Value& y, LabelId&& label_id) {
  constexpr ValueKind kind = Prog::kTraits.value_kind;
  if constexpr (kind == ValueKind::kHops) {
    std::fprintf(out, "%" PRId64, y == UINT32_MAX ? kGraphalyticsUnreachable : static_cast<int64_t>(y));
  } else if constexpr (kind == ValueKind::kDistance) {
    if constexpr (std::is_floating_point_v<typename Prog::Value>)
      write_graphalytics_real(out, y);
    else
      write_graphalytics_real(out, y == UINT32_MAX ? INFINITY : static_cast<double>(y));
  } else if constexpr (kind == ValueKind::kReal && MultiValued<Prog>) {
    // Several values a vertex (personalized PageRank's K seeds): all of them,
    // space-separated, in the order of summary.json's results.value_columns.
    for (unsigned j = 0; j < Prog::lanes(y); ++j) {
      if (j) std::fputc(' ', out);
      write_graphalytics_real(out, Prog::lane(y, j));
    }
  } else if constexpr (kind == ValueKind::kReal) {
    write_graphalytics_real(out, static_cast<double>(result_of<Prog>(y)));
  } else if constexpr (kind == ValueKind::kLabel) {
    std::fprintf(out, "%" PRId64, label_id(result_of<Prog>(y)));
  } else {
    Prog::print_value(out, y);
  }
}

}  // namespace wg
