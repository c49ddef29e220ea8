/*
 * Local memory access in AXI bursts, as the AXI4 memory master of the RTL
 * (rtl/axi/openenoc_axi_mem_rd.sv, openenoc_axi_mem_wr.sv, at its default
 * BURST_MAX: 256 beats, AXI4's longest INCR burst) issues them: beats of
 * e->mem_beat bytes (the configured bus, 4 by default) from the beat of the
 * first byte, at most 256 beats (1 KiB on a 32-bit bus, 4 KiB on a 128-bit
 * one), never across a 4 KiB boundary (on a 256-bit bus that rule alone: at
 * most 128 beats); a read's last
 * 1..beat-1 bytes past the last whole beat are a burst of their own (byte beats,
 * so no byte is read that was not asked for), a write's are strobed in the
 * last beat. One host call per burst, so a failing access is attributed to
 * one burst and the bytes before it are known to be done (transferred
 * lengths, partial writes).
 */
#include "engine_internal.h"

#define OE_BURST_BOUNDARY 4096u
#define OE_BURST_BEATS    256u

/* Bytes of the burst at addr of a transfer with left bytes to go, on a bus
 * of beat bytes per beat. */
static uint32_t burst_len(uint32_t addr, uint32_t left, bool read, uint32_t beat)
{
    uint32_t room = OE_BURST_BEATS * beat - (addr & (beat - 1));
    uint32_t page = OE_BURST_BOUNDARY - (addr % OE_BURST_BOUNDARY);
    uint64_t end = (uint64_t)addr + left;
    uint64_t body_end = end & ~(uint64_t)(beat - 1);
    uint32_t n = left;

    if (read) {
        n = body_end > addr ? (uint32_t)(body_end - addr) : left;
    }
    n = n < room ? n : room;
    return n < page ? n : page;
}

/* Shared burst loop; exactly one of rbuf (read) and wbuf (write) is set. */
static uint32_t mem_bursts(OeEngine *e, uint32_t addr, uint8_t *rbuf,
                           const uint8_t *wbuf, uint32_t len, OeMemStatus *st)
{
    uint32_t done = 0;

    *st = OE_MEM_OK;
    while (done < len) {
        uint32_t n = burst_len(addr + done, len - done, rbuf != NULL, e->mem_beat);
        *st = rbuf ? e->ops.mem_read(e->opaque, addr + done, rbuf + done, n)
                   : e->ops.mem_write(e->opaque, addr + done, wbuf + done, n);
        if (*st != OE_MEM_OK) {
            break;
        }
        done += n;
    }
    return done;
}

uint32_t oe_mem_read(OeEngine *e, uint32_t addr, uint8_t *buf, uint32_t len,
                     OeMemStatus *st)
{
    return mem_bursts(e, addr, buf, NULL, len, st);
}

/*
 * A source read that feeds a stream (a DMA_WRITE_REQ, a DMA_READ_RSP, a raw
 * frame): the payload moves in four-byte beats counted from its first byte,
 * each beat with one bus response, so a beat holding any byte of the failed
 * burst fails whole and only the whole beats before it are sent.
 */
uint32_t oe_mem_read_stream(OeEngine *e, uint32_t addr, uint8_t *buf,
                            uint32_t len, OeMemStatus *st)
{
    uint32_t got = oe_mem_read(e, addr, buf, len, st);
    return *st == OE_MEM_OK ? got : got & ~3u;
}

uint32_t oe_mem_write(OeEngine *e, uint32_t addr, const uint8_t *buf,
                      uint32_t len, OeMemStatus *st)
{
    return mem_bursts(e, addr, NULL, buf, len, st);
}

uint8_t oe_mem_read_code(OeMemStatus st)
{
    return st == OE_MEM_DECERR ? OE_ERR_LOCAL_RD_DECERR : OE_ERR_LOCAL_RD_SLVERR;
}

uint8_t oe_mem_write_code(OeMemStatus st)
{
    return st == OE_MEM_DECERR ? OE_ERR_LOCAL_WR_DECERR : OE_ERR_LOCAL_WR_SLVERR;
}
