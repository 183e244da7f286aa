"""Kernel network devices of a job (its bridge and taps): `ip` commands and
what /sys/class/net and /proc/sys/net say."""

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


def netdev_exists(name):
    return os.path.exists("/sys/class/net/" + name)


def disable_ipv6(name):
    """Keep the kernel from sending IPv6 RS/MLD/DAD frames into the cluster."""
    try:
        with open("/proc/sys/net/ipv6/conf/%s/disable_ipv6" % name, "w") as f:
            f.write("1")
    except OSError:
        pass


def read_mac(name):
    try:
        with open("/sys/class/net/%s/address" % name) as f:
            return f.read().strip().lower()
    except OSError:
        return None


def is_up(name):
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
