"""The application options the launcher reads and rewrites
(wiregraph.launcher.restarts), without a node: an option's value in either
spelling, an option dropped with its value, and the options of a restarted
job (tests/test_command_line.py's RestartOptionsTest has the checkpoint
cases run by run). Run by meson (suite unit) as `python3
tests/test_launcher_restarts.py -v` (pytest)."""

import sys

import pytest

from wiregraph.launcher.restarts import (checkpoint_dir_from_app, committed_superstep, option_value,
                                         out_dir_from_app, restart_options, without_option)


@pytest.mark.parametrize("app, value", [
    (["--app", "bfs", "--out", "/o"], "/o"),
    (["--out=/o"], "/o"),
    (["--out", "/a", "--out=/b"], "/b"),       # the last one, as the node reads it
    (["--out"], None),                         # no value
    (["--outside", "/x", "--out-keep-others"], None),
    ([], None),
])
def test_an_options_value_in_either_spelling(app, value):
    assert option_value(app, "--out") == value
    assert out_dir_from_app(app) == value


def test_the_checkpoint_dir_or_else_the_one_resumed_from():
    assert checkpoint_dir_from_app(["--checkpoint-dir", "/c", "--resume", "/r"]) == "/c"
    assert checkpoint_dir_from_app(["--resume=/r"]) == "/r"
    assert checkpoint_dir_from_app(["--app", "bfs"]) is None


def test_an_option_goes_with_its_value_in_both_spellings():
    app = ["--a", "1", "--crash-node", "1:3", "--b", "--crash-node=2:4", "--crash-nodes", "x"]
    assert without_option(app, "--crash-node") == ["--a", "1", "--b", "--crash-nodes", "x"]
    assert without_option(["--app", "bfs"], "--crash-node") == ["--app", "bfs"]


def test_the_committed_superstep(tmp_path):
    assert committed_superstep(str(tmp_path)) is None             # nothing committed
    (tmp_path / "COMMIT").write_text("wiregraph checkpoint\nsuperstep 12\nnodes 2\n")
    assert committed_superstep(str(tmp_path)) == 12
    (tmp_path / "COMMIT").write_text("wiregraph checkpoint\nsuperstep\n")
    assert committed_superstep(str(tmp_path)) is None             # torn: no number


def test_a_job_resumed_from_elsewhere_checkpoints_where_it_resumed_from(tmp_path):
    (tmp_path / "COMMIT").write_text("superstep 7\n")
    app = ["--app", "pagerank", "--resume", str(tmp_path), "--crash-node", "0:9"]
    assert restart_options(app) == (["--app", "pagerank", "--checkpoint-dir", str(tmp_path),
                                     "--resume", str(tmp_path)], 7, str(tmp_path))


if __name__ == "__main__":
    sys.exit(pytest.main([__file__] + sys.argv[1:]))
