// Shared by the graph readers (compute/graph/graph_reader.cc, text_formats.cc):
// tokenising lines, parsing ids and weights with errors that name the file,
// line, field and value. Internal to compute/.
#pragma once

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "compute/graph/graph_reader.h"
#include "compute/graph/input_bytes.h"

namespace wg::reader {

// The largest usable id is 2^32 - 2 so that num_vertices = max id + 1 still
// fits in a VertexId.
inline constexpr uint64_t kMaxVertexId = 0xFFFFFFFEull;
inline constexpr uint64_t kMaxWeight = 0xFFFFFFFFull;

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

inline bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

[[noreturn]] inline void fail(const std::string& file, uint64_t line, const std::string& what) {
  throw GraphError(file, line, what);
}

// Yields lines without their "\n" or "\r\n"; the last line may lack a newline.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  bool next(std::string_view& line) {
    if (p_ == end_) return false;
    const char* nl = static_cast<const char*>(std::memchr(p_, '\n', static_cast<size_t>(end_ - p_)));
    const char* stop = nl != nullptr ? nl : end_;
    line = std::string_view(p_, static_cast<size_t>(stop - p_));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    p_ = nl != nullptr ? nl + 1 : end_;
    ++line_no_;
    return true;
  }
  uint64_t line_no() const { return line_no_; }

 private:
  const char* p_;
  const char* end_;
  uint64_t line_no_ = 0;
};

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

inline std::string_view trim_left(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && is_blank(s[i])) ++i;
  return s.substr(i);
}

// True for lines that carry no data: blank, or a '#'/'%' comment.
inline bool is_skippable(std::string_view line, bool hash_comments) {
  const std::string_view t = trim_left(line);
  return t.empty() || t[0] == '%' || (hash_comments && t[0] == '#');
}

// Splits LINE into fields separated by runs of blanks and, when ALLOW_COMMA,
// at most one comma. Stores up to MAX fields in OUT and returns the total
// count; on a syntax error returns SIZE_MAX and sets *ERR.
inline constexpr size_t kSplitError = static_cast<size_t>(-1);
inline size_t split_fields(std::string_view line, bool allow_comma, std::string_view* out, size_t max,
                    const char** err) {
  const char* p = line.data();
  const char* end = p + line.size();
  auto skip = [&] {
    while (p < end && is_blank(*p)) ++p;
  };
  size_t n = 0;
  skip();
  while (p < end) {
    if (*p == ',') {
      *err = "empty field (two separators in a row, or a leading comma)";
      return kSplitError;
    }
    const char* start = p;
    while (p < end && !is_blank(*p) && !(allow_comma && *p == ',')) ++p;
    if (n < max) out[n] = std::string_view(start, static_cast<size_t>(p - start));
    ++n;
    skip();
    if (p < end && allow_comma && *p == ',') {
      ++p;
      skip();
      if (p == end) {
        *err = "empty field after a trailing comma";
        return kSplitError;
      }
    }
  }
  return n;
}

