#include "compute/engine/summary_stats.h"

#include <cinttypes>
#include <cstdio>
#include <map>

#include "compute/report/text.h"

namespace wg {

namespace {

// Counts of each label among a node's vertices: open addressing, linear
// probing, at most half full. UINT32_MAX marks an empty slot (and is counted
// apart, should a label be it).
class LabelCounter {
 public:
  void add(uint32_t label) {
    if (label == kEmpty) {
      ++empty_label_;
      return;
    }
    if (2 * (used_ + 1) > keys_.size()) grow();
    size_t i = slot_of(label);
    while (keys_[i] != kEmpty && keys_[i] != label) i = (i + 1) & (keys_.size() - 1);
    if (keys_[i] == kEmpty) {
      keys_[i] = label;
      ++used_;
    }
    ++counts_[i];
  }
  template <class F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] != kEmpty) f(keys_[i], counts_[i]);
    if (empty_label_) f(kEmpty, empty_label_);
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  size_t slot_of(uint32_t label) const { return static_cast<size_t>(sketch_hash(label)) & (keys_.size() - 1); }
  void grow() {
    std::vector<uint32_t> keys = std::move(keys_);
    std::vector<uint64_t> counts = std::move(counts_);
    keys_.assign(std::max<size_t>(1024, 2 * keys.size()), kEmpty);
    counts_.assign(keys_.size(), 0);
    for (size_t j = 0; j < keys.size(); ++j) {
      if (keys[j] == kEmpty) continue;
      size_t i = slot_of(keys[j]);
      while (keys_[i] != kEmpty) i = (i + 1) & (keys_.size() - 1);
      keys_[i] = keys[j];
      counts_[i] = counts[j];
    }
  }
  std::vector<uint32_t> keys_;
  std::vector<uint64_t> counts_;
  size_t used_ = 0;
  uint64_t empty_label_ = 0;
};

bool larger(const LabelCount& a, const LabelCount& b) {
  return a.count != b.count ? a.count > b.count : a.label < b.label;
}

}  // namespace

std::string degenerate_hints(const SummaryContext& c, bool source) {
  std::string h = source ? "Is --source the vertex you meant (numbered as the results number vertices)?"
                         : "Do the input's ids leave gaps (--ids sparse numbers only the ids the edges "
                           "name)?";
  if (source && !c.undirected) h += " Do the edges point the other way (--undirected follows them both ways)?";
  return h;
}

// ---- reach --------------------------------------------------------------------

ReachSummary total_reach(std::span<const ReachSummary> nodes) {
  ReachSummary t;
  for (const ReachSummary& n : nodes) {
    t.reached += n.reached;
    t.farthest = std::max(t.farthest, n.farthest);
  }
  return t;
}

MarkedTotal total_marked(std::span<const MarkedVertices> nodes, const SummaryContext& c) {
  MarkedTotal t;
  for (const MarkedVertices& n : nodes) {
    t.marks += n.marks;
    const int64_t shift = n.dense_ids ? c.first_id : 0;
    for (uint32_t i = 0; i < n.listed && i < kListedMarks; ++i) t.ids.push_back(n.smallest[i] + shift);
  }
  std::sort(t.ids.begin(), t.ids.end());
  if (t.ids.size() > kListedMarks) t.ids.resize(kListedMarks);
  for (size_t i = 0; i < t.ids.size(); ++i) t.listed += text_printf("%s%" PRId64, i ? ", " : "", t.ids[i]);
  if (t.ids.size() < t.marks) t.listed += t.listed.empty() ? "..." : ", ...";
  return t;
}

std::string top_three(const SummaryContext& c, const char* value_name, nlohmann::ordered_json* json) {
  std::string top;
  *json = nlohmann::ordered_json::array();
  for (size_t i = 0; i < c.top.size(); ++i) {
    const int64_t vertex = c.top[i].vertex;  // copies: TopEntry is packed
    const double value = c.top[i].value;
    if (i < 3) top += text_printf("%svertex %" PRId64 " (%.6g)", i ? ", " : "", vertex, value);
    json->push_back({{"vertex", vertex}, {value_name, value}});
  }
  return top;
}

ProgramOutcome describe_reach(const ReachSummary& t, const SummaryContext& c, const char* farthest_name,
                              bool integral) {
  ProgramOutcome out;
  const std::string farthest = integral ? text_printf("%.0f", t.farthest) : text_printf("%.10g", t.farthest);
  out.line = text_printf("%" PRIu64 " of %" PRIu64 " vertices reached (%.1f%%), %s %s", t.reached, c.vertices,
                    percent_of(t.reached, c.vertices), farthest_name, farthest.c_str());
  std::string key = farthest_name;
  std::replace(key.begin(), key.end(), ' ', '_');
  out.figures["reached"] = t.reached;
  out.figures["unreached"] = c.vertices - std::min(c.vertices, t.reached);
  if (integral)
    out.figures[key] = static_cast<uint64_t>(t.farthest);
  else
    out.figures[key] = t.farthest;
  const uint64_t unreached = c.vertices - std::min(c.vertices, t.reached);
  if (t.reached <= 1 && c.vertices > 1)
    out.warnings.push_back("the source " + c.source + " reaches only itself: no edge leaves it. " +
                           degenerate_hints(c, true));
  else if (t.reached <= kHandful && 10 * unreached >= 9 * c.vertices)
    out.warnings.push_back(text_printf("the source %s reaches only %" PRIu64 " of %" PRIu64 " vertices. ",
                                  c.source.c_str(), t.reached, c.vertices) +
                           degenerate_hints(c, true));
  return out;
}

// ---- labels -------------------------------------------------------------------

