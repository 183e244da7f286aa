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

void print_top(const RunReport& r) {
  if (r.cluster_top.empty()) return;
  std::printf("top %zu vertices by rank:\n", r.cluster_top.size());
  for (size_t i = 0; i < r.cluster_top.size(); ++i)
    std::printf("  %2zu. vertex %10" PRId64 "  rank %.9g\n", i + 1, int64_t{r.cluster_top[i].vertex},
                r.cluster_top[i].value);
}

void prepare_out_dir(const std::string& dir) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw ConfigError("--out " + dir + ": exists and is not a directory");
  std::filesystem::create_directories(dir, ec);
  if (ec) throw ConfigError("--out " + dir + ": cannot create the directory: " + ec.message());
  if (!std::filesystem::is_directory(dir)) throw ConfigError("--out " + dir + ": exists and is not a directory");
  const std::string probe = dir + "/.wiregraph-write-test-" + std::to_string(::getpid());
  std::FILE* f = std::fopen(probe.c_str(), "w");
  if (f == nullptr)
    throw ConfigError("--out " + dir + ": cannot write there: " + std::strerror(errno));
  std::fclose(f);
  std::filesystem::remove(probe, ec);
}

// Every file is written under a temporary name and renamed once complete, so
// a reader never sees half a result and a failed write leaves no result file.
void write_outputs(const Config& cfg, const RunReport& r, const std::function<void(std::FILE*)>& write_lines) {
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
  if (cfg.rank == 0) write_summary_json(temporary(dir + "summary.json"), config_json(cfg), r);
  for (const auto& [from, to] : done) {
    std::error_code ec;
    std::filesystem::rename(from, to, ec);
    if (ec) throw std::runtime_error("cannot rename " + from + " to " + to + ": " + ec.message());
  }
  std::printf("results written to %s\n", path.c_str());
}

}  // namespace wg
