// Application options (config/options.h, config/option_table.h):
// parse_app_args, its environment fallbacks, program parameters against the
// programs' traits, the digests every node of a job must agree on, --help
// and docs/OPTIONS.md, and options misplaced before `--`.
#include "config/options.h"

#include "apps/registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>

#include <fstream>

#include "compute/graph/graph_reader.h"
#include "config/config_json.h"
#include "config/key_file.h"
#include "config/option_table.h"
#include "config/usage.h"
#include "tests/temp_dir.h"

namespace wg {
namespace {

// getopt keeps pointers into argv between calls (and permutes the pointer
// array), so the strings live for the whole process.
std::deque<std::string>& arena() {
  static std::deque<std::string> a;
  return a;
}

Config parse(const std::vector<const char*>& args) {
  std::vector<char*> argv;
  arena().emplace_back("wiregraph");
  argv.push_back(arena().back().data());
  for (const char* a : args) {
    arena().emplace_back(a);
    argv.push_back(arena().back().data());
  }
  argv.push_back(nullptr);
  return parse_app_args(static_cast<int>(argv.size() - 1), argv.data(), program_traits());
}
Config parse(std::initializer_list<const char*> args) { return parse(std::vector<const char*>(args)); }

// The ConfigError message, or "" if the arguments parse.
std::string error_of(std::initializer_list<const char*> args) {
  try {
    parse(args);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

#define EXPECT_ERROR_MENTIONS(args, ...)                                        \
  do {                                                                          \
    const std::string msg_ = error_of args;                                     \
    EXPECT_FALSE(msg_.empty()) << "no error for " #args;                        \
    for (const char* want_ : {__VA_ARGS__})                                     \
      EXPECT_NE(msg_.find(want_), std::string::npos)                            \
          << "error for " #args " does not mention \"" << want_ << "\": " << msg_; \
  } while (0)

constexpr const char* kLauncherVars[] = {"SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                         "SLURM_NTASKS", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "WIREGRAPH_KEY"};
// A job key in the environment, as srun passes one along: multi-node
// configurations need one (tests of the key itself unset or replace it).
constexpr const char* kKeyHex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

// Clears the launcher variables for the test (a test run under srun or mpirun
// would otherwise see its own rank), sets WIREGRAPH_KEY, and restores them
// afterwards.
class Options : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : kLauncherVars) {
      const char* old = std::getenv(v);
      saved_.push_back(old ? std::optional<std::string>(old) : std::nullopt);
      unsetenv(v);
    }
    setenv("WIREGRAPH_KEY", kKeyHex, 1);
  }
  void TearDown() override {
    size_t i = 0;
    for (const char* v : kLauncherVars) {
      if (saved_[i])
        setenv(v, saved_[i]->c_str(), 1);
      else
        unsetenv(v);
      ++i;
    }
  }

 private:
  std::vector<std::optional<std::string>> saved_;
};

TEST_F(Options, Defaults) {
  const Config c = parse({"--app", "pagerank", "--graph", "g.txt"});
  EXPECT_EQ(c.app, "pagerank");
  EXPECT_EQ(c.graph, "g.txt");
  EXPECT_EQ(c.format, GraphFormat::kAuto);
  EXPECT_FALSE(c.undirected);
  EXPECT_EQ(c.nodes, 1u);
  EXPECT_EQ(c.rank, 0u);
  EXPECT_EQ(c.source, 0u);
  EXPECT_EQ(c.iterations, 20u);
  EXPECT_EQ(c.out_dir, "");
  EXPECT_NE(c.job_token, 0u) << "a derived token is never 0 (0 is not a valid --job-id)";
  EXPECT_EQ(c.udp_port, 47000);
  EXPECT_EQ(c.engine.peer_timeout_s, 30.0);
  EXPECT_EQ(c.engine.hello_timeout_s, 60.0);
  EXPECT_EQ(c.engine.progress_timeout_s, 120.0);
  EXPECT_EQ(c.mbufs, 16383u);
  EXPECT_EQ(c.engine.top, 10u);
  EXPECT_FALSE(c.engine.verbose);
  EXPECT_FALSE(c.out_keep_others);
}

TEST_F(Options, EveryOption) {
  const Config c = parse({"--app", "sssp", "--graph", "kron:4:2", "--format", "edgelist", "--undirected",
                          "--nodes", "4", "--rank", "3", "--source", "17", "--out",
                          "/tmp/wg out", "--job-id", "99", "--udp-port", "5000", "--peer-timeout", "2.5",
                          "--hello-timeout", "0.5", "--mbufs", "4095", "--top", "3", "--verbose",
                          "--progress-timeout", "7.5", "--out-keep-others"});
  EXPECT_EQ(c.app, "sssp");
  EXPECT_EQ(c.graph, "kron:4:2");
  EXPECT_EQ(c.format, GraphFormat::kEdgeList);
  EXPECT_TRUE(c.undirected);
  EXPECT_EQ(c.nodes, 4u);
  EXPECT_EQ(c.rank, 3u);
  EXPECT_EQ(c.source, 17u);
  EXPECT_EQ(c.out_dir, "/tmp/wg out");
  EXPECT_EQ(c.job_token, 99u);
  EXPECT_EQ(c.udp_port, 5000);
  EXPECT_EQ(c.engine.peer_timeout_s, 2.5);
  EXPECT_EQ(c.engine.hello_timeout_s, 0.5);
  EXPECT_EQ(c.engine.progress_timeout_s, 7.5);
  EXPECT_EQ(c.mbufs, 4095u);
  EXPECT_EQ(c.engine.top, 3u);
  EXPECT_TRUE(c.engine.verbose);
  EXPECT_TRUE(c.out_keep_others);
}

// --quiet is what a run does anyway now: kept for old scripts, it turns a
// --verbose before it off (the last one wins).
TEST_F(Options, QuietIsTheDefaultAndTheLastOfQuietAndVerboseWins) {
  EXPECT_FALSE(parse({"--app", "bfs", "--graph", "a", "--quiet"}).engine.verbose);
  EXPECT_TRUE(parse({"--app", "bfs", "--graph", "a", "--quiet", "--verbose"}).engine.verbose);
  EXPECT_FALSE(parse({"--app", "bfs", "--graph", "a", "--verbose", "--quiet"}).engine.verbose);
}

TEST_F(Options, EqualsFormAndEveryAppAndFormat) {
  EXPECT_EQ(parse({"--app=bfs", "--graph=a"}).app, "bfs");
  EXPECT_EQ(parse({"--app=cc", "--graph=a"}).app, "cc");
  EXPECT_EQ(parse({"--app=sssp", "--graph=a"}).app, "sssp");
  EXPECT_EQ(parse({"--graph=a", "--app=pagerank"}).app, "pagerank");
  EXPECT_EQ(parse({"--app=bfs", "--graph=a", "--nodes=64", "--rank=63"}).rank, 63u);
  const std::pair<const char*, GraphFormat> formats[] = {
      {"auto", GraphFormat::kAuto},  {"edgelist", GraphFormat::kEdgeList},     {"mtx", GraphFormat::kMatrixMarket},
      {"bin", GraphFormat::kBinary}, {"wbin", GraphFormat::kBinaryWeighted}, {"dimacs", GraphFormat::kDimacs}};
  for (const auto& [name, f] : formats) {
    arena().emplace_back(name);
    EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--format", arena().back().c_str()}).format, f) << name;
  }
  // Boundaries that are allowed.
  EXPECT_EQ(parse({"--app", "pagerank", "--graph", "a", "--iterations", "0"}).iterations, 0u);
  EXPECT_EQ(parse({"--app", "pagerank", "--graph", "a", "--iterations", "1000000"}).iterations, 1000000u);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--source", "4294967294"}).source, 4294967294u);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--udp-port", "65535"}).udp_port, 65535);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--top", "0"}).engine.top, 0u);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--mbufs", "1023"}).mbufs, 1023u);
  // -h / --help are accepted (handled before the EAL by wants_help).
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--help"}).app, "bfs");
}

TEST_F(Options, HexJobId) {
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--job-id", "0x1F"}).job_token, 31u);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--job-id", "0XfF"}).job_token, 255u);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--job-id", "0xffffffff"}).job_token, 0xffffffffu);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--job-id", "010"}).job_token, 10u) << "decimal, not octal";
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--job-id", "0x"}), "--job-id", "'0x'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--job-id", "0xg1"}), "--job-id", "0xg1");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--job-id", "0x100000000"}), "--job-id", "0x100000000");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--job-id", "0"}), "--job-id", "0");
}

TEST_F(Options, ErrorsNameTheOptionAndTheValue) {
  EXPECT_ERROR_MENTIONS(({"--app", "pr", "--graph", "a"}), "--app", "'pr'");
  EXPECT_ERROR_MENTIONS(({"--app", "PageRank", "--graph", "a"}), "--app", "PageRank");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "0"}), "--nodes", "0", "[1, 64]");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "65"}), "--nodes", "65");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "2", "--rank", "2"}), "--rank 2", "--nodes 2");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--rank", "1"}), "--rank 1", "--nodes 1");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--rank", "64", "--nodes", "64"}), "--rank", "64");
  // Non-numeric, trailing junk, empty, negative, overflowing.
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--source", "abc"}), "--source", "'abc'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--iterations", "12x"}), "--iterations", "'12x'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", ""}), "--nodes", "''");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", " 2"}), "--nodes", "' 2'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--rank", "-1"}), "--rank", "'-1'");
  // Dense ids (an edge list's may also be sparse, signed: --ids auto decides once the file is read).
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--ids", "dense", "--source", "-5"}), "--source", "'-5'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--ids", "dense", "--source", "4294967295"}), "--source",
                        "4294967295");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "kron:4:2", "--source", "-5"}), "--source", "'-5'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--iterations", "99999999999999999999999"}),
                        "--iterations", "99999999999999999999999");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--udp-port", "0"}), "--udp-port", "0");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--udp-port", "65536"}), "--udp-port", "65536");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--mbufs", "1022"}), "--mbufs", "1022");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--top", "11"}), "--top", "11");
  // Required options.
  EXPECT_ERROR_MENTIONS(({"--graph", "a"}), "--app");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs"}), "--graph");
  EXPECT_ERROR_MENTIONS(({}), "--app");
  // A value-taking option at the end with no value.
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes"}), "--nodes", "needs a value");
  EXPECT_ERROR_MENTIONS(({"--graph", "a", "--app"}), "--app", "needs a value");
  // Unknown options, long and short, and a value given to a flag.
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--bogus"}), "unknown option", "'--bogus'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "-x"}), "unknown option", "'-x'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--quiet=yes"}), "--quiet");
  // A stray positional argument, anywhere.
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "extra"}), "unexpected argument", "'extra'");
  EXPECT_ERROR_MENTIONS(({"stray", "--app", "bfs", "--graph", "a"}), "unexpected argument", "'stray'");
  // --format
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--format", "xyz"}), "--format", "'xyz'");
  // Timeouts: positive finite numbers of seconds only.
  for (const char* bad : {"0", "-1", "abc", "inf", "nan", "1s", "", "-0"}) {
    arena().emplace_back(bad);
    const char* v = arena().back().c_str();
    std::string quoted = "'";
    quoted += bad;
    quoted += '\'';
    EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--peer-timeout", v}), "--peer-timeout",
                          quoted.c_str());
    EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--hello-timeout", v}), "--hello-timeout");
  }
}

