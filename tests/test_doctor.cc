// `wiregraph doctor` (apps/doctor/doctor.h): its readers of /proc and /sys
// on fake trees written here (DoctorMachine, no EAL), and the binary's
// verdicts on machine states the tests set up for real without touching
// anyone else's (Doctor): no hugetlbfs mounted (a private mount namespace
// with the mounts taken away), too few free hugepages for the job (more
// mbufs than they hold), an MTU too large for net_tap, more queues than an
// af_packet port has, no key for a job of two nodes; and this machine's
// steering verdict on a tap port, with rte_flow's refusal named.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "apps/doctor/findings.h"
#include "apps/doctor/machine_facts.h"
#include "apps/node/node_files.h"
#include "tests/cluster_harness.h"

namespace wg::test {
namespace {

namespace fs = std::filesystem;
using namespace wg::doctor;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

TEST(DoctorMachine, HugepagesPerNumaNodeAndEverySize) {
  TempDir tmp;
  const fs::path root(tmp.path());
  const fs::path n0 = root / "sys/devices/system/node/node0/hugepages";
  const fs::path n1 = root / "sys/devices/system/node/node1/hugepages";
  write(n0 / "hugepages-2048kB/nr_hugepages", "512\n");
  write(n0 / "hugepages-2048kB/free_hugepages", "100\n");
  write(n0 / "hugepages-1048576kB/nr_hugepages", "2\n");
  write(n0 / "hugepages-1048576kB/free_hugepages", "1\n");
  write(n1 / "hugepages-2048kB/nr_hugepages", "512\n");
  write(n1 / "hugepages-2048kB/free_hugepages", "0\n");
  write(root / "sys/devices/system/node/online", "0-1\n");  // not a node directory: ignored
  const std::vector<HugepagePool> pools = hugepage_pools(root.string());
  ASSERT_EQ(pools.size(), 3u);
  EXPECT_EQ(pools[0].numa_node, 0);
  EXPECT_EQ(pools[0].page_bytes, 2u << 20);
  EXPECT_EQ(pools[0].total, 512u);
  EXPECT_EQ(pools[0].free, 100u);
  EXPECT_EQ(pools[1].page_bytes, 1u << 30);
  EXPECT_EQ(pools[1].free, 1u);
  EXPECT_EQ(pools[2].numa_node, 1);
  EXPECT_EQ(pools[2].free, 0u);
}

TEST(DoctorMachine, HugepagesWithoutNumaNodesComeFromTheMachineTotal) {
  TempDir tmp;
  write(fs::path(tmp.path()) / "sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages", "64\n");
  write(fs::path(tmp.path()) / "sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", "60\n");
  const std::vector<HugepagePool> pools = hugepage_pools(tmp.path());
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].numa_node, -1);
  EXPECT_EQ(pools[0].free, 60u);
  EXPECT_TRUE(hugepage_pools(tmp.file("nothing")).empty());
}

TEST(DoctorMachine, HugetlbfsMountsFromProcMounts) {
  TempDir tmp;
  write(fs::path(tmp.path()) / "proc/mounts",
        "proc /proc proc rw 0 0\nnodev /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0\n"
        "none /mnt/huge1G hugetlbfs rw,pagesize=1024M 0 0\ntmpfs /run tmpfs rw 0 0\n");
  EXPECT_EQ(node_files::hugetlbfs_mounts(tmp.path()), (std::vector<std::string>{"/dev/hugepages", "/mnt/huge1G"}));
  write(fs::path(tmp.path()) / "proc/mounts", "proc /proc proc rw 0 0\n");
  EXPECT_TRUE(node_files::hugetlbfs_mounts(tmp.path()).empty());
}

