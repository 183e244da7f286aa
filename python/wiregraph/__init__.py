"""wiregraph from Python: the cluster launcher's parts as modules
(wiregraph.launcher), the run's results (wiregraph.results), the API
(wiregraph.run and the networkx-named functions) and the NetworkX backend.
"""

__version__ = "0.1.0"
