// Shared helpers of the wiregraph benchmarks: trial statistics, the
// single-core memory bandwidth baseline, command-line parsing of the options
// after the EAL's `--`, and the JSON report writer.
//
// Benchmarks report speed as ratios against a baseline measured in the same
// run; nothing here checks thresholds.
#pragma once

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <time.h>

#include <nlohmann/json.hpp>

#include "config/options.h"
#include "config/usage.h"
#include "dataplane/dataplane.h"
#include "dataplane/frame.h"

namespace wg::bench {

// A benchmark's start: --help anywhere prints `usage`, else the EAL takes its
// options and argc/argv are left at the benchmark's own. Returns the exit
// status to end with now (0 after help, 1 if the EAL failed), or -1 to go on.
inline int start(int& argc, char**& argv, const char* name, void (*usage)()) {
  if (wants_help(argc, argv)) {
    usage();
    return 0;
  }
  const int eal = rte_eal_init(argc, argv);
  if (eal < 0) {
    std::fprintf(stderr, "%s: EAL init failed: %s\n", name, rte_strerror(rte_errno));
    return 1;
  }
  argc -= eal;
  argv += eal;
  return -1;
}

// The addresses of the benchmarks' frames: node 1 of job `job` to node 0
// on a loopback port.
inline FrameAddress loopback_address(uint32_t job) {
  FrameAddress a;
  a.src_mac = {0x02, 0, 0, 0, 0, 1};
  a.dst_mac = {0x02, 0, 0, 0, 0, 0};
  a.src_ip = node_ipv4(job, 1);
  a.dst_ip = node_ipv4(job, 0);
  a.src_port = a.dst_port = wire::kDefaultUdpPort;
  return a;
}

// What discovery would do for that node 1: taken on at port 0 from that
// address (its salt gives the first sequence number of each of its flows,
// dp.auth().receive_isn(1, queue)), so that the transport's receive path
// accepts its frames.
inline void take_on_loopback_peer(Dataplane& dp, uint32_t job) {
  if (!dp.take_on_peer(1, 0, loopback_address(job).src_mac, random_salt()))
    throw std::runtime_error("the loopback peer is known at another address");
}

// The command line of the benchmarks without an EAL that take only
// [--trials N] [--json FILE] (bench_crc, bench_mac). False when the program
// should exit with *status (usage asked for, or a bad option).
inline bool parse_trials_and_json(int argc, char** argv, unsigned* trials, std::string* json, int* status) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--trials" && i + 1 < argc) {
      *trials = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    } else if (a == "--json" && i + 1 < argc) {
      *json = argv[++i];
    } else {
      std::printf("usage: %s [--trials N (default %u)] [--json FILE]\n", argv[0], *trials);
      *status = a == "--help" || a == "-h" ? 0 : 2;
      return false;
    }
  }
  return true;
}

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// CPU time of the calling thread: on a machine shared with other work the
// wall clock also counts the time slices given to others; the reports give
// rates per wall-clock second and per CPU second of the measuring thread.
inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Median, minimum and maximum of the trials of one figure.
struct Stat {
  double median = 0, min = 0, max = 0;
};

inline Stat summarize(std::vector<double> v) {
  Stat s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  s.min = v.front();
  s.max = v.back();
  return s;
}

// Keeps the compiler from proving a buffer dead.
inline void clobber(void* p) { asm volatile("" : : "r"(p) : "memory"); }

// Single-core sequential write bandwidth in bytes/s: one pass over `n`
// words (faulted in beforehand) with ordinary stores of a non-zero, varying
// pattern. MACHINE-NOTES: zero writes overstate bandwidth (a platform
// zero-fill effect), and memset may switch to non-temporal stores, so neither
// is used.
// Returns {bytes per wall second, bytes per CPU second}.
inline std::pair<double, double> write_pass(uint64_t* p, size_t n, unsigned round) {
  const uint64_t pattern = 0x9e3779b97f4a7c15ull * (round + 1);
  const double c0 = thread_cpu_seconds();
  const auto t0 = Clock::now();
  for (size_t i = 0; i < n; ++i) p[i] = pattern + i;
  clobber(p);
  const double wall = seconds_since(t0), cpu = thread_cpu_seconds() - c0;
  const double bytes = static_cast<double>(n * sizeof(uint64_t));
  return {bytes / wall, bytes / cpu};
}

// The 1-minute load average: the benchmarks share the machine with whatever
// else runs, so every report records it.
inline double loadavg() {
  double l = -1;
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &l) != 1) l = -1;
    std::fclose(f);
  }
  return l;
}

// ---- options after the EAL's `--` ---------------------------------------------

class Args {
 public:
  Args(int argc, char** argv) : argv_(argv + 1, argv + argc) {}

  // `--name VALUE`; returns true and consumes both if present.
  bool take(const char* name, std::string& value) {
    for (size_t i = 0; i < argv_.size(); ++i) {
      if (argv_[i] != name) continue;
      if (i + 1 >= argv_.size()) throw std::runtime_error(std::string("missing value after ") + name);
      value = argv_[i + 1];
      argv_.erase(argv_.begin() + static_cast<long>(i), argv_.begin() + static_cast<long>(i) + 2);
      return true;
    }
    return false;
  }
  bool flag(const char* name) {
    for (size_t i = 0; i < argv_.size(); ++i) {
      if (argv_[i] != name) continue;
      argv_.erase(argv_.begin() + static_cast<long>(i));
      return true;
    }
    return false;
  }
  template <class T>
  T number(const char* name, T dflt) {
    std::string v;
    if (!take(name, v)) return dflt;
    char* end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (end == v.c_str() || *end != '\0') throw std::runtime_error(std::string("bad number for ") + name + ": " + v);
    return static_cast<T>(d);
  }
  std::string string(const char* name, const std::string& dflt) {
    std::string v;
    return take(name, v) ? v : dflt;
  }
  void finish() const {
    if (!argv_.empty()) throw std::runtime_error("unknown option: " + argv_.front());
  }

 private:
  std::vector<std::string> argv_;
};

// ---- JSON (nlohmann-json, the project's one JSON library) ----------------------

using nlohmann::ordered_json;

inline ordered_json stat_json(const Stat& s) { return {{"median", s.median}, {"min", s.min}, {"max", s.max}}; }

// Writes `j` to `path` (nothing when `path` is empty); false on an error.
inline bool write_json(const std::string& path, const ordered_json& j) {
  if (path.empty()) return true;
  std::ofstream out(path);
  out << j.dump(2, ' ', false, ordered_json::error_handler_t::replace) << '\n';
  out.close();
  return static_cast<bool>(out);
}

// Line rates in Gbit/s that the reports compare against.
inline constexpr double kLineRatesGbps[] = {10, 25, 40, 100};

}  // namespace wg::bench
