"""wiregraph from Python: the cluster launcher's parts as modules
(wiregraph.launcher), the run's results (wiregraph.results), the API
(wiregraph.run and the networkx-named functions) and the NetworkX backend.
"""

__version__ = "0.1.0"

from wiregraph.errors import WiregraphError
from wiregraph.api import run
from wiregraph.run_result import Result
from wiregraph.algorithms import (NotSupported, betweenness_centrality, clustering, connected_components,
                                  core_number, pagerank, shortest_path_length,
                                  single_source_shortest_path_length, triangles, weakly_connected_components)
