// The text graph formats: SNAP-style edge lists, Matrix Market coordinate
// files and DIMACS shortest-path files (compute/graph_reader.h).
#include "compute/reader_support.h"

namespace wg::reader {

// ---- SNAP-style text edge lists ------------------------------------------

EdgeList read_edge_list(const std::string& path, std::string_view text, const SizeCheck& check) {
  reject_compressed(path, text);
  EdgeList g;
  const size_t line_count = count_lines(text);
  if (check) check({0, line_count, "its " + std::to_string(line_count) + " lines (at most one edge each)"});
  g.edges.reserve(line_count);
  LineReader lines(text);
  std::string_view line;
  std::string_view f[3];
  size_t columns = 0;       // of the first data line; every line must match
  uint64_t first_line = 0;  // that line's number
  static const char* const kNames[3] = {"field 1 (src)", "field 2 (dst)", "field 3 (weight)"};
  while (lines.next(line)) {
    if (is_skippable(line, true)) continue;
    const uint64_t ln = lines.line_no();
    const char* err = nullptr;
    const size_t n = split_fields(line, true, f, 3, &err);
    if (n == kSplitError) fail(path, ln, err);
    if (n < 2)
      fail(path, ln, "expected 'src dst [weight]' but found 1 field " + quoted(f[0]));
    if (columns == 0) {
      columns = n;
      first_line = ln;
    } else if (n != columns) {
      fail(path, ln, "inconsistent column count: this line has " + std::to_string(n) + " fields but line " +
                         std::to_string(first_line) + " has " + std::to_string(columns) +
                         (ends_with(lower(path), ".graph") ? " (METIS .graph adjacency files are not supported)" : ""));
    }
    Edge e;
    e.src = static_cast<VertexId>(parse_id(Where{path, ln, kNames[0]}, f[0], kMaxVertexId));
    e.dst = static_cast<VertexId>(parse_id(Where{path, ln, kNames[1]}, f[1], kMaxVertexId));
    e.weight = n >= 3 ? parse_weight(Where{path, ln, kNames[2]}, f[2]) : 1;
    g.edges.push_back(e);
  }
  g.weighted = columns >= 3;
  g.num_vertices = vertices_for(g.edges);
  return g;
}

// ---- Matrix Market -------------------------------------------------------

namespace {

struct MmHeader {
  bool pattern = false;
  bool symmetric = false;
};

MmHeader parse_mm_banner(const std::string& path, uint64_t ln, std::string_view line) {
  std::string_view t[6];
  const char* err = nullptr;
  const size_t n = split_fields(line, false, t, 6, &err);
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
  MmHeader h;
  if (field == "complex")
    fail(path, ln, "unsupported Matrix Market field 'complex'; use pattern, integer or real");
  if (field != "pattern" && field != "integer" && field != "real")
    fail(path, ln, "unknown Matrix Market field " + quoted(t[3]) + " (expected pattern, integer or real)");
  h.pattern = field == "pattern";
  if (sym == "hermitian" || sym == "skew-symmetric")
    fail(path, ln, "unsupported Matrix Market symmetry " + quoted(t[4]) + "; only general and symmetric are supported");
  if (sym != "general" && sym != "symmetric")
    fail(path, ln, "unknown Matrix Market symmetry " + quoted(t[4]) + " (expected general or symmetric)");
  h.symmetric = sym == "symmetric";
  return h;
}

bool is_mm_banner(std::string_view line) {
  constexpr std::string_view kBanner = "%%matrixmarket";
  return line.size() >= kBanner.size() && lower(line.substr(0, kBanner.size())) == kBanner;
}

// Duplicate entries (which LAGraph's mangled14.mtx calls malformed) are kept
// as parallel edges: GAP's 4.mtx relies on this, and the edge list, binary
// and DIMACS readers keep multi-edges too.
}  // namespace

EdgeList read_matrix_market(const std::string& path, std::string_view text, const SizeCheck& check) {
  reject_compressed(path, text);
  LineReader lines(text);
  std::string_view line;
  while (lines.next(line) && trim_left(line).empty()) {
  }
  if (lines.line_no() == 0 || trim_left(line).empty())
    fail(path, 1, "empty file: expected a '%%MatrixMarket' banner");
  if (!is_mm_banner(trim_left(line)))
    fail(path, lines.line_no(),
         "missing '%%MatrixMarket' banner; if this is a plain 'src dst' edge list, "
         "read it with --format edgelist");
  const MmHeader h = parse_mm_banner(path, lines.line_no(), trim_left(line));

  // Size line: the first line that is not a comment ('%', including
  // %%GraphBLAS extensions) or blank.
  bool have_size = false;
  while (!have_size && lines.next(line)) have_size = !is_skippable(line, false);
  if (!have_size) fail(path, lines.line_no(), "missing size line 'rows columns entries'");
  const uint64_t size_ln = lines.line_no();
  std::string_view t[4];
  const char* err = nullptr;
  const size_t n = split_fields(line, false, t, 4, &err);
  if (n != 3)
    fail(path, size_ln, "size line must be 'rows columns entries' (3 integers), found " + std::to_string(n) +
                            " field" + (n == 1 ? "" : "s"));
  const uint64_t rows = parse_id(Where{path, size_ln, "size line: rows"}, t[0], kMaxWeight);
  const uint64_t cols = parse_id(Where{path, size_ln, "size line: columns"}, t[1], kMaxWeight);
  uint64_t nnz;
  if (!parse_u64(t[2], nnz)) fail(path, size_ln, "size line: entries " + quoted(t[2]) + " is not a non-negative integer");
  if (h.symmetric && rows != cols)
    fail(path, size_ln, "symmetric matrix must be square, but the size is " + std::to_string(rows) + " x " +
                            std::to_string(cols));

  if (check)
    check({std::max(rows, cols), h.symmetric && nnz <= UINT64_MAX / 2 ? 2 * nnz : nnz,
           "the size line (line " + std::to_string(size_ln) + ") declares " + std::to_string(rows) + " x " +
               std::to_string(cols) + " with " + std::to_string(nnz) + " entries"});
  EdgeList g;
  g.weighted = !h.pattern;
  g.num_vertices = static_cast<VertexId>(std::max(rows, cols));
  // Each entry line takes at least 4 bytes, which caps a bogus huge count.
  const uint64_t cap = std::min<uint64_t>(nnz, text.size() / 4 + 1);
  g.edges.reserve(static_cast<size_t>(h.symmetric ? 2 * cap : cap));
  const size_t want = h.pattern ? 2 : 3;
  uint64_t seen = 0;
  while (lines.next(line)) {
    if (is_skippable(line, false)) continue;
    const uint64_t ln = lines.line_no();
    if (seen == nnz)
      fail(path, ln, "more entries than the " + std::to_string(nnz) + " declared on line " + std::to_string(size_ln));
    const size_t k = split_fields(line, false, t, 4, &err);
    if (k != want)
      fail(path, ln, std::string("expected ") + (h.pattern ? "'row col'" : "'row col value'") + " but found " +
                         std::to_string(k) + " field" + (k == 1 ? "" : "s"));
    const uint64_t r = parse_id(Where{path, ln, "row index"}, t[0], kMaxWeight);
    const uint64_t c = parse_id(Where{path, ln, "column index"}, t[1], kMaxWeight);
    if (r < 1 || r > rows)
      fail(path, ln, "row index " + std::to_string(r) + " is out of range 1.." + std::to_string(rows));
    if (c < 1 || c > cols)
      fail(path, ln, "column index " + std::to_string(c) + " is out of range 1.." + std::to_string(cols));
    const Weight w = h.pattern ? 1 : parse_weight(Where{path, ln, "value (weight)"}, t[2]);
    const auto src = static_cast<VertexId>(r - 1), dst = static_cast<VertexId>(c - 1);
    g.edges.push_back(Edge{src, dst, w});
    if (h.symmetric && src != dst) g.edges.push_back(Edge{dst, src, w});
    ++seen;
  }
  if (seen != nnz)
    fail(path, lines.line_no(), "file ends after " + std::to_string(seen) + " of the " + std::to_string(nnz) +
                                    " entries declared on line " + std::to_string(size_ln));
  return g;
}

// ---- DIMACS shortest-path .gr --------------------------------------------

EdgeList read_dimacs(const std::string& path, std::string_view text, const SizeCheck& check) {
  reject_compressed(path, text);
  LineReader lines(text);
  std::string_view line;
  std::string_view t[5];
  const char* err = nullptr;
  uint64_t n = 0, m = 0, p_line = 0, arcs = 0;
  EdgeList g;
  g.weighted = true;
  while (lines.next(line)) {
    const std::string_view s = trim_left(line);
    if (s.empty() || s[0] == 'c') continue;
    const uint64_t ln = lines.line_no();
    const size_t k = split_fields(s, false, t, 5, &err);
    if (t[0] == "p") {
      if (p_line != 0) fail(path, ln, "second 'p' line (the first is line " + std::to_string(p_line) + ")");
      if (k != 4 || t[1] != "sp") fail(path, ln, "expected 'p sp NODES ARCS'");
      n = parse_id(Where{path, ln, "p line: nodes"}, t[2], kMaxWeight);
      if (!parse_u64(t[3], m)) fail(path, ln, "p line: arcs " + quoted(t[3]) + " is not a non-negative integer");
      p_line = ln;
      if (check)
        check({n, m, "the 'p' line (line " + std::to_string(ln) + ") declares " + std::to_string(n) + " nodes and " +
                         std::to_string(m) + " arcs"});
      g.num_vertices = static_cast<VertexId>(n);
      g.edges.reserve(static_cast<size_t>(std::min<uint64_t>(m, text.size() / 8 + 1)));
    } else if (t[0] == "a") {
      if (p_line == 0) fail(path, ln, "arc before the 'p sp NODES ARCS' line");
      if (k != 4) fail(path, ln, "expected 'a SRC DST WEIGHT', found " + std::to_string(k) + " fields");
      if (arcs == m)
        fail(path, ln, "more arcs than the " + std::to_string(m) + " declared on line " + std::to_string(p_line));
      const uint64_t u = parse_id(Where{path, ln, "arc source"}, t[1], kMaxWeight);
      const uint64_t v = parse_id(Where{path, ln, "arc target"}, t[2], kMaxWeight);
      if (u < 1 || u > n) fail(path, ln, "arc source " + std::to_string(u) + " is out of range 1.." + std::to_string(n));
      if (v < 1 || v > n) fail(path, ln, "arc target " + std::to_string(v) + " is out of range 1.." + std::to_string(n));
      const Weight w = parse_weight(Where{path, ln, "arc weight"}, t[3]);
      g.edges.push_back(Edge{static_cast<VertexId>(u - 1), static_cast<VertexId>(v - 1), w});
      ++arcs;
    } else {
      fail(path, ln, "unexpected DIMACS line type " + quoted(t[0]) + " (expected c, p or a)");
    }
  }
  if (p_line == 0) fail(path, 0, "missing 'p sp NODES ARCS' line; not a DIMACS shortest-path file");
  if (arcs != m)
    fail(path, p_line, "declares " + std::to_string(m) + " arcs but the file has " + std::to_string(arcs));
  return g;
}

// ---- METIS graph files (.graph) ------------------------------------------
//
// "n m [fmt [ncon]]" after any '%' comment lines, then exactly n lines: line
// i lists the neighbours of vertex i (1-based; vertex i becomes i-1), each
// followed by the edge's weight when fmt's last digit is 1; a vertex size
// (fmt 1xx) and ncon vertex weights (fmt x1x) lead the line and are skipped.
// An empty line is a vertex without neighbours. Every undirected edge is
// listed from both ends (m counts it once), so the edge list holds both
// directions, as METIS itself sees the graph.
EdgeList read_metis(const std::string& path, std::string_view text, const SizeCheck& check) {
  reject_compressed(path, text);
  LineReader lines(text);
  std::string_view line;
  std::string_view t[5];
  const char* err = nullptr;
  uint64_t header_ln = 0, n = 0, m = 0, ncon = 1;
  bool sizes = false, vertex_weights = false, edge_weights = false;
  while (header_ln == 0 && lines.next(line)) {
    if (is_skippable(line, false)) continue;
    header_ln = lines.line_no();
    const size_t k = split_fields(line, false, t, 5, &err);
    if (k == kSplitError || k < 2 || k > 4) fail(path, header_ln, "expected the METIS header 'VERTICES EDGES [FMT [NCON]]'");
    n = parse_id(Where{path, header_ln, "header: vertices"}, t[0], kMaxVertexId);
    if (!parse_u64(t[1], m)) fail(path, header_ln, "header: edges " + quoted(t[1]) + " is not a non-negative integer");
    if (k >= 3) {
      const std::string_view fmt = t[2];
      if (fmt.empty() || fmt.size() > 3 || fmt.find_first_not_of("01") != std::string_view::npos)
        fail(path, header_ln, "header: format " + quoted(fmt) + " is not one of 0, 1, 10, 11, 100, 101, 110, 111");
      const std::string f = std::string(3 - fmt.size(), '0') + std::string(fmt);
      sizes = f[0] == '1';
      vertex_weights = f[1] == '1';
      edge_weights = f[2] == '1';
    }
    if (k == 4) ncon = parse_id(Where{path, header_ln, "header: ncon"}, t[3], 1000);
  }
  if (header_ln == 0) fail(path, 0, "no METIS header 'VERTICES EDGES [FMT [NCON]]'");
  const uint64_t skip = (sizes ? 1 : 0) + (vertex_weights ? ncon : 0);
  if (check)
    check({n, m <= UINT64_MAX / 2 ? 2 * m : m,
           "the header (line " + std::to_string(header_ln) + ") declares " + std::to_string(n) + " vertices and " +
               std::to_string(m) + " edges"});
  EdgeList g;
  g.num_vertices = static_cast<VertexId>(n);
  g.weighted = edge_weights;
  g.edges.reserve(static_cast<size_t>(std::min<uint64_t>(2 * m, text.size() / 2 + 1)));
  uint64_t v = 0;
  while (lines.next(line)) {
    const std::string_view s = trim_left(line);
    if (!s.empty() && s[0] == '%') continue;
    const uint64_t ln = lines.line_no();
    if (v == n) {
      if (s.empty()) continue;  // blank lines after the last vertex
      fail(path, ln, "more vertex lines than the " + std::to_string(n) + " the header (line " +
                         std::to_string(header_ln) + ") declares");
    }
    uint64_t field = 0;
    std::string_view rest = s;
    while (!rest.empty()) {
      const size_t end = std::min(rest.size(), static_cast<size_t>(std::find_if(rest.begin(), rest.end(), is_blank) - rest.begin()));
      const std::string_view tok = rest.substr(0, end);
      rest = trim_left(rest.substr(end));
      const uint64_t i = field++;
      if (i < skip) continue;
      const bool is_weight = edge_weights && (i - skip) % 2 == 1;
      if (is_weight) {
        g.edges.back().weight = parse_weight(Where{path, ln, "edge weight"}, tok);
        continue;
      }
      const uint64_t u = parse_id(Where{path, ln, "neighbour"}, tok, kMaxVertexId);
      if (u < 1 || u > n) fail(path, ln, "neighbour " + std::to_string(u) + " is out of range 1.." + std::to_string(n));
      g.edges.push_back(Edge{static_cast<VertexId>(v), static_cast<VertexId>(u - 1), 1});
    }
    if (field < skip) fail(path, ln, "vertex " + std::to_string(v + 1) + ": fewer fields than its size and weights");
    if (edge_weights && (field - skip) % 2 == 1)
      fail(path, ln, "vertex " + std::to_string(v + 1) + ": a neighbour without its edge weight");
    ++v;
  }
  if (v < n)
    fail(path, 0, "the header (line " + std::to_string(header_ln) + ") declares " + std::to_string(n) +
                      " vertices but the file has " + std::to_string(v) + " vertex lines");
  if (g.edges.size() != 2 * m)
    fail(path, header_ln, "declares " + std::to_string(m) + " edges, so " + std::to_string(2 * m) +
                              " neighbour entries, but the file lists " + std::to_string(g.edges.size()));
  return g;
}

}  // namespace wg::reader
