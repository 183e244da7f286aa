// The XDP program for net_af_xdp ports (xdp_prog= in the vdev): wiregraph's
// frames go to the port's AF_XDP socket, every other frame to the kernel's
// stack, so that a NIC that stays with the kernel keeps carrying the host's
// own traffic (ARP, ssh, storage) on the queues wiregraph polls. DPDK's
// default program sends every frame of those queues to the socket.
//
// A wiregraph frame (dataplane/wire.h): Ethernet, IPv4 without options,
// UDP, then the bucket header whose first two bytes are wire::kMagic
// ("WG"). The UDP port is not looked at: --udp-port is the job's choice, the
// magic is the same for every job. The map's name is DPDK's: the PMD puts
// its socket for queue q at key q.
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>

#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
  __uint(type, BPF_MAP_TYPE_XSKMAP);
  __uint(max_entries, 64);  // queues (DPDK's default program has as many)
  __type(key, __u32);
  __type(value, __u32);
} xsks_map SEC(".maps");

SEC("xdp")
int wiregraph_xdp(struct xdp_md* ctx) {
  const void* data = (const void*)(long)ctx->data;
  const void* end = (const void*)(long)ctx->data_end;
  const struct ethhdr* eth = data;
  const struct iphdr* ip = (const void*)(eth + 1);
  const struct udphdr* udp = (const void*)(ip + 1);
  const unsigned char* magic = (const void*)(udp + 1);
  if ((const void*)(magic + 2) > end) return XDP_PASS;
  if (eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 || ip->protocol != IPPROTO_UDP) return XDP_PASS;
  if (magic[0] != 0x57 || magic[1] != 0x47) return XDP_PASS;  // 0x4757 little-endian: "WG"
  // No socket on this queue (not wiregraph's): the kernel has it.
  return bpf_redirect_map(&xsks_map, ctx->rx_queue_index, XDP_PASS);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
