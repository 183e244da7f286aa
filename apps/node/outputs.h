// What a node reports after its run: the totals and the top vertices on
// stdout, and with --out the result file and the JSON reports.
#pragma once

#include <cstdio>
#include <functional>
#include <string>

#include "config/options.h"
#include "compute/report/run_report.h"

namespace wg {

void print_fault_counts(const RunReport& r);
void print_top(const RunReport& r);

// Creates --out DIR if needed and checks that this process can write there,
// before anything is loaded or computed. Throws ConfigError naming DIR and why.
void prepare_out_dir(const std::string& dir);

// Writes DIR/result-R.txt (one `<vertex> <value>` line per vertex this node
// owns, from write_lines), DIR/nodeR.json and, on rank 0, DIR/summary.json.
void write_outputs(const Config& cfg, const RunReport& r, const std::function<void(std::FILE*)>& write_lines);

}  // namespace wg
