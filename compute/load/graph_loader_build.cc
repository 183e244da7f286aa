// The loading phase's build: this node's blocks from the edges it holds,
// in-degrees, the NUMA-domain split and its slot tables, and the final
// renumbering (compute/load/graph_loader.h).
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "compute/load/graph_loader_driver.h"
#include "compute/partition/slot_renumber.h"

namespace wg::load {

namespace {

// An edge's weight as the fingerprint hashes it: the integer, or a real
// weight's bits folded to 32.
Weight weight_word(const EdgeBlock& b, uint64_t e) {
  if (!b.real_weights.empty()) {
    uint64_t bits;
    std::memcpy(&bits, &b.real_weights[e], sizeof bits);
    return static_cast<Weight>(bits ^ bits >> 32);
  }
  return b.weights.empty() ? 1 : b.weights[e];
}

}  // namespace

// Edges from other nodes are this node's and within V, or the frames were
// corrupted. In-edges are held reversed (by their target).
void GraphLoader::check_received(HeldEdges& received, bool in_edges, VertexId n) {
  auto refuse = [&](VertexId held_src, VertexId held_dst) {
    const VertexId src = in_edges ? held_dst : held_src, dst = in_edges ? held_src : held_dst;
    throw std::runtime_error(std::string(in_edges ? "an in-edge " : "an edge ") + std::to_string(src) + " -> " +
                             std::to_string(dst) +
                             " that is not this node's (or not within the graph's " + std::to_string(n) +
                             " vertices) arrived while loading: corrupted frames (try --checksum on)?");
  };
  if (received.foreign() > 0) refuse(received.first_foreign().first, received.first_foreign().second);
  received.for_each([&](VertexId src, VertexId dst, Weight, double) {
    if (src >= n || dst >= n) refuse(src, dst);
  });
}

// The degrees superstep's apply: this node's out-edges, received and its
// own, into blocks (identity numbering: slot = v div P).
void GraphLoader::build_blocks(const Stall& stall) {
  const VertexId n = num_vertices_;
  HeldEdges& received = received_;
  // Edges from other nodes must be ours and within V: only corruption without
  // --checksum (or a foreign job) could break that.
  check_received(received, false, n);
  edges_received_ = received.size();
  if (rules_.check_memory) {
    // Before anything is built: the held edges and, unless a generator's
    // scale models them, their sources' degrees, which tell the estimate how
    // many (source, block) pairs the CSR will have (a pass over the buckets,
    // each a run of consecutive sources: the counters stay in cache).
    HeldShape held;
    held.vertices = n;
    held.edges = totals_.edges;
    held.held_edges = held_edges(&WorkerState::own, received);
    held.held_bytes = received.bytes();
    for (const WorkerState& ws : workers_) held.held_bytes += ws.own->bytes();
    if (input_.kron_scale() == 0) {
      std::vector<uint32_t> degree(RoundRobin{nodes_}.local_count(rank_, n), 0);
      uint64_t since_stall = 0;
      auto count = [&](VertexId src, VertexId, Weight, double) { ++degree[src / nodes_]; };
      auto polled_count = polled(count, since_stall, stall);
      for_each_held(&WorkerState::own, received, polled_count, false);
      held.out_degrees = count_degrees(degree.data(), degree.size());
      held.degrees_alike = totals_.degree_balance == 0;
    }
    held.what = input_.spec + ": " + std::to_string(n) + " vertices and " + std::to_string(totals_.edges) + " edges";
    rules_.check_memory(held);
  }
  // Two passes (count, place) bucket by bucket, polling the network roles
  // (held_passes).
  graph_ = build_out_edges(held_passes(&WorkerState::own, received, stall), n, totals_.edges, nodes_, rank_,
                           rules_.keep_weights, nullptr, rules_.real_weights);
  if (rules_.drop_duplicates) remove_duplicate_targets(graph_);
  if (rules_.in_edges) build_in_blocks(stall);
  in_degree_ = std::move(graph_.in_degree);  // zero, one per local vertex (build_out_edges)
  // This node's edges as the program sees them, summed over the cluster in
  // the END of this superstep: |E| and the graph's fingerprint.
  uint64_t built[2] = {0, 0};
  for (unsigned p = 0; p < nodes_; ++p) {
    const EdgeBlock& b = graph_.blocks[p];
    built[0] += b.num_edges();
    for (size_t i = 0; i < b.sources.size(); ++i) {
      const VertexId src = graph_.partition.global_id(rank_, b.sources[i]);
      for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e)
        built[1] += edge_hash(Edge{src, graph_.partition.global_id(p, b.targets[e]), weight_word(b, e)});
    }
  }
  std::memcpy(workers_[0].aggregate.data(), built, sizeof built);
}