// A misspelt option names the one meant; a word that is no typo of any names none.
TEST_F(Options, AnUnknownOptionThatIsATypoSaysWhichOptionItMeant) {
  EXPECT_EQ(error_of({"--app", "bfs", "--graph", "a", "--sorce", "3"}),
            "unknown option '--sorce' (did you mean --source? see --help)");
  EXPECT_EQ(error_of({"--app", "bfs", "--graph", "a", "--nodez", "2"}),
            "unknown option '--nodez' (did you mean --nodes? see --help)");
  EXPECT_EQ(error_of({"--app", "pagerank", "--graph", "a", "--itreations=5"}),
            "unknown option '--itreations=5' (did you mean --iterations? see --help)");
  EXPECT_EQ(error_of({"--app", "bfs", "--graph", "a", "--bogus"}), "unknown option '--bogus' (see --help)");
  EXPECT_EQ(error_of({"--app", "bfs", "--graph", "a", "-x"}), "unknown option '-x' (see --help)");
}

TEST_F(Options, FormatErrorNamesTheOptionOnce) {
  const std::string msg = error_of({"--app", "bfs", "--graph", "a", "--format", "xyz"});
  const size_t first = msg.find("--format");
  ASSERT_NE(first, std::string::npos) << msg;
  EXPECT_EQ(msg.find("--format", first + 1), std::string::npos) << "repeated: " << msg;
}

TEST_F(Options, ArgumentsAreParsedAfreshEachTime) {
  // getopt is global state: a second parse must not inherit the first's.
  const Config a = parse({"--app", "sssp", "--graph", "a", "--nodes", "3", "--rank", "2", "--verbose"});
  EXPECT_EQ(a.rank, 2u);
  const Config b = parse({"--app", "bfs", "--graph", "b"});
  EXPECT_EQ(b.app, "bfs");
  EXPECT_EQ(b.graph, "b");
  EXPECT_EQ(b.nodes, 1u);
  EXPECT_EQ(b.rank, 0u);
  EXPECT_FALSE(b.engine.verbose);
  // After an error, too.
  EXPECT_FALSE(error_of({"--app", "bfs", "--graph", "a", "--bogus", "--nodes", "3"}).empty());
  EXPECT_EQ(parse({"--app", "cc", "--graph", "c"}).app, "cc");
}

// ---- environment -------------------------------------------------------------

TEST_F(Options, RankAndNodesFromSlurm) {
  setenv("SLURM_PROCID", "2", 1);
  setenv("SLURM_NTASKS", "4", 1);
  const Config c = parse({"--app", "bfs", "--graph", "a"});
  EXPECT_EQ(c.rank, 2u);
  EXPECT_EQ(c.nodes, 4u);
}

TEST_F(Options, RankAndNodesFromOpenMpiAndPmi) {
  setenv("OMPI_COMM_WORLD_RANK", "1", 1);
  setenv("OMPI_COMM_WORLD_SIZE", "3", 1);
  Config c = parse({"--app", "bfs", "--graph", "a"});
  EXPECT_EQ(c.rank, 1u);
  EXPECT_EQ(c.nodes, 3u);
  unsetenv("OMPI_COMM_WORLD_RANK");
  unsetenv("OMPI_COMM_WORLD_SIZE");
  setenv("PMI_RANK", "5", 1);
  setenv("PMI_SIZE", "6", 1);
  c = parse({"--app", "bfs", "--graph", "a"});
  EXPECT_EQ(c.rank, 5u);
  EXPECT_EQ(c.nodes, 6u);
}

TEST_F(Options, LauncherPrecedence) {
  // SLURM, then Open MPI, then PMI; empty variables do not count.
  setenv("SLURM_PROCID", "", 1);
  setenv("OMPI_COMM_WORLD_RANK", "1", 1);
  setenv("PMI_RANK", "3", 1);
  setenv("SLURM_NTASKS", "8", 1);
  setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  setenv("PMI_SIZE", "2", 1);
  Config c = parse({"--app", "bfs", "--graph", "a"});
  EXPECT_EQ(c.rank, 1u);
  EXPECT_EQ(c.nodes, 8u);
  setenv("SLURM_PROCID", "7", 1);
  c = parse({"--app", "bfs", "--graph", "a"});
  EXPECT_EQ(c.rank, 7u);
}

TEST_F(Options, ExplicitOptionsBeatTheEnvironment) {
  setenv("SLURM_PROCID", "3", 1);
  setenv("SLURM_NTASKS", "4", 1);
  Config c = parse({"--app", "bfs", "--graph", "a", "--rank", "1"});
  EXPECT_EQ(c.rank, 1u);
  EXPECT_EQ(c.nodes, 4u);
  c = parse({"--app", "bfs", "--graph", "a", "--nodes", "5"});
  EXPECT_EQ(c.rank, 3u);
  EXPECT_EQ(c.nodes, 5u);
  c = parse({"--app", "bfs", "--graph", "a", "--nodes", "2", "--rank", "0"});
  EXPECT_EQ(c.rank, 0u);
  EXPECT_EQ(c.nodes, 2u);
  // --nodes 2 with the environment's rank 3: the rank is out of range.
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "2"}), "3", "2");
}

TEST_F(Options, BadEnvironmentValuesNameTheVariable) {
  setenv("SLURM_NTASKS", "abc", 1);
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a"}), "SLURM_NTASKS", "abc");
  setenv("SLURM_NTASKS", "0", 1);
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a"}), "SLURM_NTASKS", "0");
  unsetenv("SLURM_NTASKS");
  setenv("PMI_RANK", "-2", 1);
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "4"}), "PMI_RANK", "-2");
  // An explicit option is not overridden, so a bad variable behind it is harmless.
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--nodes", "4", "--rank", "1"}).rank, 1u);
}

// The banner, errors and nodeR.json's config say where a value came from:
// srun and mpirun set variables, the user never typed --rank.
TEST_F(Options, ValuesFromTheEnvironmentAreNamedAsSuch) {
  setenv("SLURM_PROCID", "2", 1);
  setenv("SLURM_NTASKS", "4", 1);
  Config c = parse({"--app", "bfs", "--graph", "a"});
  EXPECT_EQ(c.rank_from, "SLURM_PROCID");
  EXPECT_EQ(c.nodes_from, "SLURM_NTASKS");
  EXPECT_NE(c.describe().find("node 2 of 4 (rank from SLURM_PROCID) (cluster size from SLURM_NTASKS)"),
            std::string::npos)
      << c.describe();
  const nlohmann::ordered_json j = config_json(c);
  EXPECT_EQ(j["rank"], 2);
  EXPECT_EQ(j["rank_from"], "SLURM_PROCID");
  EXPECT_EQ(j["nodes_from"], "SLURM_NTASKS");
  c = parse({"--app", "bfs", "--graph", "a", "--rank", "1", "--nodes", "3"});
  EXPECT_EQ(c.rank_from, "--rank");
  EXPECT_EQ(c.nodes_from, "--nodes");
  EXPECT_EQ(c.describe().find("rank from"), std::string::npos) << c.describe();
  EXPECT_EQ(c.describe().find("size from"), std::string::npos) << c.describe();
  unsetenv("SLURM_PROCID");
  unsetenv("SLURM_NTASKS");
  c = parse({"--app", "bfs", "--graph", "a"});
  EXPECT_EQ(c.rank_from, "default");
  EXPECT_EQ(config_json(c)["nodes_from"], "default");
}

TEST_F(Options, EnvironmentErrorsNameTheVariableNotAnOption) {
  setenv("OMPI_COMM_WORLD_SIZE", "many", 1);
  std::string e = error_of({"--app", "bfs", "--graph", "a"});
  EXPECT_NE(e.find("environment variable OMPI_COMM_WORLD_SIZE='many'"), std::string::npos) << e;
  EXPECT_NE(e.find("--nodes is not given"), std::string::npos) << e;
  EXPECT_EQ(e.find("--OMPI"), std::string::npos) << e;
  setenv("OMPI_COMM_WORLD_SIZE", "65", 1);
  e = error_of({"--app", "bfs", "--graph", "a"});
  EXPECT_NE(e.find("OMPI_COMM_WORLD_SIZE='65'"), std::string::npos) << e;
  EXPECT_NE(e.find("out of range [1, 64]"), std::string::npos) << e;
  setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  setenv("PMI_RANK", "3", 1);
  e = error_of({"--app", "bfs", "--graph", "a"});
  EXPECT_NE(e.find("rank 3 (environment variable PMI_RANK) is not below cluster size 2 "
                   "(environment variable OMPI_COMM_WORLD_SIZE)"),
            std::string::npos)
      << e;
  e = error_of({"--app", "bfs", "--graph", "a", "--nodes", "3"});
  EXPECT_NE(e.find("rank 3 (environment variable PMI_RANK) is not below --nodes 3"), std::string::npos) << e;
}

// ---- NUMA domains and the line rate ---------------------------------------------

TEST_F(Options, DomainsAndDomainSplit) {
  const Config d = parse({"--app", "pagerank", "--graph", "a"});
  EXPECT_EQ(d.domains, 0u) << "0: the machine's domain count, from libnuma";
  EXPECT_TRUE(d.domain_metis) << "METIS refinement is the default";
  EXPECT_EQ(d.engine.line_rate_gbps, 0.0) << "0: the port's speed";
  const Config c = parse({"--app", "pagerank", "--graph", "a", "--domains", "4", "--domain-split", "even",
                          "--line-rate", "25"});
  EXPECT_EQ(c.domains, 4u);
  EXPECT_FALSE(c.domain_metis);
  EXPECT_EQ(c.engine.line_rate_gbps, 25.0);
  EXPECT_TRUE(parse({"--app", "cc", "--graph", "a", "--domain-split=metis"}).domain_metis);
  EXPECT_EQ(parse({"--app", "cc", "--graph", "a", "--domains=1"}).domains, 1u);
  EXPECT_EQ(parse({"--app", "cc", "--graph", "a", "--domains", "64"}).domains, 64u);
  EXPECT_EQ(parse({"--app", "cc", "--graph", "a", "--line-rate", "0.5"}).engine.line_rate_gbps, 0.5);
  // The last one given wins, like every option.
  EXPECT_TRUE(parse({"--app", "cc", "--graph", "a", "--domain-split", "even", "--domain-split", "metis"})
                  .domain_metis);
}

