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
#include "compute/graph/graph_spec.h"
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

}  // namespace

EdgeList read_graph_file(const std::string& path, GraphFormat format, const LoadLimits& limits, uint64_t vertices) {
  const FileData file(path, limits.max_stream_bytes);
  MemoryBytes in(path, file.view());
  return read_whole(in, format, limits.check, vertices);
}

// A kron: spec ignores FORMAT: the generator has no file format.
EdgeList load_graph(const std::string& spec, GraphFormat format, const LoadLimits& limits, uint64_t vertices) {
  const GraphSpec parsed = parse_graph_spec(spec, format);
  if (parsed.is_snapshot())
    fail(spec, 0, "a snapshot holds each node's share of the graph, not the whole graph: read the input it was "
                  "saved from instead");
  if (parsed.is_generator()) {
    const KroneckerSpec& k = parsed.kron;
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
