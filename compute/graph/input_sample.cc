#include "compute/graph/input_sample.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

#include "compute/graph/id_table.h"
#include "compute/graph/line_slice.h"

namespace wg {

namespace {

using namespace reader;

// Counts how often each id ends a sampled edge (IdTable's value).
class IdCounts {
 public:
  void add(int64_t id, uint64_t& largest_plus1, InputSample& s) {
    if (!counts_.insert(id, 1)) ++*counts_.find(id);
    if (id < 0 || static_cast<uint64_t>(id) > kMaxVertexId) {
      if (!s.beyond_dense) s.beyond = id;
      s.beyond_dense = true;
    }
    if (id >= 0) largest_plus1 = std::max(largest_plus1, static_cast<uint64_t>(id) + 1);
  }
  void finish(InputSample& s) const {
    s.distinct = counts_.size();
    counts_.for_each([&](int64_t, uint32_t n) { s.seen_once += n == 1; });
  }

 private:
  IdTable counts_;
};

bool read_signed(std::string_view tok, int64_t& v) {
  const char* end = tok.data() + tok.size();
  const auto [ptr, ec] = std::from_chars(tok.data(), end, v);
  return ec == std::errc() && ptr == end && !tok.empty();
}

void note_weight(std::string_view tok, InputSample& s) {
  uint64_t u;
  if (parse_u64(tok, u)) {
    ++s.weights;
    return;
  }
  double d;
  const char* end = tok.data() + tok.size();
  const auto [ptr, ec] = std::from_chars(tok.data(), end, d);
  if (ec != std::errc() || ptr != end || tok.empty() || !std::isfinite(d)) return;  // the loader names it
  ++s.weights;
  if (d != std::floor(d) && !s.fractional) {
    s.fractional = true;
    s.fractional_token = std::string(tok.substr(0, 40));
  }
}

// The byte ranges of the sample: [begin, end) of the data, the first one
// starting it.
struct Range {
  uint64_t begin, end;
};
std::vector<Range> sample_ranges(uint64_t begin, uint64_t end, uint64_t unit, bool* whole) {
  const uint64_t bytes = end - begin;
  *whole = bytes <= InputSample::kWholeBytes;
  if (*whole) return {{begin, end}};
  std::vector<Range> r;
  const uint64_t span = InputSample::kRangeBytes / unit * unit;  // whole records in binary files
  for (unsigned i = 0; i < InputSample::kRanges; ++i) {
    const uint64_t at = begin + (bytes - span) / (InputSample::kRanges - 1) * i / unit * unit;
    r.push_back({at, at + span});
  }
  return r;
}

void sample_text(InputBytes& in, const InputHeader& h, InputSample& s) {
  std::vector<Range> ranges = sample_ranges(h.data_start, h.size, 1, &s.whole);
  IdCounts ids;
  uint64_t largest_plus1 = 0;
  const bool edge_list = h.format == GraphFormat::kEdgeList || h.format == GraphFormat::kAuto;
  s.has_ids = edge_list;
  std::string_view line, f[kMaxWeightColumn];
  const size_t wf = h.weight_field;  // an edge list's weight (--weight-column)
  for (const Range& r : ranges) {
    const bool first = r.begin == h.data_start;
    LineSlice lines(in, r.begin, r.end, first, first ? h.header_lines : LineSlice::kUnknown);
    while (lines.next(line)) {
      const char* err = nullptr;
      if (edge_list) {
        if (is_skippable(line, true)) continue;
        const size_t n = split_fields(line, true, f, wf + 1, &err);
        int64_t src, dst;
        if (n == kSplitError || n < 2 || !read_signed(f[0], src) || !read_signed(f[1], dst)) continue;
        if (s.edges++ == 0 && first) s.first_source = src;
        ids.add(src, largest_plus1, s);
        ids.add(dst, largest_plus1, s);
        if (n > wf) note_weight(f[wf], s);
      } else if (h.format == GraphFormat::kMatrixMarket) {
        if (is_skippable(line, false)) continue;
        const size_t n = split_fields(line, false, f, 4, &err);
        int64_t row;
        if (s.edges++ == 0 && first && n != kSplitError && n >= 2 && read_signed(f[0], row)) s.first_source = row;
        if (!h.pattern && n == 3) note_weight(f[2], s);
      } else if (h.format == GraphFormat::kDimacs) {
        const std::string_view t = trim_left(line);
        if (t.empty() || t[0] != 'a') continue;
        const size_t n = split_fields(t, false, f, 4, &err);
        int64_t u;
        if (s.edges++ == 0 && first && n != kSplitError && n >= 2 && read_signed(f[1], u)) s.first_source = u;
        if (n == 4) note_weight(f[3], s);
      }
    }
    s.sampled_bytes += lines.next_offset() - r.begin;
  }
  ids.finish(s);
  s.largest = static_cast<int64_t>(largest_plus1) - 1;
}

void sample_binary(InputBytes& in, const InputHeader& h, InputSample& s) {
  const unsigned rec = h.record_bytes;
  const std::vector<Range> ranges = sample_ranges(0, h.size / rec * rec, rec, &s.whole);
  IdCounts ids;
  uint64_t largest_plus1 = 0;
  s.has_ids = true;
  std::vector<char> buf;
  for (const Range& r : ranges) {
    buf.resize(static_cast<size_t>(r.end - r.begin));
    const size_t got = in.read_at(r.begin, buf.data(), buf.size());
    s.sampled_bytes += got;
    for (size_t at = 0; at + rec <= got; at += rec) {
      uint32_t src, dst;
      std::memcpy(&src, buf.data() + at, 4);
      std::memcpy(&dst, buf.data() + at + 4, 4);
      if (s.edges++ == 0 && r.begin == 0) s.first_source = src;
      ids.add(src, largest_plus1, s);
      ids.add(dst, largest_plus1, s);
      s.weights += rec == 12;
    }
  }
  ids.finish(s);
  s.largest = static_cast<int64_t>(largest_plus1) - 1;
}

// METIS: line i is vertex i; the first vertex line that lists a neighbour
// (past its size and weights) holds the first edge. Reads up to the first
// such line only.
int64_t first_metis_source(InputBytes& in, const InputHeader& h) {
  LineSlice lines(in, h.data_start, h.size, true, h.header_lines);
  std::string_view line;
  int64_t vertex = 0;
  while (lines.next(line)) {
    const std::string_view t = trim_left(line);
    if (!t.empty() && t[0] == '%') continue;
    ++vertex;
    std::string_view f[1];
    const char* err = nullptr;
    const size_t fields = split_fields(t, false, f, 1, &err);
    if (fields != kSplitError && fields > h.metis_skip) return vertex;
  }
  return -1;
}

}  // namespace

InputSample sample_input(InputBytes& in, const InputHeader& h) {
  InputSample s;
  s.format = h.format;
  if (h.record_bytes != 0) {
    s.data_bytes = h.size / h.record_bytes * h.record_bytes;
    sample_binary(in, h, s);
  } else if (h.format != GraphFormat::kMetis) {  // METIS: integer weights, ids 1..n by line
    s.data_bytes = h.size - h.data_start;
    sample_text(in, h, s);
  } else {
    s.data_bytes = h.size - h.data_start;
    s.first_source = first_metis_source(in, h);
  }
  return s;
}

std::string with_commas(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

IdsVerdict judge_ids(const InputSample& s) {
  IdsVerdict v;
  if (s.beyond_dense) {
    v.sparse = true;
    v.estimated = s.distinct;
    v.why = "auto: the sample holds id " + std::to_string(s.beyond) + ", which dense ids (0..4294967294) cannot";
    return v;
  }
  const uint64_t span = static_cast<uint64_t>(s.largest + 1);  // ids 0..largest
  if (!s.has_ids || s.edges == 0) {
    v.why = "auto: no edge in the sample";
    return v;
  }
  if (s.whole) {
    v.estimated = s.distinct;
    v.unnamed = span - s.distinct;
    v.sparse = v.unnamed > 0;
    v.why = v.sparse ? "auto: the edges name " + with_commas(s.distinct) + " ids; " + with_commas(v.unnamed) +
                           " of 0.." + with_commas(span - 1) + " are named by no edge, so the vertices are the " +
                           with_commas(s.distinct) + " ids named, as networkx counts them"
                     : "auto: the edges name every id 0.." + with_commas(span - 1);
    return v;
  }
  const double scale = s.sampled_bytes ? static_cast<double>(s.data_bytes) / static_cast<double>(s.sampled_bytes) : 1;
  const double gee = std::sqrt(scale) * static_cast<double>(s.seen_once) + static_cast<double>(s.distinct - s.seen_once);
  const double at_most = 2.0 * static_cast<double>(s.edges) * scale;
  v.estimated = static_cast<uint64_t>(std::min({gee, at_most, static_cast<double>(span)}));
  v.unnamed = span - v.estimated;
  v.sparse = true;
  v.why = "auto: the vertices are the ids the edges name, about " + with_commas(v.estimated) + " of 0.." +
          with_commas(span - 1) + " (estimated from a sample of " + with_commas(s.edges) + " edges, " +
          std::to_string(InputSample::kRanges) + " ranges of " + std::to_string(InputSample::kRangeBytes >> 10) +
          " KiB; --ids dense reads 0..largest without mapping)";
  return v;
}

}  // namespace wg
