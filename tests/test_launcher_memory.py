"""EAL memory of a node (wiregraph.launcher.memory), without a node and on a
machine the test describes: -m from the node's estimate with its margin,
hugepages only when enough are free for every node and this user may take
them, and the warnings. Run by meson (suite unit) as `python3
tests/test_launcher_memory.py -v` (pytest)."""

import argparse
import sys

import pytest

from wiregraph.launcher import memory


def args_of(**kw):
    a = dict(nodes=2, mem_mb=None, memory="auto")
    a.update(kw)
    return argparse.Namespace(**a)


@pytest.fixture
def machine(monkeypatch):
    """A machine with a hugetlbfs mount and FREE MiB of hugepages free, whose
    hugepages this user may take unless REFUSAL says why not."""
    state = {"mounts": ["/dev/hugepages"], "free": 2048, "refusal": None, "available": 16384}
    monkeypatch.setattr(memory, "hugetlbfs_mounts", lambda: state["mounts"])
    monkeypatch.setattr(memory, "hugepages_free_mb", lambda: state["free"])
    monkeypatch.setattr(memory, "memory_available_mb", lambda: state["available"])
    return state


def choose(machine, args, need):
    return memory.memory_args(args, need, refusal=lambda: machine["refusal"])


def test_the_estimate_is_read_from_the_check_options_line():
    assert memory.memory_need("x\nEAL memory per node: 80 MiB (pools 60, rings 20)\n") == 80
    assert memory.memory_need("wiregraph: options fine") is None
    assert memory.memory_need(None) is None


@pytest.mark.parametrize("need, mb", [(80, 96), (81, 98), (0, 8), (100, 118)])
def test_the_margin_is_ten_percent_and_8_mib_in_whole_2_mib_pages(need, mb):
    # 80: 88 + 8 = 96; 81: 89.1 -> 89 + 8 = 97 -> 98; 100: 110 + 8 = 118
    assert memory.with_margin(need) == mb


def test_hugepages_when_enough_are_free_for_every_node(machine):
    mem, why = choose(machine, args_of(), 80)
    assert mem == ["--in-memory", "-m", "96"]
    assert why == ("hugepages: 2048 MiB free >= 2 nodes x 96 MiB "
                   "(-m 96: the node's pools and rings take 80 MiB for this job)")


def test_what_is_free_shared_evenly_when_it_leaves_4_mib_beyond_the_estimate(machine):
    machine["free"] = 180      # 90 each >= 80 + 4
    assert choose(machine, args_of(), 80)[0] == ["--in-memory", "-m", "90"]
    machine["free"] = 150      # 74 each < 84
    mem, why = choose(machine, args_of(), 80)
    assert mem == ["--no-huge", "-m", "96"]
    assert why.startswith("no hugepages (only 150 MiB of hugepages free < 2 nodes x 96 MiB), -m 96:")


def test_no_hugepages_without_a_mount(machine):
    machine["mounts"] = []
    mem, why = choose(machine, args_of(), 80)
    assert mem == ["--no-huge", "-m", "96"]
    assert why.startswith("no hugepages (no hugetlbfs mounted), ")


def test_no_hugepages_when_this_user_may_not_take_them(machine):
    machine["refusal"] = "a hugetlb memfd: Operation not permitted"
    mem, why = choose(machine, args_of(), 80)
    assert mem == ["--no-huge", "-m", "96"]
    assert why.startswith("no hugepages (hugepages not usable by this user: a hugetlb memfd: "
                          "Operation not permitted), -m 96")


def test_mem_mb_and_memory_are_obeyed(machine):
    machine["refusal"] = "never asked when forced"
    assert choose(machine, args_of(mem_mb=64, memory="huge"), 80) == \
        (["--in-memory", "-m", "64"], "hugepages (forced by --memory huge), --mem-mb 64")
    machine["refusal"] = None
    assert choose(machine, args_of(mem_mb=64, memory="no-huge"), 80) == \
        (["--no-huge", "-m", "64"], "no hugepages (forced by --memory no-huge), --mem-mb 64")


def test_an_older_node_without_an_estimate_gets_256_mib(machine):
    mem, why = choose(machine, args_of(memory="no-huge"), None)
    assert mem == ["--no-huge", "-m", "256"]
    assert why.endswith("-m 256, the node gave no estimate")


def test_warnings_for_too_little_memory(machine):
    a = args_of(mem_mb=64)
    assert memory.memory_warnings(a, ["--no-huge", "-m", "64"], 80)[0].startswith(
        "--mem-mb 64 is less than the 80 MiB the node says its pools and rings take for this job")
    assert memory.memory_warnings(args_of(), ["--no-huge", "-m", "96"], 80) == []
    machine["available"] = 150          # 2 x 96 > 150
    assert memory.memory_warnings(args_of(), ["--no-huge", "-m", "96"], 80) == [
        "2 nodes x 96 MiB of EAL memory (--no-huge) is more than the 150 MiB this machine has available, "
        "before any graph: fewer nodes, or hugepages (scripts/setup.sh)"]
    assert memory.memory_warnings(args_of(), ["--in-memory", "-m", "96"], 80) == []  # hugepages are apart


def test_the_hugepage_probe_answers_in_words():
    refusal = memory.hugepages_refusal()
    assert refusal is None or isinstance(refusal, str) and refusal


if __name__ == "__main__":
    sys.exit(pytest.main([__file__] + sys.argv[1:]))
