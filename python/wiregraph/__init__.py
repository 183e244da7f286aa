"""wiregraph from Python: the cluster launcher's parts as modules
(wiregraph.launcher), the run's results (wiregraph.results), the API
(wiregraph.run and the networkx-named functions) and the NetworkX backend.

The API's names are imported when first used (PEP 562): the launcher and the
scripts import wiregraph.wglib and wiregraph.results on every run, and must not
pay for pandas and networkx (0.8 s here).
"""

import importlib

from wiregraph.errors import WiregraphError  # noqa: F401  (cheap: the scripts catch it)

__version__ = "0.1.0"

_LAZY = {
    "run": "wiregraph.api",
    "Result": "wiregraph.run_result",
    "NotSupported": "wiregraph.algorithms",
    "pagerank": "wiregraph.algorithms",
    "shortest_path_length": "wiregraph.algorithms",
    "single_source_shortest_path_length": "wiregraph.algorithms",
    "connected_components": "wiregraph.algorithms",
    "weakly_connected_components": "wiregraph.algorithms",
    "strongly_connected_components": "wiregraph.algorithms",
    "core_number": "wiregraph.algorithms",
    "triangles": "wiregraph.algorithms",
    "clustering": "wiregraph.algorithms",
    "betweenness_centrality": "wiregraph.algorithms",
}
__all__ = ["WiregraphError"] + sorted(_LAZY)


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError("module 'wiregraph' has no attribute %r" % name)
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
