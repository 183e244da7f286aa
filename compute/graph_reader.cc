#include "compute/graph_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>
#include <utility>

#include "compute/kronecker.h"

namespace wg {

namespace {

// The largest usable id is 2^32 - 2 so that num_vertices = max id + 1 still
// fits in a VertexId.
constexpr uint64_t kMaxVertexId = 0xFFFFFFFEull;
constexpr uint64_t kMaxWeight = 0xFFFFFFFFull;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

[[noreturn]] void fail(const std::string& file, uint64_t line, const std::string& what) {
  throw GraphError(file, line, what);
}

// The whole file as one byte range. Regular files are mmapped so a multi-GB
// input costs no copy; pipes and other special files fall back to read().
class FileData {
 public:
  explicit FileData(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(path, 0, std::string("cannot open: ") + std::strerror(errno));
    struct stat st{};
    if (::fstat(fd, &st) != 0) close_and_fail(fd, path, "cannot stat");
    if (S_ISDIR(st.st_mode)) {
      ::close(fd);
      fail(path, 0, "is a directory, not a graph file");
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
      size_ = static_cast<size_t>(st.st_size);
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        map_ = p;
        ::madvise(map_, size_, MADV_SEQUENTIAL);
        ::close(fd);
        return;
      }
      size_ = 0;
    }
    read_all(fd, path);
  }
  ~FileData() {
    if (map_ != nullptr) ::munmap(map_, size_);
  }
  FileData(const FileData&) = delete;
  FileData& operator=(const FileData&) = delete;

  std::string_view view() const {
    return map_ != nullptr ? std::string_view(static_cast<const char*>(map_), size_) : std::string_view(buf_);
  }

 private:
  [[noreturn]] static void close_and_fail(int fd, const std::string& path, const char* what) {
    const int err = errno;
    ::close(fd);
    fail(path, 0, std::string(what) + ": " + std::strerror(err));
  }

  void read_all(int fd, const std::string& path) {
    char chunk[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        close_and_fail(fd, path, "read error");
      }
      buf_.append(chunk, static_cast<size_t>(n));
    }
    ::close(fd);
  }

  void* map_ = nullptr;
  size_t size_ = 0;
  std::string buf_;
};

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

std::string_view trim_left(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && is_blank(s[i])) ++i;
  return s.substr(i);
}

// True for lines that carry no data: blank, or a '#'/'%' comment.
bool is_skippable(std::string_view line, bool hash_comments) {
  const std::string_view t = trim_left(line);
  return t.empty() || t[0] == '%' || (hash_comments && t[0] == '#');
}

// Splits LINE into fields separated by runs of blanks and, when ALLOW_COMMA,
// at most one comma. Stores up to MAX fields in OUT and returns the total
// count; on a syntax error returns SIZE_MAX and sets *ERR.
constexpr size_t kSplitError = static_cast<size_t>(-1);
size_t split_fields(std::string_view line, bool allow_comma, std::string_view* out, size_t max,
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

bool parse_u64(std::string_view s, uint64_t& v) {
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

std::string quoted(std::string_view s) {
  constexpr size_t kMaxShown = 40;
  std::string q = "'";
  q += s.substr(0, kMaxShown);
  if (s.size() > kMaxShown) q += "...";
  return q + "'";
}

// A vertex id as written in the file (before any 1-based adjustment).
[[noreturn]] void bad_id(const Where& w, std::string_view tok, uint64_t max) {
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
  fail(w.file, w.line, std::string(w.field) + ": " + quoted(tok) + " " + why);
}

inline uint64_t parse_id(const Where& w, std::string_view tok, uint64_t max) {
  uint64_t v;
  if (!parse_u64(tok, v) || v > max) bad_id(w, tok, max);
  return v;
}

[[noreturn]] void bad_weight(const Where& w, std::string_view tok, const char* why) {
  fail(w.file, w.line, std::string(w.field) + ": " + quoted(tok) + " " + why);
}

// Weights are unsigned 32-bit integers. Integral-valued reals ("1.0", "3e0")
// are accepted because many files write unit weights that way; anything that
// would need rounding is refused rather than silently changed.
Weight parse_weight_slow(const Where& w, std::string_view tok) {
  double d;
  const char* end = tok.data() + tok.size();
  const auto [ptr, ec] = std::from_chars(tok.data(), end, d);
  if (ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range) || tok.empty())
    bad_weight(w, tok, "is not a number");
  if (ec == std::errc::result_out_of_range || std::isinf(d))
    bad_weight(w, tok, "is out of range (weights are integers 0..4294967295)");
  if (std::isnan(d)) bad_weight(w, tok, "is not a number");
  if (d < 0) bad_weight(w, tok, "is negative; weights must be non-negative integers");
  if (d != std::floor(d)) bad_weight(w, tok, "is not an integer (wiregraph weights are integers)");
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

VertexId vertices_for(const std::vector<Edge>& edges) {
  VertexId max = 0;
  for (const Edge& e : edges) max = std::max({max, e.src, e.dst});
  return edges.empty() ? 0 : max + 1;
}

size_t count_lines(std::string_view text) {
  size_t n = 1;
  const char* p = text.data();
  const char* end = p + text.size();
  while ((p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)))) != nullptr) {
    ++n;
    ++p;
  }
  return n;
}

void reject_compressed(const std::string& path, std::string_view text) {
  if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f &&
      static_cast<unsigned char>(text[1]) == 0x8b)
    fail(path, 0, "compressed input is not supported; gunzip it first");
}

