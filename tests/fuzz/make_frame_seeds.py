#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_frame (tests/fuzz/corpus/frame/): frames
as a peer sends them (Ethernet, IPv4, UDP, the 38-byte wiregraph header of
dataplane/wire.h, payload), for the receiver fuzz_frame.cc emulates (job
0x5eed0001, rank 1 of 3, UDP port 47000). The first byte of each file is
fuzz_frame's receiver choice: record size 8/12/20 by value % 3, one or two
NUMA domains by (value >> 2) % 2. Run it again after a wire format change:

  python3 tests/fuzz/make_frame_seeds.py
"""
import os
import struct

JOB, ME, PORT = 0x5EED0001, 1, 47000
MAGIC, VERSION = 0x4757, 2
DATA, END, HELLO, FIN, ABORT, ACK = 1, 2, 3, 4, 5, 6
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "frame")


def ip_checksum(header):
    s = sum(struct.unpack("!10H", header))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def frame(kind, src, dst, superstep, count, payload, domain=0, seq=0):
    bucket = struct.pack("<HBBIHHIIIHHIHI", MAGIC, VERSION, kind, JOB, src, dst, superstep, seq, 0, count,
                         0, 0, domain, 0) + payload
    udp = struct.pack("!HHHH", 47000, PORT, 8 + len(bucket), 0)
    ip = struct.pack("!BBHHHBBHII", 0x45, 0, 20 + len(udp) + len(bucket), 0, 0x4000, 64, 17, 0,
                     0xA9FE0102, 0xA9FE0102)
    ip = ip[:10] + struct.pack("!H", ip_checksum(ip)) + ip[12:]
    eth = bytes([2, 0, 0, 0, 0, 2]) + bytes([2, 0, 0, 0, 0, 1]) + struct.pack("!H", 0x0800)
    return eth + ip + udp + bucket


def records(record_bytes, indices):
    return b"".join(struct.pack("<I", i) + bytes(range(record_bytes - 4)) for i in indices)


def main():
    os.makedirs(OUT, exist_ok=True)
    seeds = {
        "data_8_one_domain": bytes([0]) + frame(DATA, 0, ME, 0, 3, records(8, [0, 5, 63])),
        "data_12_two_domains": bytes([4]) + frame(DATA, 2, ME, 1, 2, records(12, [1, 2]), domain=1),
        "data_20": bytes([2]) + frame(DATA, 0, ME, 4, 1, records(20, [7])),
        "data_index_out_of_range": bytes([0]) + frame(DATA, 0, ME, 0, 1, records(8, [64])),
        "data_superstep_not_open": bytes([0]) + frame(DATA, 2, ME, 2, 1, records(8, [1])),
        "end": bytes([0]) + frame(END, 2, ME, 0, 112, struct.pack("<6Q", 1, 3, 10, 30, 2, 3000) + bytes(64)),
        "hello": bytes([0]) + frame(HELLO, 0, 0xFFFF, 0, 48, struct.pack("<IIQQQQQ", 3, 77, 100, 200, 1, 2, 1)),
        "fin": bytes([0]) + frame(FIN, 0, ME, 0, 168, struct.pack("<II", 1, 0) + struct.pack("<IId", 3, 0, 0.5) +
                                   bytes(144)),
        "abort": bytes([0]) + frame(ABORT, 2, 0xFFFF, 0, 404, struct.pack("<I", 5) + b"oops!" + bytes(395)),
        "ack": bytes([0]) + frame(ACK, 0, ME, 0, 0, b""),
    }
    for name, data in seeds.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
