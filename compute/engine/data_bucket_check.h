// The checks a data bucket passes before the engine folds it, apart from the
// program: validate_frame (dataplane/frame.h) has already checked framing,
// ranks, count and domain; these need the receiver's state. Kept out of
// Engine so that they are unit-tested with hand-built buckets
// (tests/test_data_bucket_check.cc).
#pragma once

#include <cstdint>

#include "dataplane/frame.h"
#include "dataplane/wire.h"
#include "reliability/superstep_ledger.h"

namespace wg {

// kIndexOutOfRange if a record addresses a vertex at or beyond the
// destination domain's `domain_size`; kBadSuperstep if the ledger has not
// opened h.superstep (nothing is then accounted); else accounts the bucket
// to h.src_rank in the ledger and returns kNone. The index check comes first
// so that a bucket that will be dropped never counts towards completion.
inline DropReason check_data_bucket_index(const wire::BucketHeader& h, uint32_t max_index, uint32_t domain_size,
                                          SuperstepLedger& ledger) {
  if (max_index >= domain_size) [[unlikely]]
    return DropReason::kIndexOutOfRange;
  if (!ledger.on_data(h.src_rank, h.superstep, h.count)) [[unlikely]]
    return DropReason::kBadSuperstep;
  return DropReason::kNone;
}

// The same from the records (any record size: wire::RecordOf<Message>). The
// runtime computes the largest index through the program's engine, which
// knows the record type; a separate pass vectorises and keeps the fold loop
// free of branches.
template <class Record>
inline DropReason check_data_bucket(const wire::BucketHeader& h, const Record* r, uint32_t domain_size,
                                    SuperstepLedger& ledger) {
  uint32_t m = 0;
  for (unsigned i = 0; i < h.count; ++i) m = r[i].index > m ? r[i].index : m;
  return check_data_bucket_index(h, m, domain_size, ledger);
}

// The verdict on a bucket after the fold: an accumulator's fold returns false
// when a record did not fit (a slot accumulator's vertex got more records than
// it has in-edges).
inline DropReason fold_verdict(bool folded) { return folded ? DropReason::kNone : DropReason::kSlotOverflow; }

}  // namespace wg