// ---- SNAP-style text edge lists ------------------------------------------

EdgeList read_edge_list(const std::string& path, std::string_view text) {
  reject_compressed(path, text);
  EdgeList g;
  g.edges.reserve(count_lines(text));
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
EdgeList read_matrix_market(const std::string& path, std::string_view text) {
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

EdgeList read_dimacs(const std::string& path, std::string_view text) {
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

// ---- Binary (Gemini) edge lists ------------------------------------------

inline uint32_t load_le32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}

EdgeList read_binary(const std::string& path, std::string_view data, bool weighted) {
  const size_t rec = weighted ? 12 : 8;
  if (data.size() % rec != 0)
    fail(path, 0, "file size " + std::to_string(data.size()) + " bytes is not a multiple of the " +
                      std::to_string(rec) + "-byte record (" + (weighted ? "src, dst, weight" : "src, dst") +
                      " as little-endian uint32); is it the right format?");
  EdgeList g;
  g.weighted = weighted;
  const size_t count = data.size() / rec;
  g.edges.resize(count);
  const char* p = data.data();
  VertexId max = 0;
  for (size_t i = 0; i < count; ++i, p += rec) {
    Edge& e = g.edges[i];
    e.src = load_le32(p);
    e.dst = load_le32(p + 4);
    e.weight = weighted ? load_le32(p + 8) : 1;
    max = std::max({max, e.src, e.dst});
  }
  if (max > kMaxVertexId) {
    // Rare path: find the offending record to name its offset.
    for (size_t i = 0; i < count; ++i)
      if (g.edges[i].src > kMaxVertexId || g.edges[i].dst > kMaxVertexId)
        fail(path, 0, "byte offset " + std::to_string(i * rec) + ": vertex id 4294967295 is reserved (max 4294967294)");
  }
  g.num_vertices = count == 0 ? 0 : max + 1;
  return g;
}

bool is_compressed_name(const std::string& path) {
  const std::string l = lower(path);
  return ends_with(l, ".gz") || ends_with(l, ".bz2") || ends_with(l, ".xz") || ends_with(l, ".zst");
}

std::string format_error(const std::string& file, uint64_t line, const std::string& what) {
  return line == 0 ? file + ": " + what : file + ":" + std::to_string(line) + ": " + what;
}

}  // namespace

GraphError::GraphError(const std::string& file, uint64_t line, const std::string& what)
    : std::runtime_error(format_error(file, line, what)), file_(file), line_(line) {}

GraphFormat parse_graph_format(const std::string& name) {
  static const std::pair<const char*, GraphFormat> kNames[] = {
      {"auto", GraphFormat::kAuto},  {"edgelist", GraphFormat::kEdgeList},     {"mtx", GraphFormat::kMatrixMarket},
      {"bin", GraphFormat::kBinary}, {"wbin", GraphFormat::kBinaryWeighted}, {"dimacs", GraphFormat::kDimacs},
  };
  const std::string l = lower(name);
  for (const auto& [n, f] : kNames)
    if (l == n) return f;
  throw GraphError("--format", 0, "unknown graph format " + quoted(name) +
                                      " (expected auto, edgelist, mtx, bin, wbin or dimacs)");
}

const char* graph_format_name(GraphFormat f) {
  switch (f) {
    case GraphFormat::kAuto: return "auto";
    case GraphFormat::kEdgeList: return "edgelist";
    case GraphFormat::kMatrixMarket: return "mtx";
    case GraphFormat::kBinary: return "bin";
    case GraphFormat::kBinaryWeighted: return "wbin";
    case GraphFormat::kDimacs: return "dimacs";
  }
  return "unknown";
}

GraphFormat format_from_extension(const std::string& path) {
  const std::string l = lower(path);
  if (ends_with(l, ".mtx")) return GraphFormat::kMatrixMarket;
  if (ends_with(l, ".gr")) return GraphFormat::kDimacs;
  if (ends_with(l, ".bin") || ends_with(l, ".el32")) return GraphFormat::kBinary;
  if (ends_with(l, ".wbin") || ends_with(l, ".wel32")) return GraphFormat::kBinaryWeighted;
  return GraphFormat::kEdgeList;  // .txt, .csv, .el, .wel, .tsv and anything else
}

EdgeList read_graph_file(const std::string& path, GraphFormat format) {
  const FileData file(path);
  if (is_compressed_name(path)) {
    fail(path, 0, ends_with(lower(path), ".gz") ? "compressed input is not supported; gunzip it first"
                                               : "compressed input is not supported; decompress it first");
  }
  if (format == GraphFormat::kAuto) format = format_from_extension(path);
  switch (format) {
    case GraphFormat::kMatrixMarket: return read_matrix_market(path, file.view());
    case GraphFormat::kDimacs: return read_dimacs(path, file.view());
    case GraphFormat::kBinary: return read_binary(path, file.view(), false);
    case GraphFormat::kBinaryWeighted: return read_binary(path, file.view(), true);
    case GraphFormat::kAuto:
    case GraphFormat::kEdgeList: break;
  }
  return read_edge_list(path, file.view());
}

// A kron: spec ignores FORMAT: the generator has no file format.
EdgeList load_graph(const std::string& spec, GraphFormat format) {
  if (spec.rfind("kron:", 0) == 0) return generate_kronecker(parse_kronecker_spec(spec));
  return read_graph_file(spec, format);
}

}  // namespace wg
