#include "reliability/transport.h"

#include "reliability/transport_time.h"

namespace wg {

Transport::Transport(Dataplane& dp, const TransportConfig& cfg)
    : nodes_(dp.options().nodes), rank_(dp.options().rank), acks_(std::make_unique<AckChannel>()),
      ack_states_(std::make_unique<AckState[]>(dp.options().nodes)),
      send_(dp, cfg, *acks_, ack_states_.get()),
      receive_(dp, cfg, *acks_, ack_states_.get()) {}

// The receive path goes first (members are destroyed in reverse), then the
// send path frees what its windows kept.
Transport::~Transport() = default;

void Transport::set_keepalive_ms(double ms) { send_.set_keepalive_ticks(us_to_ticks(ms * 1000)); }

bool Transport::all_acked() const {
  for (unsigned p = 0; p < nodes_; ++p)
    if (!acked_by(p)) return false;
  return true;
}

std::vector<ConnectionReport> Transport::report() const {
  std::vector<ConnectionReport> out;
  for (unsigned p = 0; p < nodes_; ++p) {
    if (p == rank_) continue;
    const SendWindow& w = send_.window(p);
    ConnectionReport r;
    r.peer = p;
    r.send = w.stats();
    r.receive = receive_.stats(p);
    r.n = w.n();
    r.ast_us = ticks_to_us(w.ast_ticks());
    r.rto_us = ticks_to_us(w.rto_ticks());
    r.srtt_us = ticks_to_us(w.srtt_ticks());
    r.min_rtt_us = ticks_to_us(w.min_rtt_ticks());
    r.acks_sent = send_.acks_sent(p);
    out.push_back(r);
  }
  return out;
}

}  // namespace wg
