#!/bin/sh
# Builds and runs every wiregraph benchmark, then writes RESULTS.md,
# results.json and gnuplot PNGs.
#
#   bench/run_all.sh [--quick] [--out DIR] [--no-build] [--no-profile] [--only STEPS] [--gap DIR]
#                    [--gemini DIR] [--publish]
#
#   --quick       small inputs and 1 trial (CI smoke; under 2 minutes); default:
#                 full sizes (generation kron:20:16, accumulation and receive
#                 scaling Σ of 2^26 floats, links kron:18:16, end to end
#                 kron:20:16 and kron:22:16; tens of minutes)
#   --out DIR     where everything goes (default /tmp/wiregraph-bench); results
#                 are never written into the source tree
#   --no-build    do not run ninja (meson's benchmark target has built already)
#   --no-profile  skip the callgrind profiles (full mode runs them; quick never)
#   --only STEPS  comma-separated subset of: generation,accumulation,rxscaling,links,e2e,gap,load,graphalytics,
#                 mac,auth,checkpoint,bytes,profile
#   --gap DIR     a GAP build (github.com/sbeamer/gapbs, built by hand outside this
#                 repository; default $GAP_DIR): every app against GAP's own
#                 binary on GAP's kron graphs (bench/gap_compare.py); without
#                 it that step says so and bench/reference_pagerank stands in,
#                 and the bytes step (bench/bytes_per_edge.py: memory per edge
#                 and load times next to GAP's, kron20/22/24) is skipped
#   --gemini DIR  a Gemini build (github.com/thu-pacman/GeminiGraph, built by
#                 hand outside this repository; default $GEMINI_DIR): the gap
#                 step also runs Gemini 1 rank x (CPUs) threads in its rounds
#   --publish     also write the report as docs/PERFORMANCE.md (the project's
#                 performance page: one run, this command; refused with --quick)
#
# Output: DIR/RESULTS.md (with --publish also docs/PERFORMANCE.md), DIR/results.json,
# DIR/plots/*.png, DIR/logs/*.log and each benchmark's JSON. Exit status: 0
# when every step ran, 1 when one failed (the others still run and the report
# says which). No thresholds anywhere.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${WG_BUILD_DIR:-$root/build}
out=/tmp/wiregraph-bench
quick=0
do_build=1
profile=1
only=generation,accumulation,rxscaling,links,e2e,gap,load,graphalytics,mac,auth,checkpoint,bytes,profile
gap_dir=${GAP_DIR:-}
gemini_dir=${GEMINI_DIR:-}
publish=0
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --out) out=$2; shift ;;
    --no-build) do_build=0 ;;
    --no-profile) profile=0 ;;
    --only) only=$2; shift ;;
    --gap) gap_dir=$2; shift ;;
    --gemini) gemini_dir=$2; shift ;;
    --publish) publish=1 ;;
    -h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_all: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ $publish -eq 1 ] && [ $quick -eq 1 ] && { echo "run_all: --publish takes a full run, not --quick" >&2; exit 2; }
