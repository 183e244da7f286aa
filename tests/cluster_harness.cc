#include "tests/cluster_harness.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "tests/reference.h"

namespace wg::test {
namespace fs = std::filesystem;

namespace {

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

bool is_executable_file(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// PATH plus the sbin directories, which a root shell has but a test
// runner's environment may not.
bool command_exists(const std::string& name) {
  std::string dirs = env_or_empty("PATH") + ":/usr/sbin:/sbin:/usr/bin:/bin";
  std::istringstream in(dirs);
  for (std::string dir; std::getline(in, dir, ':');)
    if (!dir.empty() && is_executable_file(dir + "/" + name)) return true;
  return false;
}

std::string read_file(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-+=/.,:@%") == std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// True when the token is a whole unsigned decimal integer.
bool parse_u64(std::string_view token, uint64_t* value) {
  if (token.empty() || token.front() == '+' || token.front() == '-') return false;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), *value);
  return ec == std::errc() && end == token.data() + token.size();
}

// Collects the first few problems of a kind and counts the rest, so a test
// with 10^4 bad vertices prints a readable message.
class Problems {
 public:
  explicit Problems(size_t shown = 20) : shown_(shown) {}

  void add(const std::string& what) {
    if (count_++ < shown_) text_ += "  " + what + "\n";
  }
  bool empty() const { return count_ == 0; }

  ::testing::AssertionResult result(const std::string& headline) const {
    if (empty()) return ::testing::AssertionSuccess();
    auto r = ::testing::AssertionFailure() << headline << ": " << count_ << " problem(s)\n" << text_;
    if (count_ > shown_) r << "  ... and " << (count_ - shown_) << " more\n";
    return r;
  }

