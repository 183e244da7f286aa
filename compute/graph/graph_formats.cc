#include "compute/graph/graph_formats.h"

#include <charconv>

namespace wg::reader {

namespace {

// The header's lines, hashed as they are read (the hello compares the digest).
struct HeaderLines {
  explicit HeaderLines(InputBytes& in) : lines(LineSlice::header(in)) {}
  bool next(std::string_view& line) {
    if (!lines.next(line)) return false;
    digest = fnv1a(line, digest) * 31 + 1;
    return true;
  }
  uint64_t number() const { return lines.lines(); }
  LineSlice lines;
  uint64_t digest = 0xcbf29ce484222325ULL;
};

void finish(InputHeader& h, const HeaderLines& hl) {
  h.data_start = hl.lines.next_offset();
  h.header_lines = hl.number();
  h.digest = hl.digest;
}

void matrix_market_header(InputBytes& in, InputHeader& h) {
  const std::string& path = in.name();
  HeaderLines hl(in);
  std::string_view line;
  bool any = false;
  while ((any = hl.next(line)) && trim_left(line).empty()) {
  }
  if (!any) fail(path, 1, "empty file: expected a '%%MatrixMarket' banner");
  const std::string_view banner = trim_left(line);
  constexpr std::string_view kBanner = "%%matrixmarket";
  if (banner.size() < kBanner.size() || lower(banner.substr(0, kBanner.size())) != kBanner)
    fail(path, hl.number(),
         "missing '%%MatrixMarket' banner; if this is a plain 'row col' edge list (a matrix's entries without "
         "its banner and size line), read it with --format edgelist, which keeps its ids as it names them (no "
         "vertex 0 is added), and add --undirected if it lists each edge once (a symmetric matrix's triangle)");
  std::string_view t[6];
  const char* err = nullptr;
  const size_t n = split_fields(banner, false, t, 6, &err);
  const uint64_t ln = hl.number();
  if (n < 5)
    fail(path, ln, "incomplete Matrix Market banner; expected "
                   "'%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>'");
  const std::string object = lower(t[1]), format = lower(t[2]), field = lower(t[3]), sym = lower(t[4]);
  if (object != "matrix")
    fail(path, ln, "unsupported Matrix Market object " + quoted(t[1]) + " (only 'matrix' is supported)");
  if (format == "array")
    fail(path, ln, "unsupported Matrix Market format 'array' (dense); only 'coordinate' is supported");
  if (format != "coordinate")
    fail(path, ln, "unknown Matrix Market format " + quoted(t[2]) + " (only 'coordinate' is supported)");
  if (field == "complex") fail(path, ln, "unsupported Matrix Market field 'complex'; use pattern, integer or real");
  if (field != "pattern" && field != "integer" && field != "real")
    fail(path, ln, "unknown Matrix Market field " + quoted(t[3]) + " (expected pattern, integer or real)");
  if (sym == "hermitian" || sym == "skew-symmetric")
    fail(path, ln, "unsupported Matrix Market symmetry " + quoted(t[4]) + "; only general and symmetric are supported");
  if (sym != "general" && sym != "symmetric")
    fail(path, ln, "unknown Matrix Market symmetry " + quoted(t[4]) + " (expected general or symmetric)");
  h.pattern = field == "pattern";
  h.symmetric = sym == "symmetric";
  h.weighted = !h.pattern;

  // The size line: the first line that is neither blank nor a comment ('%',
  // %%GraphBLAS extensions included).
  bool have_size = false;
  while (!have_size && hl.next(line)) have_size = !is_skippable(line, false);
  if (!have_size) fail(path, hl.number(), "missing size line 'rows columns entries'");
  const uint64_t size_ln = hl.number();
  const size_t k = split_fields(line, false, t, 4, &err);
  if (k != 3)
    fail(path, size_ln, "size line must be 'rows columns entries' (3 integers), found " + std::to_string(k) +
                            " field" + (k == 1 ? "" : "s"));
  h.rows = parse_id(Where{path, size_ln, "size line: rows"}, t[0], kMaxWeight);
  h.cols = parse_id(Where{path, size_ln, "size line: columns"}, t[1], kMaxWeight);
  if (!parse_u64(t[2], h.declared_entries))
    fail(path, size_ln, "size line: entries " + quoted(t[2]) + " is not a non-negative integer");
  if (h.symmetric && h.rows != h.cols)
    fail(path, size_ln, "symmetric matrix must be square, but the size is " + std::to_string(h.rows) + " x " +
                            std::to_string(h.cols));
  h.declared_vertices = std::max(h.rows, h.cols);
  h.declares_entries = true;
  h.declaring_line = size_ln;
  finish(h, hl);
}

void dimacs_header(InputBytes& in, InputHeader& h) {
  const std::string& path = in.name();
  HeaderLines hl(in);
  std::string_view line, t[5];
  const char* err = nullptr;
  while (hl.next(line)) {
    const std::string_view s = trim_left(line);
    if (s.empty() || s[0] == 'c') continue;
    const uint64_t ln = hl.number();
    const size_t k = split_fields(s, false, t, 5, &err);
    if (t[0] == "a") fail(path, ln, "arc before the 'p sp NODES ARCS' line");
    if (t[0] != "p") fail(path, ln, "unexpected DIMACS line type " + quoted(t[0]) + " (expected c, p or a)");
    if (k != 4 || t[1] != "sp") fail(path, ln, "expected 'p sp NODES ARCS'");
    h.declared_vertices = parse_id(Where{path, ln, "p line: nodes"}, t[2], kMaxWeight);
    if (!parse_u64(t[3], h.declared_entries))
      fail(path, ln, "p line: arcs " + quoted(t[3]) + " is not a non-negative integer");
    h.declares_entries = true;
    h.declaring_line = ln;
    h.weighted = true;
    finish(h, hl);
    return;
  }
  fail(path, 0, "missing 'p sp NODES ARCS' line; not a DIMACS shortest-path file");
}

// "n m [fmt [ncon]]" after any '%' comment lines; see metis_slice.
void metis_header(InputBytes& in, InputHeader& h) {
  const std::string& path = in.name();
  HeaderLines hl(in);
  std::string_view line, t[5];
  const char* err = nullptr;
  while (hl.next(line)) {
    if (is_skippable(line, false)) continue;
    const uint64_t ln = hl.number();
    const size_t k = split_fields(line, false, t, 5, &err);
    if (k == kSplitError || k < 2 || k > 4) fail(path, ln, "expected the METIS header 'VERTICES EDGES [FMT [NCON]]'");
    h.declared_vertices = parse_id(Where{path, ln, "header: vertices"}, t[0], kMaxVertexId);
    if (!parse_u64(t[1], h.declared_edges))
      fail(path, ln, "header: edges " + quoted(t[1]) + " is not a non-negative integer");
    bool sizes = false, vertex_weights = false;
    if (k >= 3) {
      const std::string_view fmt = t[2];
      if (fmt.empty() || fmt.size() > 3 || fmt.find_first_not_of("01") != std::string_view::npos)
        fail(path, ln, "header: format " + quoted(fmt) + " is not one of 0, 1, 10, 11, 100, 101, 110, 111");
      const std::string f = std::string(3 - fmt.size(), '0') + std::string(fmt);
      sizes = f[0] == '1';
      vertex_weights = f[1] == '1';
      h.metis_edge_weights = f[2] == '1';
    }
    const uint64_t ncon = k == 4 ? parse_id(Where{path, ln, "header: ncon"}, t[3], 1000) : 1;
    h.metis_skip = (sizes ? 1 : 0) + (vertex_weights ? ncon : 0);
    h.declares_entries = true;
    h.declared_entries = 2 * h.declared_edges;
    h.declaring_line = ln;
    h.weighted = h.metis_edge_weights;
    finish(h, hl);
    return;
  }
  fail(path, 0, "no METIS header 'VERTICES EDGES [FMT [NCON]]'");
}

bool is_number(std::string_view tok) {
  if (tok.empty()) return false;
  double d;
  const char* end = tok.data() + tok.size();
  const auto [ptr, ec] = std::from_chars(tok.data(), end, d);
  return ptr == end && (ec == std::errc() || ec == std::errc::result_out_of_range);
}

// An edge list's first data line is a header when none of its fields is a
// number ("source,target,weight", "FromNodeId ToNodeId"): its fields name the
// columns (--weight-column may name one), and the data starts after it. A
// line with one number among names (say "1 x") is data, refused where it is.
void edge_list_header(InputBytes& in, InputHeader& h) {
  HeaderLines hl(in);
  std::string_view line;
  while (hl.next(line)) {
    if (is_skippable(line, true)) continue;
    constexpr size_t kMaxNames = 64;
    std::string_view f[kMaxNames];
    const char* err = nullptr;
    const size_t n = split_fields(line, true, f, kMaxNames, &err);
    if (n == kSplitError || n < 2 || n > kMaxNames || std::any_of(f, f + n, is_number)) return;
    for (size_t i = 0; i < n; ++i) h.field_names.emplace_back(f[i]);
    h.names_line = hl.number();
    finish(h, hl);
    return;
  }
}

void binary_header(InputBytes& in, InputHeader& h, bool weighted) {
  h.record_bytes = weighted ? 12 : 8;
  h.weighted = weighted;
  if (h.size % h.record_bytes != 0)
    fail(in.name(), 0,
         "file size " + std::to_string(h.size) + " bytes is not a multiple of the " + std::to_string(h.record_bytes) +
             "-byte record (" + (weighted ? "src, dst, weight" : "src, dst") +
             " as little-endian uint32); is it the right format?");
}

// --weight-column: a number from 1 or one of the header's field names.
void choose_weight_field(const std::string& path, const std::string& column, InputHeader& h) {
  if (column.empty()) return;
  if (h.format != GraphFormat::kEdgeList && h.format != GraphFormat::kAuto)
    fail(path, 0, "--weight-column " + column + ": only edge lists have weight columns (this file is " +
                      graph_format_name(h.format) + ")");
  uint64_t number = 0;
  if (parse_u64(column, number)) {
    if (number < 3 || number > kMaxWeightColumn)
      fail(path, 0, "--weight-column " + column + ": a weight column is 3.." + std::to_string(kMaxWeightColumn) +
                        " (fields 1 and 2 are the edge's ends)");
    h.weight_field = static_cast<unsigned>(number - 1);
    h.weight_field_name = "field " + column + " (weight)";
  } else {
    const auto at = std::find(h.field_names.begin(), h.field_names.end(), column);
    if (at == h.field_names.end()) {
      std::string names;
      for (const std::string& n : h.field_names) names += (names.empty() ? "" : ", ") + n;
      fail(path, h.names_line,
           "--weight-column " + column + ": " +
               (h.field_names.empty() ? std::string("the file has no header line of field names (give a column number)")
                                      : "the header names " + names));
    }
    const size_t i = static_cast<size_t>(at - h.field_names.begin());
    if (i < 2)
      fail(path, h.names_line, "--weight-column " + column + ": field " + std::to_string(i + 1) +
                                   " is an edge's end, not a weight");
    h.weight_field = static_cast<unsigned>(i);
    h.weight_field_name = "field " + std::to_string(i + 1) + " (weight '" + column + "')";
  }
  h.weight_field_chosen = true;
}

InputHeader read_header_only(InputBytes& in, GraphFormat format) {
  InputHeader h;
  h.format = format == GraphFormat::kAuto ? format_from_extension(in.name()) : format;
  h.size = in.size();
  switch (h.format) {
    case GraphFormat::kBinary: binary_header(in, h, false); return h;
    case GraphFormat::kBinaryWeighted: binary_header(in, h, true); return h;
    default: break;
  }
  switch (h.format) {
    case GraphFormat::kMatrixMarket: matrix_market_header(in, h); break;
    case GraphFormat::kDimacs: dimacs_header(in, h); break;
    case GraphFormat::kMetis: metis_header(in, h); break;
    default: edge_list_header(in, h); break;  // field names, if its first data line holds them
  }
  return h;
}

// --vertices N: an edge list's or binary file's vertices are 0..N-1 (its
// edges alone cannot say that the highest ids are isolated vertices); a
// format that declares its own count keeps it, and N must agree with it.
void give_vertices(const std::string& path, uint64_t n, InputHeader& h) {
  if (n == 0) return;
  if (n > kMaxGivenVertices)
    fail(path, 0, "--vertices " + std::to_string(n) + ": more than " + std::to_string(kMaxGivenVertices) +
                      " vertices (ids are 32-bit, 0..4294967294)");
  if (why_ids_are_dense(h.format) != nullptr) {  // Matrix Market, DIMACS, METIS: a header declares n
    if (n != h.declared_vertices)
      fail(path, h.declaring_line,
           "--vertices " + std::to_string(n) + " contradicts the header, which declares " +
               std::to_string(h.declared_vertices) + " vertices (" + graph_format_name(h.format) +
               " files carry their own count: drop --vertices, or give " + std::to_string(h.declared_vertices) + ")");
    return;
  }
  h.declared_vertices = n;
  h.vertices_given = true;
}

}  // namespace

InputHeader read_header(InputBytes& in, GraphFormat format, const std::string& weight_column, uint64_t vertices) {
  InputHeader h = read_header_only(in, format);
  choose_weight_field(in.name(), weight_column, h);
  give_vertices(in.name(), vertices, h);
  return h;
}

void refuse_beyond_given(const std::string& path, const InputHeader& h, uint64_t src, uint64_t dst,
                         const std::string& where) {
  const bool is_src = src >= h.declared_vertices;
  const std::string n = std::to_string(h.declared_vertices);
  fail(path, 0, where + (is_src ? "field 1 (src)" : "field 2 (dst)") + ": vertex id " +
                    std::to_string(is_src ? src : dst) + " is not below --vertices " + n + " (the ids are 0.." +
                    std::to_string(h.declared_vertices - 1) + ")");
}

DeclaredSize declared_size(const InputHeader& h) {
  const auto twice = [](uint64_t x) { return x <= UINT64_MAX / 2 ? 2 * x : x; };
  switch (h.format) {
    case GraphFormat::kMatrixMarket:
      return {h.declared_vertices, h.symmetric ? twice(h.declared_entries) : h.declared_entries,
              "the size line (line " + std::to_string(h.declaring_line) + ") declares " + std::to_string(h.rows) +
                  " x " + std::to_string(h.cols) + " with " + std::to_string(h.declared_entries) + " entries"};
    case GraphFormat::kDimacs:
      return {h.declared_vertices, h.declared_entries,
              "the 'p' line (line " + std::to_string(h.declaring_line) + ") declares " +
                  std::to_string(h.declared_vertices) + " nodes and " + std::to_string(h.declared_entries) + " arcs"};
    case GraphFormat::kMetis:
      return {h.declared_vertices, h.declared_entries,
              "the header (line " + std::to_string(h.declaring_line) + ") declares " +
                  std::to_string(h.declared_vertices) + " vertices and " + std::to_string(h.declared_edges) + " edges"};
    case GraphFormat::kBinary:
    case GraphFormat::kBinaryWeighted:
      return {h.declared_vertices, h.size / h.record_bytes,
              "its size (" + std::to_string(h.size) + " bytes, " + std::to_string(h.record_bytes) + " per edge)" +
                  (h.vertices_given ? " and --vertices " + std::to_string(h.declared_vertices) : "")};
    default: return {0, 0, "an edge list (its size is known once read)"};
  }
}

SliceSpec slice_of(const InputHeader& h, unsigned i, unsigned n) {
  SliceSpec s;
  const uint64_t units = h.record_bytes ? h.size / h.record_bytes : h.size - h.data_start;
  const uint64_t base = h.record_bytes ? 0 : h.data_start;
  s.begin = base + static_cast<uint64_t>((static_cast<unsigned __int128>(units) * i) / n);
  s.end = base + static_cast<uint64_t>((static_cast<unsigned __int128>(units) * (i + 1)) / n);
  s.first = i == 0;
  s.entries_before_known = i == 0;
  return s;
}

VertexId check_totals(const std::string& path, const InputHeader& h, const SliceTotals& t) {
  switch (h.format) {
    case GraphFormat::kMatrixMarket:
      if (t.entries < h.declared_entries)
        fail(path, h.declaring_line, "file ends after " + std::to_string(t.entries) + " of the " +
                                         std::to_string(h.declared_entries) + " entries declared on line " +
                                         std::to_string(h.declaring_line));
      if (t.entries > h.declared_entries)
        fail(path, h.declaring_line, "the file has " + std::to_string(t.entries) + " entries, more than the " +
                                         std::to_string(h.declared_entries) + " declared on line " +
                                         std::to_string(h.declaring_line));
      break;
    case GraphFormat::kDimacs:
      if (t.entries != h.declared_entries)
        fail(path, h.declaring_line, "declares " + std::to_string(h.declared_entries) + " arcs but the file has " +
                                         std::to_string(t.entries));
      break;
    case GraphFormat::kMetis:
      if (t.vertex_lines < h.declared_vertices)
        fail(path, 0, "the header (line " + std::to_string(h.declaring_line) + ") declares " +
                          std::to_string(h.declared_vertices) + " vertices but the file has " +
                          std::to_string(t.vertex_lines) + " vertex lines");
      if (t.entries != h.declared_entries)
        fail(path, h.declaring_line, "declares " + std::to_string(h.declared_edges) + " edges, so " +
                                         std::to_string(h.declared_entries) + " neighbour entries, but the file lists " +
                                         std::to_string(t.entries));
      break;
    default: break;
  }
  return static_cast<VertexId>(std::max(h.declared_vertices, t.max_id_plus1));
}

uint64_t count_metis_vertex_lines(InputBytes& in, const InputHeader& h, const SliceSpec& sp) {
  LineSlice lines(in, sp.begin, sp.end, sp.first, sp.first ? h.header_lines : LineSlice::kUnknown);
  std::string_view line;
  uint64_t n = 0;
  while (lines.next(line)) n += is_metis_vertex_line(line);
  return n;
}

}  // namespace wg::reader