TEST(DoctorMachine, CpuIsolationFromTheKernelCommandLine) {
  TempDir tmp;
  write(fs::path(tmp.path()) / "proc/cmdline",
        "BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=managed_irq,domain,2-5,8 nohz_full=2-4 quiet\n");
  const CpuIsolation iso = cpu_isolation(tmp.path());
  EXPECT_EQ(iso.isolcpus, (std::set<unsigned>{2, 3, 4, 5, 8}));
  EXPECT_EQ(iso.nohz_full, (std::set<unsigned>{2, 3, 4}));
  write(fs::path(tmp.path()) / "proc/cmdline", "root=/dev/sda1 isolcpus=6\n");
  EXPECT_EQ(cpu_isolation(tmp.path()).isolcpus, (std::set<unsigned>{6}));
  EXPECT_TRUE(cpu_isolation(tmp.path()).nohz_full.empty());
  EXPECT_EQ(parse_cpu_list("0-2,7,9-10"), (std::set<unsigned>{0, 1, 2, 7, 9, 10}));
}

TEST(DoctorMachine, ClockSourceAndTscFlags) {
  TempDir tmp;
  write(fs::path(tmp.path()) / "sys/devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock\n");
  write(fs::path(tmp.path()) / "proc/cpuinfo",
        "processor\t: 0\nflags\t\t: fpu tsc constant_tsc nonstop_tsc sse\n\n"
        "processor\t: 1\nflags\t\t: fpu tsc\n");
  EXPECT_EQ(clock_source(tmp.path()), "kvm-clock");
  EXPECT_TRUE(cpu_has_flag(tmp.path(), "constant_tsc"));
  EXPECT_TRUE(cpu_has_flag(tmp.path(), "nonstop_tsc"));
  EXPECT_FALSE(cpu_has_flag(tmp.path(), "tsc_known_freq"));
}

TEST(DoctorMachine, PciDeviceDriverIommuGroupAndNetdevs) {
  TempDir tmp;
  const fs::path root(tmp.path());
  const fs::path dev = root / "sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0";
  write(dev / "numa_node", "1\n");
  write(dev / "net/ens1f0/operstate", "up\n");
  fs::create_directories(root / "sys/bus/pci/devices");
  fs::create_directories(root / "sys/bus/pci/drivers/mlx5_core");
  fs::create_directories(root / "sys/kernel/iommu_groups/42");
  fs::create_symlink(dev, root / "sys/bus/pci/devices/0000:3b:00.0");
  fs::create_symlink(root / "sys/bus/pci/drivers/mlx5_core", dev / "driver");
  fs::create_symlink(root / "sys/kernel/iommu_groups/42", dev / "iommu_group");
  const PciDevice d = pci_device(root.string(), "3b:00.0");
  ASSERT_TRUE(d.exists);
  EXPECT_EQ(d.driver, "mlx5_core");
  EXPECT_EQ(d.numa_node, 1);
  EXPECT_EQ(d.iommu_group, "42");
  EXPECT_EQ(d.netdevs, std::vector<std::string>{"ens1f0"});
  EXPECT_TRUE(iommu_on(root.string()));
  EXPECT_FALSE(pci_device(root.string(), "0000:5e:00.1").exists);
  EXPECT_TRUE(looks_like_pci_address("0000:3b:00.0"));
  EXPECT_TRUE(looks_like_pci_address("3b:00.0,txq_inline=128"));
  EXPECT_FALSE(looks_like_pci_address("net_tap0"));
  EXPECT_EQ(full_pci_address("3B:00.0"), "0000:3b:00.0");
}

TEST(DoctorMachine, FindingsPrintAVerdictPerItemAndTheFix) {
  const std::vector<Finding> f = {
      {Verdict::kOk, "hugetlbfs", "mounted at /dev/hugepages", ""},
      {Verdict::kFail, "port 0 mtu", "takes MTU 1504 at most, not --mtu 9000", "--mtu 1500"},
      {Verdict::kNotChecked, "port 0 numa", "a virtual device", ""}};
  const std::string s = summary(f);
  EXPECT_EQ(s, "1 ok, 0 warnings, 1 failed, 1 not checked: NOT READY");
  EXPECT_EQ(format_findings(f, s),
            "ok    hugetlbfs    mounted at /dev/hugepages\n"
            "FAIL  port 0 mtu   takes MTU 1504 at most, not --mtu 9000\n"
            "                   fix: --mtu 1500\n"
            "n/a   port 0 numa  a virtual device\n" +
                s + "\n");
  EXPECT_TRUE(any_failed(f));
  EXPECT_EQ(summary({f[0]}), "1 ok, 0 warnings, 0 failed, 0 not checked: READY");
}

