"""In-memory graphs (networkx graphs, pandas DataFrames, numpy arrays) written
once into a file the nodes read, and the map between the user's vertex ids and
the file's.

The binary edge format (docs/INPUT.md: little-endian uint32 `(src, dst)`,
`.bin`, or `(src, dst, weight)`, `.wbin`) with `--vertices N`, the vertex count
that keeps isolated vertices (the edges name only the vertices they touch), and
`--undirected` for an undirected graph stored one way: the nodes add v -> u
for every u -> v but a self-loop once, which is networkx's `G.to_directed()`
(nx.pagerank counts a self-loop once). No parse: the nodes read records.
Weights that are not integers in 0..2^32-1 go into Matrix Market coordinate
instead (its values keep real weights; `symmetric` stores an undirected edge
once and is read the same way), as does a graph without vertices.
"""

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

MTX_FIRST_ID = 1  # Matrix Market numbers its vertices 1..n
MAX_BINARY_WEIGHT = 2**32 - 1  # .wbin's weights are uint32


@dataclass
class WrittenGraph:
    """A graph the nodes can read: `path`, and `ids`, the user's id of the
    file's vertex first_id + i (None when the file's ids are the user's)."""
    path: str
    ids: pd.Index | None = None
    first_id: int = 0
    directed: bool = True
    weighted: bool = False
    options: list = field(default_factory=list)  # the node options reading the file needs
    _position: dict = field(default=None, repr=False)

    def file_id(self, user_id):
        """The file's id of a user's vertex (KeyError when it is none)."""
        if self.ids is None:
            return user_id
        if self._position is None:
            self._position = {v: i for i, v in enumerate(self.ids)}
        return self._position[user_id] + self.first_id

    def user_ids(self, file_ids):
        """The user's ids of an array of file ids, as a pandas Index."""
        file_ids = np.asarray(file_ids)
        if self.ids is None:
            return pd.Index(file_ids)
        return self.ids.take(file_ids - self.first_id)


def sortable(values):
    """VALUES sorted when they compare (so that a component's label, its
    smallest vertex, is the user's smallest id too), else as given."""
    try:
        return sorted(values)
    except TypeError:
        return list(values)


def edge_weights(G, weight):
    """G's edge attribute WEIGHT as a list (1 where an edge lacks it, as
    networkx reads it), or None when no edge has it or weight is falsy."""
    if not weight or not any(weight in d for _, _, d in G.edges(data=True)):
        return None
    return [d.get(weight, 1) for _, _, d in G.edges(data=True)]


def from_networkx(G, directory, weight="weight"):
    nodes = pd.Index(sortable(G.nodes), tupleize_cols=False)
    position = {v: i for i, v in enumerate(nodes)}
    src = np.fromiter((position[u] for u, _ in G.edges()), dtype=np.int64, count=G.number_of_edges())
    dst = np.fromiter((position[v] for _, v in G.edges()), dtype=np.int64, count=G.number_of_edges())
    weights = edge_weights(G, weight)
    g = write_edges(directory, len(nodes), src, dst, None if weights is None else np.asarray(weights, dtype=np.float64),
                    G.is_directed(), nodes)
    g._position = position
    return g


def edge_columns(graph, weight):
    """(src, dst, weights or None) of a DataFrame or a tuple/array of columns."""
    if isinstance(graph, pd.DataFrame):
        columns = [graph[c].to_numpy() for c in graph.columns]
        if isinstance(weight, str):
            w = graph[weight].to_numpy()
        else:
            w = columns[2] if len(columns) > 2 and weight is not False else None
        return columns[0], columns[1], w
    if isinstance(graph, np.ndarray) and graph.ndim == 2:
        graph = [graph[:, k] for k in range(graph.shape[1])]
    columns = [np.asarray(c) for c in graph]
    if len(columns) not in (2, 3):
        raise ValueError("an edge array: (src, dst) or (src, dst, weight), got %d columns" % len(columns))
    return columns[0], columns[1], columns[2] if len(columns) == 3 and weight is not False else None


