"""The plan of a job: its names (run dir, bridge, taps, file prefixes,
memif sockets) and every command, computed once (also what --dry-run
prints)."""

import os
import shlex

from .hosts import Hosts, ip
from .keys import describe_auth, key_choice
from .memory import app_mtu, memif_bsize, memory_args, memory_warnings
from .rundirs import run_dir

TAP_TXQUEUELEN = 10000


def cpu_list_string(cpus):
    """Compress a set of CPU ids into DPDK cpuset syntax: 0-3,6,8-9."""
    cpus = sorted(cpus)
    parts = []
    i = 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        parts.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(parts)


def lcores_arg(n, cpus=None):
    """--lcores for N lcores floating over CPUS (default: the CPUs this
    process may run on)."""
    cpus = cpu_list_string(os.sched_getaffinity(0) if cpus is None else cpus)
    if n == 1:
        return "0@(%s)" % cpus
    return "(0-%d)@(%s)" % (n - 1, cpus)


def qcmd(argv):
    return " ".join(shlex.quote(str(x)) for x in argv)


class Plan:
    def __init__(self, args, job):
        self.args = args
        self.job = job                                   # 8 hex digits
        self.P = args.nodes
        self.rundir = run_dir(job)
        self.hosts = Hosts(job, self.P, args.hosts, args.link, app_mtu(args.app))
        self.bridge = self.hosts.bridge
        self.mem, self.mem_reason = None, None         # choose_memory(), once the node answered
        self.lcores = lcores_arg(args.lcores_per_node)
        self.prefixes = ["wg%sr%d" % (job, r) for r in range(self.P)]
        # A fresh key per run unless the options say otherwise (one node
        # sends no frames and needs none).
        self.key_file = self.rundir / "key" if self.P > 1 and key_choice(args.app) else None

    def choose_memory(self, need):
        """-m and the memory mode for `need` (memory_need); returns warnings."""
        self.mem, self.mem_reason = memory_args(self.args, need)
        return memory_warnings(self.args, self.mem, need)

    def auth_summary(self):
        if self.key_file is not None:
            return "frames authenticated with a fresh key (%s)" % self.key_file
        return describe_auth(self.args.app) or "one node, no frames"

    # tap -------------------------------------------------------------------
    def tap_iface(self, r):
        return "wg%st%d" % (self.job, r)                 # <= 13 chars

    def tap_mac(self, r):
        j = int(self.job, 16)
        b = [0x02, (j >> 24) & 0xff, (j >> 16) & 0xff, (j >> 8) & 0xff, j & 0xff, r & 0xff]
        return ":".join("%02x" % x for x in b)

    def uses_bridge(self):
        return self.P > 1 and self.args.link in ("tap", "af_xdp")

    def bridge_commands(self):
        br = self.bridge
        return [["ip", "link", "add", "name", br, "type", "bridge",
                 "forward_delay", "0", "stp_state", "0", "mcast_snooping", "0"],
                ["ip", "link", "set", "dev", br, "up"]]

    def tap_commands(self, r):
        """What TapManager runs for node r (printed by --dry-run): txqueuelen,
        the kernel-side MAC, into the bridge (with --hosts netns: in the
        node's namespace, the bridge there)."""
        ifc, ns = self.tap_iface(r), self.hosts.netns(r)
        return [ip(ns, "link", "set", "dev", ifc, "txqueuelen", TAP_TXQUEUELEN),
                ip(ns, "link", "set", "dev", ifc, "address", self.tap_mac(r)),
                ip(ns, "link", "set", "dev", ifc, "master", self.hosts.netns_bridge(r) or self.bridge, "up")]

    # memif -----------------------------------------------------------------
    def memif_socket(self, i, j):
        a, b = min(i, j), max(i, j)
        return self.rundir / ("memif-%d-%d.sock" % (a, b))

    def remove_memif_sockets(self):
        """A restarted job's nodes make their sockets afresh."""
        for i in range(self.P):
            for j in range(i + 1, self.P):
                sock = self.memif_socket(i, j)
                for f in (sock, sock.with_name(sock.name + ".started")):
                    try:
                        f.unlink()
                    except OSError:
                        pass

    def link_vdevs(self, r):
        if self.P == 1:
            return []
        if self.args.link == "tap":
            return ["--vdev", "net_tap0,iface=%s" % self.tap_iface(r)]
        if self.args.link == "af_xdp":
            # A veth has one queue and no RSS: one queue pair (--rx-queues 1).
            prog = ",xdp_prog=%s" % self.args.xdp_prog if self.args.xdp_prog else ""
            return ["--vdev", "net_af_xdp0,iface=%s,start_queue=0,queue_count=1%s"
                    % (self.hosts.veth_node_end(r), prog)]
        v = []
        for peer in range(self.P):
            if peer == r:
                continue
            role = "server" if r < peer else "client"
            v += ["--vdev", "net_memif%d,role=%s,socket=%s,socket-abstract=no,id=0%s"
                  % (peer, role, self.memif_socket(r, peer), memif_bsize(self.args.app))]
        return v

    def app_options(self, r):
        """Node r's application options; r None leaves --rank out (the
        option check, which runs as no rank)."""
        return (["--nodes", str(self.P)] + (["--rank", str(r)] if r is not None else []) +
                ["--job-id", "0x%s" % self.job] +
                (["--key-file", str(self.key_file)] if self.key_file is not None else []) + self.args.app)

    def command(self, r):
        a = self.args
        return (self.hosts.node_prefix(r) + [a.binary, "--no-pci", "--file-prefix", self.prefixes[r]] + self.mem +
                ["--lcores", self.lcores, "--log-level", "lib.eal:error"] +
                self.link_vdevs(r) + a.eal_extra + ["--"] + self.app_options(r))

    def check_command(self):
        return ([self.args.binary, "--check-options", "--lcore-count", str(self.args.lcores_per_node), "--"]
                + self.app_options(None))