TEST_F(Options, DomainAndLineRateErrorsNameTheOptionAndTheValue) {
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "a", "--domains", "0"}), "--domains", "0");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "a", "--domains", "65"}), "--domains", "65");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "a", "--domains", "two"}), "--domains", "two");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "a", "--domain-split", "random"}), "--domain-split",
                        "random", "metis", "even");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "a", "--domain-split", ""}), "--domain-split");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "a", "--line-rate", "0"}), "--line-rate", "0");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "a", "--line-rate", "-10"}), "--line-rate", "-10");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "a", "--line-rate", "fast"}), "--line-rate", "fast");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "a", "--domains"}), "--domains", "needs a value");
}

TEST_F(Options, DomainsAreOneJobParameterAndTheLineRateIsNot) {
  auto digest = [](std::initializer_list<const char*> args) { return parse(args).params_digest(); };
  const uint64_t two = digest({"--app", "cc", "--graph", "a", "--domains", "2"});
  EXPECT_NE(two, digest({"--app", "cc", "--graph", "a", "--domains", "4"}));
  EXPECT_NE(two, digest({"--app", "cc", "--graph", "a", "--domains", "2", "--domain-split", "even"}));
  EXPECT_EQ(two, digest({"--app", "cc", "--graph", "a", "--domains", "2", "--line-rate", "100"}));
  const std::string text =
      parse({"--app", "cc", "--graph", "a", "--domains", "2", "--domain-split", "even"}).describe();
  EXPECT_NE(text.find("2 domains (even)"), std::string::npos) << text;
}

// Slots by degree unless --vertex-order input; every node must agree, so it
// is a job parameter; a wrong word is named with both choices.
TEST_F(Options, VertexOrderIsDegreeByDefaultAndOneJobParameter) {
  EXPECT_TRUE(parse({"--app", "cc", "--graph", "a"}).degree_order);
  EXPECT_FALSE(parse({"--app", "cc", "--graph", "a", "--vertex-order", "input"}).degree_order);
  EXPECT_TRUE(parse({"--app", "cc", "--graph", "a", "--vertex-order=degree"}).degree_order);
  EXPECT_NE(parse({"--app", "cc", "--graph", "a"}).params_digest(),
            parse({"--app", "cc", "--graph", "a", "--vertex-order", "input"}).params_digest());
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "a", "--vertex-order", "random"}), "--vertex-order", "random",
                        "degree", "input");
}

// ---- digests ------------------------------------------------------------------

TEST_F(Options, ParamsDigestFollowsTheJobParameters) {
  auto digest = [](std::initializer_list<const char*> args) { return parse(args).params_digest(); };
  const uint64_t base = digest({"--app", "sssp", "--graph", "a", "--source", "1"});
  EXPECT_EQ(base, digest({"--app", "sssp", "--graph", "a", "--source", "1"}));
  EXPECT_NE(base, digest({"--app", "sssp", "--graph", "a", "--source", "2"}));
  EXPECT_NE(base, digest({"--app", "bfs", "--graph", "a", "--source", "1"}));
  EXPECT_NE(base, digest({"--app", "sssp", "--graph", "a", "--source", "1", "--undirected"}));

  const uint64_t pr = digest({"--app", "pagerank", "--graph", "a", "--iterations", "10"});
  EXPECT_NE(pr, digest({"--app", "pagerank", "--graph", "a", "--iterations", "11"}));
  EXPECT_NE(pr, digest({"--app", "cd", "--graph", "a", "--iterations", "10"}));
  EXPECT_NE(digest({"--app", "cc", "--graph", "a"}), digest({"--app", "bfs", "--graph", "a"}));
  // Settings that do not change the result are not part of it: per-node
  // settings (rank, output, reporting).
  EXPECT_EQ(pr, digest({"--app", "pagerank", "--graph", "a", "--iterations", "10", "--nodes", "3", "--rank",
                        "2", "--out", "x", "--quiet", "--top", "1", "--peer-timeout", "9"}));
}

TEST_F(Options, DefaultJobTokenIsTheSameOnEveryNodeOfAJob) {
  auto token = [](std::initializer_list<const char*> args) { return parse(args).job_token; };
  const uint32_t t0 = token({"--app", "bfs", "--graph", "g.txt", "--nodes", "3", "--rank", "0", "--source", "4"});
  const uint32_t t1 = token({"--app", "bfs", "--graph", "g.txt", "--nodes", "3", "--rank", "1", "--source", "4"});
  const uint32_t t2 = token({"--rank", "2", "--source", "4", "--nodes", "3", "--graph", "g.txt", "--app", "bfs",
                             "--out", "o", "--quiet"});
  EXPECT_EQ(t0, t1);
  EXPECT_EQ(t0, t2);
  EXPECT_NE(t0, 0u);
  // Another graph or cluster size gets another token (jobs on one segment differ).
  EXPECT_NE(t0, token({"--app", "bfs", "--graph", "h.txt", "--nodes", "3", "--source", "4"}));
  EXPECT_NE(t0, token({"--app", "bfs", "--graph", "g.txt", "--nodes", "2", "--source", "4"}));
  // Other parameters do not change it: nodes that disagree on them must still
  // exchange hellos, which then name the mismatch (the params digest differs).
  EXPECT_EQ(t0, token({"--app", "sssp", "--graph", "g.txt", "--nodes", "3", "--source", "4"}));
  EXPECT_EQ(t0, token({"--app", "bfs", "--graph", "g.txt", "--nodes", "3", "--source", "5"}));
  // An explicit id wins.
  EXPECT_EQ(token({"--app", "bfs", "--graph", "g.txt", "--job-id", "7"}), 7u);
}

// ---- transport, roles and cd (options added with the reliable transport) -------

TEST_F(Options, TransportAndRoleDefaults) {
  const Config c = parse({"--app", "bfs", "--graph", "a"});
  EXPECT_EQ(c.transport.window, 512u);
  EXPECT_EQ(c.transport.rto_min_us, 200.0);
  EXPECT_EQ(c.transport.rto_max_us, 200000.0);
  EXPECT_FALSE(c.transport.checksum) << "a key is given: the MAC replaces the CRC";
  EXPECT_TRUE(parse({"--app", "bfs", "--graph", "a", "--no-auth"}).transport.checksum)
      << "without a key: on by default since the CRC costs nothing measurable (issue #16)";
  EXPECT_FALSE(c.transport.rx_faults.any());
  EXPECT_FALSE(c.transport.tx_faults.any());
  EXPECT_EQ(c.transport.fault_seed, 1u);
  EXPECT_EQ(c.engine.roles.kind, RolesSpec::Kind::kSplit);
  EXPECT_EQ(c.rx_queues, 0u) << "one per accumulator lcore, resolved by the node";
  EXPECT_EQ(c.mtu, 1500u);
  EXPECT_EQ(c.engine.range_bytes, 0u) << "kDefaultRangeBytes, resolved by the node";
  EXPECT_EQ(c.engine.scatter, ScatterMode::kAuto);
  EXPECT_EQ(c.engine.crash_at_superstep, -1);
  // cd runs 10 rounds unless told; pagerank 20; an explicit count wins for both.
  EXPECT_EQ(parse({"--app", "cd", "--graph", "a"}).iterations, 10u);
  EXPECT_EQ(parse({"--app", "cd", "--graph", "a", "--iterations", "3"}).iterations, 3u);
  EXPECT_EQ(parse({"--app", "cd", "--graph", "a", "--iterations", "20"}).iterations, 20u);
  EXPECT_EQ(parse({"--app", "pagerank", "--graph", "a"}).iterations, 20u);
}

TEST_F(Options, TransportOptions) {
  const Config c = parse({"--app", "bfs", "--graph", "a", "--nodes", "2", "--rank", "1", "--window", "64",
                          "--rto-min-us", "5000", "--rto-max-us", "100000", "--ast-us", "0.5", "--ack-delay-us",
                          "20", "--keepalive-ms", "50", "--no-auth", "--checksum", "on", "--fault-rx", "drop=0.1,dup=0.05",
                          "--fault-tx", "corrupt=0.25", "--fault-seed", "7", "--fault-delay-us", "300", "--roles",
                          "shared", "--crash-node", "1:4"});
  EXPECT_EQ(c.transport.window, 64u);
  EXPECT_EQ(c.transport.rto_min_us, 5000.0);
  EXPECT_EQ(c.transport.rto_max_us, 100000.0);
  EXPECT_EQ(c.transport.ast_us, 0.5);
  EXPECT_EQ(c.transport.ack_delay_us, 20.0);
  EXPECT_EQ(c.transport.keepalive_ms, 50.0);
  EXPECT_TRUE(c.transport.checksum);
  EXPECT_EQ(c.transport.rx_faults.drop, 0.1);
  EXPECT_EQ(c.transport.rx_faults.duplicate, 0.05);
  EXPECT_EQ(c.transport.rx_faults.corrupt, 0.0);
  EXPECT_EQ(c.transport.tx_faults.corrupt, 0.25);
  EXPECT_EQ(c.transport.fault_seed, 7u);
  EXPECT_EQ(c.transport.fault_delay_us, 300.0);
  EXPECT_EQ(c.engine.roles.kind, RolesSpec::Kind::kShared);
  EXPECT_EQ(c.engine.crash_at_superstep, 4) << "this node is rank 1, the one named";
  // The same options on another node: not its crash.
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--nodes", "2", "--rank", "0", "--crash-node", "1:4"})
                .engine.crash_at_superstep,
            -1);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--no-auth", "--checksum", "off"}).transport.checksum, false);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--roles", "split"}).engine.roles.kind, RolesSpec::Kind::kSplit);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--scatter", "dense"}).engine.scatter, ScatterMode::kDense);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--scatter", "sparse"}).engine.scatter, ScatterMode::kSparse);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--scatter", "auto"}).engine.scatter, ScatterMode::kAuto);
  EXPECT_EQ(parse({"--app", "pagerank", "--graph", "a"}).engine.segment_bytes, 0u);  // the L2, decided by the engine
  EXPECT_EQ(parse({"--app", "pagerank", "--graph", "a", "--segment-kib", "256"}).engine.segment_bytes, 256u * 1024);
  // Keepalives are capped at a fifth of the peer timeout (0.1 s -> 20 ms).
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--peer-timeout", "0.1"}).transport.keepalive_ms, 20.0);
}