want() { case ",$only," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

mkdir -p "$out/logs" || exit 1
# Only the outputs of the steps about to run are removed: a partial rerun
# (--only) keeps the others and the report merges everything present.
want generation && rm -f "$out/generation.json" "$out/generation-p16.json"
want accumulation && rm -f "$out/accumulation.json"
want rxscaling && rm -f "$out/rx_scaling.json"
want links && rm -f "$out/links.json"
want e2e && rm -f "$out/e2e.json"
want gap && rm -f "$out/gap.json"
want load && rm -f "$out/load.json"
want graphalytics && rm -f "$out/graphalytics.json"
want mac && rm -f "$out/mac.json"
want auth && rm -f "$out/auth.json"
want checkpoint && rm -f "$out/checkpoint.json"
want bytes && rm -f "$out/bytes.json"
want profile && rm -rf "$out/profile"
rm -rf "$out/results.json" "$out/RESULTS.md" "$out/plots"
status=0
t_start=$(date +%s)
note() { echo "run_all: $*"; }
# run NAME COMMAND...: logs to DIR/logs/NAME.log, the command to DIR/logs/NAME.cmd
run() {
  name=$1; shift
  echo "$*" >"$out/logs/$name.cmd"
  note "$name: $*"
  t0=$(date +%s)
  if "$@" >"$out/logs/$name.log" 2>&1; then
    note "$name: done in $(( $(date +%s) - t0 )) s"
  else
    note "$name: FAILED (exit $?) after $(( $(date +%s) - t0 )) s; see $out/logs/$name.log"
    tail -5 "$out/logs/$name.log" | sed 's/^/    /'
    status=1
  fi
}

if [ $do_build -eq 1 ]; then
  # Only what the benchmarks need: a test that does not compile elsewhere in
  # the tree must not stop the benchmarks.
  run build ninja -C "$build" apps/wiregraph apps/wiregraph-convert bench/bench_generation bench/bench_accumulation \
    bench/bench_rx_scaling bench/reference_pagerank $( [ -f "$build/build.ninja" ] &&
    grep -q "^build bench/bench_mac:" "$build/build.ninja" && echo bench/bench_mac )
fi
# Snapshot the binaries: the build tree may be rebuilt by someone else while
# the suite runs, and every run must use the same binaries.
mkdir -p "$out/bin"
for b in "$build/apps/wiregraph" "$build/apps/wiregraph-convert" "$build/bench/bench_generation" \
         "$build/bench/bench_accumulation" "$build/bench/bench_rx_scaling" "$build/bench/reference_pagerank"; do
  [ -x "$b" ] || { note "missing $b (build first: ninja -C $build)"; exit 1; }
  cp -f "$b" "$out/bin/" || exit 1
done
# bench_mac is built when libsodium is there (bench/meson.build).
[ -x "$build/bench/bench_mac" ] && cp -f "$build/bench/bench_mac" "$out/bin/"
bin=$out/bin
export WG_BENCH_BINARY="$bin/wiregraph"  # the node binary bench/wg_timed.py runs
export WG_BENCH_REFERENCE="$bin/reference_pagerank"  # end_to_end.py's in-run GAP baseline
( cd "$root" && echo "commit $(git rev-parse HEAD 2>/dev/null)"; git status --porcelain 2>/dev/null;
  git diff 2>/dev/null | sha256sum | sed 's/^/diff sha256 /' ) >"$out/bin/SOURCE" 2>/dev/null

tag=wgb$$
if [ $quick -eq 1 ]; then
  gen_graph=kron:14:16; trials=1; warmup=1
  acc_args="--sigma-log2 20 --records-log2 20"; acc_mem=512
  rx_args="--sigma-log2 16 --records-log2 16 --accumulators 1,2"; rx_mem=256
  links_args="--graph kron:14:16 --trials 1"
  e2e_args="--graphs kron:14:16 --apps pagerank,bfs --configs p1l1,p2memif --trials 1 --trials-large 1"
  gap_args="--scales 14 --apps pagerank,bfs --trials 1 --gap-trials 1"
  load_args="--quick"
  graphalytics_args="--quick"
  mac_trials=1
  auth_args="--graph kron:14:16 --iterations 3 --trials 1"
  checkpoint_args="--graph kron:14:16 --trials 1 --crash-at 12"
  bytes_args="--quick"
  profile=0
else
  gen_graph=kron:20:16; trials=5; warmup=1
  acc_args="--sigma-log2 26 --records-log2 26"; acc_mem=2048
  rx_args="--sigma-log2 26 --records-log2 26 --accumulators 1,2,4"; rx_mem=2560
  links_args="--graph kron:18:16 --trials 3"
  e2e_args="--graphs kron:20:16,kron:22:16 --trials 3 --trials-large ${WG_BENCH_TRIALS_LARGE:-2}"
  gap_args="--scales 20,22 --trials 5 --trials-large ${WG_BENCH_TRIALS_LARGE:-2}"
  load_args="--graph kron:22:16 --trials 2"
  graphalytics_args="--graph kron:18:16 --pr-graph kron:20:16 --trials 3"
  mac_trials=15
  auth_args="--graph kron:20:16 --trials 3"
  checkpoint_args="--graph kron:22:16 --trials 5"
  bytes_args="--scales 20,22,24"
fi
gen_eal="--no-pci --vdev net_null0,no-rx=1 -l 0 --no-huge -m 1024 --log-level lib.eal:error"

if want generation; then
  run generation "$bin/bench_generation" $gen_eal --file-prefix ${tag}g -- \
    --graph $gen_graph --trials $trials --warmup $warmup --json "$out/generation.json"
  if [ $quick -eq 0 ]; then
    # P=16: 15/16 of the records leave the node, so the wire rate is the bucket rate.
    run generation-p16 "$bin/bench_generation" $gen_eal --file-prefix ${tag}h -- \
      --graph $gen_graph --nodes 16 --trials $trials --warmup $warmup --json "$out/generation-p16.json"
  fi
fi
if want accumulation; then
  run accumulation "$bin/bench_accumulation" --no-pci --vdev net_ring0 -l 0 --no-huge -m $acc_mem \
    --log-level lib.eal:error --file-prefix ${tag}a -- $acc_args --trials $trials --warmup $warmup \
    --json "$out/accumulation.json"
fi
if want rxscaling; then
  # Four lcores on the two CPUs: A = 4 oversubscribes them (reported: the CPUs the lcores got).
  run rxscaling "$bin/bench_rx_scaling" --no-pci --vdev net_ring0 --lcores 0@0,1@1,2@0,3@1 --no-huge -m $rx_mem \
    --log-level lib.eal:error --file-prefix ${tag}r -- $rx_args --trials $trials --warmup $warmup \
    --json "$out/rx_scaling.json"
fi
if want links; then
  run links python3 "$here/links.py" $links_args --out "$out/runs/links" --json "$out/links.json"
fi
if want e2e; then
  run e2e python3 "$here/end_to_end.py" $e2e_args --out "$out/runs/e2e" --json "$out/e2e.json"
fi
if want gap; then
  run gap python3 "$here/gap_compare.py" --gap "$gap_dir" --gemini "$gemini_dir" $gap_args --out "$out/runs/gap" \
    --json "$out/gap.json"
fi
if want load; then
  run load python3 "$here/load_scaling.py" $load_args --out "$out/runs/load" --json "$out/load.json"
fi
if want graphalytics; then
  run graphalytics python3 "$here/graphalytics_costs.py" $graphalytics_args --out "$out/runs/graphalytics" \
    --json "$out/graphalytics.json"
fi
if want mac; then
  if [ -x "$bin/bench_mac" ]; then
    run mac "$bin/bench_mac" --trials $mac_trials --json "$out/mac.json"
  else
    note "mac: skipped (no bench_mac: libsodium-dev missing, see scripts/setup.sh)"
  fi
fi
if want auth; then
  run auth python3 "$here/auth_cost.py" $auth_args --binary "$bin/wiregraph" --json "$out/auth.json"
fi
if want checkpoint; then
  run checkpoint python3 "$here/checkpoint_cost.py" $checkpoint_args --binary "$bin/wiregraph" --json "$out/checkpoint.json"
fi
if want bytes; then
  if [ -n "$gap_dir" ]; then
    run bytes python3 "$here/bytes_per_edge.py" --gap "$gap_dir" $bytes_args --out "$out/runs/bytes" \
      --json "$out/bytes.json"
  else
    note "bytes: skipped (needs --gap DIR: bytes per edge and load times next to GAP's)"
  fi
fi
if want profile && [ $profile -eq 1 ]; then
  run profile sh "$here/profile.sh" "$out"
fi
mode=full
[ $quick -eq 1 ] && mode=quick
if [ $publish -eq 1 ]; then
  run report python3 "$here/report.py" "$out" --mode $mode --publish "$root/docs/PERFORMANCE.md"
else
  run report python3 "$here/report.py" "$out" --mode $mode
fi
for f in "$out/RESULTS.md" "$out/results.json"; do
  [ -s "$f" ] || { note "missing $f"; status=1; }
done
ls "$out"/plots/*.png >/dev/null 2>&1 || { note "no plot was made (gnuplot missing?)"; status=1; }
note "total $(( $(date +%s) - t_start )) s; results in $out/RESULTS.md ($out/results.json, $out/plots/)"
exit $status
