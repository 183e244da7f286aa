"""The NetworkX backend `wiregraph` (python/wiregraph/nx_backend.py): its
BackendInterface called as networkx's dispatcher calls it (convert_from_nx,
can_run with a reason for every argument it does not implement, the
functions with networkx's signatures and the engine settings as keywords),
its get_info, and, when the package is installed with its entry points,
nx.pagerank(G, backend='wiregraph') itself. Answers compared with networkx's
own functions; a few 2-node memif launches. Run by meson (suite cluster)."""

import unittest

import networkx as nx

from python_api_env import mixed_graph

from wiregraph.nx_backend import BackendInterface as Backend
from wiregraph.nx_backend import FUNCTIONS, WiregraphGraph, get_info


class Backend_(unittest.TestCase):
    def test_conversions_wrap_the_graph(self):
        g = nx.path_graph(4)
        w = Backend.convert_from_nx(g, edge_attrs={"weight": 1}, name="pagerank", graph_name="G")
        self.assertEqual(w.__networkx_backend__, "wiregraph")
        self.assertIsInstance(w, WiregraphGraph)
        self.assertIs(Backend.convert_to_nx(w), g)
        self.assertEqual(Backend.convert_to_nx({0: 1.0}), {0: 1.0})

    def test_can_run_gives_a_reason_for_what_it_does_not_implement(self):
        g = Backend.convert_from_nx(mixed_graph())
        d = Backend.convert_from_nx(mixed_graph(directed=True))
        for name, args, kwargs, reason in [
            ("pagerank", (g,), {"personalization": {"v1": 1, "v2": 0.5}}, "personalization"),
            ("pagerank", (g, 0.85, None, 100, 1e-6, {"v1": 1}), {}, "nstart"),
            ("pagerank", (g,), {"dangling": {"v1": 1}}, "dangling"),
            ("betweenness_centrality", (g,), {"k": 3}, "k=3"),
            ("betweenness_centrality", (g,), {"endpoints": True}, "endpoints"),
            ("betweenness_centrality", (d,), {}, "directed"),
            ("clustering", (d,), {}, "directed"),
            ("clustering", (g,), {"weight": "weight"}, "weight"),
            ("core_number", (d,), {}, "directed"),
            ("shortest_path_length", (g,), {}, "source=None"),
            ("shortest_path_length", (g, "v1", "v2"), {}, "target"),
            ("single_source_shortest_path_length", (g, "v1", 2), {}, "cutoff"),
            ("closeness_centrality", (g,), {}, "does not implement"),
        ]:
            with self.subTest(name=name, kwargs=kwargs):
                answer = Backend.can_run(name, args, kwargs)
                self.assertIsInstance(answer, str)
                self.assertIn(reason, answer)
        self.assertIs(Backend.can_run("pagerank", (g,), {"alpha": 0.9, "cluster_nodes": 3}), True)
        weighted = Backend.convert_from_nx(nx.karate_club_graph())
        self.assertIs(Backend.can_run("pagerank", (weighted,), {"weight": None}), True)
        self.assertIs(Backend.can_run("pagerank", (weighted,), {}), True, "weights: the nodes' --weighted")

    def test_functions_answer_as_networkx_with_engine_keywords(self):
        g = mixed_graph()
        w = Backend.convert_from_nx(g)
        got = Backend.pagerank(w, 0.9, cluster_nodes=3, progress=False)
        want = nx.pagerank(g, alpha=0.9)
        self.assertLess(max(abs(got[v] - r) / r for v, r in want.items()), 1e-5)
        self.assertEqual(Backend.triangles(w, "v1", progress=False), nx.triangles(g, "v1"))
        self.assertEqual(Backend.shortest_path_length(w, source="v2"), nx.shortest_path_length(g, source="v2"))

    def test_get_info_describes_every_function(self):
        info = get_info()
        self.assertEqual(info["backend_name"], "wiregraph")
        self.assertEqual(set(info["functions"]), set(FUNCTIONS))
        self.assertEqual(dict(info["default_config"])["cluster_nodes"], 2)
        for name in FUNCTIONS:
            self.assertTrue(hasattr(Backend, name))
            self.assertIn("additional_docs", info["functions"][name])

    @unittest.skipUnless("wiregraph" in nx.utils.backends.backends,
                         "the package is not installed with its entry points (pip install python)")
    def test_dispatch_by_name(self):
        g = nx.karate_club_graph()
        got = nx.pagerank(g, weight=None, backend="wiregraph")
        want = nx.pagerank(g, weight=None)
        self.assertLess(max(abs(got[v] - r) / r for v, r in want.items()), 1e-5)


if __name__ == "__main__":
    unittest.main()
