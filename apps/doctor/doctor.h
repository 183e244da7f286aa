// `wiregraph doctor`: a preflight of one machine before a job, run on each
// node alone or through the job's launcher (`srun wiregraph doctor ...`).
// It takes the job's own command line (EAL options, `--`, the node's
// options) and reports, one line per item, a verdict (ok, warn, FAIL, n/a:
// could not be checked here, and why) and the fix:
//
//   hugetlbfs     mounted?
//   hugepages     free per NUMA node against what the node will take: its
//                 mbuf pools (dataplane/pools.h: Pools::pool_bytes) on the
//                 NUMA nodes of its lcores, plus the EAL's own, or -m/--socket-mem
//   memory        the node's own estimate for the graph (apps/node/node.h:
//                 node_memory_need, as it checks before loading) against
//                 what it may allocate
//   key           a key for P > 1 (--key-file or WIREGRAPH_KEY)
//   pci ADDRESS   for each -a: bound to vfio-pci/uio or a bifurcated mlx5
//                 driver, its IOMMU group and /dev/vfio permissions
//   port N ...    every port the EAL made: queues against --rx-queues, MTU
//                 against --mtu, then opened as the node opens it
//                 (dataplane/ports.h: the same configure, start and
//                 rte_flow/RSS steering): the steering it got and why not
//                 the others, its link and speed, its NUMA node against the
//                 lcores'
//   lcores        CPU isolation (isolcpus, nohz_full) of the lcores' CPUs
//   clock         the kernel's clock source and an invariant TSC
//
// Exit status 0 when nothing failed, 1 when something did, 2 for options
// it cannot read. When hugepages cannot hold its probe it opens the ports
// without them (--no-huge), and says so.
#pragma once

namespace wg::doctor {

// argv: the program name, then the node's command line (EAL options, `--`,
// application options), "doctor" already taken out.
int run(int argc, char** argv);

}  // namespace wg::doctor
