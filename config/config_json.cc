#include "config/config_json.h"

#include "compute/engine/dense_block.h"
#include "compute/engine/lcore_layout.h"
#include "compute/engine/program_traits.h"
#include "reliability/transport_config.h"

namespace wg {

nlohmann::ordered_json config_json(const Config& c) {
  const char* scatter =
      c.engine.scatter == ScatterMode::kDense ? "dense" : c.engine.scatter == ScatterMode::kSparse ? "sparse" : "auto";
  // A program parameter the program does not read is null: it did not apply.
  auto read = [&c](const char* option, nlohmann::ordered_json value) {
    return c.reads(option) ? std::move(value) : nlohmann::ordered_json(nullptr);
  };
  return {{"app", c.app},
          {"graph", c.graph},
          {"nodes", c.nodes},
          {"nodes_from", c.nodes_from},
          {"rank", c.rank},
          {"rank_from", c.rank_from},
          {"iterations", read("iterations", c.iterations)},
          {"source", read("source", c.source_id)},
          {"sources", read("sources", c.sources == kAllSources ? nlohmann::ordered_json("all")  // --sources all
                                                              : nlohmann::ordered_json(c.sources))},
          {"ids", c.sparse_ids ? "sparse" : "dense"},
          {"first_id", c.first_id},
          {"ids_chosen", c.ids_chosen},
          {"vertices", c.vertices != 0 ? nlohmann::ordered_json(c.vertices) : nlohmann::ordered_json(nullptr)},
          {"damping", read("damping", c.damping)},
          {"tolerance", read("tolerance", c.tolerance)},
          {"normalize", read("normalize", c.normalize == BcScale::kGap        ? "gap"
                                          : c.normalize == BcScale::kNetworkx ? "networkx"
                                                                               : "none")},
          {"precision", read("precision", c.double_precision ? "double" : "single")},
          {"weighted", read("weighted", c.weighted)},
          {"precision_chosen", c.precision_chosen},
          {"output_format", c.graphalytics_output ? "graphalytics" : "plain"},
          {"verify", c.verify},
          {"undirected", c.undirected},
          {"job_id", c.job_token},
          {"udp_port", c.udp_port},
          {"domains", c.domains},
          {"domain_split", c.domain_metis ? "metis" : "even"},
          {"roles", describe(c.engine.roles)},
          {"rx_queues", c.rx_queues},
          {"range_kib", c.engine.range_bytes / 1024},
          {"mtu", c.mtu},
          {"scatter", scatter},
          {"segment_kib", (c.engine.segment_bytes ? c.engine.segment_bytes : default_segment_bytes()) / 1024},
          {"window", c.transport.window},
          {"authenticated", c.authenticated},
          {"key_from", c.key_from},
          {"checksum", c.transport.checksum},
          {"fault_rx", describe(c.transport.rx_faults)},
          {"fault_tx", describe(c.transport.tx_faults)},
          {"fault_seed", c.transport.fault_seed}};
}

}  // namespace wg
