#!/usr/bin/env python3
"""Writes the seed corpus of the engine fuzz target (tests/fuzz/seeds/).

Each seed is a program in fuzz_engine.c's byte format that reaches one area
quickly (a DMA block, RMEM, each command, raw/direct frames, faults, resets,
multicast); libFuzzer mutates from there. Run it after changing the op
format: python3 tests/fuzz/make_seeds.py
"""
import argparse
import os
import struct

(OP_CSR_WRITE, OP_CSR_READ, OP_RAW_FRAME, OP_OETP_FRAME, OP_ADVANCE,
 OP_RUN_IDLE, OP_TX_GATE, OP_RESET, OP_FAULT, OP_SET_RID, OP_PEER,
 OP_DMA_START) = range(12)

# CSR offsets used by the seeds (endpoint.md; the generated regs.h is the
# source of truth, these few are only a convenience for seed programs).
RMEM_TIMEOUT, DMA_TIMEOUT, MFS = 0x834, 0x838, 0x83C
RAW_TX_ADDR, RAW_TX_LEN, RAW_TX_CMD = 0x860, 0x864, 0x868
RAW_RX_ADDR, RAW_RX_CAP, RAW_RX_CMD = 0x870, 0x874, 0x878
IRQ_CONTROL, IRQ_ENABLE, IRQ_COMPLETE, IRQ_CLAIM = 0x880, 0x884, 0x890, 0x88C
SINK_CONTROL, SOURCE_DATA, SOURCE_CONTROL = 0x854, 0x840, 0x844
RECV_MODE = 0x830


def csr_w(node, off, val, size=4):
    sz = {1: 0, 2: 1, 4: 2}[size]
    return bytes([OP_CSR_WRITE, node, 240]) + struct.pack('<H', off) + \
        bytes([sz, off & 3]) + struct.pack('<I', val)


def csr_r(node, off, size=4):
    sz = {1: 0, 2: 1, 4: 2}[size]
    return bytes([OP_CSR_READ, node, 240]) + struct.pack('<H', off) + \
        bytes([sz, off & 3])


def rmem_r(node, word):
    return bytes([OP_CSR_READ, node, 200, word, 2, 0])


def rmem_w(node, word, val, size=4, lane=0):
    sz = {1: 0, 2: 1, 4: 2}[size]
    return bytes([OP_CSR_WRITE, node, 200, word, sz, lane]) + \
        struct.pack('<I', val)


def advance(cycles, shift=0):
    return bytes([OP_ADVANCE + 12 * shift]) + struct.pack('<H', cycles)


def idle():
    return bytes([OP_RUN_IDLE])


def dma(node, idx):
    return bytes([OP_DMA_START, node, idx])


def peer(node, idx, macsel, mode, local, size, remote, rmem=0):
    return bytes([OP_PEER, node, idx, macsel, mode]) + \
        struct.pack('<HHH', local >> 2, size, remote >> 2) + bytes([rmem])


# macs[] in fuzz_engine.c: A B C G broadcast X other-group 0
A, B, C, G, BCAST = 0, 1, 2, 3, 4
CMDS = [0x10, 0x11, 0x20, 0x21, 0x30, 0x31, 0x40, 0x41, 0xFF]


def oetp(node, src, cmd, params, data_len=0, eod=None, pad=False,
         to_self=True, dst=0, trunc=None, mask_addr=False):
    flags = (0x01 if mask_addr else 0) | (0x02 if data_len else 0)
    flags |= 0x04 if (eod if eod is not None else data_len > 0) else 0
    flags |= (0x10 if data_len else 0) | (0x20 if pad else 0)
    flags |= 0x08 if trunc is not None else 0
    out = bytes([OP_OETP_FRAME, node, 0x80 if to_self else dst, src,
                 CMDS.index(cmd), flags, len(params)])
    if data_len:
        out += struct.pack('<H', data_len)
    for p in params:
        out += struct.pack('<I', p)
    if trunc is not None:
        out += bytes([trunc])
    return out


def raw(node, frame):
    return bytes([OP_RAW_FRAME, node]) + struct.pack('<H', len(frame)) + frame


def fault(kind, src, cmd_index=None, count=1, arg=0, skip=0):
    cmd = 128 + cmd_index if cmd_index is not None else 0
    return bytes([OP_FAULT, kind + 6 * skip, src + 1, cmd, count]) + \
        struct.pack('<H', arg)


def mac(m):
    return bytes.fromhex(m)


