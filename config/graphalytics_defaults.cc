#include "config/graphalytics_defaults.h"

#include "compute/graph/graphalytics_input.h"
#include "config/options.h"

namespace wg {

void apply_graphalytics_defaults(ParseState& s) {
  Config& c = s.c;
  GraphalyticsSpec spec;
  try {
    spec = graphalytics_spec(c.graph, c.undirected);
  } catch (const GraphError& e) {
    throw ConfigError(std::string("--graph: ") + e.what());
  }
  auto given = [&s](const char* name) { return s.given[option_index(name)]; };
  if (!given("undirected")) c.undirected = !spec.directed;
  const GraphalyticsNames& names = c.program.graphalytics;
  if (!names.algorithm.empty()) {
    const auto table = option_table();
    for (size_t i = 0; i < table.size(); ++i) {
      const OptionSpec& o = table[i];
      if (s.given[i] || o.graphalytics_key == nullptr || !(c.program.*o.read_by)) continue;
      const std::string_view key = names.*o.graphalytics_key;
      if (key.empty()) continue;
      const PropertyLine* p = spec.property(std::string(names.algorithm) + "." + std::string(key));
      if (p == nullptr) continue;
      o.parse(s, OptionArg{spec.properties_path + ":" + std::to_string(p->line) + ": " + p->key, p->value});
    }
  }
  if (c.program.uses_precision && c.precision == PrecisionOption::kAuto) c.double_precision = true;  // the rules forbid single
  if (!given("output-format")) c.graphalytics_output = true;
}

}  // namespace wg
