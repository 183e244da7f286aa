#include "compute/graph/input_bytes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "compute/graph/graph_reader.h"
#include "compute/graph/inflated_files.h"

namespace wg {

namespace {

size_t copy_from(std::string_view bytes, uint64_t offset, char* out, size_t n) {
  if (offset >= bytes.size()) return 0;
  const size_t got = std::min<uint64_t>(n, bytes.size() - offset);
  std::memcpy(out, bytes.data() + offset, got);
  return got;
}

}  // namespace

size_t InputBytes::read_at(uint64_t offset, char* out, size_t n) {
  const auto t0 = std::chrono::steady_clock::now();
  const size_t got = do_read(offset, out, n);
  read_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  bytes_read_ += got;
  return got;
}

FileBytes::FileBytes(const std::string& path) : InputBytes(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw GraphError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st{};
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    throw GraphError(path, 0, std::string("cannot stat: ") + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd_);
    throw GraphError(path, 0, "is a directory, not a graph file");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw GraphError(path, 0,
                     "is not a regular file (a pipe, socket or device): nodes read byte ranges of the graph "
                     "file, so it must be a file they can read at any offset; copy it to a file first");
  }
  size_ = static_cast<uint64_t>(st.st_size);
  try {
    if (const Compression c = file_compression(path, fd_); c != Compression::kNone) {
      inflated_ = inflated_file(path, fd_, st, c);
      size_ = inflated_->view().size();
      ::close(fd_);  // every read is served from memory
      fd_ = -1;
      return;
    }
  } catch (...) {
    ::close(fd_);
    throw;
  }
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
}

FileBytes::~FileBytes() {
  if (fd_ >= 0) ::close(fd_);
}

size_t read_file_at(const std::string& path, int fd, uint64_t offset, char* out, size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t r = ::pread(fd, out + done, n - done, static_cast<off_t>(offset + done));
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      throw GraphError(path, 0, "read error at byte " + std::to_string(offset + done) + ": " + std::strerror(errno));
    }
    done += static_cast<size_t>(r);
  }
  return done;
}

size_t FileBytes::do_read(uint64_t offset, char* out, size_t n) {
  if (inflated_ != nullptr) return copy_from(inflated_->view(), offset, out, n);
  return read_file_at(name(), fd_, offset, out, n);
}

size_t MemoryBytes::do_read(uint64_t offset, char* out, size_t n) { return copy_from(bytes_, offset, out, n); }

}  // namespace wg
