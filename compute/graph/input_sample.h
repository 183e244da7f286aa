// What a graph file's data looks like before it is loaded, from a sample
// every node of a job reads alike: the same byte ranges, chosen from the
// file's size and header only (never from P or the node's rank), so that
// every node takes the same decisions from the same bytes (docs/INPUT.md):
//   --ids auto       edge lists and binary files: the vertices are the ids
//                    the edges name, as networkx, igraph and SNAP count them;
//                    dense ids (no mapping) where the sample is the whole file
//                    and names every id 0..largest, else sparse (mapped);
//   --source         its default: the first id of the first edge;
//   --precision auto sssp: real weights when a sampled weight is not an
//                    integer.
// The sample is the whole data up to kWholeBytes, else kRanges ranges of
// kRangeBytes spread evenly over it (whole lines: a range reads past its end
// to finish its last line, as the loader's ranges do). Lines the sample cannot
// read are skipped: the loader names them when it reaches them.
#pragma once

#include <cstdint>
#include <string>

#include "compute/graph/graph_formats.h"

namespace wg {

struct InputSample {
  static constexpr uint64_t kWholeBytes = uint64_t{2} << 20;
  static constexpr unsigned kRanges = 16;
  static constexpr uint64_t kRangeBytes = uint64_t{64} << 10;

  GraphFormat format = GraphFormat::kEdgeList;
  bool whole = false;            // the sample is all the data
  uint64_t data_bytes = 0;       // the file's data (after any header)
  uint64_t sampled_bytes = 0;    // of it, in the sample (lines read past a range's end included)
  uint64_t edges = 0;            // edges sampled (lines, records)
  // Ids (edge lists and binary files only: the others declare 1..n).
  bool has_ids = false;
  uint64_t distinct = 0;         // distinct ids among the sampled edges' ends
  uint64_t seen_once = 0;        // of them, ids that end one sampled edge only
  int64_t largest = -1;          // the largest id seen (-1: none)
  bool beyond_dense = false;     // an id that dense ids cannot hold (negative, or above 2^32-2)
  int64_t beyond = 0;            // the first such id
  // The first edge's source as the file names it (1..n in the formats that
  // number vertices from 1; METIS: the first vertex line with a neighbour):
  // --source's default. -1: the sample holds no edge.
  int64_t first_source = -1;
  // Weights (edge lists with a third field, Matrix Market integer/real, DIMACS).
  uint64_t weights = 0;          // weights sampled
  bool fractional = false;       // one of them is not an integer
  std::string fractional_token;  // the first such, as written
};

// Samples the data of the file whose header `h` is (read_header). Reads at
// most kRanges * kRangeBytes and a line past each range. Throws GraphError
// only for a read error.
InputSample sample_input(InputBytes& in, const reader::InputHeader& h);

// The --ids auto rule on a sample of an edge list or binary file: the
// vertices are the ids the edges name (networkx, igraph and SNAP count them
// so; the dense reading 0..largest adds every id no edge names as an
// isolated vertex, which moves PageRank's ranks, cc's component count and
// every mean):
//   sparse if an id is one dense ids cannot hold (negative, above 2^32-2);
//   dense when the sample is the whole file and its edges name every id
//   0..largest: no mapping, and the same vertices;
//   sparse otherwise: the loader maps the ids it finds (graph_loader_ids.cc).
//   A file larger than the sample is mapped even when its ids happen to be
//   contiguous: a vertex's dense id is its id's rank among the named ids,
//   so the answer is the same, and only the mapping's time is spent.
// `estimated` is exact when the sample is the whole file; else the least of
// the ids 0..largest, twice the edges the file holds (each edge names two at
// most) and the GEE estimator of Charikar et al. (PODS 2000), sqrt(scale) *
// f1 + the rest, with scale the file's data over the sample's and f1 the ids
// seen once (on kron:20:16 as text, 1 MiB of it: 646,414 for the 646,585
// ids named; degree 4: 332,452 for 447,170): the banner's figure.
struct IdsVerdict {
  bool sparse = false;
  uint64_t estimated = 0;  // distinct ids (exact when the sample is whole)
  std::string why;         // for the banner: "auto: 5,242 distinct of 26,197 in ..."
  uint64_t unnamed = 0;    // ids of 0..largest no sampled edge names (exact when the sample is whole)
};
IdsVerdict judge_ids(const InputSample& s);

// "5,242": counts in the banner's messages.
std::string with_commas(uint64_t n);

}  // namespace wg