// ------------------------------------------------------------ the binary

struct DoctorRun {
  int exit_code = -1;
  std::string output;
};

// Runs argv (the doctor, or a shell that runs it) to its end.
DoctorRun run_doctor(const std::vector<std::string>& argv, const TempDir& tmp, const std::string& name) {
  ChildProcess p(argv, tmp.file(name + ".log"));
  int status = 0;
  DoctorRun r;
  if (!p.wait(120, &status)) {
    r.output = "did not end within 120 s:\n" + p.output();
    return r;
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.output = p.output();
  return r;
}

std::vector<std::string> doctor(std::vector<std::string> eal, const std::vector<std::string>& app) {
  std::vector<std::string> argv = {binary_path(), "doctor", "--lcores", "0", "--log-level", "lib.eal:error"};
  argv.insert(argv.end(), eal.begin(), eal.end());
  argv.push_back("--");
  argv.insert(argv.end(), app.begin(), app.end());
  return argv;
}

// The line of item `item` ("VERDICT  ITEM  finding"), or "".
std::string line_of(const std::string& output, const std::string& item) {
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string verdict, word;
    f >> verdict;
    std::string rest;
    std::getline(f, rest);
    const size_t at = rest.find_first_not_of(' ');
    if (at != std::string::npos && rest.compare(at, item.size() + 1, item + " ") == 0) return line;
  }
  return "";
}

std::string unique_tap(const char* role) {
  std::random_device rd;
  char name[16];
  std::snprintf(name, sizeof name, "wd%04x%s", rd() & 0xffff, role);
  return name;
}

const std::vector<std::string> kJob = {"--app", "bfs", "--graph", "kron:10:4"};