 private:
  size_t shown_;
  size_t count_ = 0;
  std::string text_;
};

}  // namespace

// ------------------------------------------------------------ environment

std::string source_dir() { return env_or_empty("WG_SOURCE_DIR"); }
std::string build_dir() { return env_or_empty("WG_BUILD_DIR"); }
std::string datasets_dir() { return env_or_empty("WG_DATASETS"); }
std::string launcher_path() { return source_dir() + "/scripts/wiregraph-cluster"; }
std::string binary_path() { return build_dir() + "/apps/wiregraph"; }

std::string tap_unavailable_reason() {
  if (::geteuid() != 0) return "tap links need root (tap devices and a Linux bridge)";
  if (!command_exists("ip")) return "tap links need the `ip` command (iproute2)";
  if (::access("/dev/net/tun", R_OK | W_OK) != 0) return "tap links need /dev/net/tun";
  return "";
}

// ----------------------------------------------------------------- launch

std::string write_rank_wrapper(const TempDir& dir, int rank, const std::string& rank_command) {
  const std::string path = dir.file("node-wrapper.sh");
  std::ofstream out(path);
  out << "#!/bin/sh\n"
      << "# Node " << rank << " runs its own command; the others run the node binary.\n"
      << "rank=\nprev=\n"
      << "for a in \"$@\"; do [ \"$prev\" = --rank ] && rank=$a; prev=$a; done\n"
      << "if [ \"$rank\" = " << rank << " ]; then " << rank_command << "; exit $?; fi\n"
      << "exec '" << binary_path() << "' \"$@\"\n";
  out.close();
  if (!out || ::chmod(path.c_str(), 0755) != 0) throw std::runtime_error("cannot write " + path);
  return path;
}

std::string write_key_file(const TempDir& dir) {
  const std::string path = dir.file("job.key");
  std::random_device rd;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string key;
  for (int i = 0; i < 64; ++i) key += kHex[rd() % 16];
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("cannot write " + path);
  key += '\n';
  const bool ok = ::write(fd, key.data(), key.size()) == static_cast<ssize_t>(key.size());
  ::close(fd);
  if (!ok) throw std::runtime_error("cannot write " + path);
  return path;
}

namespace {

std::vector<std::string> launcher_argv(const LaunchOptions& opts) {
  std::vector<std::string> argv = {"python3",   launcher_path(),
                                   "--nodes",   std::to_string(opts.nodes),
                                   "--link",    opts.link,
                                   "--timeout", std::to_string(opts.timeout_sec),
                                   "--binary",  binary_path()};
  argv.insert(argv.end(), opts.launcher_flags.begin(), opts.launcher_flags.end());
  argv.push_back("--");
  argv.insert(argv.end(), opts.app_args.begin(), opts.app_args.end());
  return argv;
}

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void exec_child(char* const* argv, int log_fd, int null_fd) {
  ::setpgid(0, 0);
  ::dup2(null_fd, STDIN_FILENO);
  ::dup2(log_fd, STDOUT_FILENO);
  ::dup2(log_fd, STDERR_FILENO);
  ::execvp(argv[0], argv);
  static const char msg[] = "cluster_harness: exec failed\n";
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
  ::_exit(127);
}

// Waits for the launcher without reaping it (WNOWAIT): while it is a zombie
// its pid, which is also its process group id, cannot be reused, so
// signalling the group afterwards reaches only processes this test started.
bool wait_exited(pid_t pid, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pid)
      return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

LaunchResult run_launcher(const LaunchOptions& opts, const std::string& log_path) {
  LaunchResult result;
  const std::vector<std::string> args = launcher_argv(opts);
  // Appended piecewise: `"" + shell_quote(a)` trips GCC 12's false -Wrestrict.
  for (const std::string& a : args) {
    if (!result.command.empty()) result.command += ' ';
    result.command += shell_quote(a);
  }

  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  const int log_fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (log_fd < 0 || null_fd < 0) {
    result.output = "cannot open " + log_path + " or /dev/null";
    if (log_fd >= 0) ::close(log_fd);
    if (null_fd >= 0) ::close(null_fd);
    return result;
  }
  const pid_t pid = ::fork();
  if (pid == 0) exec_child(argv.data(), log_fd, null_fd);
  ::close(log_fd);
  ::close(null_fd);
  if (pid < 0) {
    result.output = "fork failed";
    return result;
  }
  ::setpgid(pid, pid);  // also here: whichever of parent and child runs first

  // The launcher enforces --timeout itself; the grace period only catches a
  // launcher that does not.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(opts.timeout_sec + 30);
  if (!wait_exited(pid, deadline)) {
    result.timed_out = true;
    ::kill(-pid, SIGTERM);
    if (!wait_exited(pid, std::chrono::steady_clock::now() + std::chrono::seconds(5)))
      ::kill(-pid, SIGKILL);
  }
  ::kill(-pid, SIGKILL);  // node processes the launcher left behind, if any
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);

  bool ok = false;
  result.output = read_file(log_path, &ok);
  return result;
}

ChildProcess::ChildProcess(const std::vector<std::string>& args, const std::string& log_path) : log_(log_path) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int log_fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (log_fd >= 0 && null_fd >= 0) {
    pid_ = ::fork();
    if (pid_ == 0) exec_child(argv.data(), log_fd, null_fd);
    if (pid_ > 0) ::setpgid(pid_, pid_);
  }
  if (log_fd >= 0) ::close(log_fd);
  if (null_fd >= 0) ::close(null_fd);
}

