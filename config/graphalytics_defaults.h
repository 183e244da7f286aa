// A Graphalytics graph (--graph NAME.properties, or a NAME.v / NAME.e pair)
// supplies defaults for what the command line leaves out: the program's
// parameters from the properties file (graph.NAME.<algorithm>.<key>, the
// algorithm and keys named by the program's traits, parsed and checked as
// the options they stand for, errors naming the file, line and key), the
// graph's direction, double precision (Graphalytics' rules forbid single)
// and Graphalytics' output format. Parameters of other algorithms are not
// read: a properties file carries every algorithm's.
#pragma once

#include "config/option_table.h"

namespace wg {

// Reads the graph's properties (a GraphError becomes a ConfigError naming
// --graph) and applies them to what `s` was not given.
void apply_graphalytics_defaults(ParseState& s);

}  // namespace wg
