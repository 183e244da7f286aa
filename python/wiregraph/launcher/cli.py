"""The launcher's command line: its own options before '--', the nodes'
application options after it, and the refusals of what it cannot run."""

import argparse
import difflib
import re
import shlex
from pathlib import Path

from ..paths import node_binary
from .plan import TAP_TXQUEUELEN
from .progress import PROGRESS_EVERY_S
from .restarts import checkpoint_dir_from_app

MAX_NODES = 64
MAX_LCORES = 128            # RTE_MAX_LCORE of Debian's DPDK 22.11 build
DEFAULT_MAX_ETHPORTS = 32   # RTE_MAX_ETHPORTS of Debian's DPDK 22.11 build
USAGE_HINT = "scripts/wiregraph-cluster [launcher options] -- --app NAME --graph G [application options]"


def split_app_options(argv):
    """Split argv at the first '--': launcher options before, app options after."""
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1:]
    return argv, []


def build_parser():
    p = argparse.ArgumentParser(
        prog="wiregraph-cluster",
        usage="%(prog)s [options] -- APP_OPTIONS...",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Start P wiregraph node processes on this machine, joined by memif\n"
            "pairs or by tap ports on a Linux bridge; stream their output with a\n"
            "'[node R] ' prefix; print a summary per node. Everything after '--'\n"
            "is passed to every node after '--nodes P --rank R --job-id 0xJ'\n"
            "and, unless they choose otherwise, '--key-file' with a fresh key."),
        epilog=(
            "Each node R runs:\n"
            "  BINARY --no-pci --file-prefix wg<J>r<R> MEM --lcores LCORES\n"
            "         --log-level lib.eal:error LINK-VDEVS EXTRA-EAL\n"
            "         -- --nodes P --rank R --job-id 0x<J> [--key-file KEY] APP_OPTIONS\n"
            "where J is a random 32-bit job id (8 hex digits), KEY is a fresh\n"
            "32-byte key the launcher writes to the run dir (mode 0600, removed\n"
            "with it) unless APP_OPTIONS give --key-file or --no-auth or\n"
            "WIREGRAPH_KEY is set (P > 1 only: one node sends no frames), MEM is\n"
            "'--in-memory -m MB' when a hugetlbfs is mounted and HugePages_Free\n"
            "covers P*MB, else '--no-huge -m MB' (MB: --mem-mb, or what the node\n"
            "says it takes for the job, see --mem-mb), and LCORES puts lcores 0..N-1\n"
            "floating over this process's allowed CPUs, e.g. '(0-1)@(0-1)'.\n"
            "\n"
            "memif: one socket per pair i<j in the run dir, /tmp/wiregraph-<J>/\n"
            "(a user other than root: $XDG_RUNTIME_DIR/wiregraph-<J>/ or\n"
            "/tmp/wiregraph-user-<uid>/wiregraph-<J>/); node i is the\n"
            "server (port net_memif<j>), node j the client (net_memif<i>). All\n"
            "nodes start at once: a client port waits for its server's port.\n"
            "At most %d nodes (a node has P-1 ports; RTE_MAX_ETHPORTS).\n"
            "tap (needs root): bridge wgb<J>; node R gets net_tap0 with kernel\n"
            "netdev wg<J>t<R> (txqueuelen %d, no IPv6); once the node has started\n"
            "its port, the launcher gives the kernel side its own MAC 02:J:R (it\n"
            "must differ from the port's) and only then plugs it into the bridge.\n"
            "af_xdp (needs root): node R's port is net_af_xdp0 on the veth end\n"
            "wg<J>x<R> (one queue: a veth has no RSS), whose peer wg<J>v<R> is on\n"
            "bridge wgb<J>; the veths take the nodes' --mtu. --xdp-prog PATH adds\n"
            "xdp_prog=PATH (absolute) to the vdev.\n"
            "--hosts netns: node R runs under 'ip netns exec wg<J>n<R>'; its veth\n"
            "end wg<J>x<R> is in that namespace (tap: the node's tap and that end\n"
            "on a bridge wg<J>b<R> there), the other end on wgb<J>.\n"
            "P=1: no link vdev and no namespace at all.\n"
            "\n"
            "Before any node starts, BINARY --check-options -- followed by node\n"
            "0's application options (without --rank) parses them as a node\n"
            "would, without the EAL: a refusal ends the launcher at once with the\n"
            "node's own message and exit 2.\n"
            "\n"
            "After success, if APP_OPTIONS contain '--out DIR', DIR/node<R>.json\n"
            "are summed per superstep and sent == accumulated is checked\n"
            "(python/wiregraph/wglib.py; its line per superstep with --verbose); a missing\n"
            "or unreadable node<R>.json fails it. Then the nodes' result-R.txt\n"
            "are merged into DIR/results.tsv, sorted by vertex under a header\n"
            "(--results; scripts/wiregraph-results does the same by hand).\n"
            "Whatever way the run ended, the run's lock file in DIR goes once\n"
            "no node holds it.\n"
            "\n"
            "Output: node 0's end-of-run summary ('summary:' and the indented\n"
            "lines under it) is printed without its '[node 0] ' prefix; the\n"
            "nodes' 'loading: ...' lines become one line for the cluster,\n"
            "rewritten in place on a terminal, else at most every %d s (with\n"
            "--verbose every node's line as it comes). The nodes run with\n"
            "WIREGRAPH_LAUNCHER=1 in their environment, which has every node\n"
            "print its progress for the launcher to combine.\n"
            "\n"
            "Cleanup: on any exit the launcher removes the bridge, taps, run dir,\n"
            "EAL runtime dirs and hugepage files of its job. Killed with SIGKILL it\n"
            "cannot: the next launcher (or --sweep) removes what a run left if its\n"
            "run dir's launcher.lock is held by nobody and none of its nodes runs.\n"
            "\n"
            "Exit status: 0 all nodes exited 0 (and the --out check passed);\n"
            "1 a node failed, could not start, or the check failed; 2 a usage\n"
            "error, application options the node binary refuses, or a node\n"
            "that exited 2 (a command-line error it found, e.g. a --source\n"
            "that is not a vertex of the graph);\n"
            "124 --timeout hit; 130 interrupted by SIGINT/SIGTERM."
            % (DEFAULT_MAX_ETHPORTS + 1, TAP_TXQUEUELEN, PROGRESS_EVERY_S)))
    p.add_argument("--nodes", "-n", type=int, default=2, metavar="P",
                   help="number of node processes, 1..%d (default 2)" % MAX_NODES)
    p.add_argument("--link", choices=("memif", "tap", "af_xdp"), default="memif",
                   help="how the nodes are joined (default memif); tap and af_xdp need root")
    p.add_argument("--hosts", choices=("shared", "netns"), default="shared",
                   help="shared (default): every node in the launcher's network namespace; "
                        "netns: node R in its own namespace wg<J>n<R> (own stack, MAC, MTU), "
                        "joined to the bridge by a veth pair (--link tap or af_xdp; needs root)")
    p.add_argument("--xdp-prog", default=None, metavar="PATH",
                   help="--link af_xdp: the XDP program for the ports (xdp_prog= of net_af_xdp), e.g. "
                        "build/dataplane/xdp/wiregraph_xdp.o, which passes every frame that is not "
                        "wiregraph's to the kernel (default: DPDK's, which takes every frame)")
    p.add_argument("--timeout", type=float, default=600.0, metavar="SEC",
                   help="kill all nodes and exit 124 if they have not all exited "
                        "SEC seconds after the first one started (default 600; "
                        "large graphs need more)")
    binary = node_binary()
    p.add_argument("--binary", default=str(binary), metavar="PATH",
                   help="node executable (default %s: $WIREGRAPH_BIN, else this checkout's "
                        "build/apps/wiregraph)" % binary)
    p.add_argument("--lcores-per-node", type=int, default=1, metavar="N",
                   help="DPDK lcores per node, 1..%d, all floating over the "
                        "allowed CPUs (default 1)" % MAX_LCORES)
    p.add_argument("--mem-mb", type=int, default=None, metavar="MB",
                   help="DPDK memory per node in MiB, passed as -m MB (default: from the job: "
                        "what the node says its pools and rings take for P nodes, --window, "
                        "--mtu, --mbufs and --rx-queues, plus 10%% and 8 MiB)")
    p.add_argument("--memory", choices=("auto", "huge", "no-huge"), default="auto",
                   help="auto (default): hugepages if mounted and enough are free "
                        "for P*MB, else --no-huge; huge: always '--in-memory -m MB'; "
                        "no-huge: always '--no-huge -m MB'")
    p.add_argument("--verbose", action="store_true",
                   help="every node's details (--verbose is passed on to the nodes: per-superstep "
                        "lines, totals, roles, every node's load progress) and the per-superstep "
                        "check of --out; a --verbose among the application options does the same")
    p.add_argument("--keep-going", action="store_true",
                   help="when a node fails, let the other nodes run to their end "
                        "(or the timeout) instead of killing them; the exit status "
                        "is still 1")
    p.add_argument("--restart", type=int, default=0, metavar="K",
                   help="when a node dies, restart the job up to K times from its last "
                        "committed checkpoint (the application options' --checkpoint-dir, "
                        "or --resume DIR), or from the start if none is committed yet; the "
                        "test hook --crash-node is dropped on a restart, a node that exits 2 "
                        "(refused) is not restarted, and --timeout counts per attempt (default 0)")
    p.add_argument("--results", choices=("tsv", "npy", "none"), default="tsv",
                   help="after a run with --out DIR: the nodes' result-R.txt merged into one file "
                        "sorted by vertex, DIR/results.tsv (tsv, the default: a header line, then "
                        "'vertex<TAB>value' lines) or DIR/results.npy (npy: a numpy structured array); "
                        "none: only the nodes' files")
    p.add_argument("--dry-run", action="store_true",
                   help="print the bridge/tap commands and the node commands, run nothing")
    p.add_argument("--sweep", action="store_true",
                   help="only remove what earlier runs killed with SIGKILL left behind "
                        "(every run does this first), then exit")
    p.add_argument("--eal", default="", metavar='"ARGS"',
                   help="extra EAL arguments (one shell-quoted string) added to "
                        "every node after the link vdevs")
    p.add_argument("--version", action="store_true",
                   help="print the version and commit of the node binary (--binary), "
                        "which this launcher runs, and exit")
    return p


