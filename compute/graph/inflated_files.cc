#include "compute/graph/inflated_files.h"

#include <fcntl.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <tuple>

#include "compute/graph/input_bytes.h"
#include "compute/graph/input_sample.h"  // with_commas
#include "compute/graph/memory_limit.h"

namespace wg {

namespace {

// A file as it is now: a file rewritten under the same name is another.
using FileKey = std::tuple<dev_t, ino_t, off_t, time_t, long>;

struct Inflated {
  std::string path;
  std::shared_ptr<const InflatedBytes> bytes;
};

struct Cache {
  std::mutex mu;
  std::map<FileKey, Inflated> files;
};

Cache& cache() {
  static Cache c;
  return c;
}

}  // namespace

Compression file_compression(const std::string& path, int fd) {
  if (!sniffs_compression(path)) return Compression::kNone;
  char head[kCompressionHeadBytes];
  const size_t n = read_file_at(path, fd, 0, head, sizeof head);
  return sniff_compression(path, std::string_view(head, n));
}

std::shared_ptr<const InflatedBytes> inflated_file(const std::string& path, int fd, const struct stat& st,
                                                   Compression c) {
  Cache& k = cache();
  const FileKey key{st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
  // Held while decompressing: a second worker opening the file waits for
  // the first one's bytes instead of decompressing them again.
  const std::lock_guard<std::mutex> lock(k.mu);
  if (const auto it = k.files.find(key); it != k.files.end()) return it->second.bytes;

  const auto compressed = static_cast<uint64_t>(st.st_size);
  char head[kCompressionHeadBytes], trailer[4];
  const size_t head_n = read_file_at(path, fd, 0, head, sizeof head);
  const size_t trailer_n = compressed >= 4 ? read_file_at(path, fd, compressed - 4, trailer, 4) : 0;
  uint64_t hint = declared_inflated_size(c, std::string_view(head, head_n), std::string_view(trailer, trailer_n));
  if (hint < compressed) hint = 4 * compressed;  // none declared, or a gzip ISIZE wrapped at 4 GiB
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  uint64_t offset = 0;
  const CompressedSource source = [&](char* out, size_t n) {
    const size_t got = read_file_at(path, fd, offset, out, n);
    offset += got;
    return got;
  };
  std::shared_ptr<const InflatedBytes> bytes = inflate(path, c, source, hint + 1, read_memory_limit().bytes);
  k.files.emplace(key, Inflated{path, bytes});
  return bytes;
}

void release_inflated_files() {
  Cache& k = cache();
  const std::lock_guard<std::mutex> lock(k.mu);
  k.files.clear();
}

std::string inflated_files_summary() {
  Cache& k = cache();
  const std::lock_guard<std::mutex> lock(k.mu);
  std::string out;
  for (const auto& [key, f] : k.files) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", f.bytes->seconds());
    out += "input: " + f.path + ": " + compression_name(f.bytes->compression()) + ", " +
           with_commas(f.bytes->compressed_bytes()) + " bytes decompressed to " + with_commas(f.bytes->view().size()) +
           " in " + seconds + " s, held in memory until loaded\n";
  }
  return out;
}

}  // namespace wg
