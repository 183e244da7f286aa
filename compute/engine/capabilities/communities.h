// Community moves: what a program that groups the vertices of the undirected
// graph into communities declares, instead of a ⊕ per vertex, to run on the
// engine's community service (compute/engine/communities/community_driver.h).
// The service runs the scheme of Louvain (Blondel et al. 2008): level after
// level, vertices move to the neighbouring community that gains most until
// the partition stops improving, then each community becomes one vertex of
// the next level's graph (the model's graph transformation: the edges
// between two communities become one edge of their summed weight, those
// inside a community a self-loop), until a level improves the partition by
// no more than `threshold`; every vertex ends labelled with the smallest id
// of its community. The program says what a move gains and what a partition
// is worth:
//
//   static constexpr Communities kCommunities{...};
//   static double gain(double into, double total, double degree, double two_m)
//     what moving a vertex of weighted degree `degree` into a community
//     gains: `into` is the weight of the vertex's edges into it, `total` the
//     community's total degree without the vertex, `two_m` the graph's total
//     degree (the sum of every vertex's). A vertex moves only to a community
//     that gains strictly more than its own.
//   static double quality(double inside, double squares, double two_m)
//     the partition's worth: `inside` is the weight of the edges whose ends
//     share a community (each counted from both ends), `squares` the sum over
//     communities of their total degree squared. Levels compare it.
//
// Modularity with resolution γ (apps/louvain.h): gain = into - γ total
// degree / two_m, quality = inside / two_m - γ squares / two_m².
//
// The vertices of a round's share (movers_in_16) move at once, each from
// the partition the round started from (every node holds every vertex's community and every
// community's total, and applies the round's moves in the same order). So
// that two vertices alone in their communities do not swap them, such a
// vertex joins another one alone only if that community's id is smaller
// (Lu, Halappanavar and Kalyanaraman 2015). A level ends when a round finds
// the partition worse than the round before (that round is undone), or
// better by less than round_threshold, or finds no move, or is the last of
// max_rounds; the ending round's moves are not made.
#pragma once

#include <concepts>
#include <cstdint>

namespace wg {

struct Communities {
  double threshold = 1e-7;  // a level that raises quality by no more ends the run (networkx's default)
  // A round that finds quality risen by less than this since the round
  // before ends the level (Grappolo's threshold per iteration: the level's
  // last rounds move a few vertices each and gain little; on copter2, 1e-4
  // halved the rounds and the time at the same modularity).
  double round_threshold = 1e-4;
  uint32_t max_rounds = 100;  // of moves per level; the level ends after them as if the partition had settled
  uint32_t max_levels = 32;
  // Of every 16 vertices, how many may move in a round (a different share
  // each round, drawn from their global ids): fewer moves at once, fewer that
  // undo each other. Half gave 0.98-1.00 of networkx's modularity on the
  // shared datasets, all at once 0.91 on ca-GrQc (tests/test_louvain.py).
  uint32_t movers_in_16 = 8;
  const char* quality_name = "quality";  // what the level lines call it
};

// Whether the vertex of global id `id` may move in round `round` of level
// `level` (both from 0): a share of movers_in_16 in 16, drawn afresh each
// round by splitmix64's finalizer, the same at every P.
constexpr bool moves_in_round(uint32_t id, uint32_t level, uint32_t round, uint32_t movers_in_16) {
  if (movers_in_16 >= 16) return true;
  uint64_t x = ((uint64_t{level} << 32 | round) * 0x100000001b3ull ^ id) + 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return (x ^ (x >> 31)) <= uint64_t{movers_in_16} << 60;
}

template <class P>
concept CommunityProgram = requires(double x) {
  { P::kCommunities } -> std::convertible_to<Communities>;
  { P::gain(x, x, x, x) } -> std::convertible_to<double>;
  { P::quality(x, x, x) } -> std::convertible_to<double>;
};

}  // namespace wg
