#include "apps/node/eal_args.h"

#include <rte_ethdev.h>

#include <fnmatch.h>

#include <cstring>
#include <iterator>
#include <regex>
#include <string_view>

#include "dataplane/memif_quirks.h"

namespace wg {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

EalArgs parse_eal_args(int argc, char* const* argv) {
  EalArgs eal;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    if (a == "--in-memory" || a == "--no-huge" || a == "--legacy-mem" || starts_with(a, "--huge-unlink") ||
        starts_with(a, "--proc-type"))
      eal.memory_mode_given = true;
    if (a == "--log-level" && i + 1 < argc)
      eal.log_levels.push_back(argv[++i]);
    else if (starts_with(a, "--log-level="))
      eal.log_levels.push_back(std::string(a.substr(12)));
    std::string dev;
    if (a == "--vdev" && i + 1 < argc)
      dev = argv[++i];
    else if (starts_with(a, "--vdev="))
      dev = std::string(a.substr(7));
    else
      continue;
    eal.vdevs.push_back(dev);
    // As the PMD reads them (dataplane/memif_quirks.h).
    if (starts_with(dev, "net_memif") && memif_quirks::is_server(dev) && !memif_quirks::socket_file(dev).empty())
      eal.memif_sockets.push_back(memif_quirks::socket_file(dev));
  }
  return eal;
}

std::vector<char*> with_default_memory_mode(int argc, char** argv, const EalArgs& eal) {
  static char in_memory[] = "--in-memory";
  std::vector<char*> out(argv, argv + argc);
  if (!eal.memory_mode_given && argc > 0) out.insert(out.begin() + 1, in_memory);
  out.push_back(nullptr);
  return out;
}

namespace {

// Whether the --log-level value `given` sets `type`'s level: the global
// level ("8", "debug") does, "PATTERN:LEVEL" when the glob matches,
// "REGEX,LEVEL" when the regex does.
bool sets_level_of(const std::string& given, const char* type) {
  const size_t colon = given.rfind(':'), comma = given.rfind(',');
  if (colon == std::string::npos && comma == std::string::npos) return true;
  if (colon != std::string::npos && (comma == std::string::npos || colon > comma))
    return fnmatch(given.substr(0, colon).c_str(), type, 0) == 0;
  try {
    return std::regex_search(type, std::regex(given.substr(0, comma)));
  } catch (const std::regex_error&) {
    return true;  // the EAL will say what is wrong with it; add nothing beside it
  }
}

}  // namespace

std::vector<char*> with_quiet_log_types(std::vector<char*> args, const EalArgs& eal) {
  static std::string options[std::size(kQuietLogTypes)];
  std::vector<char*> added;
  for (size_t t = 0; t < std::size(kQuietLogTypes); ++t) {
    bool named = false;
    for (const std::string& given : eal.log_levels) named |= sets_level_of(given, kQuietLogTypes[t]);
    if (named) continue;
    options[t] = std::string("--log-level=") + kQuietLogTypes[t] + ":error";
    added.push_back(options[t].data());
  }
  if (!args.empty() && args[0] != nullptr) args.insert(args.begin() + 1, added.begin(), added.end());
  return args;
}

std::vector<std::string> missing_vdev_ports(const EalArgs& eal) {
  std::vector<std::string> missing;
  for (const std::string& dev : eal.vdevs) {
    const std::string name = dev.substr(0, dev.find(','));
    uint16_t port;
    if (rte_eth_dev_get_port_by_name(name.c_str(), &port) != 0) missing.push_back(name);
  }
  return missing;
}

}  // namespace wg
