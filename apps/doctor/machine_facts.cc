#include "apps/doctor/machine_facts.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace wg::doctor {

namespace fs = std::filesystem;

namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

uint64_t read_number(const std::string& path) {
  try {
    return std::stoull(read_line(path));
  } catch (const std::exception&) {
    return 0;
  }
}

// hugepages-2048kB -> 2 MiB
uint64_t page_bytes_of(const std::string& dir_name) {
  std::smatch m;
  static const std::regex re(R"(hugepages-(\d+)kB)");
  return std::regex_match(dir_name, m, re) ? std::stoull(m[1]) * 1024 : 0;
}

void add_pools(const fs::path& dir, int node, std::vector<HugepagePool>* out) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const uint64_t page = page_bytes_of(e.path().filename().string());
    if (page == 0) continue;
    out->push_back({node, page, read_number((e.path() / "nr_hugepages").string()),
                    read_number((e.path() / "free_hugepages").string())});
  }
}

}  // namespace

std::vector<HugepagePool> hugepage_pools(const std::string& root) {
  std::vector<HugepagePool> pools;
  std::error_code ec;
  static const std::regex node_re(R"(node(\d+))");
  for (const auto& e : fs::directory_iterator(root + "/sys/devices/system/node", ec)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (std::regex_match(name, m, node_re)) add_pools(e.path() / "hugepages", std::stoi(m[1]), &pools);
  }
  if (pools.empty()) add_pools(root + "/sys/kernel/mm/hugepages", -1, &pools);
  std::sort(pools.begin(), pools.end(), [](const HugepagePool& a, const HugepagePool& b) {
    return a.numa_node != b.numa_node ? a.numa_node < b.numa_node : a.page_bytes < b.page_bytes;
  });
  return pools;
}

std::set<unsigned> parse_cpu_list(const std::string& list) {
  std::set<unsigned> cpus;
  std::istringstream in(list);
  std::string part;
  while (std::getline(in, part, ',')) {
    unsigned a = 0, b = 0;
    char dash = 0;
    std::istringstream p(part);
    if (!(p >> a)) break;
    if (p >> dash && dash == '-' && p >> b) {
      for (unsigned c = a; c <= b && c < 4096; ++c) cpus.insert(c);
    } else {
      cpus.insert(a);
    }
  }
  return cpus;
}

std::string format_cpu_list(const std::set<unsigned>& cpus) {
  std::string s;
  for (auto it = cpus.begin(); it != cpus.end();) {
    unsigned first = *it, last = first;
    while (++it != cpus.end() && *it == last + 1) last = *it;
    if (!s.empty()) s += ',';
    s += std::to_string(first);
    if (last > first) {
      s += '-';
      s += std::to_string(last);
    }
  }
  return s;
}

CpuIsolation cpu_isolation(const std::string& root) {
  CpuIsolation iso;
  std::istringstream words(read_line(root + "/proc/cmdline"));
  std::string w;
  while (words >> w) {
    if (w.rfind("isolcpus=", 0) == 0) {
      std::string v = w.substr(9);
      // Flags come first and end with a comma before the list: "managed_irq,domain,2-7".
      const size_t digit = v.find_first_of("0123456789");
      iso.isolcpus = parse_cpu_list(digit == std::string::npos ? "" : v.substr(digit));
    } else if (w.rfind("nohz_full=", 0) == 0) {
      iso.nohz_full = parse_cpu_list(w.substr(10));
    }
  }
  return iso;
}

std::string clock_source(const std::string& root) {
  return read_line(root + "/sys/devices/system/clocksource/clocksource0/current_clocksource");
}

bool cpu_has_flag(const std::string& root, const std::string& flag) {
  std::ifstream in(root + "/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream f(line.substr(line.find(':') + 1));
    std::string w;
    while (f >> w)
      if (w == flag) return true;
    return false;  // the first CPU's flags stand for all
  }
  return false;
}

bool looks_like_pci_address(const std::string& s) {
  static const std::regex re(R"(([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])");
  return std::regex_match(s.substr(0, s.find(',')), re);
}

std::string full_pci_address(const std::string& s) {
  std::string a = s.substr(0, s.find(','));
  if (a.size() == 7) a = "0000:" + a;
  for (char& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return a;
}

PciDevice pci_device(const std::string& root, const std::string& address) {
  PciDevice d;
  const fs::path dir = root + "/sys/bus/pci/devices/" + full_pci_address(address);
  std::error_code ec;
  if (!fs::exists(dir, ec)) return d;
  d.exists = true;
  if (fs::is_symlink(dir / "driver", ec)) d.driver = fs::read_symlink(dir / "driver", ec).filename().string();
  const std::string node = read_line((dir / "numa_node").string());
  d.numa_node = node.empty() ? -1 : std::atoi(node.c_str());
  if (fs::is_symlink(dir / "iommu_group", ec))
    d.iommu_group = fs::read_symlink(dir / "iommu_group", ec).filename().string();
  for (const auto& e : fs::directory_iterator(dir / "net", ec)) d.netdevs.push_back(e.path().filename().string());
  return d;
}

bool iommu_on(const std::string& root) {
  std::error_code ec;
  fs::directory_iterator it(root + "/sys/kernel/iommu_groups", ec);
  return !ec && it != fs::directory_iterator();
}

bool vfio_noiommu(const std::string& root) {
  const std::string v = read_line(root + "/sys/module/vfio/parameters/enable_unsafe_noiommu_mode");
  return !v.empty() && (v[0] == 'Y' || v[0] == '1');
}

}  // namespace wg::doctor
