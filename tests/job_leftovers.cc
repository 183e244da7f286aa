#include "tests/job_leftovers.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

namespace wg::test {

namespace fs = std::filesystem;

std::string dpdk_runtime_root() {
  if (::geteuid() == 0) return "/var/run/dpdk";
  const char* xdg = std::getenv("XDG_RUNTIME_DIR");
  return xdg ? std::string(xdg) + "/dpdk" : "/tmp/dpdk";
}

std::string usable_hugetlbfs() {
  std::ifstream mounts("/proc/mounts"), meminfo("/proc/meminfo");
  std::string dev, dir, type, rest, mount;
  while (mounts >> dev >> dir >> type && std::getline(mounts, rest))
    if (type == "hugetlbfs") mount = dir;
  std::string key;
  long value = 0, free_pages = 0, page_kb = 0;
  while (meminfo >> key >> value && std::getline(meminfo, rest)) {
    if (key == "HugePages_Free:") free_pages = value;
    if (key == "Hugepagesize:") page_kb = value;
  }
  return free_pages * page_kb >= 128 * 1024 ? mount : "";
}

std::vector<std::string> matching(const std::string& dir, const std::string& pattern) {
  std::vector<std::string> out;
  std::error_code ec;
  const std::regex re(pattern);
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (std::regex_match(e.path().filename().string(), re)) out.push_back(e.path().string());
  return out;
}

bool job_has_processes(const std::string& job) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (cmdline.find(std::string("--file-prefix") + '\0' + "wg" + job + "r") != std::string::npos) return true;
  }
  return false;
}

std::string job_of(const std::string& launcher_output) {
  std::smatch m;
  return std::regex_search(launcher_output, m, std::regex(R"(\[cluster\] job ([0-9a-f]{8}):)")) ? m[1].str() : "";
}

std::vector<std::string> leftovers(const std::string& job) {
  std::vector<std::string> left;
  if (fs::exists("/tmp/wiregraph-" + job)) left.push_back("/tmp/wiregraph-" + job);
  for (const std::string& n : matching("/sys/class/net", "wg" + job + "[tvx][0-9]+|wgb" + job)) left.push_back(n);
  for (const std::string& n : matching("/run/netns", "wg" + job + "n[0-9]+")) left.push_back(n);
  for (const std::string& n : matching(dpdk_runtime_root(), "wg" + job + "r[0-9]+")) left.push_back(n);
  const std::string huge = usable_hugetlbfs();
  if (!huge.empty())
    for (const std::string& n : matching(huge, "wg" + job + "r.*")) left.push_back(n);
  return left;
}

::testing::AssertionResult kill_launcher_mid_run(ChildProcess& launcher, std::string* job) {
  const bool computing = eventually(
      [&] {
        const std::string out = launcher.output();
        return out.find("[node 0] roles:") != std::string::npos && out.find("[node 1] roles:") != std::string::npos;
      },
      120);
  if (!computing) return ::testing::AssertionFailure() << "the nodes never said their roles:\n" << launcher.output();
  *job = job_of(launcher.output());
  if (job->empty()) return ::testing::AssertionFailure() << "no job id in:\n" << launcher.output();
  launcher.signal(SIGKILL);
  int status = 0;
  if (!launcher.wait(10, &status)) return ::testing::AssertionFailure() << "the launcher outlived SIGKILL";
  if (!eventually([&] { return !job_has_processes(*job); }, 60))
    return ::testing::AssertionFailure() << "job " << *job << "'s nodes outlived it";
  return ::testing::AssertionSuccess();
}

}  // namespace wg::test
