#include "reliability/transport.h"

#include "reliability/transport_time.h"

namespace wg {

Transport::Transport(Dataplane& dp, const TransportConfig& cfg)
    : nodes_(dp.options().nodes), rank_(dp.options().rank),
      ack_states_(std::make_unique<AckState[]>(size_t{dp.options().nodes} * dp.queue_count())) {
  for (unsigned q = 0; q < dp.queue_count(); ++q) {
    acks_.push_back(std::make_unique<AckChannel>());
    AckState* mine = ack_states_.get() + size_t{q} * nodes_;
    send_.push_back(std::make_unique<SendPath>(dp, cfg, q, *acks_[q], mine));
    receive_.push_back(std::make_unique<ReceivePath>(dp, cfg, q, *acks_[q], mine, ack_states_.get()));
  }
}

// The receive paths go first, then the send paths free what their windows kept.
Transport::~Transport() {
  receive_.clear();
  send_.clear();
}

void Transport::set_keepalive_ms(double ms) {
  for (auto& s : send_) s->set_keepalive_ticks(us_to_ticks(ms * 1000));
}

bool Transport::acked_by(unsigned peer) const {
  for (const auto& s : send_)
    if (!s->acked_by(peer)) return false;
  return true;
}

bool Transport::all_acked() const {
  for (unsigned p = 0; p < nodes_; ++p)
    if (!acked_by(p)) return false;
  return true;
}

void Transport::report_send(unsigned q, std::vector<ConnectionReport>& out) const {
  out.clear();
  for (unsigned p = 0; p < nodes_; ++p) {
    if (p == rank_) continue;
    const SendWindow& w = send_[q]->window(p);
    ConnectionReport r;
    r.peer = p;
    r.queue = q;
    r.send = w.stats();
    r.n = w.n();
    r.ast_us = ticks_to_us(w.ast_ticks());
    r.rto_us = ticks_to_us(w.rto_ticks());
    r.srtt_us = ticks_to_us(w.srtt_ticks());
    r.min_rtt_us = ticks_to_us(w.min_rtt_ticks());
    r.acks_sent = send_[q]->acks_sent(p);
    out.push_back(r);
  }
}

void Transport::report_receive(unsigned q, std::vector<ConnectionReport>& out) const {
  out.clear();
  for (unsigned p = 0; p < nodes_; ++p) {
    if (p == rank_) continue;
    ConnectionReport r;
    r.peer = p;
    r.queue = q;
    r.receive = receive_[q]->stats(p);
    out.push_back(r);
  }
}

std::vector<ConnectionReport> Transport::report() const {
  std::vector<ConnectionReport> all, send, receive;
  for (unsigned q = 0; q < queues(); ++q) {
    report_send(q, send);
    report_receive(q, receive);
    for (size_t i = 0; i < send.size(); ++i) {
      send[i].receive = receive[i].receive;
      all.push_back(send[i]);
    }
  }
  return all;
}

FaultCounts Transport::rx_fault_counts() const {
  FaultCounts t;
  for (const auto& r : receive_) t += r->fault_counts();
  return t;
}

FaultCounts Transport::tx_fault_counts() const {
  FaultCounts t;
  for (const auto& s : send_) t += s->fault_counts();
  return t;
}

}  // namespace wg
