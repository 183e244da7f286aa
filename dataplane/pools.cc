#include "dataplane/pools.h"

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf_pool_ops.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "dataplane/wire.h"

namespace wg {

namespace {

constexpr unsigned kPoolCache = 256;

std::runtime_error dpdk_error(const std::string& what) {
  return std::runtime_error(what + ": " + rte_strerror(rte_errno));
}

// rte_pktmbuf_pool_create, but without hugepages (--no-huge: 4 KiB pages)
// its steps with RTE_MEMPOOL_F_NO_IOVA_CONTIG, so that mbufs may cross a page
// and pack: an mbuf of MTU 1500 (2.3 KiB) took a whole 4 KiB page, and a node
// of a large cluster spent most of its start faulting in half-empty pages.
// Such memory has no device DMA anyway: only CPU-copy PMDs (memif, tap,
// af_packet, ring, null) run there, and they address buffers by their
// virtual address.
rte_mempool* create_pool(const std::string& name, unsigned mbufs, uint16_t room, int socket) {
  if (rte_eal_has_hugepages()) return rte_pktmbuf_pool_create(name.c_str(), mbufs, kPoolCache, 0, room, socket);
  rte_mempool* mp = rte_mempool_create_empty(name.c_str(), mbufs, sizeof(rte_mbuf) + room, kPoolCache,
                                             sizeof(rte_pktmbuf_pool_private), socket, RTE_MEMPOOL_F_NO_IOVA_CONTIG);
  if (mp == nullptr) return nullptr;
  rte_pktmbuf_pool_private priv{};
  priv.mbuf_data_room_size = room;
  priv.mbuf_priv_size = 0;
  int rc = rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), nullptr);
  if (rc == 0) {
    rte_pktmbuf_pool_init(mp, &priv);
    rc = rte_mempool_populate_default(mp);
  }
  if (rc < 0) {
    rte_mempool_free(mp);
    rte_errno = -rc;
    return nullptr;
  }
  rte_mempool_obj_iter(mp, rte_pktmbuf_init, nullptr);
  return mp;
}

}  // namespace

uint16_t Pools::buffer_size(uint32_t mtu) {
  const uint32_t need = RTE_PKTMBUF_HEADROOM + wire::frame_bytes(mtu);
  return static_cast<uint16_t>(std::max<uint32_t>(RTE_MBUF_DEFAULT_BUF_SIZE, (need + 63) / 64 * 64));
}

uint64_t Pools::pool_bytes(unsigned mbufs, uint32_t mtu) {
  rte_mempool_objsz sz{};
  const uint64_t object = rte_mempool_calc_obj_size(sizeof(rte_mbuf) + buffer_size(mtu), 0, &sz);
  // Packed (create_pool): objects cross 4 KiB pages, and within a hugepage
  // at most an object's worth is left over per page; one more page of slack.
  const uint64_t objects = uint64_t{mbufs} * object + (2u << 20);
  // The pool's ring, and its header with a cache per possible lcore.
  const uint64_t header = sizeof(rte_mempool) + uint64_t{RTE_MAX_LCORE} * sizeof(rte_mempool_cache);
  return objects + uint64_t{rte_align32pow2(mbufs + 1)} * sizeof(void*) + header;
}

Pools::Pools(unsigned instance, unsigned mbufs, unsigned rx_mbufs, bool with_rx_pool, uint32_t mtu) {
  const uint16_t room = buffer_size(mtu);
  try {
    const int socket = static_cast<int>(rte_socket_id());
    const std::string name = "wg_pool" + std::to_string(instance);
    pool_ = create_pool(name, mbufs, room, socket);
    if (pool_ == nullptr)
      throw dpdk_error("cannot create a pool of " + std::to_string(mbufs) +
                       " mbufs (more EAL memory with -m, or fewer with --mbufs)");
    // Workers write buckets into mbufs of their own NUMA socket: one transmit
    // pool per socket that has an lcore (just the one above on a single-socket
    // machine). A frame goes back to its own pool when freed.
    std::fill(std::begin(socket_pool_), std::end(socket_pool_), pool_);
    transmit_pools_ = 1;
    unsigned lcore;
    RTE_LCORE_FOREACH(lcore) {
      const unsigned s = rte_lcore_to_socket_id(lcore);
      if (s >= RTE_MAX_NUMA_NODES || static_cast<int>(s) == socket || socket_pool_[s] != pool_) continue;
      const std::string sname = name + "_s" + std::to_string(s);
      rte_mempool* p = create_pool(sname, mbufs, room, static_cast<int>(s));
      if (p == nullptr)
        throw dpdk_error("cannot create a pool of " + std::to_string(mbufs) + " mbufs on socket " +
                         std::to_string(s) + " (more EAL memory there with --socket-mem, or fewer with --mbufs)");
      socket_pool_[s] = p;
      ++transmit_pools_;
    }
    if (with_rx_pool) {
      const std::string rx_name = "wg_rxpool" + std::to_string(instance);
      rx_pool_ = create_pool(rx_name, rx_mbufs, room, socket);
      if (rx_pool_ == nullptr)
        throw dpdk_error("cannot create the receive pool of " + std::to_string(rx_mbufs) +
                         " mbufs (more EAL memory with -m)");
    }
  } catch (...) {
    release();
    throw;
  }
}

void Pools::release() {
  for (rte_mempool*& p : socket_pool_) {
    if (p != pool_) rte_mempool_free(p);
    p = nullptr;
  }
  rte_mempool_free(pool_);
  rte_mempool_free(rx_pool_);
  pool_ = rx_pool_ = nullptr;
}

}  // namespace wg
