#include "runtime/node.h"

#include <sys/resource.h>

#include "numa/topology.h"

namespace wg {

DataplaneOptions dataplane_options(const Config& c) {
  DataplaneOptions o;
  o.job_token = c.job_token;
  o.rank = c.rank;
  o.nodes = c.nodes;
  o.udp_port = c.udp_port;
  o.mbufs = c.mbufs;
  o.rx_mbufs = 0;  // the dataplane's default for this many nodes and this window
  o.window = c.transport.window;
  o.checksum = c.transport.checksum;
  o.domains = c.domains;
  return o;
}

namespace {

Config resolved(Config c) {
  if (c.domains == 0) c.domains = static_cast<unsigned>(read_topology().numa_domains);
  return c;
}

}  // namespace

Node::Node(const Config& config)
    : cfg_(resolved(config)), dp_(std::make_unique<Dataplane>(dataplane_options(cfg_))) {}

double Node::line_rate_gbps() const {
  if (cfg_.engine.line_rate_gbps > 0) return cfg_.engine.line_rate_gbps;
  return dp_->link_speed_gbps() > 0 ? dp_->link_speed_gbps() : 10.0;
}

uint64_t peak_rss_bytes() {
  struct rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace wg
