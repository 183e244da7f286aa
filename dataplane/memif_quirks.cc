#include "dataplane/memif_quirks.h"

#include <rte_eal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace wg::memif_quirks {

void quiet_before_close() {
  const timespec quiet{0, 300'000'000};  // the peers finish within milliseconds of each other
  nanosleep(&quiet, nullptr);
}

void exit_process(int rc, bool memif_ports, void (*remove_files)()) {
  if (memif_ports) {
    std::fflush(nullptr);
    remove_files();
    _exit(rc);
  }
  rte_eal_cleanup();
  remove_files();
  std::exit(rc);
}

}  // namespace wg::memif_quirks
