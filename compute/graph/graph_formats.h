// The graph file formats as slices. Every node reads a file's header
// (read_header); the data after it is split into byte ranges (text: by the
// line rule of compute/graph/line_slice.h) or whole records (binary), and each
// range is parsed on its own (parse_slice), line by line, by the format's
// parser. The whole-file readers of compute/graph/graph_reader.h are the same
// parsers over one slice holding all the data, so the two paths accept and
// refuse the same files with the same messages.
//
// What one slice cannot know (V from the largest id, the entry count against
// the header's) is gathered in SliceTotals, summed over every slice, and
// checked by check_totals: on one node for a whole file, on every node after
// the cluster-wide sum for the loader. Internal to compute/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "compute/graph/edge_list.h"
#include "compute/graph/graph_reader.h"
#include "compute/graph/input_bytes.h"
#include "compute/graph/line_slice.h"
#include "compute/graph/reader_support.h"

namespace wg::reader {

// What the header declares. Every node reads it; the hello compares its digest.
struct InputHeader {
  GraphFormat format = GraphFormat::kEdgeList;
  uint64_t size = 0;            // bytes in the file
  uint64_t data_start = 0;      // first byte after the header
  uint64_t header_lines = 0;    // lines before data_start
  uint64_t digest = 0;          // hash of the header's bytes
  uint64_t declared_vertices = 0;  // MM max(rows, cols), DIMACS n, METIS n, --vertices N (0: none declared)
  // Edge lists and binary files: --vertices N gave declared_vertices (ids
  // 0..N-1; an id >= N is refused on its line or at its byte offset).
  bool vertices_given = false;
  bool declares_entries = false;
  uint64_t declared_entries = 0;   // MM entries, DIMACS arcs, METIS neighbour entries (2m)
  uint64_t declaring_line = 0;     // the header line that declares them
  uint64_t declared_edges = 0;     // METIS m, for its message
  uint64_t rows = 0, cols = 0;     // Matrix Market
  bool pattern = false, symmetric = false;
  uint64_t metis_skip = 0;         // METIS: leading fields of a vertex line (size, vertex weights)
  bool metis_edge_weights = false;
  unsigned record_bytes = 0;       // bin 8, wbin 12, text 0
  bool weighted = false;           // from the header (edge lists: from their column count)
  // Edge lists: the field names of a first line that holds no number
  // ("source,target,weight"), skipped as a header line, and its line number.
  std::vector<std::string> field_names;
  uint64_t names_line = 0;
  // Edge lists: the field that holds the weight, from 0 (--weight-column:
  // 2, the third, unless it names another), and its name in messages.
  unsigned weight_field = 2;
  bool weight_field_chosen = false;  // --weight-column given: a line without it is refused
  std::string weight_field_name = "field 3 (weight)";
};

// The most fields an edge list's weight may be behind (--weight-column).
inline constexpr unsigned kMaxWeightColumn = 64;

// Reads the header of a file in `format` (kAuto: by its name). Throws GraphError.
// `weight_column` is --weight-column as given (empty: the third field): a
// column number from 1, or a name the first line's field names hold.
// `vertices` is --vertices N (0: not given): an edge list's or binary file's
// vertices are then 0..N-1; a format that declares its own count must agree.
InputHeader read_header(InputBytes& in, GraphFormat format, const std::string& weight_column = "",
                        uint64_t vertices = 0);

// An edge naming an id >= the --vertices N: "field 2 (dst): vertex id 7 is
// not below --vertices 5 (the ids are 0..4)". The caller adds the line or
// byte offset.
[[noreturn]] void refuse_beyond_given(const std::string& path, const InputHeader& h, uint64_t src, uint64_t dst,
                                      const std::string& where = "");

// What the header (or a binary file's length) says the graph holds, before
// any edge is read: for the memory check. Edge lists declare nothing (0).
DeclaredSize declared_size(const InputHeader& h);

// One slice's figures, summed over slices.
struct SliceTotals {
  uint64_t entries = 0;       // edge-list, MM and DIMACS data lines, binary records, METIS neighbour entries
  uint64_t vertex_lines = 0;  // METIS: vertex lines (blank ones too)
  uint64_t max_id_plus1 = 0;  // largest vertex id emitted + 1
  uint32_t columns = 0;       // edge lists: fields per data line (0: no data line)
  // Text: the slice's boundary fragments (compute/graph/line_slice.h), for the
  // check that adjacent slices read the same file.
  bool has_head = false, has_tail = false;
  uint64_t head_hash = 0, tail_hash = 0;

