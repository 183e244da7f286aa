// The --help text of the wiregraph node (config/options.h), with the list of
// programs from their traits.
#include <cstdio>
#include <string>

#include "config/options.h"
#include "dataplane/wire.h"

namespace wg {

void print_usage(const char* prog, std::span<const ProgramTraits> programs) {
  std::printf(
      "Usage: %s [EAL options] -- --app APP --graph SPEC [options]\n"
      "\n"
      "One wiregraph node. Start one per machine (srun, mpirun, pdsh, ssh) or let\n"
      "scripts/wiregraph-cluster start a local cluster. EAL options (before --) choose\n"
      "the DPDK port(s), lcores and memory, e.g. -a 0000:3b:00.0 or --vdev net_tap0.\n"
      "Without an EAL memory option (--in-memory, --no-huge, --huge-unlink...) the node\n"
      "adds --in-memory, so that hugepages leave no files; on every exit it sees it\n"
      "removes its EAL runtime directory, hugepage files and memif sockets. A graph\n"
      "whose estimated memory exceeds what the machine or its cgroup allows is refused\n"
      "before it is read or partitioned, naming both numbers.\n"
      "\n"
      "Application options (after --):\n"
      "  --app APP           the program to run (required; see Programs below)\n"
      "  --graph SPEC        graph file, or kron:SCALE:DEGREE[:SEED] for a generated\n"
      "                      Kronecker graph (2^SCALE vertices, DEGREE edges per vertex)\n"
      "  --format FMT        auto (default: from the extension) | edgelist | mtx | bin |\n"
      "                      wbin | dimacs | metis\n"
      "  --undirected        add the reverse of every edge after loading\n"
      "  --nodes P           cluster size (default: SLURM_NTASKS, OMPI_COMM_WORLD_SIZE,\n"
      "                      PMI_SIZE, else 1); at most %u\n"
      "  --rank R            this node's rank 0..P-1 (default: SLURM_PROCID,\n"
      "                      OMPI_COMM_WORLD_RANK, PMI_RANK, else 0); a value taken from\n"
      "                      a variable is named as such in the banner, errors and\n"
      "                      nodeR.json (rank_from, nodes_from)\n"
      "  --source V          source vertex of the programs that start from one (default 0)\n"
      "  --iterations K      rounds of the programs that iterate a fixed number of times\n"
      "                      (default: the program's, see Programs below)\n"
      "  --out DIR           write DIR/result-R.txt (`<vertex> <value>` lines for the\n"
      "                      vertices this node owns), DIR/nodeR.json (this node's\n"
      "                      per-superstep counts) and, on rank 0, DIR/summary.json\n"
      "  --job-id N          32-bit job token shared by all nodes of one job (default:\n"
      "                      derived from the graph and P); frames of other jobs are dropped\n"
      "  --udp-port N        UDP port of wiregraph frames (default %u)\n"
      "  --peer-timeout S    a peer silent for S seconds is declared dead and the node\n"
      "                      exits non-zero naming it (default 30; live peers send\n"
      "                      keepalives)\n"
      "  --hello-timeout S   time for all peers to be discovered (default 60)\n"
      "  --progress-timeout S  a superstep that receives nothing for S seconds while\n"
      "                      every peer is alive ends the run with an error naming the\n"
      "                      peer and what is missing (its END, or buckets and records\n"
      "                      its END announced; default 120, at most 86400)\n"
      "  --mbufs N           mbufs in the node's packet pool (default 16383)\n"
      "  --top N             print the N top-ranked vertices at the end (default 10, at\n"
      "                      most 10, 0: off)\n"
      "  --quiet             no per-superstep report lines\n"
      "  --line-rate GBPS    link speed the report compares with (10, 25, 40, 100...;\n"
      "                      default: the port's reported speed, else 10)\n"
      "  --domains K         NUMA domains per node (default: the machine's, from libnuma):\n"
      "                      vertices are split over K domains, each with its own\n"
      "                      accumulator arrays and same-node queue; K larger than the\n"
      "                      machine's emulates K logical domains (all nodes must agree)\n"
      "  --domain-split S    metis (default): the even split refined by METIS to cut\n"
      "                      cross-domain edges, out-edges within 3%%; even: contiguous\n"
      "                      ranges of equal out-edges (the workers' work)\n"
      "  --roles MODE        split (default): with several EAL lcores the last runs the\n"
      "                      sender and accumulator, the others are workers (the main\n"
      "                      lcore also coordinates); shared: every role on the main\n"
      "                      lcore. With one lcore (-l 0) both mean shared.\n"
      "  --scatter MODE      auto (default): a superstep whose active vertices hold more\n"
      "                      than 9/10 of a worker's out-edges is dense: one record per\n"
      "                      destination vertex (and source segment, --segment-kib)\n"
      "                      carrying the sum/min of that worker's messages to it; else\n"
      "                      sparse: one record per edge. sparse or dense force one.\n"
      "                      bfs (and cc's BFS) switch by Beamer's rule instead: dense\n"
      "                      steps are bottom-up, each unreached vertex stopping at its\n"
      "                      first active in-neighbour; sssp stays sparse unless dense\n"
      "                      is forced. Programs that need every message (cd, kcore)\n"
      "                      always scatter sparse. Dense keeps a second,\n"
      "                      destination-major copy of the node's edges (4 bytes per\n"
      "                      edge, 8 when weighted)\n"
      "  --segment-kib N     dense supersteps pull source segment by source segment, each\n"
      "                      with N KiB of scatter values, so that the values read at\n"
      "                      random stay in the L2 cache (one record per segment and\n"
      "                      destination). Default: the L2 cache as the C library\n"
      "                      reports it, else 2048\n"
      "\n"
      "Transport (reliability/):\n"
      "  --window N          frames in flight per peer, also the reorder buffer (default 512)\n"
      "  --rto-min-us US     retransmission timeout floor (default 200); the timeout\n"
      "                      follows the measured round trip (RFC 6298: SRTT + 4 RTTVAR\n"
      "                      + the ack delay) and doubles on each expiry up to\n"
      "  --rto-max-us US     this ceiling (default 200000). Losses are found sooner by\n"
      "                      selective acks, a time-based rule and a tail-loss probe\n"
      "  --ast-us US         initial average send time per frame, AST (default 0.2); the\n"
      "                      gap between sends to a peer is AST x N, N rising by one in a\n"
      "                      round trip with a congestion signal (8 frames lost in a row,\n"
      "                      queue growth, drops at the peer's port, a 2nd timeout in a\n"
      "                      row) and falling by one in a round trip without\n"
      "  --ack-delay-us US   longest delay before a received frame is acked (default 50)\n"
      "  --keepalive-ms MS   an idle connection sends an ack this often (default 100,\n"
      "                      at most a fifth of --peer-timeout)\n"
      "  --checksum on|off   CRC32C over every bucket (default on: 33 ns a bucket, no\n"
      "                      measurable cost end to end; all nodes must agree)\n"
      "  --fault-rx SPEC     inject faults on receive: SPEC is KIND=FRACTION,... with\n"
      "                      KIND drop, dup, reorder, corrupt (flip one bit), delay, or\n"
      "                      burst (the fraction of frames that start a run of 16 lost\n"
      "                      frames: congestion rather than random loss)\n"
      "  --fault-tx SPEC     the same on transmit\n"
      "  --fault-seed N      seed of the fault injectors (default 1): same seed, same faults\n"
      "  --fault-delay-us US how long a delay fault holds a frame (default 200)\n"
      "  --crash-node R:S    test hook: node R kills itself (SIGKILL) when it reaches\n"
      "                      superstep S (S = load: in the middle of the edge shuffle),\n"
      "                      to exercise peer-failure detection\n"
      "  -h, --help          this text\n"
      "\n"
      "Programs (--app), and the value each result line holds:\n",
      prog, wire::kMaxNodes, wire::kDefaultUdpPort);
  for (const ProgramTraits& p : programs) {
    std::printf("  %-10s %.*s\n", std::string(p.name).c_str(), static_cast<int>(p.summary.size()), p.summary.data());
    std::string uses;
    if (p.uses_source) uses += ", --source";
    if (p.uses_iterations) uses += ", --iterations (default " + std::to_string(p.default_iterations) + ")";
    if (p.graph.symmetrize) uses += ", on the undirected graph";
    if (p.graph.drop_self_loops) uses += ", self-loops dropped";
    if (p.graph.drop_duplicates) uses += ", duplicate edges dropped";
    if (p.graph.weights) uses += ", weighted";
    std::printf("             value: %.*s%s\n", static_cast<int>(p.output.size()), p.output.data(), uses.c_str());
  }
}


}  // namespace wg
