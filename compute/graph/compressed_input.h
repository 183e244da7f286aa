// Compressed graph files: gzip (SNAP ships every file so) and zstd, known by
// their magic bytes, decompressed whole into memory. A gzip or zstd stream
// cannot be entered in the middle, so a node that reads one byte range of the
// graph still has to decompress everything before it; decompressing the whole
// file once per process and serving every byte range from memory
// (compute/graph/inflated_files.h) costs one pass, where each worker
// decompressing up to its own range would cost one per worker.
//
// The format is the inner name's (`g.txt.gz` is an edge list, `m.mtx.gz`
// Matrix Market, `r.gr.zst` DIMACS, `e.bin.gz` binary records).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace wg {

enum class Compression : uint8_t { kNone, kGzip, kZstd };

const char* compression_name(Compression c);  // "gzip", "zstd", "none"

// The first bytes worth reading: the magic and, for zstd, the frame header
// that may declare the content size (ZSTD_FRAMEHEADERSIZE_MAX).
inline constexpr size_t kCompressionHeadBytes = 18;

// What the first bytes of a file say. Throws GraphError naming `path` for
// bzip2 and xz, which are recognised but not read.
Compression sniff_compression(const std::string& path, std::string_view head);

// Whether the first bytes of `path` are worth sniffing: not for a binary
// edge list named so (.bin, .wbin, .el32, .wel32) without a compression
// suffix, whose first record may begin with any bytes, gzip's among them.
bool sniffs_compression(const std::string& path);

// "g.txt.gz" -> "g.txt", "r.gr.zst" -> "r.gr"; any other name as it is.
std::string without_compression_suffix(const std::string& path);

// Decompressed bytes in an anonymous mapping (counted in the process's RSS,
// unmapped when destroyed).
class InflatedBytes {
 public:
  InflatedBytes() = default;
  ~InflatedBytes();
  InflatedBytes(const InflatedBytes&) = delete;
  InflatedBytes& operator=(const InflatedBytes&) = delete;

  std::string_view view() const { return {data_, size_}; }
  uint64_t compressed_bytes() const { return compressed_bytes_; }
  Compression compression() const { return compression_; }
  double seconds() const { return seconds_; }

 private:
  friend class Inflater;
  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;  // bytes mapped
  uint64_t compressed_bytes_ = 0;
  Compression compression_ = Compression::kNone;
  double seconds_ = 0.0;
};

// Up to n bytes of the compressed stream into out; 0 at its end.
using CompressedSource = std::function<size_t(char* out, size_t n)>;

// What the first bytes (and, for gzip, the last four) say the stream
// decompresses to, when they say it; 0 when not.
uint64_t declared_inflated_size(Compression c, std::string_view head, std::string_view gzip_trailer);

// Decompresses the whole stream `source` yields (every gzip member, every
// zstd frame), into a mapping of `size_hint` bytes at first. Throws GraphError naming `name`: a truncated stream ("truncated
// gzip stream: the file ends after N bytes ..."), corrupt data (with the
// decoder's reason and the compressed byte offset), trailing bytes that are
// not another member, or more output than `max_bytes`.
std::unique_ptr<InflatedBytes> inflate(const std::string& name, Compression c, const CompressedSource& source,
                                       uint64_t size_hint, uint64_t max_bytes);

}  // namespace wg
