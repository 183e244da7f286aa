// The help pages and docs/OPTIONS.md, from the option table and the
// programs' traits: nothing here names an option's meaning or a program.
#include "config/usage.h"

#include <initializer_list>
#include <string_view>

#include "config/option_table.h"
#include "config/options.h"

namespace wg {

namespace {

constexpr size_t kHelpColumn = 24;     // where an option's help starts
constexpr size_t kProgramColumn = 12;  // where a program's text starts

// The parts one after the other. (Instead of "text" + std::string(...),
// in which GCC 12 at -O3 sees a false -Wrestrict.)
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string s;
  for (std::string_view p : parts) s += p;
  return s;
}

constexpr const char* kUsage = "wiregraph [EAL options] -- --app APP --graph SPEC [options]";
constexpr const char* kCheckUsage = "wiregraph --check-options [--lcore-count N] -- APP-OPTIONS";
constexpr const char* kDoctorUsage = "wiregraph doctor [EAL options] -- APP-OPTIONS";

// Appends `text` after `lead` (one line's start), its words wrapped at
// kHelpColumns with continuation lines indented by `indent`; `lead` gets a
// line of its own when it reaches into the text's column.
void put_wrapped(std::string& out, std::string_view lead, std::string_view text, size_t indent) {
  std::string line(lead);
  if (!line.empty() && line.size() + 1 > indent) {
    out += line + "\n";
    line.clear();
  }
  line.resize(indent, ' ');
  bool first = true;
  while (!text.empty()) {
    const size_t space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (word.empty()) continue;
    if (!first && line.size() + 1 + word.size() > kHelpColumns) {
      out += line + "\n";
      line.assign(indent, ' ');
      first = true;
    }
    if (!first) line += ' ';
    line += word;
    first = false;
  }
  out += line + "\n";
}

std::string label(const OptionSpec& o) {
  return cat({o.name == "help" ? "-h, " : "", "--", o.name, o.arg.empty() ? "" : " ", o.arg});
}

std::string with_default(const OptionSpec& o) {
  std::string s(o.help);
  if (!o.default_text.empty()) s += cat({" (default: ", o.default_text, ")"});
  return s;
}

// The rest of an option's story, after its help and default: its details,
// and for a program parameter who reads it and which Graphalytics key gives
// its default. Empty, or sentences after ". ".
std::string more_text(const OptionSpec& o, std::span<const ProgramTraits> programs) {
  std::string s(o.details);
  auto add = [&s](const std::string& sentence) { s += (s.empty() ? "" : " ") + sentence; };
  if (o.read_by != nullptr) {
    const std::string readers = programs_reading(o, programs);
    add("Read by " + (readers.empty() ? std::string("no program") : readers) + "; refused for the others.");
  }
  if (o.graphalytics_key != nullptr) {
    std::string keys;
    for (const ProgramTraits& p : programs) {
      const std::string_view key = p.graphalytics.*o.graphalytics_key;
      if (key.empty() || !(p.*o.read_by)) continue;
      keys += cat({keys.empty() ? "" : ", ", p.graphalytics.algorithm, ".", key});
    }
    if (!keys.empty()) add("A Graphalytics graph's properties give its default (" + keys + ").");
  }
  return s.empty() ? s : ". " + s;
}

// "--iterations (default 20), --damping, --precision": the program parameters it reads.
std::string parameters_read(const ProgramTraits& p) {
  std::string s;
  for (const OptionSpec& o : option_table()) {
    if (o.read_by == nullptr || !(p.*o.read_by)) continue;
    const bool iterations = o.read_by == &ProgramTraits::uses_iterations;
    const std::string under_tolerance =
        p.uses_tolerance ? cat({"; ", std::to_string(kToleranceIterations), " with --tolerance"}) : "";
    s += cat({s.empty() ? "" : ", ", "--", o.name,
              iterations ? cat({" (default ", std::to_string(p.default_iterations), under_tolerance, ")"}) : ""});
  }
  return s;
}

// "undirected, self-loops dropped": how the loader shapes the graph for it.
std::string graph_rules(const ProgramTraits& p) {
  std::string s;
  auto add = [&s](const char* rule) { s += cat({s.empty() ? "" : ", ", rule}); };
  if (p.graph.symmetrize) add("undirected");
  if (p.graph.drop_self_loops) add("self-loops dropped");
  if (p.graph.drop_duplicates) add("duplicate edges dropped");
  if (p.graph.weights) add("weighted");
  return s;
}

std::string graphalytics_text(const ProgramTraits& p) {
  const GraphalyticsNames& g = p.graphalytics;
  if (g.algorithm.empty()) return "";
  std::string keys;
  for (const std::string_view GraphalyticsNames::*k :
       {&GraphalyticsNames::source, &GraphalyticsNames::iterations, &GraphalyticsNames::damping})
    if (!(g.*k).empty()) keys += cat({keys.empty() ? "" : ", ", g.algorithm, ".", g.*k});
  return cat({g.algorithm, keys.empty() ? "" : " (", keys, keys.empty() ? "" : ")"});
}

void put_header(std::string& out) {
  out += std::string("Usage: ") + kUsage + "\n       " + kCheckUsage + "\n       " + kDoctorUsage + "\n\n";
  put_wrapped(out, "",
              "One node of a wiregraph job: start one per machine (srun, mpirun, ssh), or let "
              "scripts/wiregraph-cluster start a local cluster. EAL options (before --) choose the ports, "
              "lcores and memory, e.g. --no-pci --vdev net_tap0 -l 0-1; application options come after --. "
              "--check-options parses the application options, starts nothing and exits 0, or 2 with the "
              "error a node would give; on success it also prints the EAL memory a node of the job takes "
              "(for -m), for N lcores with --lcore-count N (default 1). `doctor` before the job's own command line checks this machine for it "
              "instead (hugepages, ports, queues, MTU, steering, NUMA, CPU isolation, clock): a verdict and a fix "
              "per item, exit 1 if one fails (docs/LAB-CLUSTER.md). A node ends with the process that started it "
              "(srun, mpirun, a shell; WIREGRAPH_OUTLIVE_PARENT=1 turns that off).",
              0);
}

void put_topic(std::string& out, Topic t, bool all, std::span<const ProgramTraits> programs) {
  out += cat({"\n", topic_title(t), t == Topic::kCommon ? " (after --):\n" : ":\n"});
  for (const OptionSpec& o : option_table())
    if (o.topic == t) put_wrapped(out, "  " + label(o), all ? with_default(o) + more_text(o, programs) : with_default(o), kHelpColumn);
}

void put_programs(std::string& out, std::span<const ProgramTraits> programs) {
  out += "\nPrograms (--app), and the value each result line holds:\n";
  for (const ProgramTraits& p : programs) {
    put_wrapped(out, cat({"  ", p.name}), p.summary, kProgramColumn);
    std::string more = cat({"value: ", p.output});
    if (const std::string r = parameters_read(p); !r.empty()) more += cat({"; reads ", r});
    if (const std::string g = graph_rules(p); !g.empty()) more += cat({"; graph: ", g});
    if (const std::string g = graphalytics_text(p); !g.empty()) more += "; Graphalytics: " + g;
    put_wrapped(out, "", more, kProgramColumn);
  }
}

std::string topic_list() {
  std::string s;
  for (Topic t : kTopics) s += std::string(topic_name(t)) + ", ";
  return s + "programs";
}

std::string short_page(std::span<const ProgramTraits> programs) {
  std::string out;
  out += std::string("Usage: ") + kUsage + "\n\n";
  put_wrapped(out, "",
              "One node of a wiregraph job (scripts/wiregraph-cluster starts a local cluster). EAL options "
              "(before --) choose the ports, lcores and memory, e.g. --no-pci --vdev net_tap0.",
              0);
  put_topic(out, Topic::kCommon, false, programs);
  out += "\n";
  put_wrapped(out, "", "Programs: " + program_list(programs) + " (--help programs).", 0);
  put_wrapped(out, "", cat({"More: --help TOPIC (", topic_list(), ") or --help-all (docs/OPTIONS.md)."}), 0);
  return out;
}

std::string all_pages(std::span<const ProgramTraits> programs) {
  std::string out;
  put_header(out);
  for (Topic t : kTopics) put_topic(out, t, true, programs);
  put_programs(out, programs);
  out += "\nExit status: 0 on success, 1 on a runtime error (bad input file, dead or\n"
         "mismatched peer, DPDK failure), 2 on a command-line error.\n";
  return out;
}

// ---- docs/OPTIONS.md ----------------------------------------------------------

std::string cell(std::string_view text) {
  std::string s;
  for (char ch : text) {
    if (ch == '|') s += '\\';
    s += ch;
  }
  return s;
}

std::string markdown(std::span<const ProgramTraits> programs) {
  std::string out =
      "# wiregraph's options\n\n"
      "<!-- Generated by `wiregraph --help-all --markdown > docs/OPTIONS.md` from the option table\n"
      "     (config/option_table.cc) and the programs' traits: edit those, not this file.\n"
      "     tests/test_options.cc fails when this file differs from what they generate. -->\n\n";
  out += std::string("```\n") + kUsage + "\n" + kCheckUsage + "\n" + kDoctorUsage + "\n```\n\n";
  out += "EAL options (before `--`) choose the ports, lcores and memory, e.g. `--no-pci --vdev net_tap0 -l 0-1`;\n"
         "application options come after `--`. `--check-options` parses the application options, starts\n"
         "nothing and exits 0, or 2 with the error a node would give (`scripts/wiregraph-cluster` runs it\n"
         "before it starts any node); on success it also prints the EAL memory a node of the job takes\n"
         "(`EAL memory per node: N MiB`: what `-m` must hold), for N lcores with `--lcore-count N`\n"
         "(default 1). `wiregraph --help` shows the common options, `--help TOPIC` one\n"
         "topic's, `--help-all` all of them.\n";
  for (Topic t : kTopics) {
    out += cat({"\n## ", topic_title(t), "\n\n| option | default | meaning |\n| --- | --- | --- |\n"});
    for (const OptionSpec& o : option_table()) {
      if (o.topic != t) continue;
      const std::string meaning = std::string(o.help) + more_text(o, programs);
      out += "| `" + cell(label(o)) + "` | " + cell(o.default_text) + " | " + cell(meaning) + " |\n";
    }
  }
  out += "\n## Programs (`--app`)\n\n"
         "| program | what it computes | a result line's value | reads | graph | Graphalytics |\n"
         "| --- | --- | --- | --- | --- | --- |\n";
  for (const ProgramTraits& p : programs)
    out += cat({"| `", cell(p.name), "` | ", cell(p.summary), " | ", cell(p.output), " | ", cell(parameters_read(p)),
                " | ", cell(graph_rules(p)), " | ", cell(graphalytics_text(p)), " |\n"});
  out += "\nExit status: 0 on success, 1 on a runtime error (bad input file, dead or mismatched peer, DPDK\n"
         "failure), 2 on a command-line error.\n";
  return out;
}

}  // namespace