// --roles maps lcores to workers, senders and accumulators; --rx-queues,
// --range-kib and --mtu shape the receive side (issue #12).
TEST_F(Options, RolesQueuesRangesAndMtu) {
  auto digest = [](std::initializer_list<const char*> args) { return parse(args).params_digest(); };
  const Config c = parse({"--app", "sssp", "--graph", "a", "--roles", "workers=2,senders=1,accumulators=3",
                          "--rx-queues", "3", "--range-kib", "256", "--mtu", "9000"});
  EXPECT_EQ(c.engine.roles.kind, RolesSpec::Kind::kCounts);
  EXPECT_EQ(c.engine.roles.workers, 2u);
  EXPECT_EQ(c.engine.roles.senders, 1u);
  EXPECT_EQ(c.engine.roles.accumulators, 3u);
  EXPECT_EQ(c.rx_queues, 3u);
  EXPECT_EQ(c.engine.range_bytes, 256u * 1024);
  EXPECT_EQ(c.mtu, 9000u);
  // Jumbo buckets: the pool keeps about the bytes of 16383 1500-byte mbufs,
  // never fewer than 4095 mbufs, unless --mbufs says otherwise.
  EXPECT_EQ(c.mbufs, 4095u);
  EXPECT_EQ(parse({"--app", "sssp", "--graph", "a", "--mtu", "3000"}).mbufs, 8191u);
  EXPECT_EQ(parse({"--app", "sssp", "--graph", "a", "--mtu", "9000", "--mbufs", "20000"}).mbufs, 20000u);
  const Config shortened = parse({"--app", "sssp", "--graph", "a", "--roles", "a=2,w=1,s=0"});
  EXPECT_EQ(shortened.engine.roles.workers, 1u);
  EXPECT_EQ(shortened.engine.roles.senders, 0u);
  EXPECT_EQ(shortened.engine.roles.accumulators, 2u);
  // Every node must plan the same ranges and take the same frames.
  EXPECT_NE(digest({"--app", "bfs", "--graph", "a"}), digest({"--app", "bfs", "--graph", "a", "--rx-queues", "2"}));
  EXPECT_NE(digest({"--app", "bfs", "--graph", "a"}), digest({"--app", "bfs", "--graph", "a", "--mtu", "9000"}));
  EXPECT_NE(digest({"--app", "bfs", "--graph", "a"}), digest({"--app", "bfs", "--graph", "a", "--range-kib", "64"}));
  EXPECT_EQ(digest({"--app", "bfs", "--graph", "a"}), digest({"--app", "bfs", "--graph", "a", "--roles", "w=1,a=1"}))
      << "roles are each node's own";
}

TEST_F(Options, RolesQueuesRangesAndMtuErrorsNameTheValue) {
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--roles", "workers=2,cooks=1"}), "--roles", "'cooks'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--roles", "workers=x"}), "--roles", "'x'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--roles", "workers=0,accumulators=1"}), "--roles", "worker");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--roles", "workers=1,accumulators=0"}), "--roles",
                        "accumulator");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--roles", "w=1,w=2,a=1"}), "--roles", "twice");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--rx-queues", "0"}), "--rx-queues", "0");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--rx-queues", "17"}), "--rx-queues", "17");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--mtu", "1499"}), "--mtu", "1499");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--mtu", "9001"}), "--mtu", "9001");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--range-kib", "0"}), "--range-kib", "0");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--ntuple", "yes"}), "--ntuple", "yes",
                        "auto, on or off");
}

// --ntuple: auto by default (rules only where the port polls part of its
// netdev's queues), on and off as asked.
TEST_F(Options, NtupleModes) {
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a"}).ntuple, ntuple::Mode::kAuto);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--ntuple", "on"}).ntuple, ntuple::Mode::kOn);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--ntuple", "off"}).ntuple, ntuple::Mode::kOff);
}

TEST_F(Options, TransportErrorsNameTheOptionAndTheValue) {
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--checksum", "yes"}), "--checksum", "'yes'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--roles", "both"}), "--roles", "'both'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--scatter", "pull"}), "--scatter", "'pull'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--segment-kib", "0"}), "--segment-kib", "0");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--segment-kib", "1k"}), "--segment-kib", "1k");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--window", "0"}), "--window", "0");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--window", "65537"}), "--window", "65537");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--rto-min-us", "0"}), "--rto-min-us", "'0'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--ast-us", "-1"}), "--ast-us", "'-1'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--rto-min-us", "200", "--rto-max-us", "100"}),
                        "--rto-max-us", "--rto-min-us");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--fault-rx", "drop=2"}), "--fault-rx", "drop=2");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--fault-tx", "lose=0.1"}), "--fault-tx", "lose");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--crash-node", "3"}), "--crash-node", "'3'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--crash-node", "x:1"}), "--crash-node", "'x'");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "2", "--crash-node", "2:1"}), "--crash-node",
                        "no node 2");
  // A flipped payload bit would be folded into the results unnoticed.
  EXPECT_ERROR_MENTIONS(
      ({"--app", "bfs", "--graph", "a", "--no-auth", "--fault-rx", "corrupt=0.01", "--checksum", "off"}), "corrupt",
      "--checksum on", "a key");
  EXPECT_TRUE(parse({"--app", "bfs", "--graph", "a", "--no-auth", "--fault-rx", "corrupt=0.01"}).transport.checksum)
      << "corruption needs nothing more with the default";
  EXPECT_TRUE(parse({"--app", "bfs", "--graph", "a", "--fault-rx", "corrupt=0.01"}).authenticated)
      << "nor with a key: the MAC catches it";
  EXPECT_ERROR_MENTIONS(
      ({"--app", "bfs", "--graph", "a", "--no-auth", "--fault-tx", "corrupt=0.01", "--checksum", "off"}), "corrupt",
      "--checksum on");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--crash-node", "1:"}), "--crash-node");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--crash-node", "64:1"}), "--crash-node", "64");
}

TEST_F(Options, ChecksumAndCdIterationsArePartOfTheJob) {
  auto digest = [](std::initializer_list<const char*> args) { return parse(args).params_digest(); };
  // Every node must agree on --checksum: a checking node drops unsealed frames.
  EXPECT_NE(digest({"--app", "bfs", "--graph", "a", "--no-auth", "--checksum", "on"}),
            digest({"--app", "bfs", "--graph", "a", "--no-auth", "--checksum", "off"}));
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--no-auth", "--checksum", "on"}).job_token,
            parse({"--app", "bfs", "--graph", "a"}).job_token)
      << "the hello, not the token, reports a --checksum mismatch";
  EXPECT_NE(digest({"--app", "cd", "--graph", "a", "--iterations", "3"}),
            digest({"--app", "cd", "--graph", "a", "--iterations", "4"}));
  // The implicit 10 rounds of cd and an explicit --iterations 10 are the same job.
  EXPECT_EQ(digest({"--app", "cd", "--graph", "a"}), digest({"--app", "cd", "--graph", "a", "--iterations", "10"}));
  // Transport tuning and faults are per node: they do not change the result.
  EXPECT_EQ(digest({"--app", "bfs", "--graph", "a"}),
            digest({"--app", "bfs", "--graph", "a", "--window", "8", "--fault-rx", "drop=0.5", "--roles", "shared"}));
}

TEST_F(Options, DescribeMentionsTheJob) {
  const Config c = parse({"--app", "sssp", "--graph", "kron:5:4", "--nodes", "2", "--rank", "1", "--source",
                          "9", "--job-id", "0xabc"});
  const std::string d = c.describe();
  for (const char* want : {"sssp", "kron:5:4", "node 1 of 2", "source 9", "0x00000abc", "47000"})
    EXPECT_NE(d.find(want), std::string::npos) << want << " not in: " << d;
}

TEST(WantsHelp, FindsHelpAnywhere) {
  char prog[] = "wiregraph", app[] = "--app", bfs[] = "bfs", help[] = "--help", h[] = "-h", hx[] = "-hx";
  char* with_long[] = {prog, app, bfs, help, nullptr};
  char* with_short[] = {prog, h, app, nullptr};
  char* without[] = {prog, app, bfs, hx, nullptr};
  EXPECT_TRUE(wants_help(4, with_long));
  EXPECT_TRUE(wants_help(3, with_short));
  EXPECT_FALSE(wants_help(4, without));
  EXPECT_FALSE(wants_help(1, with_long));
}

// Every timer and rate has a ceiling (a value past it would overflow when
// turned into TSC ticks), a kron: spec is checked with the options, and an
// empty --out is refused.
TEST_F(Options, NumericOptionsHaveUpperBounds) {
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--rto-min-us", "1e30"}), "--rto-min-us", "out of range");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--peer-timeout", "1e9"}), "--peer-timeout");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--progress-timeout", "86401"}), "--progress-timeout",
                        "out of range (0, 86400]");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--progress-timeout", "0"}), "--progress-timeout",
                        "not a positive number");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--line-rate", "1e7"}), "--line-rate");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--keepalive-ms", "1e8"}), "--keepalive-ms");
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--rto-max-us", "60000000"}).transport.rto_max_us, 60e6);
}

TEST_F(Options, BadKroneckerSpecIsACommandLineError) {
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "kron:x:8"}), "--graph", "kron:x:8");
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "kron:10:8"}).graph, "kron:10:8");
}

// snapshot:DIR is parsed once (compute/graph/graph_spec.h); the options
// that would read the input another way are refused with it.
TEST_F(Options, SnapshotGraphAndItsRefusals) {
  const Config c = parse({"--app", "pagerank", "--graph", "snapshot:/s"});
  EXPECT_TRUE(c.graph_spec.is_snapshot());
  EXPECT_EQ(c.graph_spec.snapshot_dir, "/s");
  EXPECT_EQ(parse({"--app", "pagerank", "--graph", "kron:10:8", "--save-snapshot", "/s"}).save_snapshot_dir, "/s");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "snapshot:"}), "--graph", "snapshot:DIR");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "snapshot:/s", "--verify"}), "--verify", "snapshot:/s");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "snapshot:/s", "--vertices", "10"}), "--vertices");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "snapshot:/s", "--ids", "dense"}), "--ids");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "snapshot:/s", "--format", "bin"}), "--format");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "snapshot:/s", "--save-snapshot", "/t"}), "--save-snapshot");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--save-snapshot", ""}), "--save-snapshot");
}

TEST_F(Options, EmptyOutIsRefused) {
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--out", ""}), "--out", "empty");
}

// ---- the job's key (config/key_file.h) -------------------------------------------

MasterKey key_of(const char* hex) {
  MasterKey k{};
  for (size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(std::stoi(std::string(hex + 2 * i, 2), nullptr, 16));
  return k;
}

// A file holding `bytes`, with `mode`.
std::string key_file(const test::TempDir& dir, const char* name, const std::string& bytes, mode_t mode = 0600) {
  const std::string path = dir.file(name);
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_EQ(::chmod(path.c_str(), mode), 0);
  return path;
}

std::string with_key_file(const std::string& path, std::initializer_list<const char*> more = {}) {
  std::vector<const char*> args = {"--app", "bfs", "--graph", "a", "--nodes", "2", "--key-file"};
  args.push_back(path.c_str());
  args.insert(args.end(), more.begin(), more.end());
  try {
    parse(args);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST_F(Options, SeveralNodesNeedAKeyOrNoAuth) {
  unsetenv("WIREGRAPH_KEY");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "2"}), "no key",
                        "head -c 32 /dev/urandom | xxd -p -c 64 > key", "--key-file", "WIREGRAPH_KEY", "--no-auth");
  // One node sends no frames: no key needed.
  Config one = parse({"--app", "bfs", "--graph", "a"});
  EXPECT_FALSE(one.authenticated);
  EXPECT_EQ(one.key_from, "none (one node)");
  // --no-auth: an explicit choice, which the banner shows.
  Config open = parse({"--app", "bfs", "--graph", "a", "--nodes", "2", "--no-auth"});
  EXPECT_FALSE(open.authenticated);
  EXPECT_EQ(open.key_from, "--no-auth");
  EXPECT_TRUE(open.transport.checksum) << "without a key the CRC stays on by default";
  EXPECT_NE(open.describe().find("frames NOT authenticated (--no-auth"), std::string::npos) << open.describe();
  EXPECT_EQ(config_json(open)["authenticated"], false);
  EXPECT_EQ(config_json(open)["key_from"], "--no-auth");
}