def refuse_unrecognized(parser, unknown, separated):
    """parser.error for arguments the launcher does not know: a near launcher
    option ('--nodez': did you mean --nodes?) and, without '--' on the line,
    where application options go."""
    first = unknown[0].split("=", 1)[0]
    options = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
    near = difflib.get_close_matches(first, options, n=1, cutoff=0.8) if first.startswith("--") else []
    msg = "unrecognized argument%s: %s" % ("s" if len(unknown) > 1 else "", " ".join(unknown))
    if near:
        msg += " (did you mean %s?)" % near[0]
    if not separated:
        msg += "; application options go after '--': " + USAGE_HINT
    elif not near:
        msg += " (see --help; application options go after '--')"
    parser.error(msg)


def parse_args(argv):
    mine, app = split_app_options(argv)
    parser = build_parser()
    args, unknown = parser.parse_known_args(mine)
    if unknown:
        refuse_unrecognized(parser, unknown, "--" in argv)
    if not 1 <= args.nodes <= MAX_NODES:
        parser.error("--nodes must be 1..%d (got %d)" % (MAX_NODES, args.nodes))
    if not 1 <= args.lcores_per_node <= MAX_LCORES:
        parser.error("--lcores-per-node must be 1..%d" % MAX_LCORES)
    if args.mem_mb is not None and args.mem_mb < 16:
        parser.error("--mem-mb must be at least 16")
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    if args.restart < 0:
        parser.error("--restart must be 0 or more")
    try:
        args.eal_extra = shlex.split(args.eal)
    except ValueError as e:
        parser.error("--eal: %s" % e)
    max_ports = read_max_ethports()
    if args.link == "memif" and args.nodes - 1 > max_ports:
        parser.error("--link memif needs P-1 = %d ports per node, but DPDK was built "
                     "with RTE_MAX_ETHPORTS=%d: use at most %d nodes or --link tap"
                     % (args.nodes - 1, max_ports, max_ports + 1))
    if args.xdp_prog is not None:
        if args.link != "af_xdp":
            parser.error("--xdp-prog is for --link af_xdp (the program of its net_af_xdp ports)")
        if not Path(args.xdp_prog).is_file():
            parser.error("--xdp-prog %s: no such file (build it: ninja -C build "
                         "dataplane/xdp/wiregraph_xdp.o)" % args.xdp_prog)
        # The nodes run elsewhere (ip netns exec, another cwd): an absolute path; no commas (devargs).
        args.xdp_prog = str(Path(args.xdp_prog).resolve())
        if "," in args.xdp_prog:
            parser.error("--xdp-prog %s: a path with a comma cannot go into a vdev's arguments" % args.xdp_prog)
    if args.hosts == "netns" and args.link == "memif" and args.nodes > 1:
        parser.error("--hosts netns gives each node its own network stack, but memif links "
                     "go through shared memory, not the network, so the namespaces would "
                     "isolate nothing: use --link tap or --link af_xdp with --hosts netns")
    args.app = app
    if args.restart > 0 and checkpoint_dir_from_app(app) is None:
        parser.error("--restart %d needs checkpoints to restart from: give the nodes "
                     "--checkpoint-every N --checkpoint-dir DIR (after '--')" % args.restart)
    # One flag for both: the launcher's --verbose goes to the nodes, and a
    # node's makes the launcher verbose (the last of --verbose and --quiet
    # among the application options is the nodes' choice).
    said = [a for a in app if a in ("--verbose", "--quiet")]
    if args.verbose and (not said or said[-1] != "--verbose"):
        args.app = app + ["--verbose"]
    args.verbose = args.verbose or (bool(said) and said[-1] == "--verbose")
    return args


def read_max_ethports():
    for hdr in ("/usr/include/x86_64-linux-gnu/dpdk/rte_build_config.h",
                "/usr/include/dpdk/rte_build_config.h",
                "/usr/local/include/rte_build_config.h"):
        try:
            m = re.search(r"#define\s+RTE_MAX_ETHPORTS\s+(\d+)", Path(hdr).read_text())
        except OSError:
            continue
        if m:
            return int(m.group(1))
    return DEFAULT_MAX_ETHPORTS
