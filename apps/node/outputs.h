// What a node reports after its run: the fault counts
// on stdout, the summary's own words (rank 0), and with --out the result file
// and the JSON reports.
#pragma once

#include <cstdio>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "compute/report/run_report.h"
#include "compute/report/run_summary.h"
#include "config/options.h"

namespace wg {

void print_fault_counts(const RunReport& r);

// The summary's first words (compute/report/run_summary.h): the program with
// the parameters it reads, the graph, how its edges were changed, --out.
RunSummary summary_head(const Config& cfg);
// What a program's describe() reads (compute/engine/summary_stats.h).
SummaryContext summary_context(const Config& cfg, const RunReport& r);

// Writes DIR/result-R.txt (one `<vertex> <value>` line per vertex this node
// owns, from write_lines), DIR/nodeR.json and, on rank 0, DIR/summary.json
// (with `summary`, the end-of-run summary's figures). DIR was claimed for
// this run (apps/node/out_dir.h).
void write_outputs(const Config& cfg, const RunReport& r, const nlohmann::ordered_json& summary,
                   const std::function<void(std::FILE*)>& write_lines);

}  // namespace wg
