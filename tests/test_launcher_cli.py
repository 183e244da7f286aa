"""The launcher's command line (wiregraph.launcher.cli), without a node: where
launcher and application options split, what --verbose does to both, and the
refusals, each with the words the user sees. Run by meson (suite unit) as
`python3 tests/test_launcher_cli.py -v` (pytest)."""

import os
import subprocess
import sys

import pytest

from wiregraph.launcher import cli


def refusal(capsys, argv):
    """The usage error parse_args gives for ARGV: its stderr, after exit 2."""
    with pytest.raises(SystemExit) as e:
        cli.parse_args(argv)
    assert e.value.code == 2
    return capsys.readouterr().err


def test_the_first_separator_splits_launcher_and_application_options():
    assert cli.split_app_options(["--nodes", "3", "--", "--app", "bfs", "--", "x"]) == \
        (["--nodes", "3"], ["--app", "bfs", "--", "x"])
    assert cli.split_app_options(["--nodes", "3"]) == (["--nodes", "3"], [])
    assert cli.split_app_options(["--", "--app", "cc"]) == ([], ["--app", "cc"])


def test_netns_with_memif_is_refused_with_the_reason(capsys):
    err = refusal(capsys, ["--hosts", "netns", "--link", "memif", "--", "--app", "bfs"])
    assert "memif links go through shared memory" in err and "--link af_xdp" in err
    assert cli.parse_args(["--hosts", "netns", "--link", "af_xdp", "--", "--app", "bfs"]).hosts == "netns"


def test_an_xdp_program_is_for_af_xdp_and_must_exist(capsys, tmp_path):
    assert "--xdp-prog is for --link af_xdp" in refusal(capsys, ["--xdp-prog", "x.o", "--", "--app", "bfs"])
    assert "no such file" in refusal(capsys, ["--link", "af_xdp", "--xdp-prog", str(tmp_path / "x.o"),
                                              "--", "--app", "bfs"])
    (tmp_path / "x.o").write_bytes(b"")
    args = cli.parse_args(["--link", "af_xdp", "--xdp-prog", str(tmp_path / "x.o"), "--", "--app", "bfs"])
    assert args.xdp_prog == str((tmp_path / "x.o").resolve())


def test_defaults_and_the_application_options():
    args = cli.parse_args(["--nodes", "3", "--eal", "--no-telemetry '-a x'", "--", "--app", "bfs"])
    assert (args.nodes, args.link, args.lcores_per_node, args.memory, args.restart) == (3, "memif", 1, "auto", 0)
    assert args.mem_mb is None and args.timeout == 600.0 and args.results == "tsv"
    assert args.app == ["--app", "bfs"]
    assert args.eal_extra == ["--no-telemetry", "-a x"]


def test_the_binary_is_wiregraph_bin_when_set(monkeypatch):
    monkeypatch.setenv("WIREGRAPH_BIN", "/opt/wg/bin/wiregraph")
    assert cli.parse_args(["--", "--app", "bfs"]).binary == "/opt/wg/bin/wiregraph"
    assert cli.parse_args(["--binary", "/x/wg", "--", "--app", "bfs"]).binary == "/x/wg"


@pytest.mark.parametrize("command", ["wiregraph-cluster", "wiregraph-plot", "wiregraph-results", "wiregraph-validate"])
def test_a_checkouts_commands_run_its_own_package(tmp_path, command):
    # Another checkout's package first on the path (as `pip install -e` of
    # another clone puts it): the command still runs this checkout's, whose
    # paths name this checkout's build.
    other = tmp_path / "wiregraph"
    other.mkdir()
    (other / "__init__.py").write_text("raise SystemExit('the other checkout')\n")
    scripts = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts")
    r = subprocess.run([sys.executable, os.path.join(scripts, command), "--help"], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(tmp_path)), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "usage:" in r.stdout and "the other checkout" not in r.stdout + r.stderr