TEST(Doctor, NoHugetlbfsMounted) {
  if (::geteuid() != 0) GTEST_SKIP() << "a mount namespace needs root";
  TempDir tmp;
  // A private mount namespace with every hugetlbfs unmounted: this process
  // sees none; the machine's mounts, seen by everyone else, stay.
  std::string cmd =
      "for m in $(awk '$3 == \"hugetlbfs\" { print $2 }' /proc/mounts); do umount \"$m\" || exit 99; "
      "done; exec \"$@\"";
  std::vector<std::string> argv = {"unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", cmd, "sh"};
  for (const std::string& a : doctor({"--no-pci"}, kJob)) argv.push_back(a);
  const DoctorRun r = run_doctor(argv, tmp, "nohuge");
  ASSERT_NE(r.exit_code, 99) << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(line_of(r.output, "hugetlbfs").rfind("FAIL", 0), 0u) << r.output;
  EXPECT_NE(r.output.find("no hugetlbfs mounted"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fix: mkdir -p /dev/hugepages && mount -t hugetlbfs"), std::string::npos) << r.output;
  EXPECT_EQ(line_of(r.output, "probe").rfind("n/a", 0), 0u) << r.output;
  EXPECT_NE(r.output.find("NOT READY"), std::string::npos) << r.output;
}

TEST(Doctor, TooFewFreeHugepagesForTheJob) {
  TempDir tmp;
  // Four million mbufs of 2.4 KiB want about 9 GiB of hugepages: more than
  // this machine has free (it lends at most its 2 GiB), so the verdict is
  // FAIL with the pages to add, and the ports are probed without them.
  std::vector<std::string> job = kJob;
  job.insert(job.end(), {"--mbufs", "4000000"});
  const DoctorRun r = run_doctor(doctor({"--no-pci"}, job), tmp, "fewhuge");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const std::string line = line_of(r.output, "hugepages");
  EXPECT_EQ(line.rfind("FAIL", 0), 0u) << r.output;
  EXPECT_NE(line.find("free, the node takes about"), std::string::npos) << r.output;
  EXPECT_NE(line.find("4000000 mbufs per transmit pool"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nr_hugepages ("), std::string::npos) << r.output;
}

TEST(Doctor, MtuTooLargeForNetTap) {
  const std::string why = tap_unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  std::vector<std::string> job = kJob;
  job.insert(job.end(), {"--mtu", "9000"});
  const DoctorRun r = run_doctor(doctor({"--no-pci", "--vdev", "net_tap0,iface=" + unique_tap("m")}, job), tmp, "mtu");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const std::string line = line_of(r.output, "port 0 mtu");
  EXPECT_EQ(line.rfind("FAIL", 0), 0u) << r.output;
  EXPECT_NE(line.find("net_tap0 (net_tap) takes MTU 1504 at most, not --mtu 9000"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fix: --mtu 1504"), std::string::npos) << r.output;
}

// A veth pair of the test's own, removed however the test ends.
struct VethPair {
  explicit VethPair(unsigned queue_count = 1) : queues(std::to_string(queue_count)) {}
  std::string queues;
  std::string a = unique_tap("a"), b = a.substr(0, a.size() - 1) + "b";
  bool made = std::system(("ip link add " + a + " numrxqueues " + queues + " numtxqueues " + queues +
                           " type veth peer name " + b + " && ip link set " + a + " up && ip link set " + b + " up")
                              .c_str()) == 0;
  ~VethPair() {
    if (made) (void)!std::system(("ip link del " + a).c_str());
  }
};

TEST(Doctor, MoreQueuesThanThePortHas) {
  const std::string why = tap_unavailable_reason();  // root and `ip`, as for a veth pair
  if (!why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  VethPair veth;
  ASSERT_TRUE(veth.made);
  std::vector<std::string> job = kJob;
  job.insert(job.end(), {"--rx-queues", "4"});
  const DoctorRun r = run_doctor(
      doctor({"--no-pci", "--no-huge", "-m", "128", "--vdev", "net_af_packet0,iface=" + veth.a + ",qpairs=2"}, job),
      tmp, "queues");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const std::string line = line_of(r.output, "port 0 queues");
  EXPECT_EQ(line.rfind("FAIL", 0), 0u) << r.output;
  EXPECT_NE(line.find("net_af_packet0 (net_af_packet) has 2 queue pairs, --rx-queues 4 needs 4"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("fix: --rx-queues 2"), std::string::npos) << r.output;
  EXPECT_EQ(line_of(r.output, "port 0 steering").rfind("n/a", 0), 0u) << r.output;
}

// net_af_xdp on a veth whose MTU (1400) is below the default --mtu, which
// the node does not set: the netdev fails, naming both; the PMD's MTU is
// what one XDP frame holds; veth has no zero-copy (a warning).
TEST(Doctor, AfXdpPortOnANetdevBelowTheJobsMtu) {
  const std::string why = tap_unavailable_reason();  // root and `ip`, as for a veth pair
  if (!why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  VethPair veth;
  ASSERT_TRUE(veth.made);
  ASSERT_EQ(std::system(("ip link set dev " + veth.a + " mtu 1400").c_str()), 0);
  const DoctorRun r =
      run_doctor(doctor({"--no-pci", "--vdev", "net_af_xdp0,iface=" + veth.a + ",start_queue=0,queue_count=1"}, kJob),
                 tmp, "afxdp");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const std::string netdev = line_of(r.output, "port 0 netdev");
  EXPECT_EQ(netdev.rfind("FAIL", 0), 0u) << r.output;
  EXPECT_NE(netdev.find("kernel netdev " + veth.a + " has MTU 1400, below the --mtu 1500"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("fix: ip link set dev " + veth.a + " mtu 1500"), std::string::npos) << r.output;
  EXPECT_NE(line_of(r.output, "port 0 mtu").find("net_af_xdp0 (net_af_xdp) takes MTU 1778, --mtu is 1500"),
            std::string::npos)
      << r.output;
  const std::string zero_copy = line_of(r.output, "port 0 zero-copy");
  EXPECT_EQ(zero_copy.rfind("warn", 0), 0u) << r.output;
  EXPECT_NE(zero_copy.find("driver veth has no AF_XDP zero-copy"), std::string::npos) << r.output;
  EXPECT_EQ(line_of(r.output, "port 0 netdev queues").rfind("ok", 0), 0u) << r.output;
  EXPECT_NE(line_of(r.output, "port 0 ntuple").find("no rules needed, the port polls every queue"), std::string::npos)
      << r.output;
}

// net_af_xdp polling one of a veth's 4 queues: nothing steers the job's
// flows to it, and a veth has no ntuple table to do it: a warning with the fix.
TEST(Doctor, AfXdpPortOnOneOfFourQueuesWithoutAnNtupleTable) {
  const std::string why = tap_unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  VethPair veth(4);
  ASSERT_TRUE(veth.made);
  const DoctorRun r =
      run_doctor(doctor({"--no-pci", "--vdev", "net_af_xdp0,iface=" + veth.a + ",start_queue=0,queue_count=1"}, kJob),
                 tmp, "afxdpq");
  const std::string ntuple = line_of(r.output, "port 0 ntuple");
  EXPECT_EQ(ntuple.rfind("warn", 0), 0u) << r.output;
  EXPECT_NE(ntuple.find("has no ntuple table (veth: Operation not supported)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fix: ethtool -K " + veth.a + " ntuple on"), std::string::npos) << r.output;
}

TEST(Doctor, NoKeyForAJobOfTwoNodes) {
  TempDir tmp;
  ChildProcess p(
      {"env",       "-u",        "WIREGRAPH_KEY", binary_path(), "doctor",        "--lcores", "0",     "--no-pci",
       "--no-huge", "-m",        "128",           "--log-level", "lib.eal:error", "--",       "--app", "bfs",
       "--graph",   "kron:10:4", "--nodes",       "2",           "--rank",        "1"},
      tmp.file("key.log"));
  int status = 0;
  ASSERT_TRUE(p.wait(120, &status)) << p.output();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << p.output();
  EXPECT_EQ(line_of(p.output(), "key").rfind("FAIL", 0), 0u) << p.output();
  EXPECT_NE(p.output().find("fix: head -c 32 /dev/urandom"), std::string::npos) << p.output();
  // With no port either, two nodes cannot reach each other.
  EXPECT_EQ(line_of(p.output(), "ports").rfind("FAIL", 0), 0u) << p.output();
  EXPECT_NE(p.output().find("(node 1 of 2, rank from --rank)"), std::string::npos) << p.output();
}

// This machine as the lab suite uses it: a tap port, two queues, a key.
// Nothing fails; the steering is the tun device's own, and the doctor says
// why rte_flow was not used (net_tap's refusal: no multiq qdisc here).
TEST(Doctor, TapPortWithTwoQueuesIsReady) {
  const std::string why = tap_unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  std::vector<std::string> job = kJob;
  job.insert(job.end(), {"--nodes", "2", "--rank", "0", "--rx-queues", "2", "--key-file", write_key_file(tmp)});
  const DoctorRun r = run_doctor(
      doctor({"--no-pci", "--no-huge", "-m", "256", "--vdev", "net_tap0,iface=" + unique_tap("q")}, job), tmp, "tap");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(line_of(r.output, "port 0 queues").rfind("ok", 0), 0u) << r.output;
  const std::string steering = line_of(r.output, "port 0 steering");
  EXPECT_EQ(steering.rfind("ok", 0), 0u) << r.output;
  EXPECT_NE(steering.find("tun flow steering"), std::string::npos) << r.output;
  EXPECT_NE(steering.find("rte_flow rule UDP dst 47000 -> queue 0"), std::string::npos) << r.output;
  EXPECT_EQ(line_of(r.output, "port 0 link").rfind("ok", 0), 0u) << r.output;
  EXPECT_EQ(line_of(r.output, "port 0 numa").rfind("n/a", 0), 0u) << r.output;
  EXPECT_EQ(line_of(r.output, "key").rfind("ok", 0), 0u) << r.output;
  EXPECT_NE(line_of(r.output, "lcores"), "") << r.output;
  EXPECT_NE(line_of(r.output, "clock"), "") << r.output;
  EXPECT_NE(r.output.find(": READY"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace wg::test
