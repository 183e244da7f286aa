// The engine's view of a vertex program (compute/engine/program_model.h): a
// program in the minimal form gets every member it does not write, with the
// documented defaults; a full program (every built-in) is its own view, the
// same type, so the engine compiles the same code for it. The engine runs of
// the minimal programs against their oracles are in tests/test_engine.cc
// (EngineMinimalPrograms) and the cluster matrix (tests/wire_classes.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "apps/programs.h"
#include "apps/registry.h"
#include "tests/graphs_for_tests.h"
#include "tests/minimal_oracles.h"

namespace wg {
namespace {

// ---- the built-ins pass through --------------------------------------------

template <class P>
constexpr bool kPassesThrough = std::is_same_v<Completed<P>, P>;
static_assert(kPassesThrough<PageRank> && kPassesThrough<BasicPageRank<double>> && kPassesThrough<WeightedPageRank>);
static_assert(kPassesThrough<Sssp> && kPassesThrough<RealSssp> && kPassesThrough<Bfs>);
static_assert(kPassesThrough<ConnectedComponents> && kPassesThrough<LabelPropagation> && kPassesThrough<KCore>);
static_assert(kPassesThrough<Bc>);
static_assert(std::is_same_v<DoublePrecision<PageRank>::type, BasicPageRank<double>>);
static_assert(std::is_same_v<DoublePrecision<Sssp>::type, RealSssp>);
static_assert(std::is_same_v<Weighted<PageRank>::type, WeightedPageRank>);
static_assert(std::is_same_v<DoublePrecision<Bfs>::type, Bfs> && std::is_same_v<Weighted<Sssp>::type, Sssp>);

// ---- capabilities a program derives --------------------------------------------

// Path lengths (compute/engine/capabilities/path_lengths.h): SSSP writes no
// bucket, light_below or prepare, and the engine still runs it by
// delta-stepping, with a bucket width of an eighth of the node's mean weight.
static_assert(prioritized<Sssp>() && splits_light_edges<Sssp>() && prepares<Sssp>());
static_assert(!prioritized<RealSssp>() && !prioritized<Bfs>());

TEST(PathLengths, BucketsByAnEighthOfTheNodesMeanWeight) {
  PathLengths<uint32_t> order;
  order.prepare(NodeGraphFigures{.out_edges = 10, .weight_sum = 10 * 128});  // mean 128: delta 16
  EXPECT_EQ(order.light_below(), 16u);
  EXPECT_EQ(order.bucket(15), 0u);
  EXPECT_EQ(order.bucket(16), 1u);
  EXPECT_EQ(order.bucket(33), 2u);
  order.prepare(NodeGraphFigures{.out_edges = 10, .weight_sum = 50});  // mean 5: at least 1
  EXPECT_EQ(order.light_below(), 1u);
  EXPECT_EQ(order.bucket(7), 7u);
  order.prepare(NodeGraphFigures{});  // a node without edges
  EXPECT_EQ(order.light_below(), 1u);
}

// ---- the minimal programs are completed -------------------------------------

using InDegreeModel = Completed<InDegree>;
using MinLabelModel = Completed<MinLabelComponents>;
static_assert(std::is_same_v<InDegreeModel, ProgramModel<InDegree>> && VertexProgram<InDegreeModel>);
static_assert(std::is_same_v<MinLabelModel, ProgramModel<MinLabelComponents>> && VertexProgram<MinLabelModel>);
static_assert(std::is_same_v<InDegreeModel::Message, uint32_t> && std::is_same_v<InDegreeModel::Aggregate, NoAggregate>);
static_assert(sizeof(MinLabelModel) == sizeof(ProgramBase) && std::is_trivially_copyable_v<MinLabelModel>);
static_assert(HasOracle<InDegreeModel> && !HasOracle<MinLabelModel>);

// What the program is says what the engine may skip: a Min program without
// apply keeps the smaller value, so a vertex without messages is left alone;
// a program that writes its own apply declares nothing of the kind.
static_assert(declares_idle_phases<MinLabelModel>() && applies_only_with_messages<MinLabelModel>(0));
static_assert(!declares_idle_phases<InDegreeModel>() && !applies_only_with_messages<InDegreeModel>(0));
static_assert(!level_synchronous<MinLabelModel>(0) && !prioritized<MinLabelModel>() && !prepares<MinLabelModel>());

// ---- the programs on the neighbourhood service are completed -----------------

// kNeighbourhood says what they run on: the neighbourhood service, their driver.
using TcModel = Completed<TriangleCount>;
using JaccardModel = Completed<Jaccard>;
static_assert(std::is_same_v<TcModel, DriverProgramModel<TriangleCount>> && DriverProgram<TcModel> &&
              !VertexProgram<TcModel>);
static_assert(std::is_same_v<TcModel::Driver, NeighbourhoodDriver<TriangleCount>> && DriverProgram<Completed<Lcc>>);
static_assert(std::is_same_v<JaccardModel::Driver, NeighbourhoodDriver<Jaccard>>);
// tc keeps its own summary; per-edge results get no per-vertex one (their
// edges' values are summarized: apps/node/run_program.h).
static_assert(std::is_same_v<TcModel::Summary, TriangleCount::Summary> && !SummarizesAnswer<JaccardModel>);
// Their comparisons come from their values: exact counts, ratios within 1e-9.
static_assert(TcModel::kTraits.comparison == Comparison::kExact);
static_assert(JaccardModel::kTraits.comparison == Comparison::kReal && JaccardModel::kTraits.tolerance == 1e-9);
static_assert(Completed<Lcc>::kTraits.comparison == Comparison::kReal && Completed<Lcc>::kTraits.tolerance == 1e-9);

// kCommunities says louvain runs on the community service; its weighted twin too.
using LouvainModel = Completed<Louvain>;
static_assert(std::is_same_v<LouvainModel::Driver, CommunityDriver<Louvain>> && DriverProgram<LouvainModel>);
static_assert(std::is_same_v<Weighted<LouvainModel>::type::Driver, CommunityDriver<LouvainWeighted>>);
static_assert(LouvainModel::kTraits.comparison == Comparison::kExact && CommunityProgram<Louvain>);
static_assert(Weighted<LouvainModel>::type::kTraits.graph.real_weights && !LouvainModel::kTraits.graph.weights);

// A user's own ⊕: a struct with identity() and combine(); Max without apply keeps the larger.
struct Bitwise {
  static uint32_t identity() { return 0; }
  static uint32_t combine(uint32_t a, uint32_t b) { return a | b; }
};
struct Flags {
  static constexpr ProgramTraits kTraits{.name = "flags"};
  using Value = uint32_t;
  using Combine = Bitwise;
  bool init(Value& y, const VertexInfo& v) const { return y = 1u << (v.id % 32), true; }
  bool apply(Value& y, uint32_t m, const VertexInfo&, const StepInfo<NoAggregate>& step) const {
    y |= m;
    return step.superstep < 2;
  }
  uint32_t scatter(const Value& y, const VertexInfo&) const { return y; }
};
struct Highest {
  static constexpr ProgramTraits kTraits{.name = "highest"};
  using Value = float;
  using Combine = Max<float>;
  explicit Highest(const ProgramParams& p) : scale(static_cast<float>(p.damping)) {}
  float scale;
  bool init(Value& y, const VertexInfo& v) const { return y = scale * static_cast<float>(v.id), true; }
  float scatter(const Value& y) const { return y; }
};
static_assert(VertexProgram<Completed<Flags>> && VertexProgram<Completed<Highest>>);
static_assert(!declares_idle_phases<Completed<Flags>>() && applies_only_with_messages<Completed<Highest>>(0));

const VertexInfo kVertex{3, 1, 1, 0};
const StepInfo<NoAggregate> kStep{1, 0, 10, {}};

TEST(ProgramModel, CombinersCarryTheirIdentity) {
  EXPECT_EQ(MinLabelModel::identity(), UINT32_MAX);
  EXPECT_EQ(MinLabelModel::combine(7, 3), 3u);
  EXPECT_EQ(InDegreeModel::identity(), 0u);
  EXPECT_EQ(InDegreeModel::combine(7, 3), 10u);
  EXPECT_EQ(Completed<Flags>::combine(4, 1), 5u);
  EXPECT_EQ(Completed<Highest>::identity(), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(Completed<Highest>::combine(-2.0f, 1.5f), 1.5f);
}

TEST(ProgramModel, AppliesWithOrWithoutTheStepOrKeepsTheBetterValue) {
  const MinLabelModel minlabel = MinLabelModel::make({}, 10);
  uint32_t y = 5;
  EXPECT_FALSE(minlabel.apply(y, MinLabelModel::identity(), kVertex, kStep));  // no message: unchanged
  EXPECT_EQ(y, 5u);
  EXPECT_FALSE(minlabel.apply(y, 9u, kVertex, kStep));
  EXPECT_TRUE(minlabel.apply(y, 2u, kVertex, kStep));
  EXPECT_EQ(y, 2u);

  const InDegreeModel indegree = InDegreeModel::make({}, 10);
  EXPECT_FALSE(indegree.apply(y, 4u, kVertex, kStep));  // its own apply, without the step
  EXPECT_EQ(y, 4u);
  EXPECT_EQ(indegree.scatter_value(y, kVertex), 1u);
  EXPECT_EQ(InDegreeModel::edge_message(1, 7), 1u);  // the scatter value passed through

  const auto flags = Completed<Flags>::make({}, 10);
  EXPECT_TRUE(flags.apply(y, 8u, kVertex, kStep));  // its own apply, with the step
  EXPECT_EQ(y, 12u);

  const auto highest = Completed<Highest>::make(ProgramParams{.damping = 0.5}, 10);  // built from the params
  float z = 0;
  EXPECT_TRUE(highest.init(z, kVertex));
  EXPECT_EQ(z, 1.5f);
  EXPECT_FALSE(highest.apply(z, 1.0f, kVertex, kStep));
  EXPECT_TRUE(highest.apply(z, 2.0f, kVertex, kStep));
  EXPECT_EQ(z, 2.0f);
}

TEST(ProgramModel, StopsWhenNoVertexWasActive) {
  MinLabelModel p = MinLabelModel::make({}, 10);
  EXPECT_FALSE(p.next(StepOutcome<NoAggregate>{0, 0, 4, {}}).stop);
  EXPECT_TRUE(p.next(StepOutcome<NoAggregate>{1, 0, 0, {}}).stop);
}

template <class T>
std::string printed(void (*print)(std::FILE*, const T&), std::type_identity_t<T> y) {
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  print(f, y);
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

TEST(ProgramModel, PrintsAndRanksANumericValue) {
  EXPECT_EQ(printed(&InDegreeModel::print_value, 42), "42");
  EXPECT_EQ(printed(&MinLabelModel::print_value, 7), "7");
  EXPECT_EQ(printed(&MinLabelModel::print_value, UINT32_MAX), "inf");  // Min's identity: no message reached it
  EXPECT_EQ(InDegreeModel::sort_key(9), 9.0);
  EXPECT_EQ(MinLabelModel::sort_key(9), -9.0);  // the smallest first
}

TEST(DriverProgramModel, PrintsAndRanksANumericValue) {
  EXPECT_EQ(printed(&TcModel::print_value, uint64_t{1} << 40), "1099511627776");
  EXPECT_EQ(printed(&Completed<Lcc>::print_value, 1.0 / 3), "0.333333333");  // 9 significant digits
  EXPECT_EQ(TcModel::sort_key(7), 7.0);
}

TEST(ProgramModel, TraitsGetTheirDefaults) {
  EXPECT_EQ(InDegreeModel::kTraits.name, "indegree");
  EXPECT_EQ(InDegreeModel::kTraits.comparison, Comparison::kExact);
  EXPECT_EQ(InDegreeModel::kTraits.value_column, "indegree");  // its own
  EXPECT_EQ(InDegreeModel::kTraits.output, "in-degree");
  EXPECT_EQ(Completed<Flags>::kTraits.output, "value");
  EXPECT_EQ(MinLabelModel::kTraits.comparison, Comparison::kDistance);
  EXPECT_TRUE(MinLabelModel::kTraits.graph.symmetrize);
  EXPECT_EQ(Completed<Flags>::kTraits.value_column, "value");
  EXPECT_EQ(Completed<Highest>::kTraits.comparison, Comparison::kReal);
  EXPECT_GT(Completed<Highest>::kTraits.tolerance, 0.0);
}

// The summary a program that writes none gets: how many vertices hold a
// value other than the unset one (Sum's 0, Min's infinity), their min, max
// and mean, over every node.
TEST(ProgramModel, DefaultSummaryCountsHeldValues) {
  static_assert(SummarizesAnswer<InDegreeModel> && SummarizesAnswer<MinLabelModel>);
  const LocalGraph none{};
  const std::vector<uint32_t> a{0, 3, 0, 5};
  const std::vector<uint32_t> b{1, 0};
  const ValueSummary sa = InDegreeModel::summarize(a, none);
  const ValueSummary sb = InDegreeModel::summarize(b, none);
  EXPECT_EQ(sa.held, 2u);
  const std::vector<ValueSummary> nodes{sa, sb};
  SummaryContext c;
  c.vertices = 6;
  const ProgramOutcome o = InDegreeModel::describe(nodes, c);
  EXPECT_EQ(o.line, "3 of 6 vertices (50.0%) hold a value: min 1, max 5, mean 3");
  EXPECT_EQ(o.figures["vertices_with_value"], 3);
  EXPECT_EQ(o.figures["mean"], 3.0);
  const std::vector<uint32_t> unreached{UINT32_MAX, 4};
  EXPECT_EQ(MinLabelModel::summarize(unreached, none).held, 1u);
  const std::vector<ValueSummary> empty{ValueSummary{}};
  EXPECT_EQ(InDegreeModel::describe(empty, c).line, "0 of 6 vertices (0.0%) hold a value");
}

// The program list: those listed by hand in their order, then the registered
// ones they do not hold, each once.
static_assert(std::is_same_v<Joined<ProgramTypes<Bfs, InDegree>, ProgramList<InDegreeModel, Sssp, Bfs>>,
                             ProgramList<Bfs, InDegreeModel, Sssp>>);

// The registry lists the minimal programs and their oracles: indegree's own,
// none for minlabel (--verify says it cannot check it).
TEST(ProgramModel, RegisteredByTheirHeaders) {
  EXPECT_EQ(program_traits().front().name, "pagerank");  // listed by hand first
  // Only registered: after the last listed by hand (indegree), in the order of their headers' names.
  std::vector<std::string> registered_only;
  bool after = false;
  for (const ProgramTraits& t : program_traits()) {
    if (after) registered_only.emplace_back(t.name);
    after = after || t.name == "indegree";
  }
  EXPECT_TRUE(std::is_sorted(registered_only.begin(), registered_only.end()));
  EXPECT_NE(std::find(registered_only.begin(), registered_only.end(), "minlabel"), registered_only.end());
  EXPECT_EQ(program_entry("indegree").reference, &InDegree::reference);
  EXPECT_EQ(program_entry("minlabel").reference, nullptr);
  EXPECT_EQ(program_entry("minlabel").traits.value_column, "component");
}

// The tests' own oracle for minlabel, by hand: two components and an isolated vertex.
TEST(MinimalOracles, ComponentsByFlooding) {
  const EdgeList g = test::make_graph(6, {{4, 1, 1}, {1, 3, 1}, {5, 2, 1}});
  EXPECT_EQ(ref::components_by_flooding(g), (std::vector<uint64_t>{0, 1, 2, 1, 1, 2}));
  EXPECT_THROW(ref::minimal_program_oracle("nonesuch", g), std::invalid_argument);
}

}  // namespace
}  // namespace wg
