#!/usr/bin/env bash
# Set up this machine for wiregraph and build it.
#
#   scripts/setup.sh              what a run needs: packages, hugepages, and
#                                 the wiregraph binaries alone (the first answer
#                                 comes without waiting for the test suites)
#   scripts/setup.sh --tests      also the test-only packages (GoogleTest,
#                                 libsodium, the tests' pinned Python packages)
#                                 and everything: suites and benchmarks
#   SKIP_BUILD=1 scripts/setup.sh packages and hugepages only
#   FUZZ=1 scripts/setup.sh       also clang and the libFuzzer build (build-fuzz)
#
# Idempotent: a second run installs nothing, touches no hugepage setting that
# is already good, and lets ninja find nothing to do. Works from any cwd.
# Environment:
#   SKIP_BUILD=1     do not configure or build
#   HUGEPAGES=N      number of default-size (2 MiB) hugepages wanted (default 1024)
#   BUILD_DIR=DIR    build directory relative to the repo root (default build)
#   TESTS=1          as --tests
#   PYTHON_PACKAGES=0  do not install the Python package `wiregraph` and its
#                    pinned packages (python/requirements.txt; with --tests
#                    python/requirements-test.txt) with pip for the python3
#                    on PATH; without them `import wiregraph` and the Python
#                    tests fail
# meson and ninja are whichever are first on PATH (on a machine whose Python
# ships pip's meson and ninja, those; else Debian's, installed here): the
# README's `meson test` finds the same meson that configured the build.
#   FUZZ=1           also install clang and its runtime libraries (libFuzzer is
#                    part of clang's compiler-rt; GCC has none) and build the
#                    fuzz targets of tests/fuzz/ into FUZZ_BUILD_DIR (default
#                    build-fuzz). Only the fuzz build needs them.
set -euo pipefail

TESTS="${TESTS:-0}"
for arg in "$@"; do
    case $arg in
        --tests) TESTS=1 ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        *) printf 'setup: ERROR: unknown argument %s (--tests, or none)\n' "$arg" >&2; exit 2 ;;
    esac
done

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"

# dpdk-dev ships the tools, among them dpdk-telemetry.py (docs/OUTPUT.md).
# Authenticated frames: libipsec-mb-dev (AES-GMAC) and libssl-dev (HKDF);
# zlib1g-dev and libzstd-dev read gzip and zstd graph files; gnuplot-nox
# draws scripts/wiregraph-plot's pictures. The tests alone need GoogleTest,
# and libsodium-dev is only for bench/bench_mac.cc's candidates.
PACKAGES=(build-essential g++ meson ninja-build pkg-config libdpdk-dev dpdk dpdk-dev
          libnuma-dev libmetis-dev nlohmann-json3-dev python3 iproute2
          gnuplot-nox python3-pyelftools libipsec-mb-dev libssl-dev
          zlib1g-dev libzstd-dev)
# clang and libbpf-dev build dataplane/xdp's XDP program (optional for a run:
# a lab's shared NIC wants it; the af_xdp tests check that it passes the
# kernel's own traffic).
if [[ $TESTS == 1 ]]; then
    PACKAGES+=(libgtest-dev libsodium-dev clang libbpf-dev)
fi
FUZZ="${FUZZ:-0}"
FUZZ_BUILD_DIR="${FUZZ_BUILD_DIR:-build-fuzz}"
if [[ $FUZZ == 1 ]]; then
    PACKAGES+=(clang libclang-rt-dev)
fi
HUGEPAGES="${HUGEPAGES:-1024}"
BUILD_DIR="${BUILD_DIR:-build}"
SKIP_BUILD="${SKIP_BUILD:-0}"
PYTHON_PACKAGES="${PYTHON_PACKAGES:-${PYTHON_TEST_PACKAGES:-1}}"

log() { printf 'setup: %s\n' "$*"; }
warn() { printf 'setup: WARNING: %s\n' "$*" >&2; }
die() { printf 'setup: ERROR: %s\n' "$*" >&2; exit 1; }

# Run a command as root: directly when we are root, else through sudo when it
# exists. as_root returns 127 when neither is possible (callers decide).
if [[ $EUID -eq 0 ]]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    SUDO=(none)
fi
as_root() {
    if [[ ${SUDO[0]-} == none ]]; then
        return 127
    fi
    "${SUDO[@]}" "$@"
}

