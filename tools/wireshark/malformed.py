#!/usr/bin/env python3
"""Write a pcap of oETP frames that no openenoc device sends, for the
dissector's expert infos and pairing rules (make check-wireshark; the
well-formed exchanges come from the qtests' captures). Frames 1 ms apart:
 1 unknown Cmd 0x7E            2 ERROR_RSP cause 9      3 ERROR_RSP cause 0
 4 RMEM_READ_REQ + 4 bytes     5 RMEM_WRITE_REQ cut after Address
 6 DMA_WRITE_REQ Length 0      7 DMA_WRITE_REQ cut inside Data (6 of 16)
 8 DMA_READ_RSP, no request    9 EtherType 0x88B5 with Magic 0x0F (not oETP)
10 RMEM_READ_REQ id 13 A->B   11 RMEM_READ_RSP id 13 from C (another MAC)
12 RMEM_READ_RSP id 13 B->A (the response: 2 ms after the request)

usage: malformed.py OUT.pcap
"""
import struct
import sys

A = bytes.fromhex("020e0c000010")
B = bytes.fromhex("020e0c0000aa")
C = bytes.fromhex("020e0c0000cc")
EOD = struct.pack("<I", 0xE0D0E0D0)


def frame(cmd, *params, tail=b"", dst=B, src=A, magic=0x0E):
    return (dst + src + b"\x88\xb5" + bytes([magic, cmd]) +
            b"".join(struct.pack("<I", p) for p in params) + tail)


FRAMES = [
    frame(0x7E, 1, 2),
    frame(0xFF, 5, 9, dst=A, src=B),
    frame(0xFF, 6, 0, dst=A, src=B),
    frame(0x10, 7, 0x1000, 0xDEADBEEF),
    frame(0x20, 8, 0x1000),
    frame(0x40, 9, 0x2000, 0, tail=EOD),
    frame(0x40, 10, 0x2000, 16, tail=b"abcdef"),
    frame(0x31, 11, tail=b"abcdefgh" + EOD, dst=A, src=B),
    frame(0x10, 12, 0x1000, magic=0x0F),
    frame(0x10, 13, 0x1000),
    frame(0x11, 13, 0x11111111, dst=A, src=C),
    frame(0x11, 13, 0x22222222, dst=A, src=B),
]


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) == 2 else 2)
    with open(sys.argv[1], "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(FRAMES):
            f.write(struct.pack("<IIII", 1, 1000 * i, len(fr), len(fr)))
            f.write(fr)


if __name__ == "__main__":
    main()
