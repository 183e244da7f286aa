"""The Python API (python/wiregraph: wiregraph.run, Result, the networkx-named
functions) against networkx's own functions, on generated graphs with string
ids, isolated nodes and self-loops, on DataFrames and arrays, and on the
shared datasets: 2-node memif clusters, about 30 launches. Run by meson (suite
cluster) as `python3 -m unittest`; needs python/requirements-test.txt."""

import os
import tempfile
import unittest

import networkx as nx
import numpy as np
import pandas as pd

from python_api_env import DATASETS, mixed_graph, read_directed

import wiregraph as wg

QUIET = {"progress": False}


def undirected_simple(g):
    u = nx.Graph(g)
    u.remove_edges_from(nx.selfloop_edges(u))
    return u


def as_sets(components):
    return sorted(sorted(map(repr, c)) for c in components)


class Close:
    def assertClose(self, got, want, rel):
        self.assertEqual(set(got), set(want))
        worst = max((abs(got[v] - w) / max(abs(w), 1e-12) for v, w in want.items() if w or got[v]), default=0)
        self.assertLess(worst, rel, "the largest relative difference")


class GeneratedGraphs(unittest.TestCase, Close):
    """String ids, a tuple id, isolated nodes, a self-loop."""

    @classmethod
    def setUpClass(cls):
        cls.g = mixed_graph()
        cls.d = mixed_graph(directed=True, seed=4)

    def test_pagerank_undirected_and_directed(self):
        self.assertClose(wg.pagerank(self.g, **QUIET), nx.pagerank(self.g), 1e-5)
        self.assertClose(wg.pagerank(self.d, alpha=0.7, **QUIET), nx.pagerank(self.d, alpha=0.7), 1e-5)

    def test_pagerank_personalized_to_one_vertex_is_ppr(self):
        # Run to convergence on both sides (float messages never get the L1
        # change below V x 1e-10: the run takes max_iter steps); the vertices
        # v1 does not reach hold ~1e-10 in networkx, ~0 here: 1e-9 absolute.
        got = wg.pagerank(self.d, personalization={"v1": 1}, tol=1e-10, max_iter=1000, **QUIET)
        want = nx.pagerank(self.d, personalization={"v1": 1}, tol=1e-10, max_iter=1000)
        self.assertEqual(set(got), set(want))
        self.assertLess(max(abs(got[v] - w) - 1e-4 * w for v, w in want.items()), 1e-9)

    def test_pagerank_with_weights_all_one_is_the_unweighted_answer(self):
        g = self.g.copy()
        nx.set_edge_attributes(g, 1, "weight")
        self.assertClose(wg.pagerank(g, **QUIET), nx.pagerank(g), 1e-5)

    def test_shortest_path_length_reaches_networkx_s_nodes(self):
        self.assertEqual(wg.shortest_path_length(self.g, "v1", **QUIET), nx.shortest_path_length(self.g, "v1"))
        self.assertEqual(wg.single_source_shortest_path_length(self.d, "v3", **QUIET),
                         nx.single_source_shortest_path_length(self.d, "v3"))
        with self.assertRaises(nx.NodeNotFound):
            wg.shortest_path_length(self.g, "nobody", **QUIET)

    def test_components(self):
        self.assertEqual(as_sets(wg.connected_components(self.g, **QUIET)), as_sets(nx.connected_components(self.g)))
        self.assertEqual(as_sets(wg.weakly_connected_components(self.d, **QUIET)),
                         as_sets(nx.weakly_connected_components(self.d)))
        with self.assertRaises(nx.NetworkXNotImplemented):
            list(wg.connected_components(self.d))
        with self.assertRaises(nx.NetworkXNotImplemented):
            list(wg.weakly_connected_components(self.g))
        self.assertEqual(as_sets(wg.strongly_connected_components(self.d, **QUIET)),
                         as_sets(nx.strongly_connected_components(self.d)))
        with self.assertRaises(nx.NetworkXNotImplemented):
            list(wg.strongly_connected_components(self.g))

    def test_core_number_triangles_and_clustering(self):
        simple = undirected_simple(self.g)
        self.assertEqual(wg.core_number(simple, **QUIET), nx.core_number(simple))
        with self.assertRaises(nx.NetworkXNotImplemented):
            wg.core_number(self.g)  # a self-loop, as networkx refuses it
        self.assertEqual(wg.triangles(self.g, **QUIET), nx.triangles(self.g))  # self-loops ignored alike
        self.assertClose(wg.clustering(self.g, **QUIET), nx.clustering(self.g), 1e-6)

    def test_betweenness_normalised_and_not(self):
        self.assertClose(wg.betweenness_centrality(self.g, **QUIET), nx.betweenness_centrality(self.g), 1e-6)
        self.assertClose(wg.betweenness_centrality(self.g, normalized=False, **QUIET),
                         nx.betweenness_centrality(self.g, normalized=False), 1e-6)

    def test_what_wiregraph_does_not_compute_is_refused_with_the_reason(self):
        refusals = [
            (lambda: wg.pagerank(self.g, personalization={"v1": 1, "v2": 1}), "personalization"),
            (lambda: wg.clustering(self.d), "directed"),
            (lambda: wg.core_number(self.d), "directed"),
            (lambda: wg.betweenness_centrality(self.g, k=5), "k=5"),
            (lambda: wg.betweenness_centrality(self.d), "directed"),
            (lambda: wg.shortest_path_length(self.g, "v1", weight="weight"), "weight"),
        ]
        for call, reason in refusals:
            with self.assertRaises(wg.NotSupported) as e:
                call()
            self.assertIn(reason, str(e.exception))
        weighted = nx.karate_club_graph()  # weighted edges: the nodes' pagerank --weighted
        self.assertClose(wg.pagerank(weighted, **QUIET), nx.pagerank(weighted), 1e-5)


