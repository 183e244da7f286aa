// What an input declares it holds before it is read, for the memory checks.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace wg {

// What an input says about its size before it is read: a Matrix Market,
// DIMACS or METIS header, a binary file's length, the lines of an edge list
// (at most one edge each), a kron: spec, a snapshot's manifest.
struct DeclaredSize {
  uint64_t vertices = 0;  // 0 when the input does not say
  uint64_t edges = 0;     // directed edges it will give, at most
  std::string what;       // "the header (line 2) declares 4294967295 vertices and 1 entries"
  unsigned kron_scale = 0;  // a Kronecker generator's scale (its degrees are known before it runs); 0: not one
  // A snapshot: `edges` are the graph as the program's rules made it
  // (symmetrised already), read back as the CSR the loader built, never
  // held as edges (NodeShape::as_built).
  bool as_built = false;
};
// Called before anything of that size is allocated; throws to refuse.
using SizeCheck = std::function<void(const DeclaredSize&)>;

}  // namespace wg
