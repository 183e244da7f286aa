"""A job's plan (wiregraph.launcher.plan), without a node: CPU lists in DPDK's
cpuset syntax, --lcores, the job's names (bridge, taps, MACs, file prefixes,
memif sockets), every node's command line, who gets a fresh key, and the
memif buffer size a large --mtu needs. Run by meson (suite unit) as `python3
tests/test_launcher_plan.py -v` (pytest)."""

import argparse
import sys
from pathlib import Path

import pytest

from wiregraph.launcher.memory import memif_bsize
from wiregraph.launcher.plan import Plan, cpu_list_string, lcores_arg

JOB = "0a0b0c0d"


def args_of(**kw):
    a = dict(nodes=3, link="memif", lcores_per_node=1, binary="/b/wiregraph", eal_extra=[],
             app=["--app", "bfs"], mem_mb=None, memory="auto", hosts="shared", xdp_prog=None)
    a.update(kw)
    return argparse.Namespace(**a)


@pytest.mark.parametrize("cpus, text", [
    ({0, 1, 2, 3, 6, 8, 9}, "0-3,6,8-9"),
    ([5], "5"),
    ([3, 1, 2], "1-3"),
    ({0, 2, 4}, "0,2,4"),
    (set(), ""),
])
def test_cpu_lists_in_dpdk_syntax(cpus, text):
    assert cpu_list_string(cpus) == text


def test_lcores_float_over_the_cpus():
    assert lcores_arg(1, {0, 1}) == "0@(0-1)"
    assert lcores_arg(4, {0, 2, 3}) == "(0-3)@(0,2-3)"


def test_the_jobs_names():
    plan = Plan(args_of(), JOB)
    assert plan.bridge == "wgb0a0b0c0d"
    assert plan.prefixes == ["wg0a0b0c0dr0", "wg0a0b0c0dr1", "wg0a0b0c0dr2"]
    assert plan.tap_iface(2) == "wg0a0b0c0dt2"
    assert plan.tap_mac(3) == "02:0a:0b:0c:0d:03"
    assert plan.memif_socket(2, 1) == plan.rundir / "memif-1-2.sock" == plan.memif_socket(1, 2)
    assert plan.rundir.name == "wiregraph-0a0b0c0d"
    assert all(len(n) <= 15 for n in (plan.bridge, plan.tap_iface(63)))  # IFNAMSIZ


def test_memif_vdevs_the_lower_rank_serves():
    plan = Plan(args_of(), JOB)
    sock01, sock12 = plan.rundir / "memif-0-1.sock", plan.rundir / "memif-1-2.sock"
    assert plan.link_vdevs(1) == [
        "--vdev", "net_memif0,role=client,socket=%s,socket-abstract=no,id=0" % sock01,
        "--vdev", "net_memif2,role=server,socket=%s,socket-abstract=no,id=0" % sock12]
    assert Plan(args_of(link="tap"), JOB).link_vdevs(2) == ["--vdev", "net_tap0,iface=wg0a0b0c0dt2"]
    assert Plan(args_of(nodes=1), JOB).link_vdevs(0) == []


def test_a_nodes_command_line():
    plan = Plan(args_of(nodes=2, lcores_per_node=2, eal_extra=["--no-telemetry"]), JOB)
    plan.mem = ["--no-huge", "-m", "64"]
    key = str(plan.rundir / "key")
    assert plan.command(1) == [
        "/b/wiregraph", "--no-pci", "--file-prefix", "wg0a0b0c0dr1", "--no-huge", "-m", "64",
        "--lcores", plan.lcores, "--log-level", "lib.eal:error",
        "--vdev", "net_memif0,role=client,socket=%s,socket-abstract=no,id=0" % (plan.rundir / "memif-0-1.sock"),
        "--no-telemetry", "--",
        "--nodes", "2", "--rank", "1", "--job-id", "0x0a0b0c0d", "--key-file", key, "--app", "bfs"]
    assert plan.check_command() == [
        "/b/wiregraph", "--check-options", "--lcore-count", "2", "--",
        "--nodes", "2", "--job-id", "0x0a0b0c0d", "--key-file", key, "--app", "bfs"]


