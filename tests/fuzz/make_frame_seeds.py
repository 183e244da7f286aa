#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_frame (tests/fuzz/corpus/frame/): frames
as a peer sends them (Ethernet, IPv4, UDP, the 54-byte wiregraph header of
dataplane/wire.h, payload), for the receiver fuzz_frame.cc emulates (job
0x5eed0001, rank 1 of 3, UDP port 47000, peers 0 and 2 taken on from
02:00:00:00:00:01). The first byte of each file is fuzz_frame's choice:
record size 8/12/20 by value % 3, one or two NUMA domains by (value >> 2) % 2,
and bit 3: seal the frame as its sender would before the checks (the
"_sealed" seeds; the others carry a tag of zeros, which must not verify);
fuzz_frame takes input byte 2 (the frame's second byte) to pick the bucket
byte it changes after sealing. Run it again after a wire format change:

  python3 tests/fuzz/make_frame_seeds.py
"""
import os
import struct

JOB, ME, PORT = 0x5EED0001, 1, 47000
MAGIC, VERSION = 0x4757, 8
FLAG_MAC = 2
DATA, END, HELLO, FIN, ABORT, ACK = 1, 2, 3, 4, 5, 6
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "frame")
SEAL = 8


def ip_checksum(header):
    s = sum(struct.unpack("!10H", header))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def frame(kind, src, dst, superstep, count, payload, domain=0, seq=0):
    # magic, version, kind, job, src, dst, count, superstep, seq, ack, tsval,
    # flags, queue, domain, nonce (6), tag (16)
    bucket = struct.pack("<HBBIBBHIIIIBBH6s16s", MAGIC, VERSION, kind, JOB, src, dst, count, superstep, seq, 0, 0,
                         FLAG_MAC, 0, domain, bytes(6), bytes(16)) + payload
    assert len(bucket) == 54 + len(payload)
    udp = struct.pack("!HHHH", 47000, PORT, 8 + len(bucket), 0)
    ip = struct.pack("!BBHHHBBHII", 0x45, 0, 20 + len(udp) + len(bucket), 0, 0x4000, 64, 17, 0,
                     0xA9FE0102, 0xA9FE0102)
    ip = ip[:10] + struct.pack("!H", ip_checksum(ip)) + ip[12:]
    eth = bytes([2, 0, 0, 0, 0, 2]) + bytes([2, 0, 0, 0, 0, 1]) + struct.pack("!H", 0x0800)
    return eth + ip + udp + bucket


def records(record_bytes, indices):
    return b"".join(struct.pack("<I", i) + bytes(range(record_bytes - 4)) for i in indices)


def hello_payload():
    # nodes, app, input kind, steering, input size and digest, params digest,
    # salt (16), port MAC (6), padding (2), an echo per possible node (64)
    return (struct.pack("<IIIIQQQ", 3, 77, 100, 0, 200, 1, 2) + bytes(range(16)) + bytes([2, 0, 0, 0, 0, 1]) +
            bytes(2) + struct.pack("<64Q", *([0x0706050403020100] + [0] * 63)))


def abort_payload(text):
    return bytes(range(16)) + struct.pack("<I", len(text)) + text + bytes(400 - len(text))


def ack_payload(words):
    # rx_drops, sack_words, flags (echo valid, D-SACK), echo tsval, echo seq, dsack seq, the words
    return struct.pack("<IHHIII", 0, words, 1 | 4, 5, 6, 4) + struct.pack("<%dQ" % words, *range(1, words + 1))


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.unlink(os.path.join(OUT, name))
    end = struct.pack("<6Q", 1, 3, 10, 30, 2, 3000) + bytes(256)
    fin = struct.pack("<II", 1, 0) + struct.pack("<IId", 3, 0, 0.5) + bytes(144)
    seeds = {
        "data_8_one_domain": bytes([0]) + frame(DATA, 0, ME, 0, 3, records(8, [0, 5, 63])),
        "data_12_two_domains": bytes([4]) + frame(DATA, 2, ME, 1, 2, records(12, [1, 2]), domain=1),
        "data_20": bytes([2]) + frame(DATA, 0, ME, 4, 1, records(20, [7])),
        "data_index_out_of_range": bytes([0]) + frame(DATA, 0, ME, 0, 1, records(8, [64])),
        "data_superstep_not_open": bytes([0]) + frame(DATA, 2, ME, 2, 1, records(8, [1])),
        "end": bytes([0]) + frame(END, 2, ME, 0, 304, end),
        "hello": bytes([0]) + frame(HELLO, 0, 0xFF, 0, 576, hello_payload()),
        "fin": bytes([0]) + frame(FIN, 0, ME, 0, 168, fin),
        "abort": bytes([0]) + frame(ABORT, 2, 0xFF, 0, 420, abort_payload(b"oops! \x1b[2J")),
        "ack": bytes([0]) + frame(ACK, 0, ME, 0, 36, ack_payload(2)),
        "data_8_sealed": bytes([SEAL]) + frame(DATA, 0, ME, 0, 3, records(8, [0, 5, 63])),
        "end_sealed": bytes([SEAL]) + frame(END, 2, ME, 0, 304, end),
        "hello_sealed": bytes([SEAL]) + frame(HELLO, 2, 0xFF, 0, 576, hello_payload()),
        "fin_sealed": bytes([SEAL]) + frame(FIN, 0, ME, 0, 168, fin),
        "abort_sealed": bytes([SEAL]) + frame(ABORT, 0, 0xFF, 0, 420, abort_payload(b"node 0: error")),
        "ack_sealed": bytes([SEAL]) + frame(ACK, 2, ME, 0, 28, ack_payload(1)),
    }
    for name, data in seeds.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
