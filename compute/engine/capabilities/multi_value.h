// Several results per vertex: a program that computes K values at once
// (personalized PageRank from K seeds, apps/ppr.h) keeps them in a
// LaneValues<W> (K <= W lanes, the rest 0) and takes its output members from
// MultiValueOutput<W>, and declares
//
//   static std::vector<std::string> value_columns(const ProgramParams& p);  // a name per lane
//
// print_value writes the K values separated by spaces, its oracle returns
// V x K reals, vertex-major (reals[v * K + j]); --verify compares every lane
// (apps/node/verify.h) and the results files name a column per lane
// (summary.json's results.value_columns, scripts/wiregraph-results).
#pragma once

#include <concepts>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "compute/engine/program_traits.h"

namespace wg {

template <unsigned W>
struct LaneValues {
  double r[W];
  uint32_t k;  // lanes in use: r[0..k)
  static constexpr LaneValues first(uint32_t k, double x) {  // x in the first k lanes
    LaneValues y{{}, k};
    for (unsigned j = 0; j < k && j < W; ++j) y.r[j] = x;
    return y;
  }
};

// One lane holds one value: nothing else to store (8 bytes a vertex, as a
// scalar program's double; apply and scatter read half the bytes).
template <>
struct LaneValues<1> {
  double r[1];
  static constexpr uint32_t k = 1;
  static constexpr LaneValues first(uint32_t, double x) { return {{x}}; }
};

template <unsigned W>
struct MultiValueOutput {
  using Value = LaneValues<W>;
  static void print_value(std::FILE* out, const Value& y) {
    for (unsigned j = 0; j < y.k; ++j) std::fprintf(out, j ? " %.9g" : "%.9g", y.r[j]);
  }
  static double sort_key(const Value& y) { return y.r[0]; }  // the top vertices: by the first lane
  static double result(const Value& y) { return y.r[0]; }    // where one value is written (Graphalytics format)
  static unsigned lanes(const Value& y) { return y.k; }
  static double lane(const Value& y, unsigned j) { return y.r[j]; }
};

template <class P>
concept MultiValued = requires(const typename P::Value& y, unsigned j, const ProgramParams& p) {
  { P::lanes(y) } -> std::convertible_to<unsigned>;
  { P::lane(y, j) } -> std::convertible_to<double>;
  { P::value_columns(p) } -> std::same_as<std::vector<std::string>>;
};

}  // namespace wg