ChildProcess::~ChildProcess() {
  if (pid_ <= 0 || reaped_) return;
  ::kill(-pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
}

std::string ChildProcess::output() const {
  bool ok = false;
  return read_file(log_, &ok);
}

void ChildProcess::signal(int sig) const {
  if (pid_ > 0 && !reaped_) ::kill(pid_, sig);
}

bool ChildProcess::wait(double seconds, int* status) {
  if (pid_ <= 0) return false;
  const bool ended = eventually(
      [this, status] {
        if (reaped_) return true;
        reaped_ = ::waitpid(pid_, status, WNOHANG) == pid_;
        return reaped_;
      },
      seconds);
  return ended;
}

bool eventually(const std::function<bool()>& done, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string describe(const LaunchResult& r) {
  constexpr size_t kTail = 20000;  // node logs can be long; the end says why it failed
  std::ostringstream s;
  s << "command: " << r.command << "\nexit code: " << r.exit_code
    << (r.timed_out ? " (killed by the test harness: no exit in time)" : "") << "\n--- output";
  if (r.output.size() > kTail)
    s << " (last " << kTail << " of " << r.output.size() << " bytes) ---\n"
      << r.output.substr(r.output.size() - kTail);
  else
    s << " ---\n" << r.output;
  s << "--- end of output ---";
  return s.str();
}

LaunchResult run_refused(const TempDir& dir, int nodes, std::vector<std::string> app_args) {
  std::string skip;
  EXPECT_TRUE(prerequisites("memif", nodes, &skip));
  LaunchOptions opts;
  opts.nodes = nodes;
  opts.timeout_sec = 60;
  opts.app_args = std::move(app_args);
  const LaunchResult r = run_launcher(opts, dir.file("cluster.log"));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  return r;
}

// ---------------------------------------------------------------- results

namespace {

std::vector<std::string> result_files(const std::string& dir, std::string* error) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with("result") && name.ends_with(".txt")) files.push_back(it->path().string());
  }
  if (ec) *error = "cannot list " + dir + ": " + ec.message();
  std::sort(files.begin(), files.end());
  return files;
}

void read_result_file(const std::string& path, VertexId n, VertexId first, std::vector<std::string>* values,
                      std::vector<std::string>* source, Problems* problems) {
  std::ifstream in(path);
  if (!in) {
    problems->add("cannot read " + path);
    return;
  }
  const std::string name = fs::path(path).filename().string();
  size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    const std::string where = name + ":" + std::to_string(line_no) + ": ";
    std::istringstream fields(line);
    std::string id_text, value, extra;
    if (!(fields >> id_text)) continue;  // blank line
    uint64_t id = 0;
    if (!(fields >> value) || (fields >> extra) || !parse_u64(id_text, &id)) {
      problems->add(where + "expected \"<vertex id> <value>\", got \"" + line + "\"");
      continue;
    }
    if (id < first || id - first >= n) {
      problems->add(where + "vertex " + id_text + " is not in " + std::to_string(first) + ".." +
                    std::to_string(uint64_t{first} + n - 1));
      continue;
    }
    id -= first;
    if (!(*source)[id].empty()) {
      problems->add(where + "vertex " + id_text + " already given at " + (*source)[id]);
      continue;
    }
    (*source)[id] = where.substr(0, where.size() - 2);
    (*values)[id] = value;
  }
}

// Whether a run's --out holds per-edge results (summary.json's results.rows).
bool per_edge_results(const std::string& dir) {
  nlohmann::json summary;
  std::string error;
  if (!read_json_file(dir + "/summary.json", &summary, &error)) return false;
  return summary.contains("results") && summary["results"].value("rows", "vertex") == "edge";
}

// Per-edge lines `src dst value`, grouped by src: values[src] lists
// "dst:value" of its edges (dense ids), in the files' order (sorted).
void read_edge_result_file(const std::string& path, VertexId n, VertexId first, std::vector<std::string>* values,
                           Problems* problems) {
  std::ifstream in(path);
  if (!in) return problems->add("cannot read " + path);
  const std::string name = fs::path(path).filename().string();
  size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    std::istringstream fields(line);
    std::string src_text, dst_text, value, extra;
    if (!(fields >> src_text)) continue;
    uint64_t src = 0, dst = 0;
    if (!(fields >> dst_text >> value) || (fields >> extra) || !parse_u64(src_text, &src) ||
        !parse_u64(dst_text, &dst) || src < first || dst < first || src >= dst || dst - first >= n) {
      problems->add(name + ":" + std::to_string(line_no) + ": expected \"<src> <dst> <value>\", src < dst, got \"" +
                    line + "\"");
      continue;
    }
    std::string& row = (*values)[src - first];
    if (!row.empty()) row += ' ';
    row.append(std::to_string(dst - first)).append(1, ':').append(value);
  }
}

}  // namespace

