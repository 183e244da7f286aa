#!/bin/sh
# Callgrind instruction counts of the generation and fold hot loops.
#
#   bench/profile.sh [OUT_DIR] [PROFILE_BUILD_DIR]
#
# valgrind cannot decode AVX-512 (the -march=native build of this machine
# uses it), so this configures a second build directory outside the tree
# (default /tmp/wiregraph-prof-build: -Dnative=false, -march=x86-64-v3 -g,
# no tests) and profiles the benchmarks built there on small inputs
# (kron:16:16, 3 supersteps; Σ and records 2^20, one pass per order: random
# and blocked). `perf` has no cycle counters in this VM
# (MACHINE-NOTES gotcha 12). Writes OUT_DIR/profile/*.txt (default
# /tmp/wiregraph-bench) and keeps the callgrind.out files next to them.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:-/tmp/wiregraph-bench}
pb=${2:-/tmp/wiregraph-prof-build}
mkdir -p "$out/profile"
if ! command -v valgrind >/dev/null 2>&1; then
  echo "profile: valgrind not installed (apt-get install valgrind); skipped" | tee "$out/profile/skipped.txt"
  exit 0
fi
if [ ! -f "$pb/build.ninja" ]; then
  meson setup "$pb" "$root" -Dnative=false -Dtests=false -Dbuildtype=release \
    "-Dcpp_args=-march=x86-64-v3 -g" >"$out/profile/meson-setup.log" 2>&1 || {
    echo "profile: meson setup of $pb failed (see $out/profile/meson-setup.log)"; exit 1; }
fi
ninja -C "$pb" bench/bench_generation bench/bench_accumulation >"$out/profile/build.log" 2>&1 || {
  echo "profile: build failed (see $out/profile/build.log)"; exit 1; }

gen_eal="--no-pci --vdev net_null0,no-rx=1 -l 0 --no-huge -m 512 --log-level lib.eal:error"
acc_eal="--no-pci --vdev net_ring0 -l 0 --no-huge -m 512 --log-level lib.eal:error"

# $1 name, $2 records the collected part handles (superstep3: read from the run), $3 toggle-collect pattern, $4 source file to annotate,
# $5 grep context pattern, rest: command
profile() {
  name=$1; records=$2; pattern=$3; src=$4; ctx=$5; shift 5
  cg="$out/profile/$name.callgrind.out"
  valgrind --tool=callgrind --callgrind-out-file="$cg" "--toggle-collect=$pattern" "$@" \
    >"$out/profile/$name.run.log" 2>&1 || { echo "profile: $name failed (see $out/profile/$name.run.log)"; return; }
  {
    echo "command: valgrind --tool=callgrind --toggle-collect='$pattern' $*"
    if [ "$records" = superstep3 ]; then  # 3 supersteps of the generation run
      records=$(sed -n 's/.*per superstep: \([0-9]*\) records.*/\1/p' "$out/profile/$name.run.log" | head -1)
      records=$((${records:-0} * 3))
    fi
    total=$(callgrind_annotate "$cg" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
    echo "collected: $total instructions for $records records = $(awk -v t="$total" -v r="$records" \
      'BEGIN { if (r > 0 && t > 0) printf "%.1f", t / r; else printf "?" }') instructions per record"
    echo
    echo "top functions by exclusive instruction count (callees inlined into the hot loop count as it):"
    callgrind_annotate --auto=no --inclusive=no "$cg" 2>/dev/null | sed -n '/file:function/,$p' | sed -n '3,12p' | cut -c1-170
    echo
    echo "per source line of $src (instructions, share of the collected total):"
    callgrind_annotate --auto=yes --show-percs=yes "$cg" "$root/$src" 2>/dev/null |
      grep -A24 "$ctx" | grep -E '^ *[0-9,]+ \(' | head -24 | cut -c1-150
  } >"$out/profile/$name.txt"
  echo "profile: wrote $out/profile/$name.txt"
}

# (the demangled name: PageRank is BasicPageRank<float>; its sparse scatter is write_runs)
profile generation-worker superstep3 'wg::Worker<wg::BasicPageRank<float> >::scatter*' compute/engine/worker/sparse_push.h 'void write_runs' \
  "$pb/bench/bench_generation" $gen_eal --file-prefix bprof1 -- --graph kron:16:16 --trials 3 --warmup 0 \
  --membw-mib 8 --no-reliable
profile accumulation-plain $((2 * 1048576)) '*main::{lambda()#1}>::_M_invoke*' compute/engine/accumulator.h 'bool fold(const wire::Record' \
  "$pb/bench/bench_accumulation" $acc_eal --file-prefix bprof2 -- --sigma-log2 20 --records-log2 20 --trials 1 --warmup 0
profile accumulation-ring-direct $((2 * 1048576)) '*main::{lambda()#2}>::_M_invoke*' compute/engine/accumulator.h 'bool fold(const wire::Record' \
  "$pb/bench/bench_accumulation" $acc_eal --file-prefix bprof3 -- --sigma-log2 20 --records-log2 20 --trials 1 --warmup 0
profile accumulation-ring-transport $((2 * 1048576)) '*main::{lambda()#4}>::_M_invoke*' compute/engine/accumulator.h 'bool fold(const wire::Record' \
  "$pb/bench/bench_accumulation" $acc_eal --file-prefix bprof4 -- --sigma-log2 20 --records-log2 20 --trials 1 --warmup 0
exit 0
