// The memif unmap guard (dataplane/memif_guard.h): munmap, anywhere in the
// process, must not return while a burst section that was open when it was
// called is still open; and the interposed symbol must be the one that
// plugins (the memif PMD) bind to. No EAL needed: the QSBR variable lives on
// the heap and non-EAL threads share the extra thread id.
#include <dlfcn.h>
#include <sched.h>
#include <sys/mman.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>

#include "dataplane/memif_guard.h"

namespace wg {
namespace {

constexpr size_t kLen = 1 << 20;

volatile uint64_t* map_region() {
  void* p = mmap(nullptr, kLen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  auto* region = static_cast<volatile uint64_t*>(p);
  region[0] = 42;
  return region;
}

TEST(MemifGuard, PluginsBindToTheInterposedMunmap) {
  using Munmap = int (*)(void*, size_t);
  const auto global = reinterpret_cast<Munmap>(dlsym(RTLD_DEFAULT, "munmap"));
  const auto libc = reinterpret_cast<Munmap>(dlsym(RTLD_NEXT, "munmap"));
  ASSERT_NE(global, nullptr);
  EXPECT_EQ(global, static_cast<Munmap>(&munmap)) << "munmap is not exported from the executable";
  EXPECT_NE(global, libc);
}

TEST(MemifGuard, UnmapWaitsForAnOpenSection) {
  memif_guard::arm();
  ASSERT_TRUE(memif_guard::armed());
  volatile uint64_t* region = map_region();
  ASSERT_NE(region, nullptr);
  const unsigned long waits_before = memif_guard::waits();
  std::atomic<bool> inside{false};
  std::atomic<bool> unmapped{false};
  enum Verdict { kNone, kWaited, kReturnedEarly };
  std::atomic<int> verdict{kNone};
  uint64_t seen = 0;

  std::thread reader([&] {
    memif_guard::Section section;
    inside = true;
    // Stay in the section until munmap is waiting for it, or has (wrongly) returned.
    while (memif_guard::waits() == waits_before && !unmapped.load()) sched_yield();
    if (unmapped.load()) {
      verdict = kReturnedEarly;
      return;
    }
    seen = region[0];  // still mapped: the unmap is waiting for this section
    verdict = unmapped.load() ? kReturnedEarly : kWaited;
  });
  while (!inside.load()) sched_yield();
  ASSERT_EQ(munmap(const_cast<uint64_t*>(region), kLen), 0);
  unmapped = true;
  reader.join();

  EXPECT_EQ(verdict.load(), kWaited);
  EXPECT_EQ(seen, 42u);
  EXPECT_EQ(memif_guard::waits(), waits_before + 1);
  EXPECT_EQ(memif_guard::timeouts(), 0u);
}

TEST(MemifGuard, UnmapWithNoOpenSectionDoesNotWait) {
  memif_guard::arm();
  volatile uint64_t* region = map_region();
  ASSERT_NE(region, nullptr);
  // A thread that opened and closed a section (registered, now offline).
  std::thread([] { memif_guard::Section section; }).join();
  const unsigned long waits_before = memif_guard::waits();
  ASSERT_EQ(munmap(const_cast<uint64_t*>(region), kLen), 0);
  EXPECT_EQ(memif_guard::waits(), waits_before);
}

TEST(MemifGuard, UnmapFromInsideASectionDoesNotWaitForItself) {
  memif_guard::arm();
  volatile uint64_t* region = map_region();
  ASSERT_NE(region, nullptr);
  const unsigned long waits_before = memif_guard::waits();
  {
    memif_guard::Section section;
    ASSERT_EQ(munmap(const_cast<uint64_t*>(region), kLen), 0);
  }
  EXPECT_EQ(memif_guard::waits(), waits_before);
  EXPECT_EQ(memif_guard::timeouts(), 0u);
}

}  // namespace
}  // namespace wg
