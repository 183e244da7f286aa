"""A run's directory (its key, memif sockets and lock), removing what a job
left on the machine, and the sweep of runs whose launcher was killed with
SIGKILL: a run dir whose lock nobody holds."""

import errno
import fcntl
import os
import re
import secrets
import shutil
import stat
from pathlib import Path

from .hosts import remove_job_hosts
from .memory import hugetlbfs_mounts
from .netdevs import job_netdevs, netdev_exists, run_ip
from .processes import job_processes
from .progress import say

RUN_DIR_PATTERN = re.compile(r"^wiregraph-([0-9a-f]{8})$")
LOCK_NAME = "launcher.lock"
# A base longer than this would leave the memif socket paths
# (BASE/wiregraph-<J>/memif-<i>-<j>.sock) near sun_path's 108 bytes.
MAX_BASE_CHARS = 64


class RunDirError(Exception):
    pass


def owned_private_dir(path):
    """True when PATH is a directory (not a symlink) of this user that no
    one else may write into."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and st.st_mode & 0o022 == 0


def run_dir_base():
    """Where run dirs go. Root: /tmp (the taps and bridges are root's anyway).
    Another user: a directory of their own, so that no other user can see
    their memif sockets or take their names: $XDG_RUNTIME_DIR when it is
    theirs (and short enough for socket paths), else /tmp/wiregraph-user-<uid>
    (ensure_run_dir_base makes it)."""
    if os.geteuid() == 0:
        return Path("/tmp")
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isabs(xdg) and len(xdg) <= MAX_BASE_CHARS and owned_private_dir(xdg):
        return Path(xdg)
    return Path("/tmp/wiregraph-user-%d" % os.geteuid())


def ensure_run_dir_base():
    """run_dir_base(), created (mode 0700) if needed; RunDirError when it is
    not a private directory of this user (another user made it first)."""
    base = run_dir_base()
    if base == Path("/tmp"):
        return base
    try:
        os.mkdir(base, 0o700)
    except FileExistsError:
        pass
    except OSError as e:
        raise RunDirError("cannot create %s: %s" % (base, e.strerror))
    if not owned_private_dir(base):
        raise RunDirError("%s is not a private directory of this user (uid %d): remove it"
                          % (base, os.geteuid()))
    return base


def run_dir(job):
    return run_dir_base() / ("wiregraph-%s" % job)


def dpdk_runtime_dirs():
    """Where the EAL keeps its runtime dirs (one per file prefix): root's
    /var/run/dpdk; another user's nodes get XDG_RUNTIME_DIR=run_dir_base()
    (node_environment), so BASE/dpdk, and, from runs of older launchers,
    $XDG_RUNTIME_DIR/dpdk or /tmp/dpdk."""
    if os.geteuid() == 0:
        return [Path("/var/run/dpdk")]
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    dirs = [run_dir_base() / "dpdk", Path(xdg) / "dpdk" if xdg else Path("/tmp/dpdk")]
    return [d for i, d in enumerate(dirs) if d not in dirs[:i]]


def node_environment(job, rundir, nodes):
    """What the launcher adds to the nodes' environment."""
    env = dict(os.environ)
    env["WIREGRAPH_JOB_ID"] = "0x" + job
    env["WIREGRAPH_RUN_DIR"] = str(rundir)
    env["WIREGRAPH_NODES_PER_HOST"] = str(nodes)  # each node's memory check counts on 1/P
    env["WIREGRAPH_LAUNCHER"] = "1"  # every node prints its load progress: one line of them here
    if os.geteuid() != 0:
        # The EAL's runtime dir is $XDG_RUNTIME_DIR/dpdk, else /tmp/dpdk,
        # which the first user to run DPDK makes 0700: everyone else's EAL
        # then fails. Under the user's own base it is theirs.
        env["XDG_RUNTIME_DIR"] = str(run_dir_base())
    return env


def remove_job(job, rundir, bridge):
    """Removes what job J may have left on this machine: its namespaces and
    veths (hosts.py), its taps, its bridge wgb<J> (when `bridge`), its run dir, and the EAL runtime dirs and hugepage
    files of its nodes' file prefixes wg<J>r<R>. Returns (removed, problems),
    each a list of names."""
    removed, problems = [], []

    def gone(what, ok):
        (removed if ok else problems).append(what)

    remove_job_hosts(job, gone)
    for ifc in job_netdevs(job):
        gone("tap " + ifc, run_ip(["ip", "link", "del", "dev", ifc], check=False) or not netdev_exists(ifc))
    if bridge and netdev_exists("wgb" + job):
        gone("bridge wgb" + job, run_ip(["ip", "link", "del", "dev", "wgb" + job], check=False))
    prefix = re.compile(r"^wg%sr\d+" % job)
    for mnt in hugetlbfs_mounts():  # hugepage files (none with --in-memory)
        try:
            for e in os.scandir(mnt):
                if prefix.match(e.name):
                    try:
                        os.unlink(e.path)
                        gone(e.path, True)
                    except OSError:
                        gone(e.path, False)
        except OSError:
            pass
    for d in dpdk_runtime_dirs():
        try:
            entries = list(os.scandir(d))
        except OSError:
            continue
        for e in entries:
            if re.match(r"^wg%sr\d+$" % job, e.name):
                shutil.rmtree(e.path, ignore_errors=True)
                gone(e.path, not os.path.exists(e.path))
    if rundir.exists():
        shutil.rmtree(rundir, ignore_errors=True)
        gone(str(rundir), not rundir.exists())
    return removed, problems


def cleanup(plan, created_bridge):
    _, problems = remove_job(plan.job, plan.rundir, created_bridge)
    if problems:
        say("warning: cleanup could not remove: " + ", ".join(problems))


def create_run_dir():
    """A fresh job id J and its run dir BASE/wiregraph-<J>/ (run_dir_base;
    created exclusively, so two launchers never share one; its bridge name
    must be free too), holding LOCK_NAME, locked (flock) by this process for
    as long as it lives: the kernel releases the lock when the launcher dies,
    however it dies. The lock file gets its name only once locked, so a sweep
    never finds it unlocked while its launcher lives. Returns (J, fd) or
    (None, None); RunDirError when the base is unusable."""
    base = ensure_run_dir_base()
    for _ in range(100):
        job = "%08x" % (secrets.randbits(32) or 1)
        if netdev_exists("wgb" + job):
            continue
        rundir = base / ("wiregraph-%s" % job)
        try:
            os.mkdir(rundir, 0o700)
        except FileExistsError:
            continue
        staging = rundir / (".%s.new" % LOCK_NAME)
        fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, ("%d\n" % os.getpid()).encode())
        os.rename(staging, rundir / LOCK_NAME)
        return job, fd
    return None, None