namespace detail {

// n (1..8) digit values, the first in the lowest byte of d (the bytes
// above them any), as a number: the n bytes become the last n of 8 behind
// leading zeros, and three multiplies fold them, as simdjson's
// parse_eight_digits_unrolled does, where a multiply-add per digit chains
// its latencies. Little-endian (the first byte read is the lowest).
inline uint64_t digits_value(uint64_t d, unsigned n) {
  d <<= 8 * (8 - n);
  d = d * 10 + (d >> 8);
  return (((d & 0x000000FF000000FF) * (100 + (1000000ULL << 32))) +
          (((d >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32)))) >>
         32;
}

// The decimal digits at p (before end) as a number, and p moved past them.
// Where 8 bytes can be read, the first 8 are classified at once and folded
// by digits_value: an id of up to 8 digits takes no loop and no branch on
// its length. More digits follow one at a time; the value is meaningful up
// to 19 digits (callers take at most 18).
inline uint64_t read_digits(const char*& p, const char* end) {
  uint64_t v = 0;
  if constexpr (std::endian::native == std::endian::little) {
    if (end - p >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      // A byte is a digit when its high nibble is 3 and adding 6 keeps it
      // so; a carry out of a byte only comes from a byte that is not a
      // digit, so the bytes before the first one that is not are exact
      // (and subtracting '0' from them borrows nothing).
      const uint64_t not_digit = ((w & 0xF0F0F0F0F0F0F0F0) | (((w + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0) >> 4)) ^
                                 0x3333333333333333;
      const unsigned n = not_digit == 0 ? 8 : static_cast<unsigned>(std::countr_zero(not_digit)) / 8;
      if (n == 0) return 0;
      v = digits_value(w - 0x3030303030303030, n);
      p += n;
      if (n < 8) return v;
    }
  }
  while (p < end && static_cast<unsigned char>(*p - '0') < 10) v = v * 10 + static_cast<unsigned>(*p++ - '0');
  return v;
}

#if defined(__SSE2__)
// The line at p when it is "A B\n", two ids of 1 to 8 digits, one blank (a
// space or a tab) between them and '\n' or "\r\n" after (what GAP, SNAP
// and wiregraph-convert write): its length, and a and b; 0 for any other
// line. One 16-byte load classifies the whole line, so that the next line's
// start depends on a few mask operations rather than on a branch per byte.
// Needs 24 bytes from p (b's 8-byte read).
inline unsigned short_plain_line(const char* p, uint64_t& a, uint64_t& b) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i t = _mm_sub_epi8(v, _mm_set1_epi8('0'));
  auto mask = [](__m128i m) { return static_cast<unsigned>(_mm_movemask_epi8(m)); };
  const unsigned digit = mask(_mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(9)), t));
  const unsigned blank =
      mask(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
  const unsigned newline = mask(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
  const unsigned cr = mask(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
  const auto a_len = static_cast<unsigned>(std::countr_zero(~digit));  // at most 16: bits 16 and up are set
  const auto b_len = static_cast<unsigned>(std::countr_zero(~digit >> (a_len + 1)));
  const unsigned b_end = a_len + 1 + b_len;  // at most 17 (masks are 16 bits: beyond, no '\n')
  if (a_len - 1 >= 8 || b_len - 1 >= 8 || ((blank >> a_len) & 1) == 0) return 0;
  const unsigned ending = ((newline >> b_end) & 1) != 0                                     ? 1
                          : ((cr >> b_end) & 1) != 0 && ((newline >> (b_end + 1)) & 1) != 0 ? 2
                                                                                            : 0;
  if (ending == 0) return 0;
  a = digits_value(static_cast<uint64_t>(_mm_cvtsi128_si64(t)), a_len);
  uint64_t w;
  std::memcpy(&w, p + a_len + 1, 8);
  b = digits_value(w - 0x3030303030303030, b_len);
  return b_end + ending;
}
#endif

}  // namespace detail

// The common lines of an edge list, read in place: from the front of
// `text` (whole lines, each ending in '\n'), every line that is two unsigned
// decimal ids and nothing else, "SRC DST" (separated by blanks, or one comma
// with blanks around it; blanks and a '\r' after), each id of at most 18
// digits, goes to take(a, b), until a line that is anything else, or one
// take() refuses (returns false). Returns the bytes of the lines taken and
// adds their count to `lines`. The general path (split_fields, parse_u64)
// reads such a line the same way, and names what is wrong with any other.
// Without a line to find first or fields to split, a third of its time per
// line on GAP's kron20 (bench/bench_parse.cc); lines of one blank and ids
// of up to 8 digits are classified 16 bytes at a time (short_plain_line).
template <class Take>
inline size_t take_plain_id_pairs(std::string_view text, uint64_t& lines, Take&& take) {
  const char* p = text.data();
  const char* const end = p + text.size();
  const char* line = p;  // the first byte of the line being read
  auto number = [&](uint64_t& v) {
    const char* const first = p;
    v = detail::read_digits(p, end);
    return p != first && p - first <= 18;
  };
  auto blanks = [&] {
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
  };
  uint64_t a, b, taken = 0;
  while (p < end) {
#if defined(__SSE2__)
    if (end - p >= 24) {
      if (const unsigned length = detail::short_plain_line(p, a, b); length != 0) {
        if (!take(a, b)) break;
        line = p += length;
        ++taken;
        continue;
      }
    }
#endif
    if (!number(a)) break;
    blanks();
    if (p < end && *p == ',') {
      ++p;
      blanks();
    }
    if (!number(b)) break;
    blanks();
    if (p < end && *p == '\r') ++p;
    if (p == end || *p != '\n' || !take(a, b)) break;
    line = ++p;
    ++taken;
  }
  lines += taken;
  return static_cast<size_t>(line - text.data());
}

inline bool parse_u64(std::string_view s, uint64_t& v) {
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, v);
  return ec == std::errc() && ptr == end;
}

