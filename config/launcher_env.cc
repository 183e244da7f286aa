#include "config/launcher_env.h"

#include <cstdint>
#include <cstdlib>
#include <initializer_list>

#include "config/option_values.h"
#include "dataplane/wire.h"

namespace wg {

namespace {

std::optional<LauncherValue> first_set(std::initializer_list<const char*> variables, const char* instead_of,
                                       uint64_t min, uint64_t max) {
  for (const char* var : variables) {
    const char* text = std::getenv(var);
    if (text == nullptr || *text == '\0') continue;
    const std::string what = std::string("environment variable ") + var + "='" + text + "' (read because " +
                             instead_of + " is not given) ";
    const std::optional<uint64_t> v = parse_integer(text);
    if (!v) throw ConfigError(what + "is not a non-negative integer");
    if (*v < min || *v > max) throw ConfigError(what + "is out of range " + range_text(min, max));
    return LauncherValue{static_cast<unsigned>(*v), var};
  }
  return std::nullopt;
}

}  // namespace

std::optional<LauncherValue> nodes_from_environment() {
  return first_set({"SLURM_NTASKS", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}, "--nodes", 1, wire::kMaxNodes);
}

std::optional<LauncherValue> rank_from_environment() {
  return first_set({"SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"}, "--rank", 0, wire::kMaxNodes - 1);
}

}  // namespace wg