# --- 1. packages --------------------------------------------------------------
missing=()
for p in "${PACKAGES[@]}"; do
    status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
    [[ $status == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
    log "packages: all ${#PACKAGES[@]} present"
else
    if [[ ${SUDO[0]-} == none ]]; then
        die "not root and no sudo: cannot install ${missing[*]} (run as root, or install them with apt-get)"
    fi
    log "packages: installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q \
        || die "apt-get update failed"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends "${missing[@]}" \
        || die "apt-get install ${missing[*]} failed"
    log "packages: installed ${missing[*]} ($SECONDS s)"
fi

# The Python package (python/, installed editable: it runs this checkout's
# build) and the run's pinned packages (python/requirements.txt); with
# --tests the tests' too (python/requirements-test.txt), for the python3 on
# PATH (pip installs nothing when the pinned versions are there already).
# pip runs beside the build (it waits on the network, the build on the CPU:
# on a fresh 2-core machine this takes 15-20 s off the first answer); the
# script waits for it before it ends and says how it went.
python_log="$(mktemp -t wiregraph-setup-pip.XXXXXX)"
python_pid=
if [[ $PYTHON_PACKAGES == 1 ]]; then
    requirements=python/requirements.txt
    [[ $TESTS == 1 ]] && requirements=python/requirements-test.txt
    (python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -r "$requirements" \
        && python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --no-deps -e python) \
        >"$python_log" 2>&1 &
    python_pid=$!
else
    log "python packages: skipped (PYTHON_PACKAGES=0)"
fi
python_done() {
    [[ -n $python_pid ]] || return 0
    if wait "$python_pid"; then
        log "python: the wiregraph package (editable) and $requirements present"
    else
        cat "$python_log" >&2
        warn "pip could not install $requirements or the package: import wiregraph and the Python tests will fail"
    fi
    python_pid=
    rm -f "$python_log"
}
trap 'python_done' EXIT

# --- 2. hugepages ---------------------------------------------------------------
# Never fatal: without hugepages the cluster launcher falls back to --no-huge.
huge_ok=1
nr="$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)"
if ((nr < HUGEPAGES)); then
    if echo "$HUGEPAGES" | as_root tee /proc/sys/vm/nr_hugepages >/dev/null 2>&1; then
        nr="$(cat /proc/sys/vm/nr_hugepages)"
        if ((nr < HUGEPAGES)); then
            warn "asked for $HUGEPAGES hugepages, the kernel gave $nr (memory fragmented?)"
            huge_ok=0
        else
            log "hugepages: set vm.nr_hugepages to $nr"
        fi
    else
        warn "could not set /proc/sys/vm/nr_hugepages (not root or a container?)"
        huge_ok=0
    fi
fi
mnt="$(awk '$3 == "hugetlbfs" { print $2; exit }' /proc/mounts)"
if [[ -z $mnt ]]; then
    if as_root mkdir -p /dev/hugepages 2>/dev/null \
        && as_root mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null; then
        mnt=/dev/hugepages
        log "hugepages: mounted hugetlbfs at $mnt"
    else
        warn "could not mount hugetlbfs at /dev/hugepages (not root or a container?)"
        huge_ok=0
    fi
fi
size_kb="$(awk '/^Hugepagesize:/ { print $2 }' /proc/meminfo)"
free="$(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo)"
if ((huge_ok)); then
    log "hugepages: $nr x ${size_kb} kB ($free free), hugetlbfs at $mnt"
else
    if [[ -z $mnt ]]; then
        warn "hugepages: no hugetlbfs mounted: scripts/wiregraph-cluster will fall back to --no-huge"
    else
        warn "hugepages: $nr x ${size_kb} kB ($free free) at $mnt: scripts/wiregraph-cluster" \
             "falls back to --no-huge when they cannot cover P x --mem-mb"
    fi
fi

# --- 3. build -------------------------------------------------------------------
if [[ $SKIP_BUILD == 1 ]]; then
    log "build: skipped (SKIP_BUILD=1)"
    exit 0
fi
if [[ ! -f $BUILD_DIR/meson-private/coredata.dat ]]; then
    tests_opt=false
    [[ $TESTS == 1 ]] && tests_opt=true
    log "build: meson setup $BUILD_DIR -Dwerror=true -Dtests=$tests_opt"
    meson setup "$BUILD_DIR" -Dwerror=true -Dtests=$tests_opt
else
    # ninja re-runs meson by itself when a meson.build changes; only make sure
    # the existing build directory still treats warnings as errors.
    werror="$(meson introspect "$BUILD_DIR" --buildoptions 2>/dev/null | python3 -c '
import json, sys
try:
    print(next((str(o["value"]).lower() for o in json.load(sys.stdin) if o["name"] == "werror"), "unknown"))
except Exception:
    print("unknown")')"
    if [[ $werror == false ]]; then
        log "build: meson configure $BUILD_DIR -Dwerror=true"
        meson configure "$BUILD_DIR" -Dwerror=true
    else
        log "build: $BUILD_DIR already configured"
    fi
fi
# The test suites only where asked for (they need GoogleTest); a directory
# configured without them gains them with --tests.
tests_now="$(meson introspect "$BUILD_DIR" --buildoptions 2>/dev/null | python3 -c '
import json, sys
try:
    print(next((str(o["value"]).lower() for o in json.load(sys.stdin) if o["name"] == "tests"), "unknown"))
except Exception:
    print("unknown")')"
if [[ $TESTS == 1 && $tests_now != true ]]; then
    log "build: meson configure $BUILD_DIR -Dtests=true"
    meson configure "$BUILD_DIR" -Dtests=true
fi
build_started=$SECONDS
if [[ $TESTS == 1 ]]; then
    log "build: ninja -C $BUILD_DIR (everything: binaries, test suites, benchmarks)"
    ninja -C "$BUILD_DIR"
else
    log "build: ninja -C $BUILD_DIR apps/wiregraph apps/wiregraph-convert (what a run needs; --tests builds the rest)"
    ninja -C "$BUILD_DIR" apps/wiregraph apps/wiregraph-convert
fi
log "build: done in $((SECONDS - build_started)) s ($SECONDS s since setup began); binaries in $REPO_ROOT/$BUILD_DIR"

# --- 4. fuzz build (FUZZ=1) -----------------------------------------------------
if [[ $FUZZ == 1 ]]; then
    if [[ ! -f $FUZZ_BUILD_DIR/meson-private/coredata.dat ]]; then
        log "fuzz: CXX=clang++ meson setup $FUZZ_BUILD_DIR -Dfuzz=true"
        CXX=clang++ meson setup "$FUZZ_BUILD_DIR" -Dfuzz=true
    fi
    log "fuzz: ninja -C $FUZZ_BUILD_DIR"
    ninja -C "$FUZZ_BUILD_DIR"
    log "fuzz: done; run them with meson test -C $FUZZ_BUILD_DIR --suite fuzz"
fi
