"""Application options the launcher reads (--out, --checkpoint-dir,
--resume) and those of a restarted job (--restart K)."""

import os


def option_value(app, name):
    """The last value of application option NAME ('--out'), as '--out DIR' or
    '--out=DIR'; None when absent."""
    value = None
    for i, a in enumerate(app):
        if a == name and i + 1 < len(app):
            value = app[i + 1]
        elif a.startswith(name + "="):
            value = a[len(name) + 1:]
    return value


def out_dir_from_app(app):
    return option_value(app, "--out")


def checkpoint_dir_from_app(app):
    """Where the nodes write checkpoints: --checkpoint-dir, else the --resume DIR."""
    return option_value(app, "--checkpoint-dir") or option_value(app, "--resume")


def without_option(app, name):
    """APP without option NAME and its value (both spellings)."""
    kept, skip = [], False
    for a in app:
        if skip:
            skip = False
        elif a == name:
            skip = True
        elif not a.startswith(name + "="):
            kept.append(a)
    return kept


def committed_superstep(ckdir):
    """The superstep of the checkpoint committed in CKDIR (its COMMIT file
    names it after the word 'superstep'), or None when none is."""
    try:
        with open(os.path.join(ckdir, "COMMIT")) as f:
            words = f.read().split()
        return int(words[words.index("superstep") + 1])
    except (OSError, ValueError, IndexError):
        return None


def restart_options(app):
    """The application options of a restarted job: without the test hook
    --crash-node (it would only kill the job again) and resuming from the
    last committed checkpoint, if there is one. Returns (options, the
    superstep resumed after or None, its directory or None)."""
    ckdir = checkpoint_dir_from_app(app)
    new = without_option(without_option(app, "--crash-node"), "--resume")
    if option_value(app, "--checkpoint-dir") is None and ckdir is not None:
        new += ["--checkpoint-dir", ckdir]  # where the dropped --resume left them
    # The job's own checkpoints, else the one it was resumed from.
    for d in (ckdir, option_value(app, "--resume")):
        if d is None:
            continue
        step = committed_superstep(d)
        if step is not None:
            return new + ["--resume", d], step, d
    return new, None, None
