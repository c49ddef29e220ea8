/*
 * Frame bytes to and from an ETH_W-bit AXI-Stream beat of a Verilator
 * model: Verilator gives a 64-bit port as uint64_t (QData) and a wider one
 * as VlWide<K> (K 32-bit words). Byte 0 of the beat is bits 7:0 (AXI-Stream
 * lane order). Used by the width converters' bench (rtl/tb/axis_width/);
 * the co-simulation wrapper uses axi_data_put/get of axi_mem_slave.h, which
 * do the same for whole beats.
 */
#ifndef OE_ETH_BEAT_H
#define OE_ETH_BEAT_H

#include <cstddef>
#include <cstdint>

#include "verilated.h"

/* bytes b[0..n) into the beat, zeros above */
inline void eth_beat_put(uint64_t &port, const uint8_t *b, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < n; k++) {
        v |= (uint64_t)b[k] << (8 * k);
    }
    port = v;
}

template <std::size_t K>
inline void eth_beat_put(VlWide<K> &port, const uint8_t *b, unsigned n)
{
    for (std::size_t w = 0; w < K; w++) {
        uint32_t v = 0;
        for (unsigned k = 0; k < 4 && 4 * w + k < n; k++) {
            v |= (uint32_t)b[4 * w + k] << (8 * k);
        }
        port[w] = v;
    }
}

/* byte k of the beat */
inline uint8_t eth_beat_byte(uint64_t port, unsigned k)
{
    return (uint8_t)(port >> (8 * k));
}

template <std::size_t K>
inline uint8_t eth_beat_byte(const VlWide<K> &port, unsigned k)
{
    return (uint8_t)(port[k / 4] >> (8 * (k % 4)));
}

#endif
