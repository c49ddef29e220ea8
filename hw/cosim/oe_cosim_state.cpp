/*
 * Migration state of the RTL engine: the Verilator model's own serialization (--savable) of
 * every register and memory of the RTL, plus the wrapper's configuration and
 * time, framed by a magic, a length and a checksum. Verilator treats a bad
 * stream as fatal, so a blob reaches it only after the frame checks pass.
 * Saved between host calls, the model is quiescent: nothing is in flight on
 * the ports the wrapper serves.
 */
#include <cstdint>
#include <cstring>
#include <vector>

#include "oe_cosim_engine.h"
#include "openenoc/engine_config.h"
#include "verilated_save.h"

using namespace oe_cosim;

namespace {

const char kStateMagic[8] = { 'O', 'E', 'R', 'T', 'L', 'S', 'T', '1' };
const uint64_t kStateVersion = 1;

uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 0x100000001b3ull;
    }
    return h;
}

void put(std::vector<uint8_t> &v, const void *p, size_t n)
{
    const uint8_t *b = static_cast<const uint8_t *>(p);
    v.insert(v.end(), b, b + n);
}

void put64(std::vector<uint8_t> &v, uint64_t x)
{
    for (int i = 0; i < 8; i++) {
        v.push_back((uint8_t)(x >> (8 * i)));
    }
}

uint64_t get64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) {
        x |= (uint64_t)p[i] << (8 * i);
    }
    return x;
}

/* Verilator serialization into / out of memory. */
class BlobWriter final : public VerilatedSerialize {
public:
    explicit BlobWriter(std::vector<uint8_t> &out) : m_out(out) { m_isOpen = true; }
    ~BlobWriter() override { close(); }
    void close() override { flush(); m_isOpen = false; }
    void flush() override
    {
        m_out.insert(m_out.end(), m_bufp, m_cp);
        m_cp = m_bufp;
    }

private:
    std::vector<uint8_t> &m_out;
};

class BlobReader final : public VerilatedDeserialize {
public:
    BlobReader(const uint8_t *p, size_t n) : m_p(p), m_left(n)
    {
        m_isOpen = true;
        m_endp = m_bufp;
    }

private:
    void fill() override
    {
        size_t keep = (size_t)(m_endp - m_cp);
        memmove(m_bufp, m_cp, keep);
        m_cp = m_bufp;
        m_endp = m_bufp + keep;
        size_t room = bufferSize() - keep;
        size_t n = m_left < room ? m_left : room;
        memcpy(m_endp, m_p, n);
        m_p += n;
        m_left -= n;
        m_endp += n;
    }
    const uint8_t *m_p;
    size_t m_left;
};

}  // namespace

extern "C" {

size_t oe_engine_save(const OeEngine *e, uint8_t *buf, size_t cap)
{
    OeEngine *me = const_cast<OeEngine *>(e);
    std::vector<uint8_t> model;
    {
        BlobWriter w(model);
        Verilated::threadContextp(me->ctx.get());
        w << *me->m;
        w.close();
    }
    std::vector<uint8_t> out;
    put(out, kStateMagic, 8);
    put64(out, kStateVersion);
    put64(out, e->max_frame);
    put64(out, e->reset_mac);
    put64(out, e->now);
    put64(out, e->irq_level);
    put64(out, model.size());
    out.insert(out.end(), model.begin(), model.end());
    put64(out, fnv1a(out.data(), out.size()));
    if (buf && cap >= out.size()) {
        memcpy(buf, out.data(), out.size());
    }
    return out.size();
}

int oe_engine_load(OeEngine *e, const uint8_t *buf, size_t len)
{
    const size_t head = 8 + 6 * 8;
    uint64_t version, max, mac, now, irq, mlen;

    if (!buf || len < head + 8 || memcmp(buf, kStateMagic, 8) ||
        get64(buf + len - 8) != fnv1a(buf, len - 8)) {
        hard_reset(e);
        return -1;
    }
    version = get64(buf + 8);
    max = get64(buf + 16);
    mac = get64(buf + 24);
    now = get64(buf + 32);
    irq = get64(buf + 40);
    mlen = get64(buf + 48);
    OeEngineConfig cfg = { (uint32_t)max, mac };
    OeEngineSettings set;
    if (version != kStateVersion || !max || max >> 32 || mac >> 48 || irq > 1 ||
        mlen != len - head - 8 || !oe_engine_config_resolve(&e->ops, &cfg, &set, nullptr)) {
        hard_reset(e);
        return -1;
    }
    e->max_frame = set.max_frame;
    e->frag_ceiling = set.frag_ceiling;
    e->reset_mac = set.reset_mac;
    e->now = now;
    e->irq_level = irq;
    ports_reset(e);
    e->csr_pending = false;
    {
        BlobReader r(buf + head, (size_t)mlen);
        Verilated::threadContextp(e->ctx.get());
        r >> *e->m;
    }
    e->armed = OE_TIMER_NONE;
    return 0;
}

}  // extern "C"
