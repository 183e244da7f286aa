#include "compute/graph/graph_reader.h"

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

#include "compute/graph/compressed_input.h"
#include "compute/graph/graph_formats.h"
#include "compute/graph/inflated_files.h"
#include "compute/graph/kronecker.h"
#include "compute/graph/memory_limit.h"
#include "compute/graph/reader_support.h"

namespace wg {

using namespace reader;

namespace {

// The whole file as one byte range. Regular files are mmapped so a multi-GB
// input costs no copy; pipes and other special files fall back to read().
// A gzip or zstd file, or stream, is its decompressed bytes.
class FileData {
 public:
  // A regular file is mapped; anything else (a pipe, a device) is read into
  // memory, at most max_stream_bytes of it.
  FileData(const std::string& path, uint64_t max_stream_bytes) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(path, 0, std::string("cannot open: ") + std::strerror(errno));
    struct stat st{};
    if (::fstat(fd, &st) != 0) close_and_fail(fd, path, "cannot stat");
    if (S_ISDIR(st.st_mode)) {
      ::close(fd);
      fail(path, 0, "is a directory, not a graph file");
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
      if (const Compression c = file_compression_or_close(fd, path); c != Compression::kNone) {
        inflated_ = inflated_file(path, fd, st, c);
        ::close(fd);
        return;
      }
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
    read_all(fd, path, max_stream_bytes);
    inflate_stream(path, max_stream_bytes);
  }
  ~FileData() {
    if (map_ != nullptr) ::munmap(map_, size_);
  }
  FileData(const FileData&) = delete;
  FileData& operator=(const FileData&) = delete;

  std::string_view view() const {
    if (inflated_ != nullptr) return inflated_->view();
    return map_ != nullptr ? std::string_view(static_cast<const char*>(map_), size_) : std::string_view(buf_);
  }

 private:
  static Compression file_compression_or_close(int fd, const std::string& path) {
    try {
      return file_compression(path, fd);
    } catch (...) {
      ::close(fd);
      throw;
    }
  }

  // A compressed stream read from a pipe: decompressed from buf_, within the same bound.
  void inflate_stream(const std::string& path, uint64_t max_bytes) {
    const std::string_view head = std::string_view(buf_).substr(0, kCompressionHeadBytes);
    const Compression c = sniffs_compression(path) ? sniff_compression(path, head) : Compression::kNone;
    if (c == Compression::kNone) return;
    size_t at = 0;
    const CompressedSource source = [this, &at](char* out, size_t n) {
      const size_t got = std::min(n, buf_.size() - at);
      std::memcpy(out, buf_.data() + at, got);
      at += got;
      return got;
    };
    inflated_ = inflate(path, c, source, 4 * buf_.size(), max_bytes);
    std::string().swap(buf_);
  }

  [[noreturn]] static void close_and_fail(int fd, const std::string& path, const char* what) {
    const int err = errno;
    ::close(fd);
    fail(path, 0, std::string(what) + ": " + std::strerror(err));
  }

  void read_all(int fd, const std::string& path, uint64_t max_bytes) {
    char chunk[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        close_and_fail(fd, path, "read error");
      }
      if (buf_.size() + static_cast<size_t>(n) > max_bytes) {
        ::close(fd);
        fail(path, 0, "is not a regular file and holds more than " + format_bytes(max_bytes) + " (" +
                          std::to_string(max_bytes) +
                          " bytes), the most wiregraph reads into memory from a pipe or device (a quarter of "
                          "what this process may use); save it to a regular file, which is mapped instead");
      }
      if (buf_.size() + static_cast<size_t>(n) > buf_.capacity())  // grow, but never far past the bound
        buf_.reserve(std::min<uint64_t>(std::max<uint64_t>(2 * buf_.capacity(), sizeof chunk), max_bytes));
      buf_.append(chunk, static_cast<size_t>(n));
    }
    ::close(fd);
  }

  void* map_ = nullptr;
  size_t size_ = 0;
  std::string buf_;
  std::shared_ptr<const InflatedBytes> inflated_;
};

std::string format_error(const std::string& file, uint64_t line, const std::string& what) {
  return line == 0 ? file + ": " + what : file + ":" + std::to_string(line) + ": " + what;
}

}  // namespace

