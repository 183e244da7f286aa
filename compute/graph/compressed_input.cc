#include "compute/graph/compressed_input.h"

#include <sys/mman.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <new>
#include <vector>

#include "compute/graph/graph_reader.h"
#include "compute/graph/input_sample.h"  // with_commas
#include "compute/graph/memory_limit.h"
#include "compute/graph/reader_support.h"

namespace wg {

namespace {

constexpr size_t kInputChunk = size_t{1} << 20;  // compressed bytes read at a time
constexpr size_t kMinCapacity = size_t{1} << 21;

bool starts_with_bytes(std::string_view head, std::initializer_list<unsigned char> magic) {
  if (head.size() < magic.size()) return false;
  size_t i = 0;
  for (const unsigned char b : magic)
    if (static_cast<unsigned char>(head[i++]) != b) return false;
  return true;
}

}  // namespace

const char* compression_name(Compression c) {
  switch (c) {
    case Compression::kGzip: return "gzip";
    case Compression::kZstd: return "zstd";
    case Compression::kNone: break;
  }
  return "none";
}

Compression sniff_compression(const std::string& path, std::string_view head) {
  // gzip: 1f 8b and method 8 (deflate, the only one defined; RFC 1952).
  if (starts_with_bytes(head, {0x1f, 0x8b, 0x08})) return Compression::kGzip;
  if (starts_with_bytes(head, {0x28, 0xb5, 0x2f, 0xfd})) return Compression::kZstd;
  // xz's six bytes; bzip2's "BZh", a block size digit and the first block's
  // magic 31 41 59 26 53 59 (a text line cannot start so).
  if (starts_with_bytes(head, {0xfd, '7', 'z', 'X', 'Z', 0x00}) ||
      (head.size() >= 10 && head.substr(0, 3) == "BZh" && head[3] >= '1' && head[3] <= '9' &&
       starts_with_bytes(head.substr(4), {0x31, 0x41, 0x59, 0x26, 0x53, 0x59})))
    reader::fail(path, 0,
                 std::string(head[0] == 'B' ? "bzip2" : "xz") +
                     " input is not read (gzip and zstd are): decompress it first, or recompress it with gzip or zstd");
  return Compression::kNone;
}

std::string without_compression_suffix(const std::string& path) {
  const std::string l = reader::lower(path);
  for (const char* suffix : {".gz", ".zst"})
    if (reader::ends_with(l, suffix)) return path.substr(0, path.size() - std::strlen(suffix));
  return path;
}

bool sniffs_compression(const std::string& path) {
  if (without_compression_suffix(path) != path) return true;
  const GraphFormat f = format_from_extension(path);
  return f != GraphFormat::kBinary && f != GraphFormat::kBinaryWeighted;
}

uint64_t declared_inflated_size(Compression c, std::string_view head, std::string_view gzip_trailer) {
  if (c == Compression::kGzip && gzip_trailer.size() == 4) {
    // ISIZE: the last member's length modulo 2^32 (RFC 1952), a hint only.
    uint64_t isize = 0;
    for (int i = 3; i >= 0; --i) isize = isize << 8 | static_cast<unsigned char>(gzip_trailer[static_cast<size_t>(i)]);
    return isize;
  }
  if (c == Compression::kZstd) {
    const unsigned long long n = ZSTD_getFrameContentSize(head.data(), head.size());
    if (n != ZSTD_CONTENTSIZE_UNKNOWN && n != ZSTD_CONTENTSIZE_ERROR) return n;
  }
  return 0;
}

InflatedBytes::~InflatedBytes() {
  if (data_ != nullptr) ::munmap(data_, capacity_);
}

// The decoders' common part: the output mapping, grown as the stream
// decompresses (mremap moves no bytes, only page tables), and the messages.
class Inflater {
 public:
  Inflater(const std::string& name, Compression c, const CompressedSource& source, uint64_t size_hint,
           uint64_t max_bytes)
      : name_(name), source_(source), max_bytes_(max_bytes), out_(std::make_unique<InflatedBytes>()) {
    out_->compression_ = c;
    grow(std::max<uint64_t>(size_hint, kMinCapacity));
  }

  // Compressed input: refills `in` when it is used up; false at the end.
  bool refill() {
    in_.resize(kInputChunk);
    in_size_ = source_(in_.data(), in_.size());
    out_->compressed_bytes_ += in_size_;
    return in_size_ != 0;
  }
  unsigned char* in_data() { return reinterpret_cast<unsigned char*>(in_.data()); }
  size_t in_size() const { return in_size_; }
  // The compressed offset of the byte `left` bytes before the end of the chunk.
  uint64_t offset_of(size_t left) const { return out_->compressed_bytes_ - left; }

  // Room to write at least one byte.
  char* out_free() {
    if (out_->size_ == out_->capacity_) grow(out_->capacity_ * 2);
    return out_->data_ + out_->size_;
  }
  size_t out_room() const { return out_->capacity_ - out_->size_; }
  void wrote(size_t n) { out_->size_ += n; }

  [[noreturn]] void truncated(const char* format) const {
    reader::fail(name_, 0,
                 std::string("truncated ") + format + " stream: the file ends after " +
                     with_commas(out_->compressed_bytes_) + " bytes, in the middle of its compressed data (" +
                     with_commas(out_->size_) +
                     " bytes decompressed before the end); it was cut short, by an interrupted download or copy: "
                     "fetch it again");
  }
  [[noreturn]] void corrupt(const char* format, uint64_t offset, const std::string& why) const {
    reader::fail(name_, 0,
                 std::string("corrupt ") + format + " stream at compressed byte " + with_commas(offset) + " (" + why +
                     ", after " + with_commas(out_->size_) + " bytes decompressed); the file is damaged: fetch it again");
  }

