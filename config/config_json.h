// The configuration echo written as the "config" member of the report files
// (DIR/node<R>.json, DIR/summary.json; compute/report/run_report.h).
#pragma once

#include <nlohmann/json.hpp>

#include "config/options.h"

namespace wg {

// One JSON object: app, graph, nodes, nodes_from, rank, rank_from (where P
// and R came from: "--nodes"/"--rank", "default" or the environment variable,
// e.g. "SLURM_PROCID"), iterations, source (as the input names it), ids
// (sparse or dense, as chosen), first_id (1: the file's own 1-based ids),
// ids_chosen (how), damping, precision, precision_chosen, output_format,
// undirected, job_id, udp_port, domains, domain_split, roles, rx_queues,
// range_kib, mtu, scatter, segment_kib, window, authenticated, key_from,
// checksum, fault_rx, fault_tx, fault_seed, in that order. A program parameter
// the program does not read (iterations, source, damping, precision) is null.
nlohmann::ordered_json config_json(const Config& c);

}  // namespace wg
