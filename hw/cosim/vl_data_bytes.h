/*
 * Bytes to and from a data port of a Verilator model, byte lane k = bits
 * 8k..8k+7 (AXI and AXI-Stream lane order). Verilator gives a 32-bit port as
 * uint32_t, 64 bits as uint64_t (QData) and a wider one as VlWide<K>, K
 * 32-bit words that index like an array. Used by the AXI slave
 * (axi_mem_slave.h), the wrapper's Ethernet beats (oe_cosim_run.cpp) and the
 * width converters' bench (rtl/tb/axis_width/).
 */
#pragma once

#include <cstdint>

// A 32-bit beat and its four bytes, byte lane k = bits 8k..8k+7 (compilers
// make each one load or store).
inline uint32_t axi_beat_get(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

inline void axi_beat_put(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

// An AXI data port of any width from or to its bytes (lane k = byte k):
// Verilator gives 32 bits as uint32_t, 64 as uint64_t, wider as 32-bit words
// (VlWide, nothing but the words) that index like an array.
inline void axi_data_put(uint32_t &port, const uint8_t *p) { port = axi_beat_get(p); }
inline void axi_data_put(uint64_t &port, const uint8_t *p)
{
    port = axi_beat_get(p) | (uint64_t)axi_beat_get(p + 4) << 32;
}
template <class W> void axi_data_put(W &port, const uint8_t *p)
{
    for (unsigned i = 0; i < sizeof(W) / 4; i++) {
        port[i] = axi_beat_get(p + 4 * i);
    }
}
inline void axi_data_get(uint8_t *p, uint32_t port) { axi_beat_put(p, port); }
inline void axi_data_get(uint8_t *p, uint64_t port)
{
    axi_beat_put(p, (uint32_t)port);
    axi_beat_put(p + 4, (uint32_t)(port >> 32));
}
template <class W> void axi_data_get(uint8_t *p, const W &port)
{
    for (unsigned i = 0; i < sizeof(W) / 4; i++) {
        axi_beat_put(p + 4 * i, port[i]);
    }
}