GraphError::GraphError(const std::string& file, uint64_t line, const std::string& what)
    : std::runtime_error(format_error(file, line, what)), file_(file), line_(line), detail_(what) {}

GraphFormat parse_graph_format(const std::string& name) {
  static const std::pair<const char*, GraphFormat> kNames[] = {
      {"auto", GraphFormat::kAuto},  {"edgelist", GraphFormat::kEdgeList},     {"mtx", GraphFormat::kMatrixMarket},
      {"bin", GraphFormat::kBinary}, {"wbin", GraphFormat::kBinaryWeighted}, {"dimacs", GraphFormat::kDimacs},
      {"metis", GraphFormat::kMetis},
  };
  const std::string l = lower(name);
  for (const auto& [n, f] : kNames)
    if (l == n) return f;
  throw GraphError("--format", 0, "unknown graph format " + quoted(name) +
                                      " (expected auto, edgelist, mtx, bin, wbin, dimacs or metis)");
}

const char* graph_format_name(GraphFormat f) {
  switch (f) {
    case GraphFormat::kAuto: return "auto";
    case GraphFormat::kEdgeList: return "edgelist";
    case GraphFormat::kMatrixMarket: return "mtx";
    case GraphFormat::kBinary: return "bin";
    case GraphFormat::kBinaryWeighted: return "wbin";
    case GraphFormat::kDimacs: return "dimacs";
    case GraphFormat::kMetis: return "metis";
  }
  return "unknown";
}

const char* why_ids_are_dense(GraphFormat f) {
  switch (f) {
    case GraphFormat::kMatrixMarket:
      return "a Matrix Market file declares its rows and columns on its size line: its vertices are 1..n, dense already "
             "(sparse ids are for edge lists: text, bin or wbin)";
    case GraphFormat::kDimacs:
      return "a DIMACS file declares n on its 'p' line: its vertices are 1..n, dense already (sparse ids are for edge "
             "lists: text, bin or wbin)";
    case GraphFormat::kMetis:
      return "a METIS file numbers its vertices by line, 1..n as its header declares: dense already (sparse ids are for "
             "edge lists: text, bin or wbin)";
    default: return nullptr;
  }
}

GraphFormat format_from_extension(const std::string& path) {
  const std::string l = lower(without_compression_suffix(path));  // g.txt.gz: an edge list
  if (ends_with(l, ".mtx")) return GraphFormat::kMatrixMarket;
  if (ends_with(l, ".gr")) return GraphFormat::kDimacs;
  if (ends_with(l, ".graph")) return GraphFormat::kMetis;
  if (ends_with(l, ".bin") || ends_with(l, ".el32")) return GraphFormat::kBinary;
  if (ends_with(l, ".wbin") || ends_with(l, ".wel32")) return GraphFormat::kBinaryWeighted;
  return GraphFormat::kEdgeList;  // .txt, .csv, .el, .wel, .tsv and anything else
}

EdgeList read_graph_file(const std::string& path, GraphFormat format, const LoadLimits& limits, uint64_t vertices) {
  const FileData file(path, limits.max_stream_bytes);
  MemoryBytes in(path, file.view());
  return read_whole(in, format, limits.check, vertices);
}

// A kron: spec ignores FORMAT: the generator has no file format.
EdgeList load_graph(const std::string& spec, GraphFormat format, const LoadLimits& limits, uint64_t vertices) {
  if (spec.rfind("kron:", 0) == 0) {
    const KroneckerSpec k = parse_kronecker_spec(spec);
    check_generated_vertices(spec, k, vertices);
    if (limits.check) {
      const uint64_t v = uint64_t{1} << k.scale;
      limits.check({v, v * k.degree, "it generates " + std::to_string(v) + " vertices and " +
                                          std::to_string(v * k.degree) + " edges"});
    }
    return generate_kronecker(k);
  }
  return read_graph_file(spec, format, limits, vertices);
}

}  // namespace wg
