#include "config/config_json.h"

#include "compute/dense_block.h"
#include "reliability/fault_injector.h"

namespace wg {

nlohmann::ordered_json config_json(const Config& c) {
  const char* scatter =
      c.scatter == ScatterMode::kDense ? "dense" : c.scatter == ScatterMode::kSparse ? "sparse" : "auto";
  return {{"app", app_name(c.app)},
          {"graph", c.graph},
          {"nodes", c.nodes},
          {"rank", c.rank},
          {"iterations", c.iterations},
          {"source", c.source},
          {"undirected", c.undirected},
          {"job_id", c.job_token},
          {"udp_port", c.udp_port},
          {"domains", c.domains},
          {"domain_split", c.domain_metis ? "metis" : "even"},
          {"roles", c.split_roles ? "split" : "shared"},
          {"scatter", scatter},
          {"segment_kib", c.segment_kib ? c.segment_kib : default_segment_bytes() / 1024},
          {"window", c.transport.window},
          {"checksum", c.transport.checksum},
          {"fault_rx", describe(c.transport.rx_faults)},
          {"fault_tx", describe(c.transport.tx_faults)},
          {"fault_seed", c.transport.fault_seed}};
}

}  // namespace wg