// Where a token came from, for error messages.
struct Where {
  const std::string& file;
  uint64_t line;
  const char* field;  // e.g. "field 1 (src)"
};

inline std::string quoted(std::string_view s) {
  constexpr size_t kMaxShown = 40;
  std::string q = "'";
  q += s.substr(0, kMaxShown);
  if (s.size() > kMaxShown) q += "...";
  return q + "'";
}

// A vertex id as written in the file (before any 1-based adjustment).
// `hint` follows the reason for a number that is not a usable id.
[[noreturn]] inline void bad_id(const Where& w, std::string_view tok, uint64_t max, const char* hint = "") {
  const bool negative = !tok.empty() && tok[0] == '-';
  const std::string_view body = tok.substr(negative ? 1 : 0);
  const bool digits =
      !body.empty() && std::all_of(body.begin(), body.end(), [](char c) { return c >= '0' && c <= '9'; });
  std::string why;
  if (digits && negative)
    why = "is negative; vertex ids must be non-negative integers";
  else if (digits)
    why = "is too large (max " + std::to_string(max) + ")";
  else
    why = "is not a vertex id (expected a non-negative decimal integer)";
  if (digits) why += hint;
  fail(w.file, w.line, std::string(w.field) + ": " + quoted(tok) + " " + why);
}

inline uint64_t parse_id(const Where& w, std::string_view tok, uint64_t max) {
  uint64_t v;
  if (!parse_u64(tok, v) || v > max) bad_id(w, tok, max);
  return v;
}

// A signed 64-bit vertex id (Graphalytics graphs, and edge lists under --ids
// sparse, whose ids the loader maps to dense ones).
inline int64_t parse_signed_id(const std::string& path, const char* field, std::string_view tok) {
  int64_t v = 0;
  const char* end = tok.data() + tok.size();
  const auto [ptr, ec] = std::from_chars(tok.data(), end, v);
  if (ec == std::errc::result_out_of_range)
    fail(path, 0, std::string(field) + ": " + quoted(tok) + " is out of the signed 64-bit range");
  if (ec != std::errc() || ptr != end || tok.empty())
    fail(path, 0, std::string(field) + ": " + quoted(tok) + " is not a vertex id (a signed 64-bit integer)");
  return v;
}

[[noreturn]] inline void bad_weight(const Where& w, std::string_view tok, const char* why) {
  fail(w.file, w.line, std::string(w.field) + ": " + quoted(tok) + " " + why);
}

// Why a weight is refused, for the programs that read weights (GraphRules::
// weights: sssp, pagerank --weighted, louvain --weighted); the others never parse the column
// (SkipWeight below).
inline constexpr const char* kNegativeWeight =
    "is negative: shortest paths need non-negative weights (Dijkstra and delta-stepping settle a vertex once "
    "and never revisit it), so sssp refuses it, and so do pagerank --weighted (a weight is the share of a "
    "vertex's rank its edge passes on, as networkx reads it) and louvain --weighted (modularity counts a "
    "vertex's weighted degree); programs that read no weights (bfs, cc, pagerank...) ignore this column";

