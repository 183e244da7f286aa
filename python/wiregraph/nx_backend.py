"""The NetworkX backend `wiregraph`: nx.pagerank(G, backend='wiregraph') (or
nx.config.backend_priority = ['wiregraph']) runs the call on a local
wiregraph cluster. Registered by python/pyproject.toml's entry points
networkx.backends (BackendInterface) and networkx.backend_info (get_info).

can_run returns the reason for any argument or graph wiregraph would not
answer as networkx does (wiregraph.algorithms.why_not), so networkx runs
those calls itself rather than returning another answer. Engine settings:
backend keywords (nx.pagerank(G, backend='wiregraph', cluster_nodes=3)) or
nx.config.backends.wiregraph (cluster_nodes, link, progress).
"""

import inspect

import networkx as nx

# get_info runs while networkx is still importing, which may be in the middle
# of importing wiregraph.algorithms (import wiregraph, then networkx): nothing
# here reads wiregraph.algorithms or networkx's functions before a call.
from wiregraph import algorithms

DEFAULT_CONFIG = {"cluster_nodes": 2, "link": "memif", "progress": False}
ENGINE_PARAMETERS = {
    "cluster_nodes : int, optional (default: nx.config.backends.wiregraph.cluster_nodes, 2)": "local node processes of the cluster",
    "link : str, optional (default: 'memif')": "how the nodes are joined: 'memif' or 'tap' (root)",
    "progress : bool, optional (default: False)": "show the run's progress (a bar in a terminal or notebook)",
}
DOCS = {
    "pagerank": "Runs wiregraph's pagerank with --tolerance tol --iterations max_iter in double precision. "
                "personalization={s: 1} (one vertex) runs wiregraph's ppr from s instead (float messages, "
                "unweighted; it does not raise PowerIterationFailedConvergence); nstart and dangling are not "
                "implemented; real edge weights need the nodes' --weighted option.",
    "shortest_path_length": "Only the single-source, unweighted form (source given, no target, weight=None): "
                            "wiregraph's bfs.",
    "single_source_shortest_path_length": "wiregraph's bfs; cutoff is not implemented.",
    "connected_components": "wiregraph's cc.",
    "weakly_connected_components": "wiregraph's cc (weak on directed graphs).",
    "strongly_connected_components": "wiregraph's scc (trimming, coloring and backward sweeps along in-edges).",
    "core_number": "wiregraph's kcore; undirected graphs only.",
    "triangles": "wiregraph's tc; simple undirected graphs (self-loops ignored, as networkx does).",
    "clustering": "2T/(d(d-1)) from wiregraph's tc (exact, where lcc's 9 printed digits are not); undirected, unweighted.",
    "betweenness_centrality": "wiregraph's bc --sources all --normalize networkx|none; undirected simple "
                              "graphs, k=None, weight=None, endpoints=False.",
}

FUNCTIONS = tuple(DOCS)


class WiregraphGraph:
    """A networkx graph handed to the wiregraph backend: the nodes read a file
    written from it, so it only wraps the graph."""

    __networkx_backend__ = "wiregraph"

    def __init__(self, graph):
        self.graph = graph

    def is_directed(self):
        return self.graph.is_directed()

    def is_multigraph(self):
        return self.graph.is_multigraph()

    def __len__(self):
        return len(self.graph)


def _graph(G):
    return G.graph if isinstance(G, WiregraphGraph) else G


def _engine(kwargs):
    """The engine settings of a call: its keywords over nx.config.backends.wiregraph."""
    config = nx.config.backends.get("wiregraph") if hasattr(nx.config.backends, "get") else None
    engine = dict(DEFAULT_CONFIG)
    for key in DEFAULT_CONFIG:
        if config is not None and key in config:
            engine[key] = config[key]
        if key in kwargs:
            engine[key] = kwargs.pop(key)
    return engine


def _implementation(name):
    def call(G, *args, **kwargs):
        function = getattr(algorithms, name)
        engine = _engine(kwargs)
        # networkx's own signature, looked up when called: get_info runs while networkx is still importing
        bound = inspect.signature(getattr(nx, name)).bind(_graph(G), *args, **kwargs)
        arguments = dict(bound.arguments)
        graph = arguments.pop("G")
        try:
            return function(graph, **arguments, **engine)
        except algorithms.NotSupported as e:
            raise NotImplementedError(str(e)) from e  # networkx then falls back, when allowed

    call.__name__ = name
    call.__doc__ = DOCS[name]
    return call


class BackendInterface:
    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None, graph_name=None):
        return WiregraphGraph(G)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        return _graph(obj)

    @staticmethod
    def can_run(name, args, kwargs):
        if name not in FUNCTIONS:
            return "wiregraph does not implement %s" % name
        try:
            bound = inspect.signature(getattr(nx, name)).bind(*args, **{
                k: v for k, v in kwargs.items() if k not in DEFAULT_CONFIG})
        except TypeError as e:
            return str(e)
        arguments = dict(bound.arguments)
        G = _graph(arguments.pop("G"))
        if not hasattr(G, "is_directed"):
            return "not a graph"
        return algorithms.why_not(name, G, **arguments) or True

    @staticmethod
    def should_run(name, args, kwargs):
        return True  # asked for by name: each call is a cluster launch (about a second), so say it in the docs


for _name in FUNCTIONS:
    setattr(BackendInterface, _name, staticmethod(_implementation(_name)))


def get_info():
    """What networkx shows of this backend (networkx.backend_info entry point)."""
    from networkx.utils.configs import Config
    return {
        "backend_name": "wiregraph",
        "project": "wiregraph",
        "package": "wiregraph",
        "url": None,  # no public page yet: docs/PYTHON.md in the repository
        "short_summary": "Runs graph algorithms on a local DPDK cluster of wiregraph nodes.",
        "default_config": Config(**DEFAULT_CONFIG),
        "functions": {name: {"additional_docs": DOCS[name], "additional_parameters": ENGINE_PARAMETERS}
                      for name in FUNCTIONS},
    }
