#include "compute/graph/memory_limit.h"

#include <charconv>
#include <cstdio>
#include <iterator>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

namespace wg {

namespace {

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<uint64_t> read_number(const std::string& path) {
  const std::optional<std::string> text = read_text(path);
  if (!text) return std::nullopt;
  uint64_t v = 0;
  const char* p = text->data();
  const auto [end, ec] = std::from_chars(p, p + text->size(), v);
  if (ec != std::errc() || end == p) return std::nullopt;  // "max", empty, garbage
  return v;
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  for (size_t at = 0;;) {
    const size_t next = s.find(sep, at);
    out.emplace_back(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos) return out;
    at = next + 1;
  }
}

bool lists(const std::string& comma_list, std::string_view item) {
  for (const std::string& x : split(comma_list, ','))
    if (x == item) return true;
  return false;
}

// One cgroup hierarchy this process is in: the directory of its cgroup and
// the mount point above which no limit is looked for.
struct CgroupDir {
  std::string mount;  // e.g. /sys/fs/cgroup/memory
  std::string dir;    // e.g. /sys/fs/cgroup/memory/process_api/300c...
};

// From /proc/self/mountinfo: the mount of the v2 hierarchy (v2) or of the v1
// hierarchy with the memory controller, as (mount root, mount point).
std::optional<std::pair<std::string, std::string>> cgroup_mount(const std::string& mountinfo, bool v2) {
  std::istringstream lines(mountinfo);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    const std::vector<std::string> left = split(line.substr(0, dash), ' ');
    const std::vector<std::string> right = split(line.substr(dash + 3), ' ');
    if (left.size() < 5 || right.size() < 3) continue;
    if (v2 ? right[0] == "cgroup2" : right[0] == "cgroup" && lists(right[2], "memory"))
      return std::make_pair(left[3], left[4]);
  }
  return std::nullopt;
}

// This process's directory in the v2 hierarchy or the v1 memory hierarchy.
std::optional<CgroupDir> cgroup_dir(const std::string& root, const std::string& cgroups, const std::string& mountinfo,
                                    bool v2) {
  const auto mount = cgroup_mount(mountinfo, v2);
  if (!mount) return std::nullopt;
  std::istringstream lines(cgroups);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    if (v2 ? line.compare(0, a, "0") != 0 || !controllers.empty() : !lists(controllers, "memory")) continue;
    std::string path = line.substr(b + 1);
    const std::string& mount_root = mount->first;
    if (mount_root != "/" && path.compare(0, mount_root.size(), mount_root) == 0) path.erase(0, mount_root.size());
    if (path == "/") path.clear();
    return CgroupDir{root + mount->second, root + mount->second + path};
  }
  return std::nullopt;
}

// The smallest headroom (limit - usage) from `dir` up to the mount point.
void lower_by_cgroup(MemoryLimit& limit, const CgroupDir& cg, const char* version, const char* limit_file,
                     const char* usage_file) {
  for (std::string dir = cg.dir;;) {
    const std::optional<uint64_t> max = read_number(dir + "/" + limit_file);
    if (max && *max < (uint64_t{1} << 60)) {  // v1 writes "no limit" as ~2^63
      const uint64_t used = read_number(dir + "/" + usage_file).value_or(0);
      const uint64_t room = used < *max ? *max - used : 0;
      if (room < limit.bytes) {
        limit.bytes = room;
        limit.source = std::string("cgroup ") + version + " " + dir + ": " + limit_file + " " + format_bytes(*max) +
                       ", " + format_bytes(used) + " in use";
      }
    }
    if (dir.size() <= cg.mount.size()) return;
    dir.erase(dir.rfind('/'));
  }
}

}  // namespace

MemoryLimit read_memory_limit(const std::string& root) {
  MemoryLimit limit;
  if (const std::optional<std::string> meminfo = read_text(root + "/proc/meminfo")) {
    const size_t at = meminfo->find("MemAvailable:");
    uint64_t kib = 0;
    if (at != std::string::npos) {
      const char* p = meminfo->data() + at + 13;
      const char* end = meminfo->data() + meminfo->size();
      while (p < end && *p == ' ') ++p;
      if (std::from_chars(p, end, kib).ec == std::errc()) {
        limit.bytes = kib * 1024;
        limit.source = "MemAvailable in /proc/meminfo";
      }
    }
  }
  const std::string cgroups = read_text(root + "/proc/self/cgroup").value_or("");
  const std::string mountinfo = read_text(root + "/proc/self/mountinfo").value_or("");
  if (const auto v2 = cgroup_dir(root, cgroups, mountinfo, true))
    lower_by_cgroup(limit, *v2, "v2", "memory.max", "memory.current");
  if (const auto v1 = cgroup_dir(root, cgroups, mountinfo, false))
    lower_by_cgroup(limit, *v1, "v1", "memory.limit_in_bytes", "memory.usage_in_bytes");
  return limit;
}

MemoryLimit share_of(const MemoryLimit& limit, unsigned processes) {
  if (processes <= 1 || limit.bytes == UINT64_MAX) return limit;
  return MemoryLimit{limit.bytes / processes,
                     limit.source + ", shared by " + std::to_string(processes) + " nodes on this host"};
}

std::string format_bytes(uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes == UINT64_MAX) return "more than 16 EiB";
  double v = static_cast<double>(bytes);
  unsigned u = 0;
  while (v >= 1024 && u + 1 < std::size(kUnits)) {
    v /= 1024;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", v, kUnits[u]);
  return text;
}

}  // namespace wg
