#include "dataplane/libxdp_log.h"

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>

namespace wg::libxdp_log {
namespace {

// libxdp.h's print interface (enum libxdp_print_level, libxdp_print_fn_t,
// libxdp_set_print), declared here so that building wiregraph does not need
// libxdp-dev: the symbol is looked up in the library the PMD loaded.
enum PrintLevel { kWarn, kInfo, kDebug };
using PrintFn = int (*)(PrintLevel, const char*, va_list);
using SetPrintFn = PrintFn (*)(PrintFn);

int print(PrintLevel level, const char* format, va_list args) {
  if (level != kWarn) return 0;  // libxdp's own default prints warnings only
  char line[512];
  const int n = std::vsnprintf(line, sizeof line, format, args);
  if (n < 0 || benign(line)) return 0;
  return std::fprintf(stderr, "wiregraph: %s%s", line, n > 0 && line[n - 1] == '\n' ? "" : "\n");
}

}  // namespace

bool benign(std::string_view message) {
  // "No bpffs found at ...", "Can't use dispatcher without a working bpffs",
  // "Falling back to loading single prog without dispatcher": one fact.
  return message.find("bpffs") != std::string_view::npos || message.find("without dispatcher") != std::string_view::npos;
}

void route() {
  // RTLD_NOLOAD: only a libxdp already in the process (the PMD's); never load one.
  void* lib = dlopen("libxdp.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (lib == nullptr) return;
  if (auto set_print = reinterpret_cast<SetPrintFn>(dlsym(lib, "libxdp_set_print"))) set_print(&print);
  dlclose(lib);  // drops NOLOAD's reference; the PMD keeps the library loaded
}

}  // namespace wg::libxdp_log