def test_verbose_goes_to_the_nodes_and_a_nodes_verbose_to_the_launcher():
    args = cli.parse_args(["--verbose", "--", "--app", "bfs"])
    assert args.verbose and args.app == ["--app", "bfs", "--verbose"]
    args = cli.parse_args(["--verbose", "--", "--app", "bfs", "--quiet"])  # the launcher's word is the last
    assert args.verbose and args.app == ["--app", "bfs", "--quiet", "--verbose"]
    args = cli.parse_args(["--", "--app", "bfs", "--verbose"])
    assert args.verbose and args.app == ["--app", "bfs", "--verbose"]
    args = cli.parse_args(["--", "--app", "bfs", "--verbose", "--quiet"])
    assert not args.verbose and args.app == ["--app", "bfs", "--verbose", "--quiet"]


@pytest.mark.parametrize("argv, words", [
    (["--nodes", "0"], "--nodes must be 1..64 (got 0)"),
    (["--nodes", "65", "--link", "tap"], "--nodes must be 1..64 (got 65)"),
    (["--lcores-per-node", "0"], "--lcores-per-node must be 1..128"),
    (["--lcores-per-node", "129"], "--lcores-per-node must be 1..128"),
    (["--mem-mb", "15"], "--mem-mb must be at least 16"),
    (["--timeout", "0"], "--timeout must be positive"),
    (["--restart", "-1"], "--restart must be 0 or more"),
    (["--eal", "'-a x"], "--eal: No closing quotation"),
    (["--link", "ring"], "argument --link: invalid choice: 'ring'"),
])
def test_values_out_of_range_are_refused(capsys, argv, words):
    assert words in refusal(capsys, argv + ["--", "--app", "bfs"])


def test_restart_without_checkpoints_is_refused(capsys):
    err = refusal(capsys, ["--restart", "2", "--", "--app", "bfs"])
    assert "--restart 2 needs checkpoints to restart from" in err
    assert "--checkpoint-every N --checkpoint-dir DIR" in err
    args = cli.parse_args(["--restart", "2", "--", "--app", "bfs", "--resume=/ck"])
    assert args.restart == 2


def test_memif_needs_a_port_per_peer(capsys, monkeypatch):
    monkeypatch.setattr(cli, "read_max_ethports", lambda: 4)
    assert cli.parse_args(["--nodes", "5", "--", "--app", "bfs"]).nodes == 5
    assert "--link memif needs P-1 = 5 ports per node, but DPDK was built with RTE_MAX_ETHPORTS=4: " \
           "use at most 5 nodes or --link tap" in refusal(capsys, ["--nodes", "6", "--", "--app", "bfs"])
    assert cli.parse_args(["--nodes", "6", "--link", "tap", "--", "--app", "bfs"]).nodes == 6


def test_a_misspelt_option_names_the_one_meant(capsys):
    err = refusal(capsys, ["--nodez", "2", "--", "--app", "bfs"])
    assert "unrecognized arguments: --nodez 2 (did you mean --nodes?)" in err
    assert "application options go after" not in err
    err = refusal(capsys, ["--timout=9", "--", "--app", "bfs"])
    assert "unrecognized argument: --timout=9 (did you mean --timeout?)" in err


def test_application_options_without_the_separator_say_where_they_go(capsys):
    err = refusal(capsys, ["--nodes", "2", "--app", "bfs"])
    assert "unrecognized arguments: --app bfs; application options go after '--': " \
           "scripts/wiregraph-cluster [launcher options] -- --app NAME" in err


def test_an_unknown_option_far_from_any_points_to_help(capsys):
    err = refusal(capsys, ["--frobnicate", "--", "--app", "bfs"])
    assert "unrecognized argument: --frobnicate (see --help; application options go after '--')" in err


if __name__ == "__main__":
    sys.exit(pytest.main([__file__] + sys.argv[1:]))
