"""What a running cluster is doing, from the launcher's lines: the job
started, the share of the graph loaded, the superstep rank 0 is in. Shown as
a tqdm bar in a terminal or a notebook, else as at most one line a second on
stderr (logs and pipes want lines, not carriage returns)."""

import re
import sys
import time

JOB = re.compile(r"^\[cluster\] job (\w+): (\d+) node")
LOADING = re.compile(r"^\[(?:cluster|node \d+)\] loading: (\d+)% of")
SUPERSTEP = re.compile(r"^\[node 0\] superstep +(\d+):")
LINE_EVERY_S = 1.0


def parse(line):
    """(event, value) of a launcher line: ('job', id), ('loading', percent),
    ('superstep', n), ('done', None), or None."""
    m = JOB.match(line)
    if m:
        return "job", m.group(1)
    m = LOADING.match(line)
    if m:
        return "loading", int(m.group(1))
    m = SUPERSTEP.match(line)
    if m:
        return "superstep", int(m.group(1))
    if line.startswith("summary: "):
        return "done", None
    return None


def interactive():
    """A terminal or a Jupyter kernel: a bar redrawn in place reads well there."""
    return sys.stderr.isatty() or "ipykernel" in sys.modules


class Lines:
    """One line a second at most, on stderr."""

    def __init__(self, app):
        self.app = app
        self.shown_at = None
        self.last = None

    def show(self, text, force=False):
        now = time.monotonic()
        if force or self.shown_at is None or now - self.shown_at >= LINE_EVERY_S:
            sys.stderr.write("wiregraph %s: %s\n" % (self.app, text))
            sys.stderr.flush()
            self.shown_at = now
            self.last = None
        else:
            self.last = text

    def update(self, event, value):
        if event == "job":
            self.show("job %s started" % value, force=True)
        elif event == "loading":
            self.show("loading %d%%" % value)
        elif event == "superstep":
            self.show("superstep %d" % value)

    def close(self):
        if self.last is not None:
            self.show(self.last, force=True)


class Bar:
    """A tqdm bar: the load share out of 100, then the supersteps counted."""

    def __init__(self, app):
        from tqdm.auto import tqdm
        self.bar = tqdm(total=100, desc="%s: starting" % app, unit="%", leave=False)
        self.app = app
        self.phase = "starting"

    def update(self, event, value):
        if event == "job":
            self.bar.set_description("%s: job %s" % (self.app, value))
        elif event == "loading":
            self.bar.set_description("%s: loading" % self.app)
            self.bar.n = value
            self.bar.refresh()
        elif event == "superstep":
            if self.phase != "computing":
                self.phase = "computing"
                self.bar.reset()
                self.bar.total = None  # reset(total=None) keeps the old total; supersteps are counted, not known
                self.bar.unit = " supersteps"
                self.bar.set_description("%s: superstep" % self.app)
            self.bar.n = value + 1
            self.bar.refresh()

    def close(self):
        self.bar.close()


class Silent:
    def update(self, event, value):
        pass

    def close(self):
        pass


def display(app, progress):
    """PROGRESS: False (nothing), True or None (a bar when interactive, else lines)."""
    if progress is False:
        return Silent()
    return Bar(app) if interactive() else Lines(app)