TEST_F(Options, KeyFromTheEnvironmentIsNamedAsSuch) {
  const Config c = parse({"--app", "bfs", "--graph", "a", "--nodes", "2"});
  EXPECT_TRUE(c.authenticated);
  EXPECT_EQ(c.key, key_of(kKeyHex));
  EXPECT_EQ(c.key_from, "environment variable WIREGRAPH_KEY");
  EXPECT_NE(c.describe().find("frames authenticated (AES-128-GMAC, key from environment variable WIREGRAPH_KEY)"),
            std::string::npos)
      << c.describe();
  EXPECT_EQ(c.describe().find("checksum"), std::string::npos) << "no CRC with a key: " << c.describe();
  EXPECT_EQ(config_json(c)["key_from"], "environment variable WIREGRAPH_KEY");
  // The secret itself is never shown.
  EXPECT_EQ(c.describe().find("0001020304"), std::string::npos);
  EXPECT_EQ(config_json(c).dump().find("0001020304"), std::string::npos);
  // Upper-case digits and surrounding whitespace (a key file read with $(cat ...)) are fine.
  setenv("WIREGRAPH_KEY", "  000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F\n", 1);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a", "--nodes", "2"}).key, key_of(kKeyHex));
  // Errors name the variable, not an option that was never given.
  setenv("WIREGRAPH_KEY", "abc", 1);
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "2"}), "environment variable WIREGRAPH_KEY",
                        "--key-file is not given", "3 hex digits", "64 hex digits");
  setenv("WIREGRAPH_KEY", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1g", 1);
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "2"}), "environment variable WIREGRAPH_KEY",
                        "'g' at offset 63");
  // --no-auth is an explicit choice: it wins over a key in the environment.
  EXPECT_FALSE(parse({"--app", "bfs", "--graph", "a", "--nodes", "2", "--no-auth"}).authenticated);
}

TEST_F(Options, KeyFiles) {
  test::TempDir dir;
  std::string raw(32, '\0');
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<char>(0xf0 - i);  // not hex digits
  const std::string hex = key_file(dir, "hex", std::string(kKeyHex) + "\n");
  const std::string bin = key_file(dir, "raw", raw);
  EXPECT_EQ(with_key_file(hex), "");
  Config c = parse({"--app", "bfs", "--graph", "a", "--nodes", "2", "--key-file", arena().emplace_back(hex).c_str()});
  EXPECT_EQ(c.key, key_of(kKeyHex));
  EXPECT_EQ(c.key_from, "--key-file " + hex) << "the file beats WIREGRAPH_KEY";
  c = parse({"--app", "bfs", "--graph", "a", "--nodes", "2", "--key-file", arena().emplace_back(bin).c_str()});
  for (size_t i = 0; i < 32; ++i) EXPECT_EQ(c.key[i], 0xf0 - i) << "raw byte " << i;

  const std::string missing = dir.file("nothing");
  std::string e = with_key_file(missing);
  EXPECT_NE(e.find("--key-file " + missing + ": cannot open: No such file"), std::string::npos) << e;
  e = with_key_file(key_file(dir, "short", "0011223344556677889900112233445566778899\n"));
  EXPECT_NE(e.find("40 hex digits"), std::string::npos) << e;
  e = with_key_file(key_file(dir, "half", "00112233445566778899aabbccddeeff"));
  EXPECT_NE(e.find("32 hex digits"), std::string::npos) << "a 16-byte key in hex is not 32 raw bytes: " << e;
  e = with_key_file(key_file(dir, "badhex", "zz" + std::string(kKeyHex + 2) + "\n"));
  EXPECT_NE(e.find("'z' at offset 0"), std::string::npos) << e;
  e = with_key_file(key_file(dir, "rawshort", raw.substr(0, 31)));
  EXPECT_NE(e.find("holds 31 bytes"), std::string::npos) << e;
  EXPECT_NE(e.find("32 raw bytes"), std::string::npos) << e;
  e = with_key_file(key_file(dir, "empty", ""));
  EXPECT_NE(e.find("empty"), std::string::npos) << e;
  e = with_key_file(dir.path());
  EXPECT_NE(e.find("not a regular file"), std::string::npos) << e;
  // Others can read it: the job's secret is not one any more.
  const std::string shared = key_file(dir, "shared", std::string(kKeyHex) + "\n", 0644);
  e = with_key_file(shared);
  EXPECT_NE(e.find("--key-file " + shared + ": mode 0644"), std::string::npos) << e;
  EXPECT_NE(e.find("chmod 600 " + shared), std::string::npos) << e;
  e = with_key_file(key_file(dir, "group", std::string(kKeyHex), 0640));
  EXPECT_NE(e.find("mode 0640"), std::string::npos) << e;
  EXPECT_EQ(with_key_file(key_file(dir, "owner", std::string(kKeyHex), 0400)), "") << "read-only for its owner is fine";
  // --no-auth and a key file contradict each other.
  e = with_key_file(hex, {"--no-auth"});
  EXPECT_NE(e.find("--no-auth and --key-file"), std::string::npos) << e;
}

// With a key the MAC detects what the CRC would: --checksum belongs to
// --no-auth runs, and is refused (exit 2) beside a key.
TEST_F(Options, ChecksumIsForRunsWithoutAKey) {
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "2", "--checksum", "on"}), "--checksum",
                        "authenticated", "--no-auth");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "2", "--checksum", "off"}), "--checksum");
  EXPECT_FALSE(parse({"--app", "bfs", "--graph", "a", "--nodes", "2"}).transport.checksum);
  EXPECT_FALSE(parse({"--app", "bfs", "--graph", "a", "--nodes", "2", "--no-auth", "--checksum", "off"}).transport.checksum);
}

// --ids sparse: edge lists (text, bin, wbin) only; --source is then an
// original, signed 64-bit id; every node must agree on it. auto (the
// default) is decided by the node from the file (test_input_rules.cc); until
// then an edge list's --source is read as a signed id, as sparse ones are.
TEST_F(Options, SparseIds) {
  auto digest = [](std::initializer_list<const char*> args) { return parse(args).params_digest(); };
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "g.el"}).ids, IdsOption::kAuto) << "auto by default";
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "g.el", "--source", "-1"}).source_id, -1)
      << "auto: the file may have sparse ids";
  EXPECT_FALSE(parse({"--app", "bfs", "--graph", "g.el", "--ids", "dense"}).sparse_ids);
  const Config c = parse({"--app", "bfs", "--graph", "g.el", "--ids", "sparse", "--source", "-9000000000"});
  EXPECT_TRUE(c.sparse_ids);
  EXPECT_TRUE(c.mapped_ids());
  EXPECT_EQ(c.source_id, -9000000000);
  EXPECT_NE(c.describe().find("sparse ids, source -9000000000"), std::string::npos) << c.describe();
  EXPECT_TRUE(parse({"--app", "cc", "--graph", "g.bin", "--ids", "sparse"}).sparse_ids);
  EXPECT_TRUE(parse({"--app", "cc", "--graph", "g.wbin", "--ids", "sparse"}).sparse_ids);
  EXPECT_TRUE(parse({"--app", "cc", "--graph", "g.mtx", "--format", "edgelist", "--ids", "sparse"}).sparse_ids)
      << "--format decides, not the name";
  EXPECT_NE(digest({"--app", "cc", "--graph", "g.el"}), digest({"--app", "cc", "--graph", "g.el", "--ids", "sparse"}));
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "g.el", "--ids", "sparse", "--source", "1.5"}), "--source",
                        "'1.5'", "signed 64-bit");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "g.el", "--ids", "dense", "--source", "-1"}), "--source", "-1");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "g.el", "--ids", "compact"}), "--ids", "compact", "auto, dense or sparse");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "g.mtx", "--ids", "sparse"}), "--ids sparse", "g.mtx",
                        "Matrix Market");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "g.gr", "--ids", "sparse"}), "--ids sparse", "DIMACS");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "g.el", "--format", "metis", "--ids", "sparse"}), "METIS");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "kron:4:2", "--ids", "sparse"}), "--ids sparse", "kron:4:2",
                        "dense");
}

// --local-rounds: off by default, on|off only, shown in the banner.
TEST_F(Options, LocalRounds) {
  EXPECT_FALSE(parse({"--app", "sssp", "--graph", "a"}).engine.local_rounds);
  const Config on = parse({"--app", "sssp", "--graph", "a", "--local-rounds", "on"});
  EXPECT_TRUE(on.engine.local_rounds);
  EXPECT_NE(on.describe().find("local rounds"), std::string::npos) << on.describe();
  EXPECT_FALSE(parse({"--app", "sssp", "--graph", "a", "--local-rounds", "off"}).engine.local_rounds);
  EXPECT_ERROR_MENTIONS(({"--app", "sssp", "--graph", "a", "--local-rounds", "yes"}), "--local-rounds", "'yes'");
}


// --sources K (bc): K sweeps from GAP's picks, instead of --source; shown in the
// banner and nodeR.json; a missing, zero or non-numeric K, or both options, refused.
TEST_F(Options, SourcesForBc) {
  EXPECT_EQ(parse({"--app", "bc", "--graph", "a"}).sources, 0u);
  const Config c = parse({"--app", "bc", "--graph", "a", "--sources", "4"});
  EXPECT_EQ(c.sources, 4u);
  EXPECT_EQ(c.params().sources, 4u);
  EXPECT_NE(c.describe().find("4 sources picked as GAP's"), std::string::npos) << c.describe();
  EXPECT_EQ(c.describe().find("source 0"), std::string::npos) << c.describe();
  EXPECT_EQ(config_json(c)["sources"], 4);
  EXPECT_ERROR_MENTIONS(({"--app", "bc", "--graph", "a", "--sources"}), "--sources");
  EXPECT_ERROR_MENTIONS(({"--app", "bc", "--graph", "a", "--sources", "0"}), "--sources", "out of range");
  EXPECT_ERROR_MENTIONS(({"--app", "bc", "--graph", "a", "--sources", "four"}), "--sources", "'four'");
  EXPECT_ERROR_MENTIONS(({"--app", "bc", "--graph", "a", "--sources", "2", "--source", "3"}), "--source and --sources");
  EXPECT_ERROR_MENTIONS(({"--app", "sssp", "--graph", "a", "--sources", "2"}), "--sources does not apply to sssp");
}

