// CheckpointStore (compute/engine/checkpoint_store.h): what a crash may leave
// and what --resume accepts. The files are real, in a temporary directory; a
// writer killed midway is a real child process killed by the store's own
// hook.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "compute/engine/checkpoint_store.h"
#include "compute/engine/checkpointer.h"
#include "tests/temp_dir.h"

namespace wg {
namespace {

using test::TempDir;

CheckpointFingerprint job(unsigned rank = 0, unsigned nodes = 2) {
  JobIdentity id;
  id.program_id = 7;
  id.params_digest = 0x1234;
  id.input_kind = 1;
  id.input_size = 8870;
  id.input_digest = 0xabcdef;
  return CheckpointFingerprint::of(id, nodes, rank, 0x5555);
}

// A node's state: two sections of distinct bytes.
struct State {
  std::vector<uint32_t> values;
  std::vector<float> sigma;
  explicit State(uint32_t seed) : values(1000), sigma(333) {
    std::iota(values.begin(), values.end(), seed);
    for (size_t i = 0; i < sigma.size(); ++i) sigma[i] = static_cast<float>(seed) + 0.5f * static_cast<float>(i);
  }
  std::vector<std::span<uint8_t>> sections() {
    return {{reinterpret_cast<uint8_t*>(values.data()), values.size() * 4},
            {reinterpret_cast<uint8_t*>(sigma.data()), sigma.size() * 4}};
  }
  std::vector<std::span<const uint8_t>> const_sections() {
    const auto s = sections();
    return {s.begin(), s.end()};
  }
};

CheckpointPoint point(uint32_t superstep) {
  CheckpointPoint p;
  p.superstep = superstep;
  p.next_phase = 2;
  p.aggregate[0] = 42;
  return p;
}

// Both nodes write superstep s with states seeded s*10 + rank; rank 0 commits.
void write_both(const std::string& dir, uint32_t s) {
  for (unsigned r = 0; r < 2; ++r) {
    CheckpointStore store(dir, r, 2, job(r));
    State st(s * 10 + r);
    store.write(point(s), st.const_sections());
  }
  std::string missing;
  ASSERT_TRUE(CheckpointStore(dir, 0, 2, job(0)).commit(s, &missing)) << missing;
}

TEST(CheckpointStore, WhatIsWrittenAndCommittedIsReadBack) {
  TempDir tmp;
  const std::string dir = tmp.file("ck");
  EXPECT_FALSE(CheckpointStore::committed(dir).has_value());
  write_both(dir, 4);
  ASSERT_EQ(CheckpointStore::committed(dir), std::optional<uint32_t>(4));
  for (unsigned r = 0; r < 2; ++r) {
    State got(999), want(40 + r);
    const CheckpointPoint at = CheckpointStore(dir, r, 2, job(r)).read(4, got.sections());
    EXPECT_EQ(at.superstep, 4u);
    EXPECT_EQ(at.next_phase, 2u);
    EXPECT_EQ(at.aggregate[0], 42);
    EXPECT_EQ(got.values, want.values) << "node " << r;
    EXPECT_EQ(got.sigma, want.sigma) << "node " << r;
  }
}

TEST(CheckpointStore, NothingIsCommittedUntilEveryNodesFileIsThere) {
  TempDir tmp;
  const std::string dir = tmp.file("ck");
  write_both(dir, 2);
  CheckpointStore node0(dir, 0, 2, job(0));
  State st(5);
  node0.write(point(5), st.const_sections());  // node 1 never writes superstep 5
  std::string missing;
  EXPECT_FALSE(node0.commit(5, &missing));
  EXPECT_EQ(missing, node0.node_file(1, 5));
  EXPECT_EQ(CheckpointStore::committed(dir), std::optional<uint32_t>(2)) << "the marker stays where it was";
  EXPECT_TRUE(std::filesystem::exists(node0.node_file(1, 2))) << "the committed checkpoint's files stay";
}

TEST(CheckpointStore, ACommitRemovesOlderCheckpointsAndTornFiles) {
  TempDir tmp;
  const std::string dir = tmp.file("ck");
  write_both(dir, 2);
  std::ofstream(dir + "/node-1.step-4.tmp") << "half a file";
  std::ofstream(dir + "/notes.txt") << "the user's";
  write_both(dir, 5);
  CheckpointStore store(dir, 0, 2, job(0));
  EXPECT_FALSE(std::filesystem::exists(store.node_file(0, 2)));
  EXPECT_FALSE(std::filesystem::exists(store.node_file(1, 2)));
  EXPECT_FALSE(std::filesystem::exists(dir + "/node-1.step-4.tmp"));
  EXPECT_TRUE(std::filesystem::exists(store.node_file(1, 5)));
  EXPECT_TRUE(std::filesystem::exists(dir + "/notes.txt")) << "only the store's own files go";
}

// A node killed halfway through its write leaves a .tmp that no reader takes
// for a checkpoint; the committed one is intact.
TEST(CheckpointStore, AWriterKilledMidwayLeavesTheCommittedCheckpointWhole) {
  TempDir tmp;
  const std::string dir = tmp.file("ck");
  write_both(dir, 2);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    CheckpointStore store(dir, 1, 2, job(1));
    State st(77);
    store.write(point(5), st.const_sections(), /*crash_midway=*/true);
    _exit(0);  // not reached: the hook kills the writer
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;
  CheckpointStore node1(dir, 1, 2, job(1));
  EXPECT_TRUE(std::filesystem::exists(node1.node_file(1, 5) + ".tmp"));
  EXPECT_FALSE(std::filesystem::exists(node1.node_file(1, 5)));
  State st(5);
  CheckpointStore(dir, 0, 2, job(0)).write(point(5), st.const_sections());
  EXPECT_FALSE(CheckpointStore(dir, 0, 2, job(0)).commit(5)) << "node 1's file of 5 is not complete";
  EXPECT_EQ(CheckpointStore::committed(dir), std::optional<uint32_t>(2));
  State got(0), want(21);
  node1.read(2, got.sections());
  EXPECT_EQ(got.values, want.values);
}

std::string name_program(uint32_t id) { return id == 7 ? "'seven'" : id == 8 ? "'eight'" : "?"; }

void expect_refused(const CheckpointFingerprint& reader, const std::string& dir, const std::string& field) {
  State got(0);
  try {
    CheckpointStore(dir, reader.rank, reader.nodes, reader, &name_program).read(4, got.sections());
    ADD_FAILURE() << "a checkpoint that differs in " << field << " was read";
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("node-0.step-4"), std::string::npos) << "names the file: " << e.what();
  }
}

TEST(CheckpointStore, ACheckpointOfAnotherJobIsRefusedNamingWhatDiffers) {
  TempDir tmp;
  const std::string dir = tmp.file("ck");
  write_both(dir, 4);
  CheckpointFingerprint f = job(0);
  f.program_id = 8;
  expect_refused(f, dir, "the program (it is a checkpoint of 'seven', this job runs 'eight')");  // by name, not id
  f = job(0, 3);
  expect_refused(f, dir, "the number of nodes (it has 2, this job 3)");
  f = job(0);
  f.input_size = 9000;
  expect_refused(f, dir, "the graph");
  f = job(0);
  f.params_digest = 1;
  expect_refused(f, dir, "parameters");
  f = job(0);
  f.partition_digest = 1;
  expect_refused(f, dir, "the partition");
  // A rank the checkpoint has no file for: its COMMIT says how many nodes
  // wrote it (whichever node of a larger job reads first says the same).
  State got(0);
  try {
    CheckpointStore(dir, 2, 3, job(2, 3)).read(4, got.sections());
    ADD_FAILURE() << "node 2 of 3 read a checkpoint of 2 nodes";
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("COMMIT is of another job: it differs in the number of nodes (it has 2, "
                                         "this job 3)"),
              std::string::npos)
        << e.what();
  }
}