std::optional<HelpRequest> help_request(int argc, char** argv) {
  std::optional<HelpRequest> r;
  bool markdown = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--markdown") markdown = true;
    if (a == "-h" || a == "--help") {
      r = HelpRequest{};
      // A word after it is the topic asked for, known or not (help_text
      // refuses an unknown one); an option after it is not.
      if (i + 1 < argc && argv[i + 1][0] != '-') r->topic = argv[i + 1];
    } else if (a.starts_with("--help=")) {
      r = HelpRequest{std::string(a.substr(7))};
    } else if (a == "--help-all") {
      r = HelpRequest{"all"};
    }
  }
  if (r) r->markdown = markdown;
  return r;
}

bool wants_help(int argc, char** argv) { return help_request(argc, argv).has_value(); }

std::string help_text(const HelpRequest& request, std::span<const ProgramTraits> programs) {
  const std::string& t = request.topic;
  if (request.markdown) {
    if (t != "all") throw ConfigError("--markdown goes with --help-all (docs/OPTIONS.md)");
    return markdown(programs);
  }
  if (t.empty()) return short_page(programs);
  if (t == "all") return all_pages(programs);
  std::string out = std::string("Usage: ") + kUsage + "\n";
  if (t == "programs") {
    put_programs(out, programs);
    return out;
  }
  for (Topic topic : kTopics)
    if (topic_name(topic) == t) {
      put_topic(out, topic, true, programs);
      return out;
    }
  throw ConfigError("--help: unknown topic '" + t + "' (expected " + topic_list() + " or all)");
}

}  // namespace wg
