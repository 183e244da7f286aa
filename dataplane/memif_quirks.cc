#include "dataplane/memif_quirks.h"

#include <rte_eal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace wg::memif_quirks {

uint32_t buffer_size(const std::string& devargs) {
  // Key=value pairs separated by commas; the last bsize= wins, as in kvargs.
  uint32_t size = 2048;
  for (size_t at = 0; at <= devargs.size();) {
    const size_t end = std::min(devargs.find(',', at), devargs.size());
    const std::string item = devargs.substr(at, end - at);
    if (item.rfind("bsize=", 0) == 0) size = static_cast<uint32_t>(std::strtoul(item.c_str() + 6, nullptr, 0));
    at = end + 1;
  }
  return size;
}

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
