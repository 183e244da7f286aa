"""The run's key: whether the launcher makes one, how the frames are
authenticated, and writing a fresh key file."""

import os
import secrets


def key_choice(app):
    """How the nodes authenticate their frames: None when the app options
    (--key-file, --no-auth) or WIREGRAPH_KEY in the environment already say,
    else the launcher makes a fresh key for the run."""
    for a in app:
        if a in ("--no-auth", "--key-file") or a.startswith("--key-file="):
            return None
    if os.environ.get("WIREGRAPH_KEY"):
        return None
    return "fresh"


def describe_auth(app):
    if "--no-auth" in app:
        return "frames NOT authenticated (--no-auth)"
    for i, a in enumerate(app):
        if a == "--key-file" and i + 1 < len(app):
            return "frames authenticated, key from --key-file %s" % app[i + 1]
        if a.startswith("--key-file="):
            return "frames authenticated, key from %s" % a
    if os.environ.get("WIREGRAPH_KEY"):
        return "frames authenticated, key from WIREGRAPH_KEY"
    return None


def write_key(path):
    """A fresh 32-byte key, 64 hex digits, readable by this user only; it
    goes with the run directory."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, (secrets.token_hex(32) + "\n").encode())
    finally:
        os.close(fd)
