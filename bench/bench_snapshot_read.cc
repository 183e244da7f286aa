// What reading a snapshot file (compute/load/snapshot_reader.h) costs, and
// why it is read() and not mmap: the same file, page cache warm, into
//   - fresh 4 KiB pages (what a std::vector gets), by read();
//   - fresh transparent huge pages (MADV_HUGEPAGE), by read();
//   - memory touched beforehand, by read() (the copy alone);
//   - fresh huge pages, by mmap of the file and memcpy.
// Usage: bench_snapshot_read FILE [REPEATS]. docs/PERFORMANCE.md, section 10.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

char* fresh(size_t n, bool huge) {
  void* p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) std::exit(1);
  if (huge) ::madvise(p, n, MADV_HUGEPAGE);
  return static_cast<char*>(p);
}

void read_into(int fd, char* to, size_t n) {
  size_t got = 0;
  ::lseek(fd, 0, SEEK_SET);
  while (got < n) {
    const ssize_t r = ::read(fd, to + got, n - got);
    if (r <= 0) std::exit(1);
    got += static_cast<size_t>(r);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [REPEATS]\n", argv[0]);
    return 2;
  }
  const int fd = ::open(argv[1], O_RDONLY);
  struct stat st{};
  if (fd < 0 || ::fstat(fd, &st) != 0) return 1;
  const size_t n = static_cast<size_t>(st.st_size);
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  for (int rep = 0; rep < repeats; ++rep) {
    auto t = Clock::now();
    char* small = fresh(n, false);
    read_into(fd, small, n);
    const double small_ms = ms_since(t);
    t = Clock::now();
    char* huge = fresh(n, true);
    read_into(fd, huge, n);
    const double huge_ms = ms_since(t);
    char* touched = fresh(n, false);
    std::memset(touched, 1, n);
    t = Clock::now();
    read_into(fd, touched, n);
    const double touched_ms = ms_since(t);
    t = Clock::now();
    void* map = ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) return 1;
    ::madvise(map, n, MADV_SEQUENTIAL);
    char* copy = fresh(n, true);
    std::memcpy(copy, map, n);
    const double mapped_ms = ms_since(t);
    std::printf("%.1f MB: read into 4 KiB pages %.1f ms, into huge pages %.1f ms, into touched pages %.1f ms; "
                "mmap + memcpy into huge pages %.1f ms\n",
                n / 1e6, small_ms, huge_ms, touched_ms, mapped_ms);
    for (char* p : {small, huge, touched, copy}) ::munmap(p, n);
    ::munmap(map, n);
  }
  ::close(fd);
  return 0;
}