// Weights are unsigned 32-bit integers. Integral-valued reals ("1.0", "3e0")
// are accepted because many files write unit weights that way; anything that
// would need rounding is refused rather than silently changed.
inline Weight parse_weight_slow(const Where& w, std::string_view tok) {
  double d;
  const char* end = tok.data() + tok.size();
  const auto [ptr, ec] = std::from_chars(tok.data(), end, d);
  if (ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range) || tok.empty())
    bad_weight(w, tok, "is not a number");
  if (ec == std::errc::result_out_of_range || std::isinf(d))
    bad_weight(w, tok, "is out of range (weights are integers 0..4294967295)");
  if (std::isnan(d)) bad_weight(w, tok, "is not a number");
  if (d < 0) bad_weight(w, tok, kNegativeWeight);
  if (d != std::floor(d))
    bad_weight(w, tok,
               "is not an integer: sssp adds integer weights unless --precision double (--precision auto "
               "chooses double when the weights it samples are not all integers)");
  if (d > static_cast<double>(kMaxWeight))
    bad_weight(w, tok, "is too large (max 4294967295)");
  return static_cast<Weight>(d);
}

inline Weight parse_weight(const Where& w, std::string_view tok) {
  uint64_t v;
  if (parse_u64(tok, v)) {
    if (v > kMaxWeight) bad_weight(w, tok, "is too large (max 4294967295)");
    return static_cast<Weight>(v);
  }
  return parse_weight_slow(w, tok);
}

// A real weight (sssp --precision double): a finite non-negative double.
inline double parse_real_weight(const Where& w, std::string_view tok) {
  double d = 0;
  const char* end = tok.data() + tok.size();
  const auto [ptr, ec] = std::from_chars(tok.data(), end, d);
  if (ptr != end || tok.empty() || (ec != std::errc() && ec != std::errc::result_out_of_range))
    bad_weight(w, tok, "is not a number");
  if (ec == std::errc::result_out_of_range || !std::isfinite(d)) bad_weight(w, tok, "is not a finite number");
  if (d < 0) bad_weight(w, tok, kNegativeWeight);
  return d + 0.0;  // -0 is 0
}

// How the slice parsers (compute/graph/graph_formats.h) read a weight column,
// as the program's GraphRules say: Weight (a 32-bit integer, the default),
// RealWeight (a double: sssp in double precision), or SkipWeight (programs
// that read no weights: the column is neither parsed nor validated, every
// weight is 1). Emit receives a Weight, or a double for RealWeight.
struct SkipWeight {};
using RealWeight = double;
template <class W>
inline auto column_weight(const Where& w, std::string_view tok) {
  if constexpr (std::is_same_v<W, SkipWeight>)
    return Weight{1};
  else if constexpr (std::is_same_v<W, RealWeight>)
    return parse_real_weight(w, tok);
  else
    return parse_weight(w, tok);
}
// The weight of an edge whose line has none.
template <class W>
inline auto unit_weight() {
  if constexpr (std::is_same_v<W, RealWeight>)
    return 1.0;
  else
    return Weight{1};
}

inline VertexId vertices_for(const std::vector<Edge>& edges) {
  VertexId max = 0;
  for (const Edge& e : edges) max = std::max({max, e.src, e.dst});
  return edges.empty() ? 0 : max + 1;
}

inline size_t count_lines(std::string_view text) {
  size_t n = 1;
  const char* p = text.data();
  const char* end = p + text.size();
  while ((p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)))) != nullptr) {
    ++n;
    ++p;
  }
  return n;
}

// The whole-file readers (compute/graph/text_formats.cc): a file's bytes in any
// format. `check`, when set, sees the size the input declares (its header,
// a binary file's length, an edge list's line count: at most one edge each)
// before the edges are read.
// `vertices`: --vertices N (0: not given), as read_header takes it.
EdgeList read_whole(InputBytes& in, GraphFormat format, const SizeCheck& check = {}, uint64_t vertices = 0);
EdgeList read_edge_list(const std::string& path, std::string_view text, const SizeCheck& check = {});
EdgeList read_matrix_market(const std::string& path, std::string_view text, const SizeCheck& check = {});
EdgeList read_dimacs(const std::string& path, std::string_view text, const SizeCheck& check = {});
EdgeList read_metis(const std::string& path, std::string_view text, const SizeCheck& check = {});
// Little-endian uint32 (src, dst[, weight]) records.
EdgeList read_binary(const std::string& path, std::string_view data, bool weighted, const SizeCheck& check = {});

}  // namespace wg::reader