// The reversed edges that arrived (LoadOptions::in_edges) into in_blocks,
// built as out-edges of their targets: the same groups as the out-edge blocks.
void GraphLoader::build_in_blocks(const Stall& stall) {
  const VertexId n = num_vertices_;
  check_received(received_in_, true, n);
  LocalGraph reversed = build_out_edges(held_passes(&WorkerState::own_in, received_in_, stall), n, totals_.edges,
                                        nodes_, rank_, false, nullptr);
  if (rules_.drop_duplicates) remove_duplicate_targets(reversed);
  graph_.in_blocks = std::move(reversed.blocks);
}

// In-edge counts per target, one record per target with any, to its owner.
void GraphLoader::send_in_degrees(const Stall& stall) {
  LoadWriter& out = *workers_[0].writer;
  std::vector<uint32_t> count;
  for (unsigned k = 1; k <= nodes_; ++k) {
    const unsigned p = (rank_ + k) % nodes_;  // staggered, as the workers scatter
    const EdgeBlock& b = graph_.blocks[p];
    if (p == rank_) {
      for (uint32_t t : b.targets) ++in_degree_[t];
      continue;
    }
    count.assign(graph_.partition.local_count(p, graph_.num_vertices), 0);
    for (uint32_t t : b.targets) ++count[t];
    for (uint32_t t = 0; t < count.size(); ++t)
      if (count[t] != 0) out.put(p, LoadRecord{t, count[t], 0}, stall);
  }
}

// The slots superstep's apply (k > 1, or degree order): this node's
// vertices over its domains, numbered domain by domain (compute/partition/slot_map.h)
// and, with degree order, by out-degree within a domain, highest first
// (ties by vertex id). A dense pull reads the scatter value of every
// in-edge's source at random; on a power-law graph a few sources hold most
// edges, and numbered first their values share a few cache lines instead of
// one line each spread over the whole array (degree-based grouping, Faldu
// et al., IISWC 2019; docs/DESIGN-NOTES.md, "Slots by degree").
void GraphLoader::split_domains() {
  const unsigned k = rules_.domains;
  partition_ = partition_domains(graph_, k, rules_.metis && k > 1);
  std::vector<uint32_t> next(k + 1, 0);
  for (unsigned d = 0; d < k; ++d) next[d + 1] = next[d] + partition_.vertices_per_domain[d];
  own_slot_.resize(graph_.num_local);
  own_domain_ = partition_.domain_of;
  std::vector<uint32_t> order(graph_.num_local);
  for (uint32_t i = 0; i < graph_.num_local; ++i) order[i] = i;
  if (rules_.degree_order) {
    const std::vector<uint32_t>& degree = graph_.out_degree;
    std::stable_sort(order.begin(), order.end(), [&degree](uint32_t a, uint32_t b) { return degree[a] > degree[b]; });
  }
  for (uint32_t i : order) own_slot_[i] = next[own_domain_[i]]++;
}

// Every peer gets this node's slot table: (vertex, slot, domain) per vertex.
void GraphLoader::send_slot_table(const Stall& stall) {
  LoadWriter& out = *workers_[0].writer;
  for (unsigned k = 1; k < nodes_; ++k) {
    const unsigned p = (rank_ + k) % nodes_;
    for (uint32_t i = 0; i < graph_.num_local; ++i)
      out.put(p, LoadRecord{graph_.partition.global_id(rank_, i), own_slot_[i], own_domain_[i]}, stall);
  }
}

