"""Run directories (wiregraph.launcher.rundirs), without a node, in a
directory the test makes: a fresh run dir holds its lock while its launcher
lives; the sweep removes only runs provably left by a launcher killed with
SIGKILL; where an ordinary user's run dirs go. Run by meson (suite unit) as
`python3 tests/test_launcher_rundirs.py -v` (pytest)."""

import fcntl
import os
import secrets
import shutil
import tempfile
import sys
from pathlib import Path

import pytest

from wiregraph.launcher import rundirs


def fresh_job():
    """A job id no real run has (the sweep also looks for its taps and EAL files)."""
    return "%08x" % (secrets.randbits(32) | 1)


def fake_run(base, job, lock=True, pid=4242):
    d = base / ("wiregraph-" + job)
    d.mkdir(mode=0o700)
    (d / "memif-0-1.sock").write_text("")
    if lock:
        (d / rundirs.LOCK_NAME).write_text("%d\n" % pid)
    return d


def test_the_sweep_removes_a_run_whose_lock_nobody_holds(tmp_path, capsys):
    job = fresh_job()
    stale = fake_run(tmp_path, job)
    assert rundirs.sweep_stale_runs(tmp_path) == 1
    assert not stale.exists()
    assert capsys.readouterr().out == (
        "[cluster] removed what job %s left behind (its launcher, pid 4242, was killed): %s\n" % (job, stale))


def test_the_sweep_leaves_live_runs_and_what_is_not_a_run(tmp_path):
    live = fake_run(tmp_path, fresh_job())
    holder = os.open(live / rundirs.LOCK_NAME, os.O_RDONLY)   # a live launcher's lock
    fcntl.flock(holder, fcntl.LOCK_EX)
    unlocked_old = fake_run(tmp_path, fresh_job(), lock=False)  # an older launcher's: no lock file
    other = tmp_path / "wiregraph-notahex"
    other.mkdir()
    (other / rundirs.LOCK_NAME).write_text("1\n")
    link_to = tmp_path / "elsewhere"
    link_to.mkdir()
    (link_to / rundirs.LOCK_NAME).write_text("1\n")
    link = tmp_path / ("wiregraph-" + fresh_job())
    link.symlink_to(link_to)
    try:
        assert rundirs.sweep_stale_runs(tmp_path) == 0
        for d in (live, unlocked_old, other, link_to):
            assert d.exists()
        assert (live / "memif-0-1.sock").exists()
    finally:
        os.close(holder)
    assert rundirs.sweep_stale_runs(tmp_path) == 1  # its launcher gone, the run is stale
    assert not live.exists()


def test_a_fresh_run_dir_is_locked_while_its_launcher_lives(tmp_path, monkeypatch):
    monkeypatch.setattr(rundirs, "run_dir_base", lambda: tmp_path)
    job, fd = rundirs.create_run_dir()
    d = tmp_path / ("wiregraph-" + job)
    assert len(job) == 8 and int(job, 16) > 0
    assert (d / rundirs.LOCK_NAME).read_text() == "%d\n" % os.getpid()
    assert os.stat(d).st_mode & 0o777 == 0o700
    assert [p.name for p in d.iterdir()] == [rundirs.LOCK_NAME]  # no staging name left
    assert rundirs.sweep_stale_runs(tmp_path) == 0
    os.close(fd)
    assert rundirs.sweep_stale_runs(tmp_path) == 1


def test_roots_runs_go_to_tmp(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/0")
    assert rundirs.run_dir_base() == Path("/tmp")
    assert rundirs.run_dir("0000abcd") == Path("/tmp/wiregraph-0000abcd")
    assert rundirs.dpdk_runtime_dirs() == [Path("/var/run/dpdk")]
    env = rundirs.node_environment("0000abcd", Path("/tmp/wiregraph-0000abcd"), 3)
    assert env["XDG_RUNTIME_DIR"] == "/run/user/0"  # the EAL's own choice for root: /var/run/dpdk
    assert (env["WIREGRAPH_NODES_PER_HOST"], env["WIREGRAPH_LAUNCHER"]) == ("3", "1")


@pytest.mark.skipif(os.geteuid() != 0, reason="making a directory of another uid needs root (chown)")
def test_a_users_runs_go_to_their_own_directory(tmp_path, monkeypatch, request):
    uid = 4242
    # A short path of its own: pytest's tmp_path can be longer than a memif
    # socket path allows, and the launcher rightly turns such a base down.
    short = Path(tempfile.mkdtemp(prefix="wgxdg", dir="/tmp"))
    request.addfinalizer(lambda: shutil.rmtree(short, ignore_errors=True))
    xdg = short / "xdg"
    xdg.mkdir(mode=0o700)
    os.chown(xdg, uid, uid)
    monkeypatch.setattr(os, "geteuid", lambda: uid)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(xdg))
    assert rundirs.run_dir_base() == xdg
    assert rundirs.dpdk_runtime_dirs() == [xdg / "dpdk"]
    env = rundirs.node_environment("0000abcd", xdg / "wiregraph-0000abcd", 2)
    assert (env["XDG_RUNTIME_DIR"], env["WIREGRAPH_RUN_DIR"], env["WIREGRAPH_JOB_ID"]) == \
        (str(xdg), str(xdg / "wiregraph-0000abcd"), "0x0000abcd")
    # Not theirs, open to others, or too long for memif socket paths: their /tmp directory.
    own = Path("/tmp/wiregraph-user-%d" % uid)
    for bad in ("/run/user/0", str(tmp_path), "/" + "x" * 80):
        monkeypatch.setenv("XDG_RUNTIME_DIR", bad)
        assert rundirs.run_dir_base() == own
    os.chmod(xdg, 0o777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(xdg))
    assert rundirs.run_dir_base() == own
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    assert rundirs.run_dir_base() == own
    assert rundirs.dpdk_runtime_dirs() == [own / "dpdk", Path("/tmp/dpdk")]
    assert rundirs.node_environment("0000abcd", own, 2)["XDG_RUNTIME_DIR"] == str(own)


@pytest.mark.skipif(os.geteuid() != 0, reason="making a directory of another uid needs root (chown)")
def test_a_base_someone_else_made_is_refused(tmp_path, monkeypatch):
    base = tmp_path / "taken"
    base.mkdir(mode=0o700)
    os.chown(base, 4343, 4343)
    monkeypatch.setattr(rundirs, "run_dir_base", lambda: base)
    with pytest.raises(rundirs.RunDirError, match="is not a private directory of this user"):
        rundirs.create_run_dir()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__] + sys.argv[1:]))