// --sources all (bc): every vertex once; --normalize: GAP's scale by default,
// networkx's by name; both in the banner, neither for another program.
TEST_F(Options, BcSourcesAllAndNormalize) {
  const Config all = parse({"--app", "bc", "--graph", "a", "--sources", "all", "--normalize", "networkx"});
  EXPECT_EQ(all.params().sources, kAllSources);
  EXPECT_EQ(all.params().normalize, BcScale::kNetworkx);
  EXPECT_NE(all.describe().find("every vertex a source"), std::string::npos) << all.describe();
  EXPECT_NE(all.describe().find("scores as networkx's normalized=True"), std::string::npos) << all.describe();
  EXPECT_EQ(config_json(all)["sources"], "all");  // not UINT32_MAX, the sentinel
  EXPECT_EQ(config_json(all)["normalize"], "networkx");
  EXPECT_TRUE(config_json(parse({"--app", "pagerank", "--graph", "a"}))["normalize"].is_null());
  EXPECT_EQ(parse({"--app", "bc", "--graph", "a"}).params().normalize, BcScale::kGap);
  EXPECT_EQ(parse({"--app", "bc", "--graph", "a", "--normalize", "none"}).normalize, BcScale::kNone);
  EXPECT_ERROR_MENTIONS(({"--app", "bc", "--graph", "a", "--normalize", "max"}), "--normalize", "'max'");
  EXPECT_ERROR_MENTIONS(({"--app", "pagerank", "--graph", "a", "--normalize", "gap"}),
                        "--normalize does not apply to pagerank");
}

// --tolerance (pagerank): networkx's stopping rule; the iteration cap is then
// networkx's max_iter, 100, unless --iterations says otherwise.
TEST_F(Options, PagerankTolerance) {
  const Config t = parse({"--app", "pagerank", "--graph", "a", "--tolerance", "1e-6"});
  EXPECT_DOUBLE_EQ(t.params().tolerance, 1e-6);
  EXPECT_DOUBLE_EQ(config_json(t)["tolerance"].get<double>(), 1e-6);
  EXPECT_EQ(t.iterations, 100u);
  EXPECT_NE(t.describe().find("at most 100 iterations, tolerance 1e-06"), std::string::npos) << t.describe();
  EXPECT_EQ(parse({"--app", "pagerank", "--graph", "a", "--tolerance", "1e-6", "--iterations", "7"}).iterations, 7u);
  const Config plain = parse({"--app", "pagerank", "--graph", "a"});
  EXPECT_EQ(plain.iterations, 20u);
  EXPECT_EQ(plain.params().tolerance, 0.0);
  EXPECT_NE(plain.describe().find("20 iterations"), std::string::npos) << plain.describe();
  EXPECT_EQ(plain.describe().find("at most"), std::string::npos) << plain.describe();
  EXPECT_ERROR_MENTIONS(({"--app", "pagerank", "--graph", "a", "--tolerance", "0"}), "--tolerance");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--tolerance", "1e-6"}), "--tolerance does not apply to bfs");
}

// lcc's definition follows --undirected: the banner says which one runs.
TEST_F(Options, LccSaysWhichDefinitionRuns) {
  const std::string directed = parse({"--app", "lcc", "--graph", "a"}).describe();
  EXPECT_NE(directed.find("directed LCC, Graphalytics' definition"), std::string::npos) << directed;
  const std::string undirected = parse({"--app", "lcc", "--graph", "a", "--undirected"}).describe();
  EXPECT_NE(undirected.find("undirected LCC, 2e/(d(d-1))"), std::string::npos) << undirected;
  // Other programs keep the plain word, and nothing without --undirected.
  EXPECT_NE(parse({"--app", "bfs", "--graph", "a", "--undirected"}).describe().find("undirected"), std::string::npos);
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "a"}).describe().find("directed"), std::string::npos);
}

// ---- program parameters (the programs' traits say who reads which) -------------

// Who reads what, written down here independently of the traits: a program
// given a parameter it does not read refuses it, naming those that read it.
struct Reads {
  const char* app;
  bool source, iterations, damping, precision;
};
constexpr Reads kReads[] = {
    {"pagerank", false, true, true, true}, {"sssp", true, false, false, true}, {"bfs", true, false, false, false},
    {"cc", false, false, false, false},    {"cd", false, true, false, false},  {"kcore", false, false, false, false},
    {"lcc", false, false, false, false},    {"bc", true, false, false, false},
};

// The programs above as written down here; a program added to
// apps/programs.h later as its traits declare (its header is its only
// record), so that adding one touches no test: the parser's refusals, which
// go through the option table's read_by, must still agree with them.
std::vector<Reads> every_programs_reads() {
  std::vector<Reads> all(std::begin(kReads), std::end(kReads));
  for (const ProgramTraits& t : program_traits()) {
    const bool named = std::any_of(std::begin(kReads), std::end(kReads), [&t](const Reads& r) { return t.name == r.app; });
    if (!named)
      all.push_back({t.name.data(), t.uses_source, t.uses_iterations, t.uses_damping, t.uses_precision});
  }
  return all;
}

TEST_F(Options, ProgramParametersAProgramDoesNotReadAreRefused) {
  for (const Reads& r : kReads)
    EXPECT_TRUE(std::any_of(program_traits().begin(), program_traits().end(),
                            [&r](const ProgramTraits& t) { return t.name == r.app; }))
        << r.app << " is no longer a program: remove it above";
  const std::pair<const char*, const char*> params[] = {
      {"--source", "3"}, {"--iterations", "3"}, {"--damping", "0.5"}, {"--precision", "double"}};
  for (const Reads& r : every_programs_reads()) {
    const bool reads[] = {r.source, r.iterations, r.damping, r.precision};
    for (size_t i = 0; i < std::size(params); ++i) {
      const std::string e = error_of({"--app", r.app, "--graph", "a", params[i].first, params[i].second});
      if (reads[i]) {
        EXPECT_EQ(e, "") << r.app << " reads " << params[i].first;
      } else {
        EXPECT_NE(e.find(std::string(params[i].first) + " does not apply to " + r.app), std::string::npos)
            << r.app << " " << params[i].first << ": " << e;
      }
    }
  }
  // The message names the programs that do read it.
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--damping", "0.5"}), "--damping does not apply to bfs",
                        "only pagerank and ppr read it");
  EXPECT_ERROR_MENTIONS(({"--app", "pagerank", "--graph", "a", "--source", "3"}), "--source", "only sssp, bfs, bc and ppr read it");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "a", "--iterations", "5"}), "--iterations", "pagerank, cd and ppr");
}

TEST_F(Options, TheBannerShowsOnlyTheParametersTheProgramReads) {
  const std::string pr = parse({"--app", "pagerank", "--graph", "a", "--damping", "0.5", "--precision", "double"}).describe();
  for (const char* want : {"20 iterations", "damping 0.5", "double precision"})
    EXPECT_NE(pr.find(want), std::string::npos) << want << " not in: " << pr;
  EXPECT_EQ(pr.find("source"), std::string::npos) << pr;
  const std::string bfs = parse({"--app", "bfs", "--graph", "a", "--source", "7"}).describe();
  EXPECT_NE(bfs.find("source 7"), std::string::npos) << bfs;
  for (const char* unwanted : {"iterations", "damping", "precision"})
    EXPECT_EQ(bfs.find(unwanted), std::string::npos) << unwanted << " in: " << bfs;
  EXPECT_EQ(parse({"--app", "cc", "--graph", "a"}).describe().find("source"), std::string::npos);
  // nodeR.json's configuration echo says the same: null where it did not apply.
  const nlohmann::ordered_json j = config_json(parse({"--app", "bfs", "--graph", "a", "--source", "7"}));
  EXPECT_EQ(j["source"], 7);
  for (const char* unread : {"iterations", "damping", "precision"}) EXPECT_TRUE(j[unread].is_null()) << unread;
  EXPECT_EQ(config_json(parse({"--app", "pagerank", "--graph", "a", "--damping", "0.5"}))["damping"], 0.5);
}

// A Graphalytics graph's properties carry every algorithm's parameters: a
// program reads its own (named by its traits) and nothing else, so another
// algorithm's bad value does not stop it, and its own names the file, line
// and key.
TEST_F(Options, GraphalyticsPropertiesGiveOnlyTheProgramsOwnParameters) {
  test::TempDir dir;
  const std::string path = dir.file("g.properties");
  std::ofstream(path) << "graph.g.directed = true\n"
                         "graph.g.bfs.source-vertex = -4\n"
                         "graph.g.sssp.source-vertex = 12\n"
                         "graph.g.pr.damping-factor = 7\n"
                         "graph.g.pr.num-iterations = 3\n"
                         "graph.g.cdlp.max-iterations = 6\n";
  arena().push_back(path);
  const char* g = arena().back().c_str();
  const Config bfs = parse({"--app", "bfs", "--graph", g});
  EXPECT_EQ(bfs.source_id, -4);
  EXPECT_FALSE(bfs.double_precision) << "bfs reads no --precision";
  EXPECT_EQ(bfs.describe().find("precision"), std::string::npos) << bfs.describe();
  EXPECT_EQ(bfs.damping, 0.85) << "pr.damping-factor is PageRank's";
  const Config sssp = parse({"--app", "sssp", "--graph", g});
  EXPECT_EQ(sssp.source_id, 12);
  EXPECT_TRUE(sssp.double_precision) << "Graphalytics' rules forbid single precision";
  EXPECT_EQ(parse({"--app", "cd", "--graph", g}).iterations, 6u);
  EXPECT_EQ(parse({"--app", "cc", "--graph", g}).iterations, 0u);
  EXPECT_ERROR_MENTIONS(({"--app", "pagerank", "--graph", g}), "g.properties:4: graph.g.pr.damping-factor: '7'",
                        "[0, 1]");
  EXPECT_EQ(parse({"--app", "pagerank", "--graph", g, "--damping", "0.5"}).damping, 0.5) << "the command line wins";
}

