#!/usr/bin/env python3
"""Writes the seed corpus of the engine fuzz target (tests/fuzz/seeds/).

Each seed is a program in fuzz_engine.c's byte format that reaches one area
quickly (a DMA block, RMEM, each command, raw/direct frames, faults, resets,
multicast); libFuzzer mutates from there. Run it after changing the op
format: python3 tests/fuzz/make_seeds.py
"""
import argparse
import os
import re
import struct

(OP_CSR_WRITE, OP_CSR_READ, OP_RAW_FRAME, OP_OETP_FRAME, OP_ADVANCE,
 OP_RUN_IDLE, OP_TX_GATE, OP_RESET, OP_FAULT, OP_SET_RID, OP_PEER,
 OP_DMA_START) = range(12)

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = os.path.join(HERE, '..', '..', 'include', 'openenoc')


def read_regs(path=os.path.join(INCLUDE, 'regs.h')):
    """The CSR offsets of regs.h (generated from the SystemRDL):
    OE_<name> -> offset, and OE_<name>(n) of a register array -> a
    function of the element index."""
    regs = {}
    with open(path, encoding='utf-8') as f:
        text = f.read()
    for name, val in re.findall(r'^#define (OE_\w+) (0x[0-9A-F]+)u$',
                                text, re.M):
        regs[name] = int(val, 16)
    for name, base, stride in re.findall(
            r'^#define (OE_\w+)\(n\) '
            r'\((0x[0-9A-F]+)u \+ (0x[0-9A-F]+)u \* \(n\)\)$', text, re.M):
        regs[name] = (lambda n, b=int(base, 16), s=int(stride, 16):
                      b + s * n)
    return regs


R = read_regs()
RMEM_TIMEOUT = R['OE_CONFIG_RMEM_TIMEOUT']
DMA_TIMEOUT = R['OE_CONFIG_DMA_TIMEOUT']
MFS = R['OE_CONFIG_DMA_MAX_FRAGMENT_SIZE']
RECV_MODE = R['OE_CONFIG_NON_OETP_CONTROL']
RAW_TX_ADDR = R['OE_RAW_TX_BUFFER_ADDRESS']
RAW_TX_LEN = R['OE_RAW_TX_FRAME_LENGTH']
RAW_TX_CMD = R['OE_RAW_TX_COMMAND_STATUS']
RAW_RX_ADDR = R['OE_RAW_RX_BUFFER_ADDRESS']
RAW_RX_CAP = R['OE_RAW_RX_BUFFER_CAPACITY']
RAW_RX_CMD = R['OE_RAW_RX_COMMAND_STATUS']
IRQ_CONTROL, IRQ_ENABLE = R['OE_IRQ_CONTROL'], R['OE_IRQ_EVENT_ENABLE']
IRQ_COMPLETE, IRQ_CLAIM = R['OE_IRQ_COMPLETE'], R['OE_IRQ_CLAIM']
SINK_CONTROL = R['OE_DIRECT_SINK_CONTROL']
SINK_STATUS = R['OE_DIRECT_SINK_STATUS']
SOURCE_DATA = R['OE_DIRECT_SOURCE_DATA']
SOURCE_CONTROL = R['OE_DIRECT_SOURCE_CONTROL']
PEER_DMA = R['OE_PEER_DMA']


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
# the command codes of oetp.h in its order (fuzz_engine.c's cmds[])
with open(os.path.join(INCLUDE, 'oetp.h'), encoding='utf-8') as _f:
    CMD = {n: int(v, 16) for n, v in re.findall(
        r'^ +OETP_(\w+_(?:REQ|RSP)) += (0x[0-9A-F]+),', _f.read(), re.M)}
CMDS = list(CMD.values())
RMEM_READ_REQ, RMEM_WRITE_REQ = CMD['RMEM_READ_REQ'], CMD['RMEM_WRITE_REQ']
DMA_READ_REQ, DMA_WRITE_REQ = CMD['DMA_READ_REQ'], CMD['DMA_WRITE_REQ']


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
    'responder_rmem_from_c': oetp(0, C, RMEM_READ_REQ, [1, 0x20004])
    + oetp(0, C, RMEM_WRITE_REQ, [2, 0x20008, 0x00FF00FF, 0x12345678],
           pad=True)
    + oetp(0, C, RMEM_READ_REQ, [3, 0x20008])
    + oetp(0, C, RMEM_READ_REQ, [4, 0x20009])
    + idle(),
    'responder_dma_read_from_a': oetp(1, A, DMA_READ_REQ, [5, 0x30000, 5])
    + oetp(0, B, DMA_READ_REQ, [6, 0x1001, 300]) + idle(),
    'responder_dma_write_from_c': oetp(1, C, DMA_WRITE_REQ, [1, 0xFFFFF010, 5],
                                       data_len=5) + idle(),
    'responder_bad_trailer': oetp(1, C, DMA_WRITE_REQ, [1, 0xFFFFF010, 5],
                                  data_len=5, eod=False, pad=True) + idle(),
    'responder_truncated': oetp(0, C, RMEM_READ_REQ, [3, 0x20000], trunc=3)
    + idle(),
    'group_write': oetp(1, C, DMA_WRITE_REQ, [9, 0xFFFFF000, 16], data_len=16,
                        to_self=False, dst=G) + idle(),
    'multicast_master': peer(0, 2, G, 3, 0x4000, 20000, 0x8000)
    + dma(0, 2) + idle(),
    'raw_rx_dma_and_sink': csr_w(1, RAW_RX_ADDR, 0x5000)
    + csr_w(1, RAW_RX_CAP, 200) + csr_w(1, RAW_RX_CMD, 0x100)
    + raw(1, mac('020e0c00000b') + mac('020e0c00000c') + b'\x08\x00'
          + bytes(range(60)))
    + raw(1, mac('ffffffffffff') + mac('020e0c00000c') + b'\x08\x06'
          + bytes(50))
    + csr_r(1, SINK_STATUS) + csr_w(1, SINK_CONTROL, 1) + idle(),
    'raw_tx_and_direct': csr_w(0, RAW_TX_ADDR, 0x1000)
    + csr_w(0, RAW_TX_LEN, 64) + csr_w(0, RAW_TX_CMD, 0x100)
    + csr_w(0, SOURCE_DATA, 0x0c0e0200) + csr_w(0, SOURCE_CONTROL, 0xF0101)
    + idle(),
    'irq_events': csr_w(0, IRQ_ENABLE, 0x3F) + csr_w(0, IRQ_CONTROL, 1)
    + csr_w(0, RAW_TX_LEN, 0) + csr_w(0, RAW_TX_CMD, 0x100)
    + csr_r(0, IRQ_CLAIM) + csr_w(0, IRQ_COMPLETE, 0x80000800)
    + csr_w(0, PEER_DMA(0), 0x107) + idle(),
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
    ap.add_argument('--out', default=os.path.join(HERE, 'seeds'))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, blob in SEEDS.items():
        with open(os.path.join(args.out, name), 'wb') as f:
            f.write(blob)
    print(f'{len(SEEDS)} seeds in {args.out}')


if __name__ == '__main__':
    main()
