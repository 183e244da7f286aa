"""Kernel network devices of a job (its bridge and taps): `ip` commands and
what /sys/class/net and /proc/sys/net say."""

import json
import os
import re
import shlex
import subprocess


def run_ip(argv, check=True):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if check and r.returncode != 0:
        raise RuntimeError("'%s' failed (%d): %s" % (shlex.join(map(str, argv)), r.returncode,
                                                      r.stdout.strip()))
    return r.returncode == 0


def netdev_exists(name, netns=None):
    if netns:
        return link_in_netns(name, netns) is not None
    return os.path.exists("/sys/class/net/" + name)


def link_in_netns(name, netns):
    """`ip -j link show` of NAME in namespace NETNS (whose /sys this process
    cannot see), or None when it is not there."""
    r = subprocess.run(["ip", "-n", netns, "-j", "link", "show", "dev", name],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        links = json.loads(r.stdout) if r.returncode == 0 else []
    except ValueError:
        return None
    return links[0] if links else None


def disable_ipv6(name):
    """Keep the kernel from sending IPv6 RS/MLD/DAD frames into the cluster."""
    try:
        with open("/proc/sys/net/ipv6/conf/%s/disable_ipv6" % name, "w") as f:
            f.write("1")
    except OSError:
        pass


def read_mac(name, netns=None):
    if netns:
        link = link_in_netns(name, netns)
        return link.get("address", "").lower() if link else None
    try:
        with open("/sys/class/net/%s/address" % name) as f:
            return f.read().strip().lower()
    except OSError:
        return None


def is_up(name, netns=None):
    if netns:
        link = link_in_netns(name, netns)
        return link is not None and "UP" in link.get("flags", [])
    try:
        with open("/sys/class/net/%s/flags" % name) as f:
            return int(f.read().strip(), 16) & 0x1 != 0
    except (OSError, ValueError):
        return False


def job_netdevs(job):
    """The job's taps wg<J>t<R> (a tap PMD's netdev outlives a node only
    while the process lives, but the launcher removes them anyway)."""
    pat = re.compile(r"^wg%st\d+$" % job)
    try:
        return sorted(n for n in os.listdir("/sys/class/net") if pat.match(n))
    except OSError:
        return []
