#include "compute/load/load_aggregate.h"

#include <algorithm>

namespace wg::load {

void merge_line_counts(LineCount& a, const LineCount& b, unsigned my_rank) {
  if (b.origin == my_rank && !a.seen_me) {  // the first part of this node: the lines before it are a.lines
    a.before_me = a.lines;
    a.seen_me = 1;
  }
  a.lines += b.lines;
  a.origin = b.origin;
}

void merge_edges(LoadAggregate& a, const LoadAggregate& b) {
  if (!(b.flags & kSeen)) return;
  const bool first = !(a.flags & kSeen);
  a.max_id_plus1 = std::max(a.max_id_plus1, b.max_id_plus1);
  a.entries += b.entries;
  a.edges += b.edges;
  a.degree_balance += b.degree_balance;
  if (a.columns == 0) {
    a.columns = b.columns;
  } else if (b.columns != 0 && b.columns != a.columns && !(a.flags & kColumnsDiffer)) {
    a.flags |= kColumnsDiffer;
    a.other_columns = b.columns;
    a.mismatch_rank = b.origin;
  }
  if (first) {
    a.flags |= b.flags & kHasHead;
    a.head_hash = b.head_hash;
  }
  // The tail of node r and the head of node r+1 are the same bytes of one file.
  if ((a.flags & kHasTail) && (b.flags & kHasHead) && b.origin == a.tail_rank + 1 && a.tail_hash != b.head_hash &&
      !(a.flags & kBoundaryDiffers)) {
    a.flags |= kBoundaryDiffers;
    a.mismatch_rank = b.origin;
  }
  // The merged range ends where b's does: b's tail, or none.
  a.flags &= static_cast<uint8_t>(~kHasTail);
  if (b.flags & kHasTail) {
    a.flags |= kHasTail;
    a.tail_hash = b.tail_hash;
    a.tail_rank = b.tail_rank;
  }
  a.origin = b.origin;
  a.flags |= kSeen;
}

}  // namespace wg::load
