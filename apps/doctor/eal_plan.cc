#include "apps/doctor/eal_plan.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>

namespace wg::doctor {

namespace {

bool takes_value(const std::string& a) {
  static const char* kWithValue[] = {"-a",
                                     "--allow",
                                     "-w",
                                     "-b",
                                     "--block",
                                     "-l",
                                     "--lcores",
                                     "-c",
                                     "-m",
                                     "--socket-mem",
                                     "--socket-limit",
                                     "--file-prefix",
                                     "--huge-dir",
                                     "--vdev",
                                     "--log-level",
                                     "--main-lcore",
                                     "-n",
                                     "-r",
                                     "--proc-type",
                                     "--iova-mode",
                                     "--base-virtaddr",
                                     "-d",
                                     "--trace",
                                     "--mbuf-pool-ops-name"};
  return std::find_if(std::begin(kWithValue), std::end(kWithValue), [&](const char* o) { return a == o; }) !=
         std::end(kWithValue);
}

std::vector<uint64_t> number_list(const std::string& s) {
  std::vector<uint64_t> v;
  size_t at = 0;
  while (at <= s.size()) {
    const size_t comma = s.find(',', at);
    v.push_back(std::strtoull(s.substr(at, comma - at).c_str(), nullptr, 10));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return v;
}

}  // namespace

EalPlan read_eal(int argc, char** argv, int* dashdash) {
  EalPlan p;
  *dashdash = argc;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") {
      *dashdash = i;
      break;
    }
    p.user.push_back(a);
    std::string opt = a, value;
    if (const size_t eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
      opt = a.substr(0, eq);
      value = a.substr(eq + 1);
    } else if (takes_value(a) && i + 1 < argc) {
      value = argv[++i];
      p.user.push_back(value);
    }
    if (opt == "-a" || opt == "--allow" || opt == "-w") p.pci.push_back(value);
    if (opt == "--no-huge") p.no_huge = true;
    if (opt == "-m") p.preallocate_mb = std::strtoull(value.c_str(), nullptr, 10);
    if (opt == "--socket-mem") {
      p.socket_mem_mb = number_list(value);
      p.preallocate_mb = 0;
      for (uint64_t mb : p.socket_mem_mb) p.preallocate_mb += mb;
    }
  }
  return p;
}

std::vector<std::string> probe_eal_args(const EalPlan& p, bool without_hugepages) {
  static const std::set<std::string> kMemory = {"-m", "--socket-mem", "--socket-limit", "--huge-dir"};
  static const std::set<std::string> kMemoryFlags = {"--in-memory", "--no-huge", "--legacy-mem",
                                                     "--single-file-segments", "--huge-unlink"};
  std::vector<std::string> out;
  for (size_t i = 0; i < p.user.size(); ++i) {
    const std::string& a = p.user[i];
    const std::string opt = a.substr(0, a.find('='));
    const bool inline_value = a.find('=') != std::string::npos;
    if (opt == "--file-prefix" || (without_hugepages && kMemory.count(opt))) {
      if (!inline_value) ++i;
      continue;
    }
    if (without_hugepages && kMemoryFlags.count(opt)) continue;
    out.push_back(a);
    if (!inline_value && takes_value(a) && i + 1 < p.user.size()) out.push_back(p.user[++i]);
  }
  out.insert(out.end(), {"--file-prefix", "wgdoctor" + std::to_string(::getpid())});
  if (without_hugepages) {
    out.insert(out.end(), {"--no-huge", "-m", kProbeMemoryMb});
  } else if (std::none_of(out.begin(), out.end(),
                          [](const std::string& a) { return kMemoryFlags.count(a.substr(0, a.find('='))) > 0; })) {
    out.push_back("--in-memory");  // as the node: no hugepage files left behind
  }
  return out;
}

}  // namespace wg::doctor