TEST(CheckpointStore, ADamagedOrReshapedFileIsRefused) {
  TempDir tmp;
  const std::string dir = tmp.file("ck");
  write_both(dir, 4);
  CheckpointStore store(dir, 0, 2, job(0));
  {
    State other(0);
    other.values.resize(10);  // another engine's shape
    try {
      store.read(4, other.sections());
      ADD_FAILURE() << "a section of another size was read";
    } catch (const CheckpointError& e) {
      EXPECT_NE(std::string(e.what()).find("section 0 holds 4000 bytes"), std::string::npos) << e.what();
    }
  }
  {
    std::fstream f(store.node_file(0, 4), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(400, std::ios::beg);  // inside the values
    f.put('\x7f');
  }
  State got(0);
  try {
    store.read(4, got.sections());
    ADD_FAILURE() << "a damaged file was read";
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("CRC"), std::string::npos) << e.what();
  }
}

TEST(CheckpointStore, AMarkerItDidNotWriteIsNamed) {
  TempDir tmp;
  std::filesystem::create_directories(tmp.file("ck"));
  std::ofstream(tmp.file("ck/COMMIT")) << "superstep seven\n";
  try {
    CheckpointStore::committed(tmp.file("ck"));
    ADD_FAILURE() << "a marker wiregraph does not write was read";
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("ck/COMMIT"), std::string::npos) << e.what();
  }
}