// Checkpoints: each option needs its partner; the directory defaults to the
// one resumed from; lcc has none; the hook needs checkpoints to kill.
TEST(CheckpointOptions, EachNeedsItsPartner) {
  const Config c = parse({"--app", "pagerank", "--graph", "a", "--checkpoint-every", "5", "--checkpoint-dir", "/ck"});
  EXPECT_EQ(c.checkpoint_every, 5u);
  EXPECT_EQ(c.checkpoint_dir, "/ck");
  EXPECT_TRUE(c.resume_dir.empty());
  const Config r = parse({"--app", "pagerank", "--graph", "a", "--resume", "/ck", "--checkpoint-every", "2"});
  EXPECT_EQ(r.checkpoint_dir, "/ck") << "new checkpoints go where the old ones were";
  EXPECT_EQ(parse({"--app", "pagerank", "--graph", "a", "--resume", "/ck"}).checkpoint_every, 0u);
  EXPECT_ERROR_MENTIONS(({"--app", "pagerank", "--graph", "a", "--checkpoint-every", "5"}), "--checkpoint-every 5",
                        "needs --checkpoint-dir");
  EXPECT_ERROR_MENTIONS(({"--app", "pagerank", "--graph", "a", "--checkpoint-dir", "/ck"}), "--checkpoint-dir /ck",
                        "needs --checkpoint-every");
  EXPECT_ERROR_MENTIONS(({"--app", "pagerank", "--graph", "a", "--checkpoint-every", "0", "--checkpoint-dir", "/ck"}),
                        "--checkpoint-every", "0 is out of range");
  EXPECT_ERROR_MENTIONS(({"--app", "lcc", "--graph", "a", "--resume", "/ck"}), "lcc", "no checkpoints");
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "a", "--nodes", "2", "--no-auth", "--crash-node", "1:checkpoint"}),
                        "--crash-node R:checkpoint needs --checkpoint-every");
  EXPECT_TRUE(parse({"--app", "bfs", "--graph", "a", "--nodes", "2", "--rank", "1", "--no-auth", "--crash-node", "1:checkpoint",
                     "--checkpoint-every", "3", "--checkpoint-dir", "/ck"})
                  .engine.crash_in_checkpoint);
  EXPECT_FALSE(parse({"--app", "bfs", "--graph", "a", "--nodes", "2", "--rank", "0", "--no-auth", "--crash-node", "1:checkpoint",
                      "--checkpoint-every", "3", "--checkpoint-dir", "/ck"})
                   .engine.crash_in_checkpoint)
      << "only node 1 dies";
}

// ---- the option table: digest, help, docs -------------------------------------

// Every option the node has taken so far (the switch this table replaced),
// and the options answered before the EAL starts.
constexpr const char* kEveryOption[] = {
    "app", "graph", "save-snapshot", "format", "undirected", "nodes", "rank", "source", "iterations", "out", "job-id", "udp-port",
    "peer-timeout", "hello-timeout", "progress-timeout", "mbufs", "top", "quiet", "verbose", "out-keep-others",
    "window", "rto-min-us",
    "rto-max-us", "ast-us", "ack-delay-us", "keepalive-ms", "checksum", "fault-rx", "fault-tx", "fault-seed",
    "fault-delay-us", "crash-node", "roles", "scatter", "segment-kib", "local-rounds", "domains", "domain-split",
    "vertex-order", "line-rate", "rx-queues", "range-kib", "mtu", "ntuple", "damping", "precision", "output-format",
    "key-file", "no-auth", "ids", "help", "help-all", "version", "verify", "verify-limit", "checkpoint-every",
    "checkpoint-dir", "resume", "sources", "seeds", "tolerance", "normalize", "weight-column", "vertices", "weighted"};

// --seeds (ppr): a comma list or a file of ids, as the input names them.
TEST_F(Options, SeedsAreAListOrAFileOfIds) {
  EXPECT_EQ(parse({"--app", "ppr", "--graph", "a", "--seeds", "7, 3,-2"}).seed_ids, (std::vector<int64_t>{7, 3, -2}));
  test::TempDir dir;
  const std::string path = dir.file("seeds.txt");
  std::ofstream(path) << "# two seeds\n12\n\n  5  # the hub\n";
  const Config c = parse({"--app", "ppr", "--graph", "a", "--seeds", path.c_str()});
  EXPECT_EQ(c.seed_ids, (std::vector<int64_t>{12, 5}));
  EXPECT_EQ(c.params().seed_ids, (std::vector<int64_t>{12, 5}));
  EXPECT_TRUE(c.params().seeds_given);
  EXPECT_FALSE(c.one_source());  // no source is looked up for it
  EXPECT_FALSE(parse({"--app", "ppr", "--graph", "a", "--source", "4"}).params().seeds_given);
  EXPECT_ERROR_MENTIONS(({"--app", "ppr", "--graph", "a", "--seeds", "1,x"}), "--seeds");
  EXPECT_ERROR_MENTIONS(({"--app", "ppr", "--graph", "a", "--seeds", "4,1,4"}), "names vertex 4 twice");
  EXPECT_ERROR_MENTIONS(({"--app", "ppr", "--graph", "a", "--seeds", "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"}),
                        "names 17 seeds: at most 16");
  EXPECT_ERROR_MENTIONS(({"--app", "ppr", "--graph", "a", "--seeds", "/nonexistent/seeds"}), "neither a comma list");
  EXPECT_ERROR_MENTIONS(({"--app", "ppr", "--graph", "a", "--seeds", "1", "--source", "2"}), "--source and --seeds");
  EXPECT_ERROR_MENTIONS(({"--app", "pagerank", "--graph", "a", "--seeds", "1"}), "only ppr reads it");
}

TEST(OptionTable, HoldsEveryOptionOnce) {
  std::set<std::string> names;
  for (const OptionSpec& o : option_table()) {
    EXPECT_TRUE(names.insert(std::string(o.name)).second) << "--" << o.name << " twice";
    EXPECT_FALSE(o.help.empty()) << "--" << o.name;
    EXPECT_NE(o.parse, nullptr) << "--" << o.name;
  }
  EXPECT_EQ(names, std::set<std::string>(std::begin(kEveryOption), std::end(kEveryOption)));
}