::testing::AssertionResult read_results(const std::string& dir, VertexId n, std::vector<std::string>* values,
                                        VertexId first_id) {
  std::string error;
  const std::vector<std::string> files = result_files(dir, &error);
  if (!error.empty()) return ::testing::AssertionFailure() << error;
  if (files.empty()) return ::testing::AssertionFailure() << "no result*.txt file in " << dir;
  if (per_edge_results(dir)) {  // check_expected compares the edges with the oracle's
    values->assign(n, std::string());
    Problems problems;
    for (const std::string& f : files) read_edge_result_file(f, n, first_id, values, &problems);
    return problems.result("per-edge result files in " + dir);
  }

  values->assign(n, std::string());
  std::vector<std::string> source(n);  // "file:line" that gave each vertex
  Problems problems;
  for (const std::string& f : files) read_result_file(f, n, first_id, values, &source, &problems);
  for (VertexId v = 0; v < n; ++v)
    if (source[v].empty()) problems.add("vertex " + std::to_string(uint64_t{v} + first_id) + " has no result line");
  return problems.result("result files in " + dir + " are not one line per vertex " + std::to_string(first_id) +
                         ".." + std::to_string(uint64_t{first_id} + n) + "-1");
}

void labels_from(VertexId first_id, std::vector<std::string>* values) {
  for (std::string& v : *values) {
    uint64_t label = 0;
    if (first_id != 0 && parse_u64(v, &label) && label >= first_id) v = std::to_string(label - first_id);
  }
}

::testing::AssertionResult check_pagerank(const std::vector<std::string>& got,
                                          const std::vector<double>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << got.size() << " values for " << want.size() << " vertices";
  Problems problems;
  double worst = 0.0;
  for (size_t v = 0; v < want.size(); ++v) {
    char* end = nullptr;
    const double x = std::strtod(got[v].c_str(), &end);
    if (got[v].empty() || end != got[v].c_str() + got[v].size() || !std::isfinite(x)) {
      problems.add("vertex " + std::to_string(v) + ": \"" + got[v] + "\" is not a finite number");
      continue;
    }
    const double err = std::fabs(x - want[v]);
    worst = std::max(worst, err / std::max(std::fabs(want[v]), 1e-300));
    if (err > 1e-4 * std::fabs(want[v]) + 1e-9) {
      std::ostringstream s;
      s.precision(10);
      s << "vertex " << v << ": got " << got[v] << ", want " << want[v] << " (relative error "
        << err / std::fabs(want[v]) << ")";
      problems.add(s.str());
    }
  }
  std::ostringstream headline;
  headline << "pagerank differs from the oracle (worst relative error " << worst << ")";
  return problems.result(headline.str());
}

::testing::AssertionResult check_distances(const std::vector<std::string>& got,
                                           const std::vector<uint64_t>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << got.size() << " values for " << want.size() << " vertices";
  Problems problems;
  for (size_t v = 0; v < want.size(); ++v) {
    const std::string want_text = want[v] == ref::kInfinity ? "inf" : std::to_string(want[v]);
    uint64_t x = 0;
    if (got[v] != "inf" && !parse_u64(got[v], &x))
      problems.add("vertex " + std::to_string(v) + ": \"" + got[v] +
                   "\" is neither a non-negative integer nor inf");
    else if (got[v] != want_text)
      problems.add("vertex " + std::to_string(v) + ": got " + got[v] + ", want " + want_text);
  }
  return problems.result("distances differ from the oracle");
}

