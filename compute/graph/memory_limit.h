// How much memory this process may still allocate: the kernel's estimate of
// available memory (MemAvailable in /proc/meminfo), lowered by the limit of
// the process's cgroup (v2 memory.max, v1 memory.limit_in_bytes, minus what
// the cgroup already uses, at its own level or any ancestor's), found
// through /proc/self/cgroup and /proc/self/mountinfo.
#pragma once

#include <cstdint>
#include <string>

namespace wg {

// What this process may use, and where that figure came from.
struct MemoryLimit {
  uint64_t bytes = UINT64_MAX;
  std::string source = "no limit known";
};

// `root` prefixes every path read (tests point it at a fake /proc and /sys).
MemoryLimit read_memory_limit(const std::string& root = "");

// One of `processes` equal shares of `limit` (nodes of one job on one host
// each load their own graph at the same time).
MemoryLimit share_of(const MemoryLimit& limit, unsigned processes);

// "1.5 GiB", "512 MiB", "12 KiB", "100 B".
std::string format_bytes(uint64_t bytes);

}  // namespace wg