// The peers' slot-table entries from the slots superstep, each checked
// against the cluster's shape: f(owner, vertex, slot, domain). The inbox is
// emptied after.
template <class F>
void GraphLoader::for_each_peer_slot(F&& f) {
  const VertexId n = num_vertices_;
  const unsigned k = rules_.domains;
  inbox_[static_cast<size_t>(Step::kSlots)].for_each([&](const LoadRecord& r) {
    const unsigned owner = r.index % nodes_;
    if (r.index >= n || owner == rank_ || r.b >= k || r.a >= graph_.partition.local_count(owner, n))
      throw std::runtime_error("a malformed slot-table entry (vertex " + std::to_string(r.index) + ", slot " +
                               std::to_string(r.a) + ", domain " + std::to_string(r.b) + ") arrived while loading");
    f(owner, VertexId{r.index}, r.a, r.b);
  });
  inbox_[static_cast<size_t>(Step::kSlots)].clear();
}

// k = 1 with degree order: every node's slot table (ours, and the peers'
// from the slots superstep), then the CSR renumbered in place.
void GraphLoader::renumber_by_slot_tables(LocalGraph& g) {
  const VertexId n = num_vertices_;
  std::vector<std::vector<uint32_t>> new_slot(nodes_);
  std::vector<uint64_t> entries(nodes_, 0);
  for (unsigned p = 0; p < nodes_; ++p) new_slot[p].assign(g.partition.local_count(p, n), UINT32_MAX);
  new_slot[rank_] = own_slot_;
  entries[rank_] = own_slot_.size();
  for_each_peer_slot([&](unsigned owner, VertexId v, uint32_t slot, uint32_t) {
    new_slot[owner][v / nodes_] = slot;
    ++entries[owner];
  });
  for (unsigned p = 0; p < nodes_; ++p)
    if (entries[p] != new_slot[p].size())
      throw std::runtime_error("node " + std::to_string(p) + "'s slot table has " + std::to_string(entries[p]) +
                               " entries, not " + std::to_string(new_slot[p].size()));
  renumber_slots(g, new_slot);  // also refuses a table that is not a permutation
}