::testing::AssertionResult check_labels(const std::vector<std::string>& got,
                                        const std::vector<VertexId>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << got.size() << " values for " << want.size() << " vertices";
  Problems problems;
  for (size_t v = 0; v < want.size(); ++v) {
    uint64_t x = 0;
    if (!parse_u64(got[v], &x))
      problems.add("vertex " + std::to_string(v) + ": \"" + got[v] + "\" is not an integer label");
    else if (x != want[v])
      problems.add("vertex " + std::to_string(v) + ": got label " + got[v] + ", want " +
                   std::to_string(want[v]) + " (smallest id of its component)");
  }
  return problems.result("component labels differ from the oracle");
}

// Per-edge results as read_results groups them (values[src]: "dst:value ...")
// against the oracle's edges: the same edges, each value within 1e-7
// relative (printed with 9 digits).
::testing::AssertionResult check_edges(const std::vector<std::string>& got, const std::vector<EdgeResult<double>>& want) {
  Problems problems;
  size_t at = 0;
  for (size_t v = 0; v < got.size(); ++v) {
    // A vertex's edges come from several nodes' files: by dst first.
    std::vector<std::pair<uint64_t, std::string>> row;
    std::istringstream items(got[v]);
    for (std::string item; items >> item;) {
      const size_t colon = item.find(':');
      uint64_t dst = 0;
      if (colon == std::string::npos || !parse_u64(item.substr(0, colon), &dst)) {
        problems.add("edge " + std::to_string(v) + " " + item + ": not dst:value");
        continue;
      }
      row.emplace_back(dst, item);
    }
    std::sort(row.begin(), row.end());
    for (const auto& [dst, item] : row) {
      const size_t colon = item.find(':');
      const std::string where = "edge " + std::to_string(v) + " " + item.substr(0, colon);
      while (at < want.size() && (want[at].src < static_cast<int64_t>(v) ||
                                  (want[at].src == static_cast<int64_t>(v) && want[at].dst < static_cast<int64_t>(dst))))
        problems.add("edge " + std::to_string(want[at].src) + " " + std::to_string(want[at].dst) + " has no result"), ++at;
      if (at == want.size() || want[at].src != static_cast<int64_t>(v) || want[at].dst != static_cast<int64_t>(dst)) {
        problems.add(where + " is not an edge of the oracle's graph");
        continue;
      }
      const double x = std::strtod(item.c_str() + colon + 1, nullptr);
      if (std::fabs(x - want[at].value) > 1e-7 * std::fabs(want[at].value) + 1e-12)
        problems.add(where + ": got " + item.substr(colon + 1) + ", want " + std::to_string(want[at].value));
      ++at;
    }
  }
  for (; at < want.size(); ++at)
    problems.add("edge " + std::to_string(want[at].src) + " " + std::to_string(want[at].dst) + " has no result");
  return problems.result("per-edge values differ from the oracle");
}

::testing::AssertionResult check_expected(const std::vector<std::string>& got, const ref::Expected& want) {
  switch (want.kind) {
    case ref::Expected::Kind::kReal: return check_pagerank(got, want.reals);
    case ref::Expected::Kind::kDistance: return check_distances(got, want.integers);
    case ref::Expected::Kind::kEdges: return check_edges(got, want.edges);
    case ref::Expected::Kind::kExact: break;
  }
  if (got.size() != want.integers.size())
    return ::testing::AssertionFailure() << got.size() << " values for " << want.integers.size() << " vertices";
  Problems problems;
  for (size_t v = 0; v < want.integers.size(); ++v) {
    uint64_t x = 0;
    if (!parse_u64(got[v], &x))
      problems.add("vertex " + std::to_string(v) + ": \"" + got[v] + "\" is not an integer");
    else if (x != want.integers[v])
      problems.add("vertex " + std::to_string(v) + ": got " + got[v] + ", want " + std::to_string(want.integers[v]));
  }
  return problems.result("values differ from the oracle");
}

