// The whole input graph as read from a file or made by the generator, before
// partitioning. Every node process holds one of these for now (issue 2 allows
// each node to read the whole graph and keep its own part).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compute/graph/types.h"

namespace wg {

struct EdgeList {
  VertexId num_vertices = 0;   // max id + 1, or the count the file declares if larger
  bool weighted = false;       // the input carried weights (else every weight is 1)
  std::vector<Edge> edges;     // directed, in file order
  // The edges' real weights, parallel to `edges`, when the input's weights
  // are reals (a Graphalytics graph read whole: compute/graph/whole_input.h);
  // else empty. The functions below keep them parallel.
  std::vector<double> real_weights;

  EdgeCount num_edges() const { return edges.size(); }
};

// Adds v->u for every u->v (self-loops are not doubled). Used for undirected
// inputs (--undirected) and by apps that ignore direction (cc).
void add_reverse_edges(EdgeList& g);

// Removes u->u edges (label propagation ignores them).
void remove_self_loops(EdgeList& g);

// Keeps one edge per (src, dst), the one with the smallest weight; the edges
// end sorted by (src, dst). For programs on simple graphs (k-core).
void remove_duplicate_edges(EdgeList& g);

// An order-independent 64-bit digest of (V, edges), reported with every run
// so that two runs can tell whether they loaded the same graph. It is a sum
// of per-edge hashes, so nodes that each hold a share of the edges add their
// sums (the loader's reduction) and get the whole graph's fingerprint.
uint64_t fingerprint(const EdgeList& g);
uint64_t edge_hash(const Edge& e);
// splitmix64's finaliser: a cheap bijection of 64-bit words that mixes every
// bit into every other (edge hashes, the sparse-id mapping's sample order).
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
uint64_t fingerprint_of(VertexId num_vertices, EdgeCount num_edges, uint64_t edge_hash_sum);

}  // namespace wg