def from_edges(graph, directory, weight=None):
    """A directed graph of the edges (src, dst[, weight]): its vertices are the
    ids the edges name, any hashable values."""
    src, dst, weights = edge_columns(graph, weight)
    if len(src) != len(dst):
        raise ValueError("src and dst differ in length (%d, %d)" % (len(src), len(dst)))
    codes, uniques = pd.factorize(np.concatenate([src, dst]), sort=True)
    n_edges = len(src)
    return write_edges(directory, len(uniques), codes[:n_edges], codes[n_edges:],
                       None if weights is None else np.asarray(weights, dtype=np.float64), True, pd.Index(uniques))


def integral(weights):
    """True when every weight is an integer .wbin holds (0..2^32-1)."""
    return bool(np.all((weights >= 0) & (weights <= MAX_BINARY_WEIGHT) & (weights == np.floor(weights))))


def write_edges(directory, n, src, dst, weights, directed, ids):
    """The graph of N vertices and the dense 0-based edges SRC -> DST (one way
    each when undirected) in the binary format with --vertices N, or in
    Matrix Market when its weights are real or it has no vertex."""
    if n == 0 or (weights is not None and not integral(weights)):
        if not directed:  # symmetric files hold the lower triangle: row >= column
            src, dst = np.maximum(src, dst), np.minimum(src, dst)
        path = write_mtx(Path(directory) / "graph.mtx", n, src, dst, weights, directed)
        return WrittenGraph(str(path), ids, MTX_FIRST_ID, directed, weights is not None)
    columns = [src, dst] if weights is None else [src, dst, weights]
    records = np.empty((len(src), len(columns)), dtype="<u4")
    for k, column in enumerate(columns):
        records[:, k] = column
    path = Path(directory) / ("graph.bin" if weights is None else "graph.wbin")
    records.tofile(path)
    options = ["--vertices", str(n)] + ([] if directed else ["--undirected"])
    return WrittenGraph(str(path), ids, 0, directed, weights is not None, options)


def write_mtx(path, n, src, dst, weights, directed):
    """A Matrix Market coordinate file of the dense ids SRC -> DST (0-based).
    Lines made by str.join over lists: 5x faster than numpy.savetxt (40 ms
    against 180 for wiki-Vote's 103,689 edges)."""
    kind = "pattern" if weights is None else "real"
    shape = "general" if directed else "symmetric"
    columns = [(np.asarray(src) + 1).tolist(), (np.asarray(dst) + 1).tolist()]
    line = "%d %d\n"
    if weights is not None:
        columns.append([float(w) for w in weights])
        line = "%d %d %r\n"  # repr: the shortest text that reads back as the same double
    with open(path, "w") as f:
        f.write("%%%%MatrixMarket matrix coordinate %s %s\n%d %d %d\n" % (kind, shape, n, n, len(columns[0])))
        f.write("".join(map(line.__mod__, zip(*columns))))
    return path


def is_networkx(graph):
    return hasattr(graph, "adj") and hasattr(graph, "is_directed")


def write_graph(graph, directory, weight=None):
    """A WrittenGraph for GRAPH: a path or `kron:` spec passes through (the
    file's own ids); a networkx graph, DataFrame or edge arrays are written
    into DIRECTORY. WEIGHT: the edge attribute or column of the weights
    (None: networkx's 'weight' when an edge has it, a third column; False: none)."""
    if isinstance(graph, (str, Path)):
        return WrittenGraph(str(graph))
    if is_networkx(graph):
        return from_networkx(graph, directory, "weight" if weight is None else weight)
    if isinstance(graph, (pd.DataFrame, np.ndarray, tuple, list)):
        return from_edges(graph, directory, weight)
    raise TypeError("graph: a path, a 'kron:' spec, a networkx graph, a DataFrame of (src, dst[, weight]) "
                    "or arrays (src, dst[, weight]); got %s" % type(graph).__name__)