// ------------------------------------------------------- node statistics

bool parse_json(const std::string& text, nlohmann::json* out, std::string* error) {
  try {
    *out = nlohmann::json::parse(text);
    return true;
  } catch (const nlohmann::json::exception& e) {
    *error = e.what();
    return false;
  }
}

bool read_json_file(const std::string& path, nlohmann::json* out, std::string* error) {
  bool readable = false;
  const std::string text = read_file(path, &readable);
  if (!readable) {
    *error = "cannot read " + path;
    return false;
  }
  if (parse_json(text, out, error)) return true;
  *error = path + ": " + *error;
  return false;
}

uint64_t json_counter(const nlohmann::json& root, std::initializer_list<std::string_view> path,
                      std::string* error) {
  const nlohmann::json* at = &root;
  std::string where;
  for (std::string_view key : path) {
    if (!where.empty()) where += '.';
    where += key;
    const auto it = at->is_object() ? at->find(key) : at->end();
    if (!at->is_object() || it == at->end()) {
      if (error->empty()) *error = "no member " + where;
      return 0;
    }
    at = &*it;
  }
  // Unsigned: nlohmann-json reads a non-negative integer as unsigned, a
  // negative one as signed, 1.5 and 1e3 as floats.
  if (!at->is_number_unsigned()) {
    if (error->empty()) *error = where + " is " + at->dump() + ", not a non-negative integer";
    return 0;
  }
  return at->get<uint64_t>();
}

::testing::AssertionResult launcher_found_balance(const LaunchResult& r) {
  static const char kVerdict[] = "cluster check: every message sent was accumulated\n";
  if (r.output.find(kVerdict) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the launcher did not print \"" << std::string_view(kVerdict, sizeof kVerdict - 2)
                                       << "\" (python/wiregraph/wglib.py's check of sent == accumulated)\n"
                                       << describe(r);
}

::testing::AssertionResult check_message_balance(const std::string& dir, int nodes) {
  const std::string command = "python3 " + shell_quote(source_dir() + "/python/wiregraph/wglib.py") + " check-balance " +
                              shell_quote(dir) + " " + std::to_string(nodes) + " 2>&1";
  std::FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return ::testing::AssertionFailure() << "cannot run " << command;
  std::string output;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) output.append(buf, n);
  const int status = ::pclose(p);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "message counts in " << dir << "/node*.json do not balance ("
                                       << command << ", status " << status << "):\n"
                                       << output;
}

::testing::AssertionResult prerequisites(const std::string& link, int nodes, std::string* skip) {
  if (source_dir().empty() || build_dir().empty())
    return ::testing::AssertionFailure() << "WG_SOURCE_DIR and WG_BUILD_DIR are not set: run through `meson test`";
  for (const std::string& path : {launcher_path(), binary_path()})
    if (!std::filesystem::exists(path)) return ::testing::AssertionFailure() << "missing " << path;
  if (link != "memif" && nodes > 1) *skip = tap_unavailable_reason();  // tap, af_xdp: root and `ip`
  return ::testing::AssertionSuccess();
}

std::vector<std::string> lines_starting(const std::string& output, const std::string& prefix) {
  std::vector<std::string> found;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(prefix)) found.push_back(line);
  return found;
}

std::optional<std::string> node_status(const std::string& output, int rank) {
  const std::string prefix = "[cluster] node " + std::to_string(rank) + ": ";
  for (const std::string& line : lines_starting(output, prefix)) {
    const std::string rest = line.substr(prefix.size());
    if (rest.starts_with("exit code") || rest.starts_with("killed by")) return rest;
  }
  return std::nullopt;
}

double node_seconds(const std::string& status) {
  const size_t comma = status.rfind(", ");
  return comma == std::string::npos ? -1 : std::strtod(status.c_str() + comma + 2, nullptr);
}

}  // namespace wg::test
