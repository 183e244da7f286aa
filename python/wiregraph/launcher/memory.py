"""EAL memory of a node: hugepages or not, -m sized from the node's own
estimate, warnings about memory the machine may not have, and the memif
buffer size a large --mtu needs."""

import mmap
import os
import re

FALLBACK_MEM_MB = 256      # -m when the node binary gives no estimate (an older one)


def hugetlbfs_mounts():
    mounts = []
    try:
        with open("/proc/mounts") as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 3 and fields[2] == "hugetlbfs":
                    mounts.append(fields[1].replace("\\040", " "))
    except OSError:
        pass
    return mounts


def hugepages_free_mb():
    info = {}
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                info[k.strip()] = v.split()
    except OSError:
        return 0
    try:
        free = int(info["HugePages_Free"][0])
        size_kb = int(info["Hugepagesize"][0])
    except (KeyError, ValueError, IndexError):
        return 0
    return free * size_kb // 1024


def hugepages_refusal():
    """Why this user cannot have a hugepage the way a node with --in-memory
    takes them (a hugetlb memfd, no file in a hugetlbfs mount), or None when
    it can. The probe reserves one default-size page and gives it back at
    once: mmap of a hugetlb file reserves its pages, so nothing is touched
    (touching a page the kernel could not give would be SIGBUS)."""
    flags = getattr(os, "MFD_HUGETLB", None)
    if flags is None or not hasattr(os, "memfd_create"):
        return "this Python has no memfd_create(MFD_HUGETLB)"
    try:
        fd = os.memfd_create("wiregraph-hugepage-probe", flags | os.MFD_CLOEXEC)
    except OSError as e:
        return "a hugetlb memfd: %s" % e.strerror
    try:
        size = hugepage_size_bytes()
        os.ftruncate(fd, size)
        mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE).close()
    except (OSError, ValueError) as e:
        return "reserving a hugepage: %s" % (getattr(e, "strerror", None) or e)
    finally:
        os.close(fd)
    return None


def hugepage_size_bytes():
    """The default hugepage size (Hugepagesize in /proc/meminfo), 2 MiB if unreadable."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("Hugepagesize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 2 << 20


def app_mtu(app):
    """The nodes' --mtu among the application options, None when not given."""
    mtu = None
    for i, a in enumerate(app):
        if a == "--mtu" and i + 1 < len(app):
            v = app[i + 1]
        elif a.startswith("--mtu="):
            v = a[len("--mtu="):]
        else:
            continue
        if v.isdigit():
            mtu = int(v)
    return mtu


def memif_bsize(app):
    """',bsize=N' when the nodes' --mtu needs memif buffers larger than the
    default 2048 bytes: DPDK 22.11's memif mangles frames chained over several
    buffers (lengths of whole buffers, extra segments), so every frame must fit
    one buffer (dataplane/memif_quirks.h, workaround 6)."""
    frame = (app_mtu(app) or 1500) + 14  # Ethernet header
    return "" if frame <= 2048 else ",bsize=%d" % ((frame + 1023) // 1024 * 1024)


def memory_need(check_output):
    """The node's own estimate of its EAL memory in MiB, from the
    --check-options line "EAL memory per node: N MiB (...)" (apps/main.cc),
    or None from an older binary."""
    m = re.search(r"EAL memory per node: (\d+) MiB", check_output or "")
    return int(m.group(1)) if m else None


def with_margin(mb):
    """-m for an estimate: 10% and 8 MiB more (what the EAL and the PMDs take
    besides the counted pools and rings varies), in whole 2 MiB pages."""
    return (int(mb * 1.1) + 8 + 1) // 2 * 2


def memory_available_mb():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def memory_args(args, need, refusal=hugepages_refusal):
    """EAL memory arguments and a one-line reason. -m is --mem-mb, else the
    node's estimate for this job (`need` MiB, memory_need) with a margin,
    else FALLBACK_MEM_MB; with hugepages when enough are free for every node
    and this user may take them (`refusal`, asked only then)."""
    if args.mem_mb is not None:
        mb, said = args.mem_mb, "--mem-mb %d" % args.mem_mb
    elif need is not None:
        mb = with_margin(need)
        said = None
    else:
        mb, said = FALLBACK_MEM_MB, "-m %d, the node gave no estimate" % FALLBACK_MEM_MB

    def reason(m):
        return said or "-m %d: the node's pools and rings take %d MiB for this job" % (m, need)

    if args.memory == "huge":
        return ["--in-memory", "-m", str(mb)], "hugepages (forced by --memory huge), " + reason(mb)
    if args.memory == "no-huge":
        return ["--no-huge", "-m", str(mb)], "no hugepages (forced by --memory no-huge), " + reason(mb)
    mounts = hugetlbfs_mounts()
    free = hugepages_free_mb()
    huge_mb = mb
    if said is None and free < args.nodes * mb:
        # What is free, shared evenly, if it still leaves each node 4 MiB
        # beyond its estimate: hugepages start faster than 4 KiB pages.
        share = free // args.nodes // 2 * 2
        if share >= need + 4:
            huge_mb = share
    refused = None
    if mounts and free >= args.nodes * huge_mb:
        refused = refusal()
        if refused is None:
            return (["--in-memory", "-m", str(huge_mb)],
                    "hugepages: %d MiB free >= %d nodes x %d MiB (%s)"
                    % (free, args.nodes, huge_mb, reason(huge_mb)))
    why = "no hugetlbfs mounted" if not mounts else \
        "hugepages not usable by this user: %s" % refused if refused else \
        "only %d MiB of hugepages free < %d nodes x %d MiB" % (free, args.nodes, mb)
    return ["--no-huge", "-m", str(mb)], "no hugepages (%s), %s" % (why, reason(mb))


def memory_warnings(args, mem, need):
    """What the chosen memory may not hold: an explicit --mem-mb below the
    node's estimate, or more EAL memory for all nodes than the machine has."""
    warnings = []
    mb = int(mem[mem.index("-m") + 1])
    if need is not None and args.mem_mb is not None and mb < need:
        warnings.append("--mem-mb %d is less than the %d MiB the node says its pools and rings "
                        "take for this job: a node may fail to create its pools (leave "
                        "--mem-mb out and the launcher sizes -m from the job)" % (mb, need))
    avail = memory_available_mb()
    if "--no-huge" in mem and avail is not None and args.nodes * mb > avail:
        warnings.append("%d nodes x %d MiB of EAL memory (--no-huge) is more than the %d MiB "
                        "this machine has available, before any graph: fewer nodes, or "
                        "hugepages (scripts/setup.sh)" % (args.nodes, mb, avail))
    return warnings
