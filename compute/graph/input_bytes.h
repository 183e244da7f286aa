// A graph file's bytes, read by offset: the one way the loader touches its
// input, so that what a node reads can be counted (each node reads only its
// byte range and the header, tests/test_input_slice.cc) and timed (the "read"
// part of the load time).
//
// FileBytes reads a regular file with pread into the caller's buffer: no
// mapping of the whole file, so a node's address space and page cache hold
// only what it reads. A gzip or zstd file is read as its decompressed bytes,
// decompressed once per process into memory (compute/graph/inflated_files.h):
// every offset and size is the decompressed data's. MemoryBytes serves a
// string (the whole-file readers' input and the tests').
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace wg {

class InputBytes {
 public:
  explicit InputBytes(std::string name) : name_(std::move(name)) {}
  virtual ~InputBytes() = default;
  InputBytes(const InputBytes&) = delete;
  InputBytes& operator=(const InputBytes&) = delete;

  const std::string& name() const { return name_; }
  virtual uint64_t size() const = 0;
  // Copies up to n bytes at `offset` into out; fewer only at the end of the
  // input. Throws GraphError on an I/O error.
  size_t read_at(uint64_t offset, char* out, size_t n);

  uint64_t bytes_read() const { return bytes_read_; }
  double read_seconds() const { return read_seconds_; }

 protected:
  virtual size_t do_read(uint64_t offset, char* out, size_t n) = 0;

 private:
  std::string name_;
  uint64_t bytes_read_ = 0;
  double read_seconds_ = 0.0;
};

// Up to n bytes of the open file `fd` (named `path`) at `offset`: fewer only
// at its end. Throws GraphError on an I/O error.
size_t read_file_at(const std::string& path, int fd, uint64_t offset, char* out, size_t n);

class InflatedBytes;

class FileBytes final : public InputBytes {
 public:
  // Throws GraphError: missing, unreadable, a directory, or not a regular file
  // (a pipe or device cannot be split into byte ranges); a truncated or
  // corrupt gzip or zstd stream, bzip2 or xz.
  explicit FileBytes(const std::string& path);
  ~FileBytes() override;
  uint64_t size() const override { return size_; }
  // Whether the file was compressed (its bytes are then the decompressed ones).
  bool decompressed() const { return inflated_ != nullptr; }

 private:
  size_t do_read(uint64_t offset, char* out, size_t n) override;
  int fd_ = -1;
  uint64_t size_ = 0;
  std::shared_ptr<const InflatedBytes> inflated_;
};

class MemoryBytes final : public InputBytes {
 public:
  MemoryBytes(std::string name, std::string_view bytes) : InputBytes(std::move(name)), bytes_(bytes) {}
  uint64_t size() const override { return bytes_.size(); }

 private:
  size_t do_read(uint64_t offset, char* out, size_t n) override;
  std::string_view bytes_;
};

}  // namespace wg
