#include "apps/node/outputs.h"

#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "config/config_json.h"

namespace wg {

void print_fault_counts(const RunReport& r) {
  auto line = [](const char* dir, const FaultCounts& f) {
    if (f.seen == 0) return;
    std::printf("        injected on %s: %lu frames seen, dropped %lu, duplicated %lu, reordered %lu, "
                "corrupted %lu, delayed %lu\n",
                dir, static_cast<unsigned long>(f.seen), static_cast<unsigned long>(f.dropped),
                static_cast<unsigned long>(f.duplicated), static_cast<unsigned long>(f.reordered),
                static_cast<unsigned long>(f.corrupted), static_cast<unsigned long>(f.delayed));
  };
  line("receive", r.rx_faults);
  line("transmit", r.tx_faults);
}

RunSummary summary_head(const Config& cfg) {
  RunSummary s;
  const ProgramTraits& p = cfg.program;
  s.program = std::string(p.name);
  if (p.uses_sources && cfg.sources == kAllSources)
    s.program += " from every vertex";
  else if (p.uses_sources && cfg.sources > 0)
    s.program += " from " + std::to_string(cfg.sources) + " sources picked as GAP's";
  else if (cfg.one_source())
    s.program += " from vertex " + std::to_string(cfg.source_id);
  std::vector<std::string> params;
  if (const std::string_view variant = cfg.undirected ? p.on_undirected : p.on_directed; !variant.empty())
    params.emplace_back(variant);
  if (p.uses_iterations)
    params.push_back((p.uses_tolerance && cfg.tolerance > 0 ? "at most " : "") + std::to_string(cfg.iterations) +
                     " iterations");
  if (p.uses_tolerance && cfg.tolerance > 0) {
    char tolerance[48];
    std::snprintf(tolerance, sizeof tolerance, "tolerance %g", cfg.tolerance);
    params.push_back(tolerance);
  }
  if (p.uses_normalize && cfg.normalize != BcScale::kGap)
    params.push_back(cfg.normalize == BcScale::kNetworkx ? "scores as networkx's normalized=True"
                                                         : "scores as networkx's normalized=False");
  if (p.uses_damping) {
    char damping[32];
    std::snprintf(damping, sizeof damping, "damping %g", cfg.damping);
    params.push_back(damping);
  }
  if (p.uses_weighted && cfg.weighted) params.push_back("weighted");
  if (p.uses_precision && cfg.double_precision) params.push_back("double precision");
  for (size_t i = 0; i < params.size(); ++i) s.program += (i ? ", " : " (") + params[i] + (i + 1 == params.size() ? ")" : "");
  s.graph = cfg.graph;
  std::vector<std::string> rules;
  if (cfg.undirected || p.graph.symmetrize) rules.push_back("reverse edges added");
  if (p.graph.drop_self_loops) rules.push_back("self-loops dropped");
  if (p.graph.drop_duplicates) rules.push_back("duplicates dropped");
  for (const std::string& r : rules) s.edge_rules += (s.edge_rules.empty() ? "" : ", ") + r;
  s.reads_weights = cfg.reads_weights();
  s.out_dir = cfg.out_dir;
  return s;
}

SummaryContext summary_context(const Config& cfg, const RunReport& r) {
  SummaryContext c;
  c.vertices = r.load.num_vertices;
  c.edges_read = r.load.input_edges;
  c.edges_used = r.load.num_edges;
  c.undirected = cfg.undirected || cfg.program.graph.symmetrize;
  if (cfg.one_source()) c.source = std::to_string(cfg.source_id);
  c.first_id = cfg.first_id;
  c.top = r.cluster_top;
  return c;
}

// Every file is written under a temporary name and renamed once complete, so
// a reader never sees half a result and a failed write leaves no result file.
void write_outputs(const Config& cfg, const RunReport& r, const nlohmann::ordered_json& summary,
                   const std::function<void(std::FILE*)>& write_lines) {
  const std::string dir = cfg.out_dir + "/";
  const std::string path = dir + "result-" + std::to_string(cfg.rank) + ".txt";
  std::vector<std::pair<std::string, std::string>> done;  // (temporary, final)
  auto temporary = [&](const std::string& final_path) {
    done.emplace_back(final_path + ".part", final_path);
    return done.back().first;
  };
  {
    const std::string tmp = temporary(path);
    std::FILE* f = std::fopen(tmp.c_str(), "w");
    if (f == nullptr) throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
    std::unique_ptr<char[]> buffer(new char[1 << 20]);
    std::setvbuf(f, buffer.get(), _IOFBF, 1 << 20);
    write_lines(f);
    const bool bad = std::ferror(f) != 0;
    if (std::fclose(f) != 0 || bad) throw std::runtime_error("error writing " + tmp);
  }
  write_node_json(temporary(dir + "node" + std::to_string(cfg.rank) + ".json"), config_json(cfg), r);
  if (cfg.rank == 0) write_summary_json(temporary(dir + "summary.json"), config_json(cfg), r, summary);
  for (const auto& [from, to] : done) {
    std::error_code ec;
    std::filesystem::rename(from, to, ec);
    if (ec) throw std::runtime_error("cannot rename " + from + " to " + to + ": " + ec.message());
  }
  if (cfg.engine.verbose) std::printf("results written to %s\n", path.c_str());
}

}  // namespace wg