LocalGraph GraphLoader::finish(LoadReport* report) {
  const auto t0 = Clock::now();
  const VertexId n = num_vertices_;
  const uint32_t local = graph_.num_local;
  inbox_[static_cast<size_t>(Step::kDegrees)].for_each([&](const LoadRecord& r) {
    if (r.index >= local)
      throw std::runtime_error("an in-degree count for local vertex " + std::to_string(r.index) +
                               " arrived, but this node has " + std::to_string(local) + " vertices");
    in_degree_[r.index] += r.a;
  });
  inbox_[static_cast<size_t>(Step::kDegrees)].clear();
  LocalGraph g;
  const unsigned k = rules_.domains;
  if (k == 1) {
    g = std::move(graph_);
    g.num_edges = edges_built_;
    g.in_degree = std::move(in_degree_);
    g.original_id = std::move(original_id_);
    if (rules_.degree_order) renumber_by_slot_tables(g);
    partition_ = partition_domains(g, 1, false);
  } else {
    // Every node's slot table: ours, and the peers' from the slots superstep.
    SlotMap map;
    map.nodes = nodes_;
    map.domains = k;
    map.slot_of.assign(n, 0);
    map.domain_of.assign(n, 0);
    std::vector<std::vector<uint32_t>> per_domain(nodes_, std::vector<uint32_t>(k, 0));
    for (uint32_t i = 0; i < local; ++i) {
      const VertexId v = graph_.partition.global_id(rank_, i);
      map.slot_of[v] = own_slot_[i];
      map.domain_of[v] = own_domain_[i];
      ++per_domain[rank_][own_domain_[i]];
    }
    for_each_peer_slot([&](unsigned owner, VertexId v, uint32_t slot, uint32_t domain) {
      map.slot_of[v] = slot;
      map.domain_of[v] = static_cast<uint8_t>(domain);
      ++per_domain[owner][domain];
    });
    map.domain_offset.assign(nodes_, std::vector<uint32_t>(k + 1, 0));
    for (unsigned p = 0; p < nodes_; ++p) {
      for (unsigned d = 0; d < k; ++d) map.domain_offset[p][d + 1] = map.domain_offset[p][d] + per_domain[p][d];
      if (map.domain_offset[p][k] != graph_.partition.local_count(p, n))
        throw std::runtime_error("node " + std::to_string(p) + "'s slot table has " +
                                 std::to_string(map.domain_offset[p][k]) + " entries, not " +
                                 std::to_string(graph_.partition.local_count(p, n)));
    }
    // The blocks again, now grouped by (node, domain) and numbered by slot.
    const LocalGraph& old = graph_;
    auto edges_of = [&](const std::vector<EdgeBlock>& blocks) {
      return [&, set = &blocks](auto&& f) {
        for (unsigned p = 0; p < nodes_; ++p) {
          const EdgeBlock& b = (*set)[p];
          for (size_t i = 0; i < b.sources.size(); ++i) {
            const VertexId src = old.partition.global_id(rank_, b.sources[i]);
            for (uint64_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e)
              f(src, old.partition.global_id(p, b.targets[e]), b.weights.empty() ? Weight{1} : b.weights[e],
                b.real_weights.empty() ? 0.0 : b.real_weights[e]);
          }
        }
      };
    };
    g = build_out_edges(edges_of(old.blocks), n, edges_built_, nodes_, rank_, rules_.keep_weights, &map,
                        rules_.real_weights);
    // The in-edges likewise: their sources are this node's vertices too.
    if (rules_.in_edges)
      g.in_blocks = build_out_edges(edges_of(old.in_blocks), n, edges_built_, nodes_, rank_, false, &map).blocks;
    for (uint32_t i = 0; i < local; ++i) g.in_degree[own_slot_[i]] = in_degree_[i];
    if (!original_id_.empty()) {
      g.original_id.resize(local);
      for (uint32_t i = 0; i < local; ++i) g.original_id[own_slot_[i]] = original_id_[i];
      original_id_ = {};
    }
    graph_ = LocalGraph{};
  }
  build_seconds_ += seconds_since(t0);

  LoadReport& r = *report;
  r.num_vertices = n;
  r.num_edges = edges_built_;
  r.weighted = weighted_;
  r.fingerprint = fingerprint_of(n, edges_built_, fingerprint_sum_);
  r.input_bytes = header_.size + vertex_header_.size + edge_header_.size;
  r.input_edges = totals_.entries;
  r.degrees_alike = totals_.degree_balance == 0;
  r.source = source_;
  r.lookups = lookups_;
  r.bytes_read = header_bytes_read_;
  double read = 0, parse = 0;
  for (const WorkerState& ws : workers_) {
    r.bytes_read += ws.bytes_read;
    r.edges_parsed += ws.parsed.load(std::memory_order_relaxed);
    r.edges_sent += ws.sent.load(std::memory_order_relaxed);
    read = std::max(read, ws.read_seconds);
    parse = std::max(parse, ws.parse_seconds);
  }
  r.local_edges = local_out_edges(g);
  r.edges_received = edges_received_;
  r.read_seconds = read;
  r.parse_seconds = parse;
  r.shuffle_seconds = std::max(0.0, edges_seconds_ - read - parse);
  r.build_seconds = build_seconds_;
  r.seconds = seconds_since(started_);
  r.wait_seconds = std::max(0.0, r.seconds - r.read_seconds - r.parse_seconds - r.shuffle_seconds - r.build_seconds);
  r.partition = partition_;
  print_progress(true);
  return g;
}

}  // namespace wg::load
