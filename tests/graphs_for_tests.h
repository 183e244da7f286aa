// Small graphs built to contain every corner case the engine must get right,
// and a writer for the SNAP text format the node processes read.
#pragma once

#include <string>
#include <vector>

#include "compute/graph/edge_list.h"
#include "compute/graph/graph_reader.h"

namespace wg::test {

// 120 vertices, deterministic. Seen from source 0 it has:
//  - a dense-ish random core 0..79 (about 3 out-edges each, weights 0..20),
//    so with P = 2 or 3 every node sends to every other node;
//  - dangling vertices inside the core (13, 26, 39) and at the ends of chains;
//  - a 20-hop chain 79 -> 80 -> ... -> 99 (bfs/sssp need many supersteps);
//  - vertices that reach the core but are unreachable from 0 (100, 101, 102);
//  - isolated vertices (103, 104, 115) with ids below used ones;
//  - more weak components: a cycle 105..109, a path 110..114 and an
//    in-tree 116..119 whose top id 119 fixes V = 120;
//  - multi-edges (1->2 three times, 106->107 twice), self-loops (0->0, 3->3,
//    102->102) and zero-weight edges.
// tests/test_cluster.cc checks that these properties really hold.
EdgeList corner_case_graph();

// 2600 vertices, deterministic, built to drive the traversal switches
// (sparse/dense, top-down/bottom-up) through every case:
//  - a star: hub 0 <-> leaves 1..1200 (both directions), so BFS or SSSP from
//    0 has one huge frontier (1200 vertices) right after the source;
//  - level two: every leaf i -> 1201 + (i mod 600), each reached twice;
//  - a deep chain 1800 -> 1801 -> ... -> 2099 (300 levels), half of its
//    edges of weight 0;
//  - heavy edges (weight 2^24): 0 -> 1201..1800 directly, which SSSP must
//    not take (two hops through a leaf cost at most 256);
//  - a long path 2199 -> 2198 -> ... -> 2100 whose smallest id is at its far
//    end (CC labels travel against the direction);
//  - many small components among 2200..2599: isolated vertices, pairs,
//    directed triangles, out-stars of 4, each numbered so that its smallest
//    id is not its first source.
// The star, level two and the chain form the giant weak component (0..2099).
EdgeList traversal_graph();

// 2406 vertices, deterministic, for SSSP's local rounds (compute/engine/worker.h)
// from source 0:
//  - a chain 0 -> 6 -> 12 -> ... -> 2400 (400 edges), all on one node at
//    P = 1, 2 and 3 (6 is a multiple of each): every tenth edge heavy
//    (weight 100000), the others light (weights 1..20, a third of them 0),
//    so it runs in stretches of 9 light edges;
//  - a heavy shortcut 0 -> 1200 (weight 150000) that wins over the chain's
//    first half (20 heavy edges), and heavy decoys 0 -> 120, 240, ..., 2400
//    (weight 10^7) that never win;
//  - detours through other nodes at every seventh chain vertex, 6j -> 6j+1
//    -> 6j+6 (weights 1 and 2), shorter than the chain edge they bypass
//    when that one is heavy or heavier than 3;
//  - isolated vertices 2401..2405 (unreachable).
// delta (an eighth of the mean weight, apps/sssp.h) is about 47500 at P=1:
// the chain's light edges are light and its weight-100000 edges heavy.
// Past the shortcut, a superstep per chain edge would need 200 supersteps;
// local rounds take a light stretch in one.
EdgeList local_rounds_graph();

// A weighted graph of n vertices with exactly these edges, for hand-computed
// expectations.
EdgeList make_graph(VertexId n, std::vector<Edge> edges);

// Writes "src dst weight" lines (with a '#' comment header, as SNAP files
// have). Throws std::runtime_error when the file cannot be written.
void write_snap(const EdgeList& g, const std::string& path);

// Writes `g` in `format` (edgelist, mtx (integer, general), bin, wbin,
// dimacs, metis) and returns the graph the file holds: `g` itself, or with
// weights 1 for bin. METIS adjacency files hold undirected graphs: `g` must
// list every edge in both directions with the same weight, and no self-loop.
EdgeList write_graph_file(const EdgeList& g, const std::string& path, GraphFormat format);

// The corner-case graph symmetrised without self-loops: what a METIS file can hold.
EdgeList undirected_corner_case_graph();

}  // namespace wg::test
