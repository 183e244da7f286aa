// libxdp, which DPDK's net_af_xdp PMD loads, prints its warnings straight to
// stderr. On a host without a mounted bpffs (containers, this machine's kind)
// every run printed "No bpffs found at /sys/fs/bpf" (after the job's summary)
// or "Can't use dispatcher without a working bpffs": they say only that
// libxdp loads the port's single XDP program without its multi-program
// dispatcher, which wiregraph does not use. route() takes libxdp's printing
// over: those lines are dropped, every other warning keeps its text under
// the "wiregraph: libxdp:" prefix.
#pragma once

#include <string_view>

namespace wg::libxdp_log {

// Installs the print function in the libxdp the process has loaded (nothing
// when no af_xdp port made DPDK load it). Safe to call more than once.
void route();

// Whether libxdp's message is the benign missing-bpffs notice (exposed for its test).
bool benign(std::string_view message);

}  // namespace wg::libxdp_log
