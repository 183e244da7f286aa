"""--link tap: the thread that plugs each node's tap netdev into the job's
bridge once it is safe to (TapManager)."""

import threading
import time

from .netdevs import disable_ipv6, is_up, netdev_exists, read_mac, run_ip
from .progress import say

POLL_S = 0.02               # polling interval for netdevs (not a sync sleep)
TAP_APPEAR_LIMIT_S = 60.0   # how long a node may take to create its tap netdev
TAP_UP_SETTLE_S = 0.1       # tap must stay IFF_UP this long before its MAC is set
TAP_WATCH_FAST_S = 5.0      # poll MACs every POLL_S for this long after bridging
SLOW_POLL_NETNS_S = 1.0     # afterwards, in namespaces (each look runs `ip`)


class TapManager(threading.Thread):
    """Plugs each node's tap netdev into the bridge, safely.

    The tap PMD creates the kernel netdev (down) during EAL init with the DPDK
    port's MAC, sets it IFF_UP in rte_eth_dev_start and, right after, resets the
    kernel-side MAC to the port's MAC. With equal MACs the bridge keeps the port's
    MAC as a local address and never forwards frames for it out of that tap
    (MACHINE-NOTES gotcha 1). So, per node, polling /sys/class/net:
      1. netdev appears     -> txqueuelen, IPv6 off (no RS/MLD noise)
      2. IFF_UP (port up) for TAP_UP_SETTLE_S (rte_eth_dev_start resets the MAC
         just after setting IFF_UP)
                            -> set the kernel-side MAC to 02:J:R, check it stuck
      3. MAC is ours        -> plug into the bridge (frames start flowing only now,
                               so no peer can address the node while the MACs clash)
      4. afterwards         -> re-apply the MAC whenever it changes (port restart)."""

    APPEARED, STARTED, BRIDGED = 1, 2, 3

    def __init__(self, plan, nodes):
        super().__init__(daemon=True)
        self.plan = plan
        self.nodes = nodes
        self.stop_ev = threading.Event()
        self.lock = threading.Lock()
        self.started_at = {}      # rank -> time the process started
        self.state = {}           # rank -> APPEARED/STARTED/BRIDGED
        self.up_since = {}        # rank -> first time the tap was seen IFF_UP
        self.bridged_at = {}      # rank -> time it was plugged into the bridge
        self.watched_at = {}      # rank -> last look at a bridged tap in a namespace
        self.warned = set()
        self.mac_resets = {}

    def node_started(self, r):
        with self.lock:
            self.started_at[r] = time.monotonic()

    def step(self, r, t0):
        ifc, ns = self.plan.tap_iface(r), self.plan.hosts.netns(r)
        want = self.plan.tap_mac(r)
        set_txqueuelen, set_mac, plug = self.plan.tap_commands(r)
        st = self.state.get(r)
        if st is None:
            if not netdev_exists(ifc, ns):
                if time.monotonic() - t0 > TAP_APPEAR_LIMIT_S and r not in self.warned:
                    self.warned.add(r)
                    say("warning: node %d has not created tap %s after %.0f s"
                        % (r, ifc, TAP_APPEAR_LIMIT_S))
                return
            if ns is None:
                disable_ipv6(ifc)  # (a node's namespace has IPv6 off from its start)
            run_ip(set_txqueuelen, check=False)
            self.state[r] = st = self.APPEARED
        if st == self.APPEARED:
            now = time.monotonic()
            if not is_up(ifc, ns):      # the node has not started its port yet
                self.up_since.pop(r, None)
                if now - t0 > TAP_APPEAR_LIMIT_S and r not in self.warned:
                    self.warned.add(r)
                    say("warning: node %d has not started its port (tap %s down) after %.0f s"
                        % (r, ifc, TAP_APPEAR_LIMIT_S))
                return
            if now - self.up_since.setdefault(r, now) < TAP_UP_SETTLE_S:
                return
            self.state[r] = st = self.STARTED
        if st == self.STARTED:
            if read_mac(ifc, ns) != want:
                run_ip(set_mac, check=False)
            if read_mac(ifc, ns) != want:
                return                   # reset by the port start in between: next tick
            if run_ip(plug, check=False):
                self.state[r] = self.BRIDGED
                self.bridged_at[r] = time.monotonic()
                say("node %d: tap %s on bridge %s, kernel-side MAC %s"
                    % (r, ifc, self.plan.hosts.netns_bridge(r) or self.plan.bridge, want))
            return
        have = read_mac(ifc, ns)
        if have is not None and have != want:
            if run_ip(set_mac, check=False):
                n = self.mac_resets.get(r, 0) + 1
                self.mac_resets[r] = n
                if n <= 3:
                    say("node %d: kernel-side MAC of %s was reset to %s (port restart?); "
                        "set back to %s" % (r, ifc, have, want))

    def run(self):
        while True:
            with self.lock:
                started = dict(self.started_at)
            now = time.monotonic()
            # In namespaces every look is an `ip` process, which costs the
            # nodes CPU: a bridged tap there is looked at every
            # SLOW_POLL_NETNS_S only, with no fast watch after bridging.
            netns = self.plan.hosts.netns_mode
            watch_fast_s = 0.0 if netns else TAP_WATCH_FAST_S
            fast = not started or any(
                self.state.get(r) != self.BRIDGED
                or now - self.bridged_at.get(r, now) < watch_fast_s for r in started)
            if self.stop_ev.wait(POLL_S if fast else 0.1):
                return
            now = time.monotonic()
            for r, t0 in started.items():
                node = self.nodes[r]
                if node.proc is not None and node.proc.poll() is not None:
                    continue
                if netns and self.state.get(r) == self.BRIDGED:
                    if now - self.watched_at.get(r, 0.0) < SLOW_POLL_NETNS_S:
                        continue
                    self.watched_at[r] = now
                try:
                    self.step(r, t0)
                except OSError as e:
                    say("node %d: tap setup error: %s" % (r, e))

    def stop(self):
        self.stop_ev.set()
        if self.is_alive():
            self.join(2)