SEEDS = {
    'push_block': dma(0, 0) + idle(),
    'pull_block': dma(1, 0) + idle(),
    'push_small_mfs': csr_w(0, MFS, 7) + dma(0, 0) + idle(),
    'both_ends': dma(0, 0) + dma(1, 0) + idle(),
    'rmem_to_third_party_times_out': rmem_r(0, 1) + advance(1000) + idle(),
    'rmem_b_to_a': rmem_r(1, 64 + 2) + idle() + rmem_w(1, 64 + 3, 0xAB, 1, 1)
    + idle(),
    'responder_all_commands': b''.join(
        oetp(0, C, c, [7, 0x20004, 0xFFFFFFFF, 4], data_len=8)
        for c in CMDS) + idle(),
    'responder_rmem_from_c': oetp(0, C, 0x10, [1, 0x20004])
    + oetp(0, C, 0x20, [2, 0x20008, 0x00FF00FF, 0x12345678], pad=True)
    + oetp(0, C, 0x10, [3, 0x20008]) + oetp(0, C, 0x10, [4, 0x20009])
    + idle(),
    'responder_dma_read_from_a': oetp(1, A, 0x30, [5, 0x30000, 5])
    + oetp(0, B, 0x30, [6, 0x1001, 300]) + idle(),
    'responder_dma_write_from_c': oetp(1, C, 0x40, [1, 0xFFFFF010, 5],
                                       data_len=5) + idle(),
    'responder_bad_trailer': oetp(1, C, 0x40, [1, 0xFFFFF010, 5], data_len=5,
                                  eod=False, pad=True) + idle(),
    'responder_truncated': oetp(0, C, 0x10, [3, 0x20000], trunc=3) + idle(),
    'group_write': oetp(1, C, 0x40, [9, 0xFFFFF000, 16], data_len=16,
                        to_self=False, dst=G) + idle(),
    'multicast_master': peer(0, 2, G, 3, 0x4000, 20000, 0x8000)
    + dma(0, 2) + idle(),
    'raw_rx_dma_and_sink': csr_w(1, RAW_RX_ADDR, 0x5000)
    + csr_w(1, RAW_RX_CAP, 200) + csr_w(1, RAW_RX_CMD, 0x100)
    + raw(1, mac('020e0c00000b') + mac('020e0c00000c') + b'\x08\x00'
          + bytes(range(60)))
    + raw(1, mac('ffffffffffff') + mac('020e0c00000c') + b'\x08\x06'
          + bytes(50))
    + csr_r(1, 0x858) + csr_w(1, SINK_CONTROL, 1) + idle(),
    'raw_tx_and_direct': csr_w(0, RAW_TX_ADDR, 0x1000)
    + csr_w(0, RAW_TX_LEN, 64) + csr_w(0, RAW_TX_CMD, 0x100)
    + csr_w(0, SOURCE_DATA, 0x0c0e0200) + csr_w(0, SOURCE_CONTROL, 0xF0101)
    + idle(),
    'irq_events': csr_w(0, IRQ_ENABLE, 0x3F) + csr_w(0, IRQ_CONTROL, 1)
    + csr_w(0, RAW_TX_LEN, 0) + csr_w(0, RAW_TX_CMD, 0x100)
    + csr_r(0, IRQ_CLAIM) + csr_w(0, IRQ_COMPLETE, 0x80000800)
    + csr_w(0, 0x918, 0x107) + idle(),
    'faults_on_push': fault(1, 0, 6) + fault(4, 1, 7, arg=0x0101)
    + csr_w(0, DMA_TIMEOUT, 3000) + dma(0, 0) + idle(),
    'lost_reply_timeout': fault(0, 1, 7) + csr_w(0, DMA_TIMEOUT, 300)
    + dma(0, 0) + advance(5000) + idle(),
    'reset_mid_block': dma(0, 0) + bytes([OP_RESET, 0]) + idle(),
    'request_id_wrap': bytes([OP_SET_RID, 0]) + struct.pack('<I', 0xFFFFFFFF)
    + dma(0, 0) + idle(),
    'backpressure': bytes([OP_TX_GATE, 0, 0]) + dma(0, 0) + advance(100)
    + bytes([OP_TX_GATE, 0, 1]) + idle(),
    'promiscuous': csr_w(0, RECV_MODE, 3)
    + raw(0, mac('020e0c0000ee') + mac('020e0c00000c') + b'\x88\xb5\x0f'
          + bytes(45)) + idle(),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'seeds'))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, blob in SEEDS.items():
        with open(os.path.join(args.out, name), 'wb') as f:
            f.write(blob)
    print(f'{len(SEEDS)} seeds in {args.out}')


if __name__ == '__main__':
    main()
