"""Functions named and shaped like networkx's, each returning what the
networkx function returns, computed by a wiregraph run on a local cluster.

`why_not(name, G, **kwargs)` says why a call cannot give networkx's answer
(an argument wiregraph does not implement, a graph whose semantics differ);
the functions raise NotSupported with that reason, and the NetworkX backend's
can_run returns it so that networkx runs the call itself. Every function also
takes the engine's settings as keywords: cluster_nodes=2 (wiregraph.run's
`nodes`: triangles and clustering have networkx's own `nodes`), link='memif',
progress=None.
"""

import networkx as nx
from networkx.utils import not_implemented_for

from wiregraph.api import run

ENGINE = ("cluster_nodes", "link", "progress")


class NotSupported(NotImplementedError):
    """This call's arguments or graph ask for what wiregraph does not compute
    as networkx does (the message says what); networkx itself can."""


def has_real_weights(G, weight):
    """An edge of G has WEIGHT other than 1: networkx's answer depends on it.
    (networkx's default weight='weight' on an unweighted graph is the
    unweighted answer.)"""
    return bool(weight) and any(d.get(weight, 1) != 1 for _, _, d in G.edges(data=True))


def _not_none(kwargs, *names):
    for name in names:
        if kwargs.get(name) is not None:
            return "%s=%r is not implemented by wiregraph" % (name, kwargs[name])
    return None


def why_not(name, G, **kwargs):
    """None when wiregraph gives networkx's answer to NAME(G, **kwargs), else the reason."""
    directed = G.is_directed()
    multigraph = G.is_multigraph()
    if name == "pagerank":
        reason = _not_none(kwargs, "nstart", "dangling")
        if reason:
            return reason
        personalization = kwargs.get("personalization")
        if personalization is not None:
            # One vertex: wiregraph's ppr from that seed. A vector over several
            # is one teleport distribution, not K seeds.
            weights = [w for w in personalization.values() if w != 0]
            if len(weights) != 1 or weights[0] < 0:
                return ("personalization=%r: wiregraph's ppr teleports to one vertex (personalization={s: 1})"
                        % (personalization,))
            if next(v for v, w in personalization.items() if w != 0) not in G:
                return "personalization names a vertex that is not in G"
            if has_real_weights(G, kwargs.get("weight", "weight")):
                return "personalization with real edge weights is not implemented by wiregraph (ppr is unweighted)"
    elif name == "shortest_path_length":
        reason = _not_none(kwargs, "target", "weight")
        if reason:
            return reason
        if kwargs.get("source") is None:
            return "source=None (all pairs) is not implemented by wiregraph: one bfs per source"
        if kwargs.get("method", "dijkstra") not in ("dijkstra", "bellman-ford", None):
            return "method=%r" % kwargs["method"]
    elif name == "single_source_shortest_path_length":
        return _not_none(kwargs, "cutoff")
    elif name == "core_number":
        if directed:
            return ("a directed graph: networkx counts in- plus out-degree (a reciprocal pair twice), "
                    "wiregraph's kcore the undirected simple graph")
    elif name in ("triangles", "clustering"):
        if multigraph:
            return "a multigraph: not checked against networkx"
        if name == "clustering":
            reason = _not_none(kwargs, "weight")
            if reason:
                return reason
            if directed:
                return ("a directed graph: networkx's directed clustering (Fagiolo) is not "
                        "wiregraph's directed lcc (Graphalytics')")
    elif name == "betweenness_centrality":
        reason = _not_none(kwargs, "k", "weight")
        if reason:
            return reason
        if kwargs.get("endpoints"):
            return "endpoints=True is not implemented by wiregraph"
        if directed:
            return "a directed graph: wiregraph's bc runs on the undirected graph"
        if multigraph:
            return "a multigraph: networkx counts parallel edges as distinct paths, wiregraph's bc drops them"
    return None


def _refuse(name, G, **kwargs):
    reason = why_not(name, G, **kwargs)
    if reason:
        raise NotSupported("%s: %s" % (name, reason))


