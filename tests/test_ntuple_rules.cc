// The ntuple rules of a net_af_xdp port (dataplane/ntuple_rules.h): the rule
// as the kernel's ethtool ABI reads it, and the ioctl's answer from a real
// netdev. A veth is the netdev this machine has; it has no classification
// table, so what is checked here is the refusal a node prints (the reason
// and the fix). Installing on a NIC with a table cannot run here (no
// physical NIC): docs/LAB-CLUSTER.md has the check a lab engineer runs.
#include <arpa/inet.h>
#include <net/if.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "dataplane/ntuple_rules.h"

namespace wg {
namespace {

TEST(NtupleRule, MatchesTheWholeUdpDestinationPortAndNamesTheQueue) {
  const ethtool_rx_flow_spec fs = ntuple::rule_for(47001, 3);
  EXPECT_EQ(fs.flow_type, static_cast<uint32_t>(UDP_V4_FLOW));
  EXPECT_EQ(ntohs(fs.h_u.udp_ip4_spec.pdst), 47001);
  // ethtool_rx_flow_spec's mask: bits set are compared (ethtool's -N "m"
  // is the inverse, the uapi struct is not).
  EXPECT_EQ(fs.m_u.udp_ip4_spec.pdst, 0xffff);
  EXPECT_EQ(fs.m_u.udp_ip4_spec.psrc, 0);
  EXPECT_EQ(fs.m_u.udp_ip4_spec.ip4src, 0u);
  EXPECT_EQ(fs.m_u.udp_ip4_spec.ip4dst, 0u);
  EXPECT_EQ(fs.ring_cookie, 3u);
  EXPECT_EQ(fs.location, static_cast<uint32_t>(RX_CLS_LOC_ANY));
}

// A veth pair of 4 queues, removed whatever the test's outcome.
class Veth {
 public:
  Veth() : name_("wgnt" + std::to_string(::getpid() % 100000)) {
    const std::string cmd = "ip link add " + name_ + " numrxqueues 4 numtxqueues 4 type veth peer name " + name_ +
                            "p numrxqueues 4 numtxqueues 4 2>/dev/null";
    ok_ = std::system(cmd.c_str()) == 0;
  }
  ~Veth() {
    if (ok_) std::system(("ip link del " + name_ + " 2>/dev/null").c_str());
  }
  bool ok() const { return ok_; }
  const std::string& name() const { return name_; }
  uint32_t index() const { return if_nametoindex(name_.c_str()); }

 private:
  std::string name_;
  bool ok_ = false;
};

TEST(NtupleRules, AVethRefusesWithTheDriverTheReasonAndTheFix) {
  if (::geteuid() != 0) GTEST_SKIP() << "creating a veth needs root";
  Veth veth;
  if (!veth.ok()) GTEST_SKIP() << "ip link add ... type veth failed";
  ntuple::Installed rules;
  const std::string why = ntuple::install(veth.index(), 47000, 2, 1, &rules);
  EXPECT_NE(why.find("no ntuple rule on " + veth.name() + " (veth: Operation not supported)"), std::string::npos)
      << why;
  EXPECT_NE(why.find("ethtool -K " + veth.name() + " ntuple on"), std::string::npos) << why;
  EXPECT_NE(why.find("ethtool -X " + veth.name() + " start 1 equal 2"), std::string::npos) << why;
  EXPECT_TRUE(rules.locations.empty());
  EXPECT_EQ(ntuple::table_state(veth.index()), "veth: Operation not supported");
}

TEST(NtupleRules, ANetdevThatIsGoneIsNamedAsSuch) {
  ntuple::Installed rules;
  const std::string why = ntuple::install(0, 47000, 1, 0, &rules);
  EXPECT_NE(why.find("No such device"), std::string::npos) << why;
}

}  // namespace
}  // namespace wg
