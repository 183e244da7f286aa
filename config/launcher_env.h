// The cluster size and this node's rank from a launcher's environment, for
// a node started without --nodes or --rank: srun sets SLURM_NTASKS and
// SLURM_PROCID, Open MPI's mpirun OMPI_COMM_WORLD_SIZE and
// OMPI_COMM_WORLD_RANK, MPICH and Intel MPI PMI_SIZE and PMI_RANK. The first
// one set (and not empty) counts; a bad value is refused naming the variable
// and the option it stands in for, not an option the user never gave.
#pragma once

#include <optional>
#include <string>

namespace wg {

struct LauncherValue {
  unsigned value;
  std::string variable;  // "SLURM_PROCID": the banner, errors and nodeR.json name it
};

// Throws ConfigError for a value that is not an integer in range.
std::optional<LauncherValue> nodes_from_environment();  // 1..kMaxNodes
std::optional<LauncherValue> rank_from_environment();   // 0..kMaxNodes-1

}  // namespace wg