// The hello's digest with --resume: nodes that would go on from different
// supersteps (per-host copies of DIR) do not agree.
TEST(CheckpointStore, TheResumePointIsPartOfWhatNodesAgreeOn) {
  TempDir tmp;
  const std::string dir = tmp.file("ck");
  const uint64_t none = digest_with_resume_point(0x1234, dir);
  write_both(dir, 2);
  const uint64_t two = digest_with_resume_point(0x1234, dir);
  write_both(dir, 5);
  const uint64_t five = digest_with_resume_point(0x1234, dir);
  EXPECT_NE(none, two);
  EXPECT_NE(two, five);
  EXPECT_NE(five, 0x1234u);
  EXPECT_EQ(five, digest_with_resume_point(0x1234, dir)) << "the same DIR, the same digest";
  EXPECT_NE(five, digest_with_resume_point(0x1235, dir)) << "the job's own parameters still count";
}

// A driver that is only its checkpoint sections: three arrays of 1 MiB and
// more (each an mmap of its own, so that a dangling pointer into a freed one
// faults), filled with a pattern per superstep.
class SectionsOnly final : public ProgramDriver {
 public:
  SectionsOnly() : a_(300000), b_(1), c_(500000) {}
  void fill(uint32_t seed) {
    for (size_t i = 0; i < a_.size(); ++i) a_[i] = seed * 1000003u + static_cast<uint32_t>(i);
    b_[0] = seed;
    for (size_t i = 0; i < c_.size(); ++i) c_[i] = seed + 0.25 * static_cast<double>(i);
  }
  std::vector<std::span<uint8_t>> checkpoint_sections(uint32_t) override {
    return {raw_bytes(a_), raw_bytes(b_), raw_bytes(c_)};
  }
  std::vector<uint32_t> a_;
  std::vector<uint64_t> b_;
  std::vector<double> c_;

  unsigned workers() const override { return 0; }
  void apply(unsigned, const StepControl&, const Stall&) override {}
  void scatter(unsigned, const StepControl&, const Stall&) override {}
  const StepStats& worker_stats(unsigned) const override { return stats_; }
  AggregateBytes worker_aggregate(unsigned) const override { return {}; }
  uint64_t buckets_to(unsigned, unsigned, unsigned) const override { return 0; }
  uint64_t records_to(unsigned, unsigned, unsigned) const override { return 0; }
  uint64_t folded_directly(unsigned) const override { return 0; }
  uint64_t direct_overflows(unsigned) const override { return 0; }
  unsigned record_bytes() const override { return 8; }
  const QueueRoutes& routes() const override { return routes_; }
  unsigned domains() const override { return 1; }
  uint32_t domain_size(unsigned) const override { return 0; }
  uint32_t max_index(const uint8_t*, unsigned) const override { return 0; }
  bool fold(const uint8_t*, unsigned, uint32_t, unsigned) override { return true; }
  void merge(AggregateBytes&, const AggregateBytes&) const override {}
  Decision decide(uint32_t, uint32_t, uint64_t, const AggregateBytes&) override { return {false, 0}; }
  std::vector<wire::TopEntry> top(unsigned) const override { return {}; }

 private:
  StepStats stats_;
  QueueRoutes routes_{1, std::vector<uint8_t>{0}};
};

StepControl after(uint32_t s) {
  StepControl c;
  c.superstep = s + 1;
  c.phase = 3;
  return c;
}

// The writer thread writes the state as it was when the superstep ended, not
// as the next superstep changes it, and rank 0 commits a checkpoint `lag`
// supersteps later: a one-node job's whole cycle, files read back.
TEST(Checkpointer, WritesTheStateAsTheSuperstepLeftItAndCommitsItLagSuperstepsLater) {
  TempDir tmp;
  const std::string dir = tmp.file("ck");
  CheckpointStore store(dir, 0, 1, job(0, 1));
  SectionsOnly driver;
  Checkpointer ck(store, driver, 2, 0, false);
  ASSERT_EQ(ck.lag(), 2u);
  for (uint32_t s = 0; s < 8; ++s) {
    driver.fill(s);
    ck.before_end(s);
    ck.between(after(s));  // checkpoints of 1, 3, 5, 7
    driver.fill(1000 + s);  // the next superstep overwrites the state while the writer writes
  }
  ck.finish();
  EXPECT_EQ(ck.figures().written, 4u);
  // 1 committed after 3, 3 after 5, 5 after 7; 7 not yet (its lag is not over).
  EXPECT_EQ(CheckpointStore::committed(dir), std::optional<uint32_t>(5));
  EXPECT_EQ(ck.figures().last_committed, 5);
  EXPECT_FALSE(std::filesystem::exists(store.node_file(0, 3))) << "older than the committed one";
  for (uint32_t s : {5u, 7u}) {
    SectionsOnly got, want;
    want.fill(s);
    const CheckpointPoint at = store.read(s, got.checkpoint_sections(s));
    EXPECT_EQ(at.superstep, s);
    EXPECT_EQ(at.next_phase, 3u);
    EXPECT_EQ(got.a_, want.a_) << "superstep " << s;
    EXPECT_EQ(got.b_, want.b_) << "superstep " << s;
    EXPECT_EQ(got.c_, want.c_) << "superstep " << s;
  }
}

}  // namespace
}  // namespace wg
