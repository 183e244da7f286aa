#include "dataplane/memif_guard.h"

#include <rte_lcore.h>
#include <rte_rcu_qsbr.h>

#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace wg::memif_guard {

namespace {

// One id per EAL lcore plus one shared by non-EAL threads.
constexpr unsigned kThreads = RTE_MAX_LCORE + 1;

// Lives on the process heap, not in EAL memory: munmap can be called after
// rte_eal_cleanup has unmapped the hugepages.
std::atomic<rte_rcu_qsbr*> g_qsbr{nullptr};
std::once_flag g_arm_once;
std::atomic<unsigned long> g_waits{0};
std::atomic<unsigned long> g_timeouts{0};

thread_local bool t_registered = false;
thread_local bool t_in_section = false;

unsigned thread_index() {
  const unsigned id = rte_lcore_id();
  return id < RTE_MAX_LCORE ? id : RTE_MAX_LCORE;
}

uint64_t now_ms() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000u + static_cast<uint64_t>(ts.tv_nsec) / 1000000u;
}

// Blocks until every read-side section open at the call has closed (bounded:
// a reader stopped in a debugger must not hang the interrupt thread forever).
void wait_for_readers() {
  rte_rcu_qsbr* v = g_qsbr.load(std::memory_order_acquire);
  if (v == nullptr || t_in_section) return;
  const uint64_t token = rte_rcu_qsbr_start(v);
  if (rte_rcu_qsbr_check(v, token, false) == 1) return;
  g_waits.fetch_add(1, std::memory_order_relaxed);
  const uint64_t deadline = now_ms() + kWaitLimitMs;
  while (rte_rcu_qsbr_check(v, token, false) != 1) {
    if (now_ms() > deadline) {
      g_timeouts.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    sched_yield();  // the reader may need this CPU to leave its section
  }
}

}  // namespace

void arm() {
  std::call_once(g_arm_once, [] {
    const size_t size = rte_rcu_qsbr_get_memsize(kThreads);
    const size_t rounded = (size + RTE_CACHE_LINE_SIZE - 1) / RTE_CACHE_LINE_SIZE * RTE_CACHE_LINE_SIZE;
    auto* v = static_cast<rte_rcu_qsbr*>(std::aligned_alloc(RTE_CACHE_LINE_SIZE, rounded));
    if (v == nullptr || rte_rcu_qsbr_init(v, kThreads) != 0) {
      // Not fatal: the node still runs, only without the guard.
      std::fprintf(stderr, "wiregraph: warning: cannot set up the memif unmap guard\n");
      std::free(v);
      return;
    }
    g_qsbr.store(v, std::memory_order_release);
  });
}

bool armed() { return g_qsbr.load(std::memory_order_acquire) != nullptr; }

Section::Section(bool open) {
  rte_rcu_qsbr* v = open ? g_qsbr.load(std::memory_order_acquire) : nullptr;
  if (v == nullptr) return;
  const unsigned id = thread_index();
  if (!t_registered) {
    rte_rcu_qsbr_thread_register(v, id);
    t_registered = true;
  }
  rte_rcu_qsbr_thread_online(v, id);  // ends in a full fence: the PMD's flag check comes after
  t_in_section = held_ = true;
}

Section::~Section() {
  if (!held_) return;
  t_in_section = false;
  rte_rcu_qsbr_thread_offline(g_qsbr.load(std::memory_order_relaxed), thread_index());
}

unsigned long waits() { return g_waits.load(std::memory_order_relaxed); }
unsigned long timeouts() { return g_timeouts.load(std::memory_order_relaxed); }

}  // namespace wg::memif_guard

// Interposes libc's munmap for every object in the process, including PMDs
// loaded as plugins (the link exports this symbol: see dataplane/meson.build).
extern "C" int munmap(void* addr, size_t len) noexcept {
  wg::memif_guard::wait_for_readers();
  return static_cast<int>(syscall(SYS_munmap, addr, len));
}