  std::unique_ptr<InflatedBytes> finish(double seconds) {
    out_->seconds_ = seconds;
    return std::move(out_);
  }

 private:
  void grow(uint64_t want) {
    if (want > max_bytes_) {
      if (out_->size_ >= max_bytes_)
        reader::fail(name_, 0,
                     "decompresses to more than " + format_bytes(max_bytes_) +
                         ", the memory this process may use: decompress it to a file and read that (nodes read a "
                         "plain file from the page cache)");
      want = max_bytes_;
    }
    const size_t bytes = static_cast<size_t>(want);
    void* p = out_->data_ == nullptr
                  ? ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                  : ::mremap(out_->data_, out_->capacity_, bytes, MREMAP_MAYMOVE);
    if (p == MAP_FAILED)
      reader::fail(name_, 0, "cannot map " + format_bytes(bytes) + " to decompress it into: " + std::strerror(errno));
    out_->data_ = static_cast<char*>(p);
    out_->capacity_ = bytes;
  }

  const std::string& name_;
  const CompressedSource& source_;
  uint64_t max_bytes_;
  std::unique_ptr<InflatedBytes> out_;
  std::vector<char> in_;
  size_t in_size_ = 0;
};

namespace {

// Every member of a gzip file (gzip -c a b > ab, pigz, bgzip write several).
void inflate_gzip(Inflater& io) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) throw std::bad_alloc();  // 15 + 16: gzip wrapper only
  struct End {
    z_stream* z;
    ~End() { inflateEnd(z); }
  } end{&z};
  bool in_member = true;  // between a member's first byte and its trailer
  for (;;) {
    if (z.avail_in == 0) {
      if (!io.refill()) break;
      z.next_in = io.in_data();
      z.avail_in = static_cast<uInt>(io.in_size());
    }
    if (!in_member) {  // more bytes after a member's trailer: another member, or not gzip
      if (*z.next_in != 0x1f)
        io.corrupt("gzip", io.offset_of(z.avail_in), "trailing bytes after the gzip stream's end are not another member");
      inflateReset(&z);
      in_member = true;
    }
    z.next_out = reinterpret_cast<Bytef*>(io.out_free());
    const size_t room = std::min<size_t>(io.out_room(), UINT32_MAX);
    z.avail_out = static_cast<uInt>(room);
    const int rc = ::inflate(&z, Z_NO_FLUSH);
    io.wrote(room - z.avail_out);
    if (rc == Z_STREAM_END) {
      in_member = false;
    } else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR) {
      io.corrupt("gzip", io.offset_of(z.avail_in), z.msg != nullptr ? z.msg : "invalid data");
    } else if (rc == Z_MEM_ERROR) {
      throw std::bad_alloc();
    }  // Z_OK, Z_BUF_ERROR: go on with more input or more room
  }
  if (in_member) io.truncated("gzip");
}

// Every frame of a zstd file (skippable frames are skipped by the decoder).
void inflate_zstd(Inflater& io) {
  ZSTD_DCtx* d = ZSTD_createDCtx();
  if (d == nullptr) throw std::bad_alloc();
  struct Free {
    ZSTD_DCtx* d;
    ~Free() { ZSTD_freeDCtx(d); }
  } free_ctx{d};
  // Frames written with --long (windows up to 2 GiB, ZSTD_WINDOWLOG_MAX_64,
  // a static-linking-only name) are read too: the window is allocated only
  // as large as a frame declares.
  constexpr int kLongestWindowLog = 31;
  ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, kLongestWindowLog);
  ZSTD_inBuffer in{nullptr, 0, 0};
  size_t pending = 0;  // 0: at a frame boundary
  bool at_end = false;
  for (;;) {
    if (in.pos == in.size && !at_end) {
      at_end = !io.refill();
      in = ZSTD_inBuffer{io.in_data(), io.in_size(), 0};
    }
    ZSTD_outBuffer out{io.out_free(), io.out_room(), 0};
    const size_t before_in = in.pos;
    const size_t rc = ZSTD_decompressStream(d, &out, &in);
    io.wrote(out.pos);
    if (ZSTD_isError(rc)) io.corrupt("zstd", io.offset_of(in.size - in.pos), ZSTD_getErrorName(rc));
    const bool progressed = out.pos != 0 || in.pos != before_in;
    if (progressed) pending = rc;
    // Done when the input is used up and the decoder has nothing more to
    // give (a full output buffer may hide more).
    if (at_end && in.pos == in.size && (!progressed || out.pos < out.size)) break;
  }
  if (pending != 0) io.truncated("zstd");
}

}  // namespace

std::unique_ptr<InflatedBytes> inflate(const std::string& name, Compression c, const CompressedSource& source,
                                       uint64_t size_hint, uint64_t max_bytes) {
  const auto t0 = std::chrono::steady_clock::now();
  Inflater io(name, c, source, size_hint, max_bytes);
  if (c == Compression::kGzip) inflate_gzip(io);
  if (c == Compression::kZstd) inflate_zstd(io);
  return io.finish(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace wg