def test_a_fresh_key_unless_the_options_or_the_environment_give_one(monkeypatch):
    monkeypatch.delenv("WIREGRAPH_KEY", raising=False)
    assert Plan(args_of(), JOB).key_file == Plan(args_of(), JOB).rundir / "key"
    assert Plan(args_of(nodes=1), JOB).key_file is None  # one node sends no frames
    for app in (["--no-auth"], ["--key-file", "/k"], ["--key-file=/k"]):
        plan = Plan(args_of(app=["--app", "bfs"] + app), JOB)
        assert plan.key_file is None
        assert "--key-file" not in plan.app_options(0)[:6]
    assert Plan(args_of(app=["--no-auth"]), JOB).auth_summary() == "frames NOT authenticated (--no-auth)"
    monkeypatch.setenv("WIREGRAPH_KEY", "00" * 32)
    plan = Plan(args_of(), JOB)
    assert plan.key_file is None
    assert plan.auth_summary() == "frames authenticated, key from WIREGRAPH_KEY"


def test_tap_commands_set_the_queue_the_mac_then_the_bridge():
    plan = Plan(args_of(link="tap"), JOB)
    assert plan.tap_commands(1) == [
        ["ip", "link", "set", "dev", "wg0a0b0c0dt1", "txqueuelen", "10000"],
        ["ip", "link", "set", "dev", "wg0a0b0c0dt1", "address", "02:0a:0b:0c:0d:01"],
        ["ip", "link", "set", "dev", "wg0a0b0c0dt1", "master", "wgb0a0b0c0d", "up"]]


@pytest.mark.parametrize("app, bsize", [
    ([], ""),                              # 1500 + 14 fits the default 2048
    (["--mtu", "2034"], ""),               # 2048 exactly
    (["--mtu", "2035"], ",bsize=3072"),    # a byte more: the next whole KiB
    (["--mtu=9000"], ",bsize=9216"),      # 9014 bytes: 9 KiB
    (["--mtu", "9000", "--mtu", "1500"], ""),  # the last one counts
])
def test_memif_buffers_hold_a_whole_frame(app, bsize):
    assert memif_bsize(app) == bsize


def test_the_memif_vdev_names_the_buffer_size():
    plan = Plan(args_of(nodes=2, app=["--app", "bfs", "--mtu", "4000"]), JOB)  # 4014 bytes: 4 KiB
    assert plan.link_vdevs(0)[1].endswith(",id=0,bsize=4096")
    assert isinstance(plan.rundir, Path)


def test_netns_nodes_run_in_their_namespace_on_an_af_xdp_veth():
    plan = Plan(args_of(nodes=2, link="af_xdp", hosts="netns", app=["--app", "bfs", "--mtu", "1700"]), JOB)
    plan.mem = ["--no-huge", "-m", "64"]
    cmd = plan.command(1)
    assert cmd[:4] == ["ip", "netns", "exec", "wg0a0b0c0dn1"]
    assert "net_af_xdp0,iface=wg0a0b0c0dx1,start_queue=0,queue_count=1" in cmd
    made = plan.hosts.node_commands(1)
    assert ["ip", "netns", "add", "wg0a0b0c0dn1"] in made
    # Both veth ends take the nodes' --mtu: a smaller one drops the frames.
    assert ["ip", "link", "add", "name", "wg0a0b0c0dv1", "mtu", "1700", "type", "veth", "peer", "name",
            "wg0a0b0c0dx1", "mtu", "1700", "netns", "wg0a0b0c0dn1"] in made
    assert plan.hosts.netns_bridge(1) is None


def test_a_netns_tap_is_bridged_inside_its_namespace():
    plan = Plan(args_of(nodes=2, link="tap", hosts="netns"), JOB)
    assert plan.tap_commands(0)[2] == ["ip", "-n", "wg0a0b0c0dn0", "link", "set", "dev", "wg0a0b0c0dt0",
                                       "master", "wg0a0b0c0db0", "up"]
    assert ["ip", "-n", "wg0a0b0c0dn0", "link", "set", "dev", "wg0a0b0c0dx0", "master",
            "wg0a0b0c0db0"] in plan.hosts.node_commands(0)


def test_shared_af_xdp_has_veths_but_no_namespaces():
    plan = Plan(args_of(nodes=3, link="af_xdp"), JOB)
    plan.mem = ["--no-huge", "-m", "64"]
    assert plan.command(2)[0] == "/b/wiregraph"
    assert all("netns" not in c for c in plan.hosts.node_commands(2))
    assert plan.uses_bridge() and plan.hosts.uses_veths()
    assert Plan(args_of(nodes=3, link="tap"), JOB).hosts.node_commands(0) == []


if __name__ == "__main__":
    sys.exit(pytest.main([__file__] + sys.argv[1:]))
