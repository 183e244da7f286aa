// Keeps a memif peer's death from crashing this node.
//
// When a memif peer dies, DPDK 22.11's memif PMD tears the link down on the
// EAL interrupt thread: it clears the "connected" flag, then munmaps the
// shared rings and buffers and frees their descriptors, with nothing to stop
// an lcore that checked the flag a moment earlier and is still inside
// rte_eth_rx_burst or rte_eth_tx_burst on that port. On an oversubscribed
// machine the lcore can be preempted right there; it then resumes on unmapped
// memory (SIGSEGV, seen in CI when a test killed one of three nodes).
//
// The fix is read-copy-update with DPDK's QSBR library: every memif burst is a
// read-side section (reader online ... offline), and this module interposes
// munmap for the whole process so that it first waits until every section
// that was open when it was called has closed. Sections that open later see
// the flag already cleared and return without touching the rings. Only
// memif bursts are bracketed; other PMDs do not unmap under their data path.
#pragma once

namespace wg::memif_guard {

// Creates the QSBR variable on first call; before that munmap passes straight
// through. Call once a memif port exists (any thread, after rte_eal_init).
void arm();
bool armed();

// A read-side section around one burst on a memif port (`open` false: no
// section, for a port of another kind). Not reentrant. The thread's id is its
// EAL lcore id; every non-EAL thread shares one extra id, so at most one
// non-EAL thread may burst on memif ports (none does today).
class Section {
 public:
  explicit Section(bool open = true);
  ~Section();
  Section(const Section&) = delete;
  Section& operator=(const Section&) = delete;

 private:
  bool held_ = false;  // this section is online (the guard was armed and `open`)
};

// How many munmap calls had to wait for an open section, and how many gave
// up after the bound (kWaitLimitMs) and unmapped anyway. For tests and logs.
unsigned long waits();
unsigned long timeouts();

inline constexpr unsigned kWaitLimitMs = 2000;

}  // namespace wg::memif_guard