class RunAndResult(unittest.TestCase):
    def test_a_dataframe_keeps_its_ids_and_real_weights(self):
        edges = pd.DataFrame({"src": ["a", "a", "b", "c", "d"], "dst": ["b", "c", "c", "d", "e"],
                              "w": [0.5, 2.25, 1.0, 0.125, 3.5]})
        r = wg.run("sssp", edges, source="a", **QUIET)
        g = nx.from_pandas_edgelist(edges, "src", "dst", "w", create_using=nx.DiGraph)
        self.assertEqual(r.to_dict(), nx.single_source_dijkstra_path_length(g, "a", weight="w"))
        series = r.to_pandas()
        self.assertEqual(series.name, "distance")
        self.assertEqual(series.index.name, "vertex")
        self.assertEqual(list(series.index), ["a", "b", "c", "d", "e"])
        self.assertEqual(r.summary["config"]["app"], "sssp")
        with tempfile.TemporaryDirectory() as tmp:
            import pyarrow.parquet as pq
            table = pq.read_table(r.to_parquet(os.path.join(tmp, "d.parquet")))
            self.assertEqual(table.column("vertex").to_pylist(), ["a", "b", "c", "d", "e"])
            self.assertEqual(table.column("distance").to_pylist(), list(series))

    def test_arrays_and_labels_by_the_user_s_ids(self):
        src, dst = np.array([10, 11, 30, 31]), np.array([11, 12, 31, 30])
        r = wg.run("cc", (src, dst), **QUIET)
        self.assertEqual(r.to_dict(), {10: 10, 11: 10, 12: 10, 30: 30, 31: 30})
        self.assertEqual(r.to_numpy().tolist(), [10, 10, 10, 30, 30])
        pictures = r.plot()
        self.assertEqual(len(pictures), 1)
        with open(pictures[0], "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        out = r.out_dir
        r.close()
        self.assertFalse(out.exists(), "a temporary out dir goes with its Result")

    def test_a_bad_file_raises_the_node_s_message(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.txt")
            with open(path, "w") as f:
                f.write("1 2\n3 x\n")
            with self.assertRaises(wg.WiregraphError) as e:
                wg.run("bfs", path, **QUIET)
            self.assertIn("bad.txt:2: field 2 (dst): 'x'", str(e.exception))
            self.assertEqual(e.exception.returncode, 1)

    def test_an_option_the_node_refuses_raises_its_message(self):
        with self.assertRaises(wg.WiregraphError) as e:
            wg.run("bfs", "kron:8:4", damping=0.5, **QUIET)
        self.assertIn("--damping", str(e.exception))
        self.assertEqual(e.exception.returncode, 2)


class SharedDatasets(unittest.TestCase, Close):
    def test_wiki_vote_pagerank_and_bfs(self):
        g = read_directed("wiki-Vote.txt")
        self.assertClose(wg.pagerank(g, **QUIET), nx.pagerank(g), 1e-5)
        self.assertEqual(wg.shortest_path_length(g, 30, **QUIET), nx.shortest_path_length(g, 30))

    def test_ca_grqc_undirected_programs(self):
        u = undirected_simple(read_directed("ca-GrQc.csv"))
        self.assertEqual(as_sets(wg.connected_components(u, **QUIET)), as_sets(nx.connected_components(u)))
        self.assertEqual(wg.core_number(u, **QUIET), nx.core_number(u))
        self.assertEqual(wg.triangles(u, **QUIET), nx.triangles(u))
        self.assertClose(wg.clustering(u, **QUIET), nx.clustering(u), 1e-6)

    def test_email_eu_core_betweenness(self):
        u = undirected_simple(read_directed("email-Eu-core.csv"))
        self.assertClose(wg.betweenness_centrality(u, **QUIET), nx.betweenness_centrality(u), 1e-5)

    def test_a_path_passes_through_with_the_file_s_ids(self):
        r = wg.run("cc", os.path.join(DATASETS, "wiki-Vote.txt"), **QUIET)
        g = read_directed("wiki-Vote.txt")
        labels = r.to_dict()
        self.assertEqual(set(labels), set(g))
        for component in nx.weakly_connected_components(g):
            self.assertEqual({labels[v] for v in component}, {min(component)})


if __name__ == "__main__":
    unittest.main()
