// What an input declares it holds before it is read, for the memory checks.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace wg {

// What an input says about its size before it is read: a Matrix Market,
// DIMACS or METIS header, a binary file's length, the lines of an edge list
// (at most one edge each), a kron: spec.
struct DeclaredSize {
  uint64_t vertices = 0;  // 0 when the input does not say
  uint64_t edges = 0;     // directed edges it will give, at most
  std::string what;       // "the header (line 2) declares 4294967295 vertices and 1 entries"
  unsigned kron_scale = 0;  // a Kronecker generator's scale (its degrees are known before it runs); 0: not one
};
// Called before anything of that size is allocated; throws to refuse.
using SizeCheck = std::function<void(const DeclaredSize&)>;

}  // namespace wg
