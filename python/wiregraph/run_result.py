"""The answer of one run, by the user's vertex ids: read from the run's
results.npy (vertex, value) and summary.json."""

import json
import shutil
import weakref
from pathlib import Path

import numpy as np
import pandas as pd

from wiregraph import plots as wgplots

LABEL_COLUMNS = ("component", "label")  # values that are vertex ids: mapped back to the user's too


class Result:
    """`summary` is summary.json as a dict, `column` the value's name (rank,
    depth, component...), `out_dir` the run's --out directory (a temporary
    one lives as long as this object). Unreached vertices of bfs and sssp
    hold -1 and inf, as results.npy does."""

    def __init__(self, out_dir, graph, owned_dir=None):
        self.out_dir = Path(out_dir)
        self.summary = json.loads((self.out_dir / "summary.json").read_text())
        table = np.load(self.out_dir / "results.npy")
        self.column = table.dtype.names[1]
        self.vertices = graph.user_ids(table["vertex"])
        values = table[self.column]
        if self.column in LABEL_COLUMNS and graph.ids is not None:
            values = graph.user_ids(values).to_numpy()
        self._values = values
        self._cleanup = weakref.finalize(self, shutil.rmtree, owned_dir, True) if owned_dir else None

    def __repr__(self):
        return "<wiregraph.Result %s: %d vertices, %s>" % (self.summary["config"]["app"], len(self), self.column)

    def __len__(self):
        return len(self._values)

    def to_numpy(self):
        """The values, in the order of to_pandas()'s index."""
        return self._values

    def to_pandas(self):
        """A Series named after the value, indexed by the user's vertex ids."""
        return pd.Series(self._values, index=self.vertices.rename("vertex"), name=self.column)

    def to_dict(self):
        return dict(zip(self.vertices.tolist(), self._values.tolist()))

    def to_parquet(self, path):
        """Columns `vertex` and the value (pyarrow)."""
        import pyarrow as pa
        import pyarrow.parquet as pq
        vertices = self.vertices.to_numpy()
        pq.write_table(pa.table({"vertex": vertices if vertices.dtype != object else vertices.astype(str),
                                 self.column: self._values}), str(path))
        return Path(path)

    def plot(self):
        """The answer's distribution (wiregraph.plots, gnuplot) into
        out_dir/plots/: the paths of the pictures drawn. The pictures use the
        file's ids, which a distribution does not show."""
        program = self.summary["config"]["app"]
        made = wgplots.draw(self.out_dir / "plots", str(self.summary["config"]["graph"]), program,
                            self.out_dir, self.summary["nodes"])
        return [Path(p) for p in made if p]

    def close(self):
        """Removes a temporary out_dir now rather than when garbage-collected."""
        if self._cleanup is not None:
            self._cleanup()