def sweep_stale_runs(base=None):
    """Removes what runs whose launcher was killed with SIGKILL left behind.
    Only provably stale ones: a run dir of this launcher's making (it holds
    LOCK_NAME) whose lock nobody holds (its launcher is dead) and none of
    whose nodes still runs (they get SIGTERM when the launcher dies and
    remove their own files). Run dirs without the lock file (made by an
    older launcher) are left alone. BASE: run_dir_base(). Returns the number
    of runs swept."""
    base = Path(base) if base is not None else run_dir_base()
    swept = 0
    try:
        names = sorted(os.listdir(base))
    except OSError:
        return 0
    for name in names:
        m = RUN_DIR_PATTERN.match(name)
        if not m:
            continue
        job, rundir = m.group(1), base / name
        try:
            if rundir.is_symlink() or rundir.stat().st_uid != os.geteuid():
                continue
            fd = os.open(rundir / LOCK_NAME, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            continue  # no lock file: not ours to judge, or gone meanwhile
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                    continue  # its launcher lives
                raise
            if not rundir.exists():
                continue  # swept by another launcher while we waited for the lock
            try:
                pid = os.read(fd, 32).decode().strip()
            except OSError:
                pid = "?"
            alive = job_processes(job)
            if alive:
                say("job %s: its launcher (pid %s) is gone but node processes %s still run; left alone"
                    % (job, pid, ", ".join(map(str, alive))))
                continue
            removed, problems = remove_job(job, rundir, True)
            swept += 1
            say("removed what job %s left behind (its launcher, pid %s, was killed): %s"
                % (job, pid, ", ".join(removed) or "nothing"))
            if problems:
                say("warning: could not remove: " + ", ".join(problems))
        finally:
            os.close(fd)
    return swept