uint64_t sketch_hash(uint32_t label) {  // splitmix64's finaliser
  uint64_t z = uint64_t{label} + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void sketch_add(uint8_t* sketch, uint32_t label) {
  const uint64_t h = sketch_hash(label);
  const size_t index = static_cast<size_t>(h >> (64 - kSketchBits));
  const uint64_t rest = h << kSketchBits;
  const uint8_t rank = static_cast<uint8_t>(rest == 0 ? 64 - kSketchBits + 1 : std::countl_zero(rest) + 1);
  sketch[index] = std::max(sketch[index], rank);
}

double sketch_estimate(const uint8_t* sketch) {
  constexpr double m = 1u << kSketchBits;
  double z = 0;
  unsigned zeros = 0;
  for (size_t j = 0; j < (1u << kSketchBits); ++j) {
    z += std::ldexp(1.0, -sketch[j]);
    zeros += sketch[j] == 0;
  }
  const double alpha = 0.7213 / (1 + 1.079 / m);
  const double raw = alpha * m * m / z;
  if (raw <= 2.5 * m && zeros > 0) return m * std::log(m / zeros);  // linear counting
  return raw;
}

LabelCensus census_of(std::span<const uint32_t> labels, const LocalGraph& g) {
  LabelCensus c;
  LabelCounter counter;
  for (uint32_t i = 0; i < labels.size(); ++i) {
    counter.add(labels[i]);
    c.own_label += labels[i] == g.global_id(i);
    c.isolated += i < g.out_degree.size() && g.out_degree[i] == 0;
  }
  c.vertices = labels.size();
  std::vector<LabelCount> all;
  counter.for_each([&](uint32_t label, uint64_t count) {
    all.push_back({label, count});
    sketch_add(c.sketch, label);
  });
  c.distinct = all.size();
  const size_t k = std::min<size_t>(kCensusEntries, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<ptrdiff_t>(k), all.end(), larger);
  std::copy(all.begin(), all.begin() + static_cast<ptrdiff_t>(k), c.top);
  c.listed = static_cast<uint32_t>(k);
  return c;
}

CensusTotals total_census(std::span<const LabelCensus> nodes) {
  CensusTotals t;
  struct Candidate {
    uint64_t lower = 0;
    std::vector<bool> listed_by;
  };
  std::map<uint32_t, Candidate> candidates;
  std::vector<uint64_t> threshold(nodes.size(), 0);  // what a label missing from node r's list may have there
  uint64_t thresholds = 0;
  bool complete = true;
  uint8_t sketch[1u << kSketchBits] = {};
  uint64_t most_distinct = 0;
  for (size_t r = 0; r < nodes.size(); ++r) {
    const LabelCensus& n = nodes[r];
    t.vertices += n.vertices;
    t.own_label += n.own_label;
    t.isolated += n.isolated;
    most_distinct = std::max(most_distinct, n.distinct);
    const uint32_t listed = std::min<uint32_t>(n.listed, kCensusEntries);
    if (listed < n.distinct) {
      complete = false;
      threshold[r] = listed ? n.top[listed - 1].count : n.vertices;
      thresholds += threshold[r];
    }
    for (uint32_t i = 0; i < listed; ++i) {
      Candidate& c = candidates[n.top[i].label];
      c.lower += n.top[i].count;
      c.listed_by.resize(nodes.size(), false);
      c.listed_by[r] = true;
    }
    for (size_t j = 0; j < sizeof sketch; ++j) sketch[j] = std::max(sketch[j], n.sketch[j]);
  }
  if (complete) {
    t.labels = candidates.size();
    t.labels_exact = true;
  } else {
    const double estimate = std::llround(sketch_estimate(sketch));
    t.labels = std::max<uint64_t>({static_cast<uint64_t>(estimate), candidates.size(), most_distinct});
  }
  if (candidates.empty()) {
    t.largest_exact = true;
    return t;
  }
  auto upper = [&](const Candidate& c) {
    uint64_t u = c.lower;
    for (size_t r = 0; r < nodes.size(); ++r)
      if (!c.listed_by[r]) u += threshold[r];
    return u;
  };
  auto best = candidates.begin();
  for (auto it = candidates.begin(); it != candidates.end(); ++it)
    if (it->second.lower > best->second.lower) best = it;  // map order: the smaller label among equals
  t.largest = best->second.lower;
  bool certain = upper(best->second) == t.largest && thresholds <= t.largest;
  for (auto it = candidates.begin(); certain && it != candidates.end(); ++it)
    certain = it == best || upper(it->second) <= t.largest;
  t.largest_exact = certain;
  return t;
}

void warn_if_mostly_isolated(uint64_t isolated, const SummaryContext& c, ProgramOutcome& out) {
  if (c.vertices == 0 || 2 * isolated <= c.vertices) return;
  out.warnings.push_back(text_printf("%" PRIu64 " of %" PRIu64 " vertices (%.0f%%) have no edges. ", isolated, c.vertices,
                                percent_of(isolated, c.vertices)) +
                         degenerate_hints(c, false));
}

ProgramOutcome describe_groups(std::span<const LabelCensus> nodes, const SummaryContext& c, const char* groups,
                               const char* group) {
  const CensusTotals t = total_census(nodes);
  ProgramOutcome out;
  out.line = text_printf("%" PRIu64 " %s, the largest of %s%" PRIu64 " vertices (%.1f%%)", t.own_label, groups,
                         t.largest_exact ? "" : "at least ", t.largest, percent_of(t.largest, c.vertices));
  out.figures = {{groups, t.own_label},
                 {std::string("largest_") + group, t.largest},
                 {std::string("largest_") + group + "_exact", t.largest_exact},
                 {"vertices_without_edges", t.isolated}};
  warn_if_mostly_isolated(t.isolated, c, out);
  return out;
}

}  // namespace wg
