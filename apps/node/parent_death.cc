#include "apps/node/parent_death.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace wg {

void end_with_parent() {
  if (const char* v = std::getenv("WIREGRAPH_OUTLIVE_PARENT"); v != nullptr && std::strcmp(v, "1") == 0) return;
  const pid_t parent = getppid();
  if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) return;
  // Died between the two reads: this process has been re-parented (to init or
  // a subreaper) and will never get the signal.
  if (getppid() != parent) raise(SIGTERM);
}

}  // namespace wg
