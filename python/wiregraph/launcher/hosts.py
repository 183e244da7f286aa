"""Where the nodes live on the network: --hosts shared (every node in the
launcher's network namespace) or --hosts netns (node R in its own namespace
wg<J>n<R>, with its own stack, MAC and MTU), and the veth pairs that join a
node to the job's bridge wgb<J> in the root namespace:

  --link af_xdp:  node end wg<J>x<R> (the node's net_af_xdp port; inside the
                  namespace with netns), bridge end wg<J>v<R> on wgb<J>.
  --link tap, netns: the node's tap wg<J>t<R> is made by the node inside its
                  namespace; there a bridge wg<J>b<R> joins it to the node
                  end wg<J>x<R>; the bridge end wg<J>v<R> is on wgb<J>.
  --link tap, shared: no veth (today's taps straight on wgb<J>).

The names are the job's: remove_job_hosts finds them again after a launcher
killed with SIGKILL (rundirs.sweep_stale_runs)."""

import os
import re

from .netdevs import disable_ipv6, netdev_exists, run_ip

NETNS_DIR = "/run/netns"     # where `ip netns add` pins the namespaces


def ip(netns, *argv):
    """An `ip` command, run in namespace NETNS (None: this one)."""
    return ["ip"] + (["-n", netns] if netns else []) + [str(a) for a in argv]


class Hosts:
    """The namespaces, veths and namespace bridges of one job, and the
    commands that make them (printed by --dry-run)."""

    def __init__(self, job, nodes, hosts, link, mtu):
        self.job = job
        self.P = nodes
        self.netns_mode = hosts == "netns" and nodes > 1
        self.link = link
        self.mtu = mtu                     # the nodes' --mtu, None: the default
        self.bridge = "wgb%s" % job        # 11 chars <= 15

    def netns(self, r):
        return "wg%sn%d" % (self.job, r) if self.netns_mode else None

    def uses_veths(self):
        return self.P > 1 and (self.link == "af_xdp" or (self.netns_mode and self.link == "tap"))

    def veth_bridge_end(self, r):
        return "wg%sv%d" % (self.job, r)   # <= 13 chars

    def veth_node_end(self, r):
        return "wg%sx%d" % (self.job, r)

    def netns_bridge(self, r):
        """The bridge inside node r's namespace (--link tap with netns), else None."""
        return "wg%sb%d" % (self.job, r) if self.netns_mode and self.link == "tap" else None

    def node_prefix(self, r):
        """What node r's command starts with: entering its namespace."""
        return ["ip", "netns", "exec", self.netns(r)] if self.netns_mode else []

    def node_commands(self, r):
        """What makes node r's namespace and veth before it starts."""
        if not self.uses_veths() and not self.netns_mode:
            return []
        ns, br_end, node_end = self.netns(r), self.veth_bridge_end(r), self.veth_node_end(r)
        mtu = ["mtu", self.mtu] if self.mtu else []
        cmds = []
        if ns:
            # IPv6 off before any netdev exists there: no RS/MLD/DAD frames
            # from the veth or the node's tap into the cluster.
            cmds += [["ip", "netns", "add", ns],
                     ["ip", "netns", "exec", ns, "sysctl", "-qw",
                      "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"]]
        cmds += [ip(None, "link", "add", "name", br_end, *mtu, "type", "veth", "peer", "name", node_end, *mtu,
                    *(["netns", ns] if ns else [])),
                 ip(None, "link", "set", "dev", br_end, "master", self.bridge, "up")]
        nsbr = self.netns_bridge(r)
        if nsbr:
            cmds += [ip(ns, "link", "add", "name", nsbr, *mtu, "type", "bridge",
                        "forward_delay", "0", "stp_state", "0", "mcast_snooping", "0"),
                     ip(ns, "link", "set", "dev", nsbr, "up"),
                     ip(ns, "link", "set", "dev", node_end, "master", nsbr)]
        cmds.append(ip(ns, "link", "set", "dev", node_end, "up"))
        return cmds

    def create(self, r):
        """Runs node_commands(r); RuntimeError naming the failed command."""
        for c in self.node_commands(r):
            run_ip(c)
        if self.uses_veths():
            disable_ipv6(self.veth_bridge_end(r))
            if not self.netns_mode:
                disable_ipv6(self.veth_node_end(r))


def job_namespaces(job):
    pat = re.compile(r"^wg%sn\d+$" % job)
    try:
        return sorted(n for n in os.listdir(NETNS_DIR) if pat.match(n))
    except OSError:
        return []


def job_veths(job):
    """The job's veth ends left in this namespace (either end of a pair)."""
    pat = re.compile(r"^wg%s[vx]\d+$" % job)
    try:
        return sorted(n for n in os.listdir("/sys/class/net") if pat.match(n))
    except OSError:
        return []


def remove_job_hosts(job, gone):
    """Removes job J's namespaces (with everything in them: the node ends of
    the veths, the taps, the namespace bridges) and the veths left here;
    gone(what, ok) records each."""
    for ns in job_namespaces(job):
        gone("netns " + ns, run_ip(["ip", "netns", "del", ns], check=False)
             or not os.path.exists(os.path.join(NETNS_DIR, ns)))
    # Deleting a namespace deletes the veths in it and their peers here;
    # the kernel does that asynchronously, so an end may already be gone.
    for ifc in job_veths(job):
        gone("veth " + ifc, run_ip(["ip", "link", "del", "dev", ifc], check=False) or not netdev_exists(ifc))