// Which options every node of a job must agree on, and values that differ:
// the digest changes with each, and with nothing else.
TEST_F(Options, TheDigestHoldsTheJobsOptionsAndNoOthers) {
  using Args = std::vector<const char*>;
  struct Pair {
    const char* option;
    Args a, b;
  };
  const Args g = {"--graph", "g.el"};
  auto with = [&g](const char* app, Args more) {
    Args v = {"--app", app};
    v.insert(v.end(), g.begin(), g.end());
    v.insert(v.end(), more.begin(), more.end());
    return v;
  };
  const Pair job[] = {
      {"undirected", with("cc", {}), with("cc", {"--undirected"})},
      {"weight-column", with("sssp", {}), with("sssp", {"--weight-column", "4"})},
      {"vertices", with("cc", {}), with("cc", {"--vertices", "9"})},
      {"weighted", with("pagerank", {}), with("pagerank", {"--weighted"})},
      {"source", with("sssp", {"--source", "1"}), with("sssp", {"--source", "2"})},
      {"sources", with("bc", {"--sources", "1"}), with("bc", {"--sources", "2"})},
      {"seeds", with("ppr", {"--seeds", "1,2"}), with("ppr", {"--seeds", "2,1"})},  // the columns' order counts
      {"iterations", with("pagerank", {"--iterations", "3"}), with("pagerank", {"--iterations", "4"})},
      {"damping", with("pagerank", {"--damping", "0.5"}), with("pagerank", {"--damping", "0.6"})},
      {"tolerance", with("pagerank", {"--tolerance", "1e-6"}), with("pagerank", {"--tolerance", "1e-5"})},
      {"normalize", with("bc", {}), with("bc", {"--normalize", "networkx"})},
      {"precision", with("pagerank", {"--precision", "single"}), with("pagerank", {"--precision", "double"})},
      {"ids", with("cc", {"--ids", "dense"}), with("cc", {"--ids", "sparse"})},
      {"checksum", with("cc", {"--no-auth", "--checksum", "on"}), with("cc", {"--no-auth", "--checksum", "off"})},
      {"key-file", with("cc", {"--nodes", "2"}), with("cc", {"--nodes", "2", "--no-auth"})},
      {"domains", with("cc", {"--domains", "2"}), with("cc", {"--domains", "4"})},
      {"domain-split", with("cc", {"--domain-split", "metis"}), with("cc", {"--domain-split", "even"})},
      {"vertex-order", with("cc", {"--vertex-order", "degree"}), with("cc", {"--vertex-order", "input"})},
      {"rx-queues", with("cc", {"--rx-queues", "1"}), with("cc", {"--rx-queues", "2"})},
      {"range-kib", with("cc", {"--range-kib", "64"}), with("cc", {"--range-kib", "128"})},
      {"mtu", with("cc", {"--mtu", "1500"}), with("cc", {"--mtu", "9000"})},
  };
  const Pair per_node[] = {
      {"rank", with("cc", {"--nodes", "2", "--rank", "0"}), with("cc", {"--nodes", "2", "--rank", "1"})},
      {"out", with("cc", {}), with("cc", {"--out", "x"})},
      {"job-id", with("cc", {"--job-id", "5"}), with("cc", {"--job-id", "6"})},
      {"udp-port", with("cc", {}), with("cc", {"--udp-port", "5000"})},
      {"format", with("cc", {}), with("cc", {"--format", "edgelist"})},
      {"output-format", with("cc", {}), with("cc", {"--output-format", "graphalytics"})},
      {"peer-timeout", with("cc", {}), with("cc", {"--peer-timeout", "9"})},
      {"hello-timeout", with("cc", {}), with("cc", {"--hello-timeout", "9"})},
      {"progress-timeout", with("cc", {}), with("cc", {"--progress-timeout", "9"})},
      {"mbufs", with("cc", {}), with("cc", {"--mbufs", "4095"})},
      {"top", with("cc", {}), with("cc", {"--top", "2"})},
      {"quiet", with("cc", {}), with("cc", {"--quiet"})},
      {"verbose", with("cc", {}), with("cc", {"--verbose"})},
      {"out-keep-others", with("cc", {}), with("cc", {"--out-keep-others"})},
      {"line-rate", with("cc", {}), with("cc", {"--line-rate", "25"})},
      {"roles", with("cc", {}), with("cc", {"--roles", "shared"})},
      {"scatter", with("cc", {}), with("cc", {"--scatter", "dense"})},
      {"segment-kib", with("cc", {}), with("cc", {"--segment-kib", "64"})},
      {"local-rounds", with("sssp", {}), with("sssp", {"--local-rounds", "on"})},
      {"window", with("cc", {}), with("cc", {"--window", "8"})},
      {"rto-min-us", with("cc", {}), with("cc", {"--rto-min-us", "300"})},
      {"rto-max-us", with("cc", {}), with("cc", {"--rto-max-us", "300000"})},
      {"ast-us", with("cc", {}), with("cc", {"--ast-us", "1"})},
      {"ack-delay-us", with("cc", {}), with("cc", {"--ack-delay-us", "10"})},
      {"keepalive-ms", with("cc", {}), with("cc", {"--keepalive-ms", "50"})},
      {"fault-rx", with("cc", {}), with("cc", {"--fault-rx", "drop=0.5"})},
      {"fault-tx", with("cc", {}), with("cc", {"--fault-tx", "dup=0.5"})},
      {"fault-seed", with("cc", {}), with("cc", {"--fault-seed", "9"})},
      {"fault-delay-us", with("cc", {}), with("cc", {"--fault-delay-us", "9"})},
      {"crash-node", with("cc", {}), with("cc", {"--crash-node", "0:3"})},
  };
  std::set<std::string> job_options;
  for (const Pair& p : job) {
    job_options.insert(p.option);
    EXPECT_NE(parse(p.a).params_digest(), parse(p.b).params_digest()) << "--" << p.option;
  }
  for (const Pair& p : per_node) EXPECT_EQ(parse(p.a).params_digest(), parse(p.b).params_digest()) << "--" << p.option;
  for (const OptionSpec& o : option_table())
    EXPECT_EQ(o.digest != nullptr, job_options.count(std::string(o.name)) == 1) << "--" << o.name;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void expect_within_80_columns(const std::string& text, const std::string& what) {
  for (const std::string& line : lines_of(text))
    EXPECT_LE(line.size(), 80u) << what << ": " << line.size() << " columns: " << line;
}

TEST(Help, TheShortPageHoldsTheCommonOptionsAndSaysWhereTheRestIs) {
  const std::string page = help_text({}, program_traits());
  expect_within_80_columns(page, "--help");
  const std::vector<std::string> lines = lines_of(page);
  EXPECT_LE(lines.size(), 31u) << page;  // the program list takes 2 lines since ppr
  for (const char* common : {"--app APP", "--graph SPEC", "--source V", "--iterations K", "--nodes P", "--rank R",
                             "--out DIR", "--help", "--version"})
    EXPECT_NE(page.find(common), std::string::npos) << common << " not in:\n" << page;
  for (const char* rest : {"--rto-min-us", "--fault-rx", "--segment-kib", "--window"})
    EXPECT_EQ(page.find(rest), std::string::npos) << rest << " on the short page";
  for (const ProgramTraits& p : program_traits()) EXPECT_NE(page.find(p.name), std::string::npos) << p.name;
  ASSERT_FALSE(lines.empty());
  const std::string end = lines[lines.size() - 2] + " " + lines.back();
  EXPECT_NE(end.find("--help-all"), std::string::npos) << "the page ends saying how to see the rest: " << end;
  EXPECT_NE(end.find("--help TOPIC"), std::string::npos) << end;
}

TEST(Help, EveryTopicAndTheWholeTextFit80Columns) {
  const std::string all = help_text({"all"}, program_traits());
  expect_within_80_columns(all, "--help-all");
  for (const char* name : kEveryOption) EXPECT_NE(all.find(std::string("--") + name), std::string::npos) << name;
  for (const char* topic : {"common", "input", "output", "security", "tuning", "transport", "testing", "programs"}) {
    const std::string text = help_text({topic}, program_traits());
    expect_within_80_columns(text, std::string("--help ") + topic);
    EXPECT_GT(lines_of(text).size(), 2u) << topic;
  }
  const std::string tuning = help_text({"tuning"}, program_traits());
  EXPECT_NE(tuning.find("--segment-kib N"), std::string::npos) << tuning;
  EXPECT_EQ(tuning.find("--window"), std::string::npos) << tuning;
  EXPECT_NE(help_text({"testing"}, program_traits()).find("--crash-node R:S"), std::string::npos);
  // A program parameter says who reads it and where a Graphalytics graph's default comes from.
  const std::string common = help_text({"common"}, program_traits());
  EXPECT_NE(common.find("Read by pagerank, cd and ppr"), std::string::npos) << common;
  EXPECT_NE(all.find("pr.damping-factor"), std::string::npos);
  EXPECT_THROW(help_text({"bogus"}, program_traits()), ConfigError);
}

TEST(Help, RequestsAreFoundAnywhere) {
  auto request = [](std::vector<const char*> args) {
    std::vector<char*> argv;
    for (const char* a : args) argv.push_back(arena().emplace_back(a).data());
    return help_request(static_cast<int>(argv.size()), argv.data());
  };
  EXPECT_FALSE(request({"wiregraph", "--no-pci", "--", "--app", "bfs"}));
  EXPECT_EQ(request({"wiregraph", "--", "--app", "bfs", "--help"})->topic, "");
  EXPECT_EQ(request({"wiregraph", "-h"})->topic, "");
  EXPECT_EQ(request({"wiregraph", "--help", "tuning"})->topic, "tuning");
  EXPECT_EQ(request({"wiregraph", "--help=transport"})->topic, "transport");
  EXPECT_EQ(request({"wiregraph", "--help", "--app"})->topic, "") << "not a topic: the short page";
  // A word after --help is the topic asked for, even one that is none: the
  // node refuses it (exit 2) naming the topics, not the short page.
  const std::optional<HelpRequest> unknown = request({"wiregraph", "--help", "nosuchtopic"});
  EXPECT_EQ(unknown->topic, "nosuchtopic");
  try {
    help_text(*unknown, program_traits());
    ADD_FAILURE() << "an unknown topic gave a page";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown topic 'nosuchtopic' (expected common, input, output"),
              std::string::npos)
        << e.what();
  }
  const std::optional<HelpRequest> md = request({"wiregraph", "--help-all", "--markdown"});
  EXPECT_EQ(md->topic, "all");
  EXPECT_TRUE(md->markdown);
}

// docs/OPTIONS.md is generated (wiregraph --help-all --markdown): the
// committed file must be what the table makes of it today.
TEST(Help, DocsOptionsMdIsWhatTheTableGenerates) {
  const char* source = std::getenv("WG_SOURCE_DIR");
  ASSERT_NE(source, nullptr) << "WG_SOURCE_DIR (tests/meson.build sets it)";
  const std::string path = std::string(source) + "/docs/OPTIONS.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::ostringstream committed;
  committed << in.rdbuf();
  const std::string generated = help_text({"all", true}, program_traits());
  EXPECT_TRUE(committed.str() == generated)
      << path << " differs from the option table: regenerate it with\n"
      << "  build/apps/wiregraph --help-all --markdown > docs/OPTIONS.md";
  for (const char* name : kEveryOption) EXPECT_NE(generated.find(std::string("`--") + name), std::string::npos) << name;
}

// ---- application options before `--` ---------------------------------------------

std::optional<std::string> misplaced(std::vector<const char*> args) {
  std::vector<char*> argv;
  for (const char* a : args) argv.push_back(arena().emplace_back(a).data());
  return misplaced_app_option(static_cast<int>(argv.size()), argv.data());
}

TEST(MisplacedOptions, ApplicationOptionsBeforeTheSeparatorAreFound) {
  EXPECT_EQ(misplaced({"wiregraph", "--app", "pagerank", "--graph", "g"}), "--app");
  EXPECT_EQ(misplaced({"wiregraph", "--no-pci", "--vdev", "net_null0", "--app", "pagerank"}), "--app");
  EXPECT_EQ(misplaced({"wiregraph", "-l", "0-1", "--nodes=2", "--", "--app", "bfs"}), "--nodes=2");
  EXPECT_FALSE(misplaced({"wiregraph", "--no-pci", "--vdev", "net_null0", "--", "--app", "bfs", "--graph", "g"}));
  EXPECT_FALSE(misplaced({"wiregraph", "--no-pci", "--file-prefix", "wg1", "--in-memory", "-l", "0"}));
  EXPECT_FALSE(misplaced({"wiregraph", "--version"}));
  const std::string e = misplaced_app_option_error("--app");
  EXPECT_NE(e.find("application options go after --: wiregraph [EAL options] -- --app"), std::string::npos) << e;
}

// DPDK 22.11's EAL long options (`dpdk-test-acl --help`): none may be an
// application option too, or the check above would refuse an EAL option.
TEST(MisplacedOptions, NoApplicationOptionIsAnEalOption) {
  for (const char* eal :
       {"allow", "base-virtaddr", "block", "create-uio-dev", "file-prefix", "force-max-simd-bitwidth", "huge-dir",
        "huge-unlink", "huge-worker-stack", "in-memory", "iova-mode", "lcores", "legacy-mem", "log-level",
        "main-lcore", "match-allocations", "mbuf-pool-ops-name", "no-hpet", "no-huge", "no-pci", "no-shconf",
        "no-telemetry", "proc-type", "single-file-segments", "socket-limit", "socket-mem", "syslog", "telemetry",
        "trace", "trace-bufsz", "trace-dir", "trace-mode", "vdev", "vfio-intr", "vfio-vf-token", "vmware-tsc-map"})
    EXPECT_EQ(find_option(eal), nullptr) << "--" << eal;
}

// --vertices N: dense ids 0..N-1, in the banner and the job's digest;
// refused with --ids sparse, where the generator makes another count, and
// outside 1..4294967295.
TEST_F(Options, VerticesAreDenseAndEnterTheDigest) {
  const Config c = parse({"--app", "cc", "--graph", "g.txt", "--vertices", "10"});
  EXPECT_EQ(c.vertices, 10u);
  EXPECT_FALSE(c.sparse_ids);
  EXPECT_NE(c.describe().find("vertices 0..9"), std::string::npos) << c.describe();
  EXPECT_NE(c.params_digest(), parse({"--app", "cc", "--graph", "g.txt", "--vertices", "11"}).params_digest());
  EXPECT_NE(c.params_digest(), parse({"--app", "cc", "--graph", "g.txt"}).params_digest());
  EXPECT_EQ(parse({"--app", "cc", "--graph", "kron:4:2", "--vertices", "16"}).vertices, 16u);
  EXPECT_EQ(parse({"--app", "cc", "--graph", "g.txt", "--vertices", "4294967295"}).vertices, 4294967295u);
  // --source is a dense id, not one of an edge list's maybe-mapped ids.
  EXPECT_EQ(parse({"--app", "bfs", "--graph", "g.txt", "--vertices", "10", "--source", "9"}).source, 9u);
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "g.txt", "--vertices", "5", "--ids", "sparse"}), "--vertices 5",
                        "--ids sparse", "give one");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "kron:4:2", "--vertices", "17"}), "--vertices 17",
                        "16 vertices");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "g.txt", "--vertices", "0"}), "--vertices", "0 is out of range");
  EXPECT_ERROR_MENTIONS(({"--app", "cc", "--graph", "g.txt", "--vertices", "4294967296"}), "--vertices");
}

// --weighted: pagerank's weighted twin, in double precision; refused for a
// program without one and with --precision single.
TEST_F(Options, WeightedIsPageRanksAndDouble) {
  const Config c = parse({"--app", "pagerank", "--graph", "g.txt", "--weighted"});
  EXPECT_TRUE(c.weighted);
  EXPECT_TRUE(c.double_precision);
  EXPECT_TRUE(c.reads_weights());
  EXPECT_NE(c.describe().find("weighted"), std::string::npos) << c.describe();
  EXPECT_FALSE(parse({"--app", "pagerank", "--graph", "g.txt"}).reads_weights());
  EXPECT_ERROR_MENTIONS(({"--app", "bfs", "--graph", "g.txt", "--weighted"}), "--weighted", "pagerank");
  EXPECT_ERROR_MENTIONS(({"--app", "pagerank", "--graph", "g.txt", "--weighted", "--precision", "single"}),
                        "--weighted", "--precision single");
}

}  // namespace
}  // namespace wg