def _run(app, G, engine, **options):
    unknown = set(engine) - set(ENGINE)
    if unknown:
        raise TypeError("unexpected keyword arguments %s (the engine's: %s)" % (sorted(unknown), ", ".join(ENGINE)))
    return run(app, G, nodes=engine.get("cluster_nodes", 2), link=engine.get("link", "memif"),
               progress=engine.get("progress"), **options)


def _values(app, G, engine, source=None, **options):
    """{node: value} of APP on G, in G's node order."""
    answer = _run(app, G, engine, source=source, **options).to_dict()
    return {v: answer[v] for v in G}


def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1e-06, nstart=None, weight="weight",
             dangling=None, **engine):
    _refuse("pagerank", G, personalization=personalization, nstart=nstart, weight=weight, dangling=dangling)
    if len(G) == 0:
        return {}
    if personalization is not None:  # ppr from the one vertex it names (float messages: ~1e-6 relative)
        seed = next(v for v, w in personalization.items() if w != 0)
        answer = _run("ppr", G, engine, source=seed, damping=alpha, tolerance=tol, iterations=max_iter).to_dict()
        return {v: answer[v] for v in G}
    weighted = has_real_weights(G, weight)
    r = _run("pagerank", G, engine, weight=weight if weighted else False, damping=alpha, tolerance=tol,
             iterations=max_iter, precision="double", weighted=weighted)
    if not r.summary["summary"]["answer"].get("converged", True):
        raise nx.PowerIterationFailedConvergence(max_iter)
    answer = r.to_dict()
    return {v: answer[v] for v in G}


def single_source_shortest_path_length(G, source, cutoff=None, **engine):
    _refuse("single_source_shortest_path_length", G, cutoff=cutoff)
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    depth = _values("bfs", G, engine, source=source)
    reached = {v: d for v, d in depth.items() if d >= 0}
    return dict(sorted(reached.items(), key=lambda item: item[1]))  # networkx's order: by distance


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra", **engine):
    _refuse("shortest_path_length", G, source=source, target=target, weight=weight, method=method)
    return single_source_shortest_path_length(G, source, **engine)


def _components(G, engine, app="cc"):
    label = _values(app, G, engine)
    groups = {}
    for v, c in label.items():
        groups.setdefault(c, set()).add(v)
    yield from groups.values()


@not_implemented_for("directed")
def connected_components(G, **engine):
    yield from _components(G, engine)


@not_implemented_for("undirected")
def weakly_connected_components(G, **engine):
    yield from _components(G, engine)


@not_implemented_for("undirected")
def strongly_connected_components(G, **engine):
    yield from _components(G, engine, "scc")


@not_implemented_for("multigraph")
def core_number(G, **engine):
    _refuse("core_number", G)
    if nx.number_of_selfloops(G) > 0:
        raise nx.NetworkXNotImplemented(
            "Input graph has self loops which is not permitted; "
            "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")
    return _values("kcore", G, engine)


def _restricted(values, G, nodes):
    """networkx's `nodes` argument: one node's value, or a dict of some."""
    if nodes is None:
        return values
    if nodes in G:
        return values[nodes]
    return {v: values[v] for v in G.nbunch_iter(nodes)}


@not_implemented_for("directed")
def triangles(G, nodes=None, **engine):
    _refuse("triangles", G)
    return _restricted(_values("tc", G, engine), G, nodes)


def clustering(G, nodes=None, weight=None, **engine):
    """From tc's triangle counts, which are integers, as networkx computes it
    (2T / (d(d-1)), self-loops left out): lcc's coefficients come as text of
    9 significant digits, which equal networkx's only to about 1e-9."""
    _refuse("clustering", G, weight=weight)
    triangles = _values("tc", G, engine)
    coefficients = {}
    for v, t in triangles.items():
        d = len(G[v]) - (v in G[v])
        coefficients[v] = 0 if t == 0 else 2 * t / (d * (d - 1))
    return _restricted(coefficients, G, nodes)


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None, **engine):
    _refuse("betweenness_centrality", G, k=k, weight=weight, endpoints=endpoints)
    if G.number_of_edges() == 0:
        return dict.fromkeys(G, 0.0)  # every score 0 (and nothing for the nodes to sweep)
    return _values("bc", G, engine, sources="all", normalize="networkx" if normalized else "none")