  void note_boundaries(const LineSlice& s) {
    has_head = s.has_head();
    head_hash = s.head_hash();
    has_tail = s.has_tail();
    tail_hash = s.tail_hash();
  }
  void add(const SliceTotals& o) {
    entries += o.entries;
    vertex_lines += o.vertex_lines;
    max_id_plus1 = std::max(max_id_plus1, o.max_id_plus1);
    if (columns == 0) columns = o.columns;
  }
};

// Slice i of n of the data: a byte range (text) or a record range (binary).
struct SliceSpec {
  uint64_t begin = 0, end = 0;
  bool first = true;               // starts the data: owns the line at `begin`
  bool entries_before_known = true;  // lets a line past the header's count be named
  uint64_t entries_before = 0;
  uint64_t vertex_base = 0;        // METIS: the vertex of the slice's first line
};
SliceSpec slice_of(const InputHeader& h, unsigned i, unsigned n);

// V, once every slice's totals are summed; throws GraphError when the data
// contradicts the header (entry counts, vertex lines).
VertexId check_totals(const std::string& path, const InputHeader& h, const SliceTotals& t);
// Whether the edges carry weights: from the header, or an edge list's columns.
inline bool weighted(const InputHeader& h, const SliceTotals& t) { return h.weighted || t.columns > h.weight_field; }

// ---- per-format slice loops -------------------------------------------------
// Each calls emit(src, dst, weight) for every edge of its slice, in file
// order, and fills `t`. A GraphError raised on a line is rethrown with the
// line's number in the file (found only then: see LineSlice::line_number).
//
// Edge lists and binary files are parsed for one of two id types: VertexId
// (dense ids, V = max id + 1, counted in t.max_id_plus1) or, under --ids
// sparse, int64_t (the ids as written, signed 64-bit in text, any uint32 in
// binary records; the loader maps them, so no V comes from them).
template <class Id>
inline Id read_id(const std::string& path, const char* field, std::string_view tok) {
  if constexpr (std::is_same_v<Id, int64_t>) {
    return parse_signed_id(path, field, tok);
  } else {
    uint64_t v;
    if (!parse_u64(tok, v) || v > kMaxVertexId) [[unlikely]]
      bad_id(Where{path, 0, field}, tok, kMaxVertexId, " (dense ids are 0..4294967294; --ids sparse reads any "
                                                       "signed 64-bit id)");
    return static_cast<VertexId>(v);
  }
}

// Whether an id read as a plain number is one the general path takes as
// is: dense ids up to kMaxVertexId, sparse ones up to 18 digits (any).
template <class Id>
inline bool id_fits(uint64_t v) {
  if constexpr (std::is_same_v<Id, int64_t>)
    return true;
  else
    return v <= kMaxVertexId;
}

// Every slice loop below reads weights as W says (compute/graph/reader_support.h:
// Weight, RealWeight or SkipWeight) and emits them as column_weight<W> returns.
template <class Id = VertexId, class W = Weight, class Emit>
void edge_list_slice(InputBytes& in, const InputHeader& h, const SliceSpec& sp, SliceTotals& t, Emit& emit) {
  static const char* const kNames[2] = {"field 1 (src)", "field 2 (dst)"};
  const std::string& path = in.name();
  LineSlice lines(in, sp.begin, sp.end, sp.first, sp.first ? h.header_lines : LineSlice::kUnknown);
  std::string_view line, f[kMaxWeightColumn];
  const size_t wf = h.weight_field;
  uint64_t first_offset = 0;  // of the slice's first data line, for the column-count message
  try {
    // Once the first data line has set two columns and no weight field is
    // asked for, the buffered lines that are two plain ids are read in place
    // (take_plain_id_pairs), the rest line by line below.
    auto take = [&](uint64_t a, uint64_t b) {
      if (!id_fits<Id>(a) || !id_fits<Id>(b)) return false;
      const Id src = static_cast<Id>(a), dst = static_cast<Id>(b);
      if constexpr (std::is_same_v<Id, VertexId>) {
        const uint64_t max_plus1 = std::max<uint64_t>(t.max_id_plus1, uint64_t{std::max(src, dst)} + 1);
        if (h.vertices_given && max_plus1 > h.declared_vertices) return false;  // named below, with its line
        t.max_id_plus1 = max_plus1;
      }
      ++t.entries;
      emit(src, dst, unit_weight<W>());
      return true;
    };
    for (;;) {
      if (t.columns == 2 && !h.weight_field_chosen) {
        uint64_t taken = 0;
        const size_t bytes = take_plain_id_pairs(lines.buffered_lines(), taken, take);
        lines.took(bytes, taken);
      }
      if (!lines.next(line)) break;
      if (is_skippable(line, true)) continue;
      const char* err = nullptr;
      const size_t n = split_fields(line, true, f, wf + 1, &err);
      if (n == kSplitError) fail(path, 0, err);
      if (n < 2) fail(path, 0, "expected 'src dst [weight]' but found 1 field " + quoted(f[0]));
      if (t.columns == 0) {
        t.columns = static_cast<uint32_t>(n);
        first_offset = lines.line_offset();
      } else if (n != t.columns) {
        fail(path, 0,
             "inconsistent column count: this line has " + std::to_string(n) + " fields but line " +
                 std::to_string(lines.line_number_at(first_offset)) + " has " + std::to_string(t.columns) +
                 (ends_with(lower(path), ".graph") ? " (read METIS .graph files with --format metis)" : ""));
      }
      const Id src = read_id<Id>(path, kNames[0], f[0]);
      const Id dst = read_id<Id>(path, kNames[1], f[1]);
      if (n <= wf && h.weight_field_chosen) [[unlikely]]
        fail(path, 0, "--weight-column: this line has " + std::to_string(n) + " fields, no " + h.weight_field_name);
      const auto w = n > wf ? column_weight<W>(Where{path, 0, h.weight_field_name.c_str()}, f[wf]) : unit_weight<W>();
      ++t.entries;
      if constexpr (std::is_same_v<Id, VertexId>) {
        t.max_id_plus1 = std::max<uint64_t>(t.max_id_plus1, uint64_t{std::max(src, dst)} + 1);
        if (h.vertices_given && t.max_id_plus1 > h.declared_vertices) [[unlikely]]
          refuse_beyond_given(path, h, src, dst);
      }
      emit(src, dst, w);
    }
  } catch (const GraphError& e) {
    lines.rethrow_at_line(e.detail());
  }
  t.note_boundaries(lines);
}

template <class W = Weight, class Emit>
void matrix_market_slice(InputBytes& in, const InputHeader& h, const SliceSpec& sp, SliceTotals& t, Emit& emit) {
  const std::string& path = in.name();
  LineSlice lines(in, sp.begin, sp.end, sp.first, sp.first ? h.header_lines : LineSlice::kUnknown);
  std::string_view line, f[4];
  const size_t want = h.pattern ? 2 : 3;
  try {
    while (lines.next(line)) {
      if (is_skippable(line, false)) continue;
      if (sp.entries_before_known && sp.entries_before + t.entries == h.declared_entries)
        fail(path, 0, "more entries than the " + std::to_string(h.declared_entries) + " declared on line " +
                          std::to_string(h.declaring_line));
      const char* err = nullptr;
      const size_t k = split_fields(line, false, f, 4, &err);
      if (k != want)
        fail(path, 0, std::string("expected ") + (h.pattern ? "'row col'" : "'row col value'") + " but found " +
                          std::to_string(k) + " field" + (k == 1 ? "" : "s"));
      const uint64_t r = parse_id(Where{path, 0, "row index"}, f[0], kMaxWeight);
      const uint64_t c = parse_id(Where{path, 0, "column index"}, f[1], kMaxWeight);
      if (r < 1 || r > h.rows)
        fail(path, 0, "row index " + std::to_string(r) + " is out of range 1.." + std::to_string(h.rows));
      if (c < 1 || c > h.cols)
        fail(path, 0, "column index " + std::to_string(c) + " is out of range 1.." + std::to_string(h.cols));
      const auto w = h.pattern ? unit_weight<W>() : column_weight<W>(Where{path, 0, "value (weight)"}, f[2]);
      const auto src = static_cast<VertexId>(r - 1), dst = static_cast<VertexId>(c - 1);
      ++t.entries;
      emit(src, dst, w);
      if (h.symmetric && src != dst) emit(dst, src, w);
    }
  } catch (const GraphError& e) {
    lines.rethrow_at_line(e.detail());
  }
  t.note_boundaries(lines);
  t.max_id_plus1 = h.declared_vertices;
}

template <class W = Weight, class Emit>
void dimacs_slice(InputBytes& in, const InputHeader& h, const SliceSpec& sp, SliceTotals& t, Emit& emit) {
  const std::string& path = in.name();
  LineSlice lines(in, sp.begin, sp.end, sp.first, sp.first ? h.header_lines : LineSlice::kUnknown);
  std::string_view line, f[5];
  const uint64_t n = h.declared_vertices;
  try {
    while (lines.next(line)) {
      const std::string_view s = trim_left(line);
      if (s.empty() || s[0] == 'c') continue;
      const char* err = nullptr;
      const size_t k = split_fields(s, false, f, 5, &err);
      if (f[0] == "p") fail(path, 0, "second 'p' line (the first is line " + std::to_string(h.declaring_line) + ")");
      if (f[0] != "a") fail(path, 0, "unexpected DIMACS line type " + quoted(f[0]) + " (expected c, p or a)");
      if (k != 4) fail(path, 0, "expected 'a SRC DST WEIGHT', found " + std::to_string(k) + " fields");
      if (sp.entries_before_known && sp.entries_before + t.entries == h.declared_entries)
        fail(path, 0, "more arcs than the " + std::to_string(h.declared_entries) + " declared on line " +
                          std::to_string(h.declaring_line));
      const uint64_t u = parse_id(Where{path, 0, "arc source"}, f[1], kMaxWeight);
      const uint64_t v = parse_id(Where{path, 0, "arc target"}, f[2], kMaxWeight);
      if (u < 1 || u > n) fail(path, 0, "arc source " + std::to_string(u) + " is out of range 1.." + std::to_string(n));
      if (v < 1 || v > n) fail(path, 0, "arc target " + std::to_string(v) + " is out of range 1.." + std::to_string(n));
      const auto w = column_weight<W>(Where{path, 0, "arc weight"}, f[3]);
      ++t.entries;
      emit(static_cast<VertexId>(u - 1), static_cast<VertexId>(v - 1), w);
    }
  } catch (const GraphError& e) {
    lines.rethrow_at_line(e.detail());
  }
  t.note_boundaries(lines);
  t.max_id_plus1 = n;
}

// A METIS vertex line: every line that is not a '%' comment, blank ones too.
inline bool is_metis_vertex_line(std::string_view line) {
  const std::string_view s = trim_left(line);
  return s.empty() || s[0] != '%';
}

// Line k of the slice is vertex sp.vertex_base + k (the loader counts every
// slice's vertex lines first; see GraphLoader).
template <class W = Weight, class Emit>
void metis_slice(InputBytes& in, const InputHeader& h, const SliceSpec& sp, SliceTotals& t, Emit& emit) {
  const std::string& path = in.name();
  LineSlice lines(in, sp.begin, sp.end, sp.first, sp.first ? h.header_lines : LineSlice::kUnknown);
  std::string_view line;
  const uint64_t n = h.declared_vertices;
  try {
    while (lines.next(line)) {
      if (!is_metis_vertex_line(line)) continue;
      const uint64_t v = sp.vertex_base + t.vertex_lines++;
      const std::string_view s = trim_left(line);
      if (v >= n) {
        if (s.empty()) continue;  // blank lines after the last vertex
        fail(path, 0, "more vertex lines than the " + std::to_string(n) + " the header (line " +
                          std::to_string(h.declaring_line) + ") declares");
      }
      uint64_t field = 0;
      bool pending_weight = false;  // a neighbour read, its weight next
      uint64_t neighbour = 0;
      std::string_view rest = s;
      while (!rest.empty()) {
        const size_t end = static_cast<size_t>(std::find_if(rest.begin(), rest.end(), is_blank) - rest.begin());
        const std::string_view tok = rest.substr(0, end);
        rest = trim_left(rest.substr(end));
        const uint64_t i = field++;
        if (i < h.metis_skip) continue;
        if (pending_weight) {
          const auto w = column_weight<W>(Where{path, 0, "edge weight"}, tok);
          emit(static_cast<VertexId>(v), static_cast<VertexId>(neighbour), w);
          pending_weight = false;
          continue;
        }
        const uint64_t u = parse_id(Where{path, 0, "neighbour"}, tok, kMaxVertexId);
        if (u < 1 || u > n) fail(path, 0, "neighbour " + std::to_string(u) + " is out of range 1.." + std::to_string(n));
        ++t.entries;
        if (h.metis_edge_weights) {
          neighbour = u - 1;
          pending_weight = true;
        } else {
          emit(static_cast<VertexId>(v), static_cast<VertexId>(u - 1), unit_weight<W>());
        }
      }
      if (field < h.metis_skip)
        fail(path, 0, "vertex " + std::to_string(v + 1) + ": fewer fields than its size and weights");
      if (pending_weight) fail(path, 0, "vertex " + std::to_string(v + 1) + ": a neighbour without its edge weight");
    }
  } catch (const GraphError& e) {
    lines.rethrow_at_line(e.detail());
  }
  t.note_boundaries(lines);
  t.max_id_plus1 = n;
}

// Whole little-endian uint32 records [sp.begin, sp.end) of a bin/wbin file.
template <class Id = VertexId, class W = Weight, class Emit>
void binary_slice(InputBytes& in, const InputHeader& h, const SliceSpec& sp, SliceTotals& t, Emit& emit) {
  const unsigned rec = h.record_bytes;
  constexpr uint64_t kChunkRecords = 1 << 16;
  std::vector<char> buf(kChunkRecords * rec);
  for (uint64_t first = sp.begin; first < sp.end;) {
    const uint64_t count = std::min(kChunkRecords, sp.end - first);
    const size_t bytes = static_cast<size_t>(count * rec);
    if (in.read_at(first * rec, buf.data(), bytes) != bytes)
      fail(in.name(), 0, "byte offset " + std::to_string(first * rec) + ": the file is shorter than it was");
    for (uint64_t i = 0; i < count; ++i) {
      const char* p = buf.data() + i * rec;
      uint32_t src, dst, w = 1;
      std::memcpy(&src, p, 4);
      std::memcpy(&dst, p + 4, 4);
      if (rec == 12) std::memcpy(&w, p + 8, 4);
      if constexpr (std::is_same_v<Id, VertexId>) {
        if (src > kMaxVertexId || dst > kMaxVertexId) [[unlikely]]
          fail(in.name(), 0, "byte offset " + std::to_string((first + i) * rec) +
                                 ": vertex id 4294967295 is reserved (max 4294967294)");
        t.max_id_plus1 = std::max<uint64_t>(t.max_id_plus1, uint64_t{std::max(src, dst)} + 1);
        if (h.vertices_given && t.max_id_plus1 > h.declared_vertices) [[unlikely]]
          refuse_beyond_given(in.name(), h, src, dst, "byte offset " + std::to_string((first + i) * rec) + ": ");
      }
      if constexpr (std::is_same_v<W, RealWeight>)
        emit(Id{src}, Id{dst}, static_cast<double>(w));
      else if constexpr (std::is_same_v<W, SkipWeight>)
        emit(Id{src}, Id{dst}, Weight{1});
      else
        emit(Id{src}, Id{dst}, w);
    }
    t.entries += count;
    first += count;
  }
}

// The slice's edges in file order through emit(src, dst, weight), the
// weights read as W says (Weight, RealWeight or SkipWeight).
template <class W = Weight, class Emit>
SliceTotals parse_slice(InputBytes& in, const InputHeader& h, const SliceSpec& sp, Emit&& emit) {
  SliceTotals t;
  switch (h.format) {
    case GraphFormat::kMatrixMarket: matrix_market_slice<W>(in, h, sp, t, emit); break;
    case GraphFormat::kDimacs: dimacs_slice<W>(in, h, sp, t, emit); break;
    case GraphFormat::kMetis: metis_slice<W>(in, h, sp, t, emit); break;
    case GraphFormat::kBinary:
    case GraphFormat::kBinaryWeighted: binary_slice<VertexId, W>(in, h, sp, t, emit); break;
    case GraphFormat::kAuto:
    case GraphFormat::kEdgeList: edge_list_slice<VertexId, W>(in, h, sp, t, emit); break;
  }
  return t;
}

// The slice's edges with their ids as written (--ids sparse): emit(int64_t
// src, int64_t dst, weight). Edge lists and binary files only.
template <class W = Weight, class Emit>
SliceTotals parse_sparse_slice(InputBytes& in, const InputHeader& h, const SliceSpec& sp, Emit&& emit) {
  SliceTotals t;
  if (const char* why = why_ids_are_dense(h.format)) fail(in.name(), 0, std::string("--ids sparse: ") + why);
  if (h.record_bytes != 0)
    binary_slice<int64_t, W>(in, h, sp, t, emit);
  else
    edge_list_slice<int64_t, W>(in, h, sp, t, emit);
  return t;
}

// METIS: the vertex lines of a slice (the loader's first pass).
uint64_t count_metis_vertex_lines(InputBytes& in, const InputHeader& h, const SliceSpec& sp);

}  // namespace wg::reader
