// Checks and helpers for the oETP engine bench (see tb_check.h).
#include <algorithm>

#include "tb_check.h"

unsigned g_failures;
const char *g_test = "";

std::vector<TestCase> &registry()
{
    static std::vector<TestCase> r;
    return r;
}

void check_failed(const char *file, int line, const char *what)
{
    g_failures++;
    fprintf(stderr, "FAIL %s: %s:%d: %s\n", g_test, file, line, what);
}

template <class F> static Bytes build(size_t cap, F f)
{
    Bytes b(cap);
    b.resize(f(b.data()));
    return b;
}

Bytes f_rmem_read_req(uint64_t d, uint64_t s, uint32_t rid, uint32_t addr)
{
    return build(64, [&](uint8_t *p) { return oetp_build_rmem_read_req(p, d, s, rid, addr); });
}
Bytes f_rmem_read_rsp(uint64_t d, uint64_t s, uint32_t rid, uint32_t data)
{
    return build(64, [&](uint8_t *p) { return oetp_build_rmem_read_rsp(p, d, s, rid, data); });
}
Bytes f_rmem_write_req(uint64_t d, uint64_t s, uint32_t rid, uint32_t addr, uint32_t biten,
                       uint32_t data)
{
    return build(64, [&](uint8_t *p) {
        return oetp_build_rmem_write_req(p, d, s, rid, addr, biten, data);
    });
}
Bytes f_rmem_write_rsp(uint64_t d, uint64_t s, uint32_t rid)
{
    return build(64, [&](uint8_t *p) { return oetp_build_rmem_write_rsp(p, d, s, rid); });
}
Bytes f_dma_read_req(uint64_t d, uint64_t s, uint32_t rid, uint32_t addr, uint32_t len)
{
    return build(64, [&](uint8_t *p) { return oetp_build_dma_read_req(p, d, s, rid, addr, len); });
}
Bytes f_dma_read_rsp(uint64_t d, uint64_t s, uint32_t rid, const Bytes &data, bool eod)
{
    return build(data.size() + 64, [&](uint8_t *p) {
        return oetp_build_dma_read_rsp(p, d, s, rid, data.data(), uint32_t(data.size()), eod);
    });
}
Bytes f_dma_write_req(uint64_t d, uint64_t s, uint32_t rid, uint32_t addr, const Bytes &data,
                      bool eod)
{
    return build(data.size() + 64, [&](uint8_t *p) {
        return oetp_build_dma_write_req(p, d, s, rid, addr, data.data(), uint32_t(data.size()),
                                        eod);
    });
}
Bytes f_dma_write_rsp(uint64_t d, uint64_t s, uint32_t rid)
{
    return build(64, [&](uint8_t *p) { return oetp_build_dma_write_rsp(p, d, s, rid); });
}
Bytes f_error_rsp(uint64_t d, uint64_t s, uint32_t rid, uint32_t cause)
{
    return build(64, [&](uint8_t *p) { return oetp_build_error_rsp(p, d, s, rid, cause); });
}

// A non-oETP frame: Ethernet header from the codec's MAC helper, then bytes.
Bytes f_raw(uint64_t d, uint64_t s, uint16_t ethertype, size_t len, uint8_t seed)
{
    Bytes b = pattern(len, seed);
    oetp_put_mac(b.data() + OETP_OFF_DST, d);
    oetp_put_mac(b.data() + OETP_OFF_SRC, s);
    b[OETP_OFF_ETHERTYPE] = uint8_t(ethertype >> 8);
    b[OETP_OFF_ETHERTYPE + 1] = uint8_t(ethertype);
    return b;
}

Bytes pad_to(Bytes f, size_t len)
{
    f.resize(len, 0);
    return f;
}

Bytes pattern(size_t n, uint8_t seed)
{
    Bytes b(n);
    for (size_t i = 0; i < n; i++) {
        b[i] = uint8_t(seed + i * 7 + (i >> 8));
    }
    return b;
}

IniCmd c_rmem_read(unsigned peer, uint32_t addr, uint32_t seq)
{
    IniCmd c;
    c.kind = KIND_RMEM;
    c.op = OP_READ;
    c.addr = addr;
    c.len = 4;
    c.peer = peer;
    c.seq = seq;
    return c;
}

IniCmd c_rmem_write(unsigned peer, uint32_t addr, uint32_t biten, uint32_t data, uint32_t seq)
{
    IniCmd c = c_rmem_read(peer, addr, seq);
    c.op = OP_WRITE;
    c.biten = biten;
    c.wdata = data;
    return c;
}

IniCmd c_dma_read(unsigned peer, uint32_t addr, uint32_t len, uint32_t seq, bool last)
{
    IniCmd c;
    c.kind = KIND_DMA;
    c.op = OP_READ;
    c.addr = addr;
    c.len = len;
    c.peer = peer;
    c.seq = seq;
    c.last = last;
    return c;
}

IniCmd c_dma_write(unsigned peer, uint32_t addr, uint32_t len, uint32_t seq, bool last)
{
    IniCmd c = c_dma_read(peer, addr, len, seq, last);
    c.op = OP_WRITE;
    return c;
}

uint8_t dest_of(unsigned route, unsigned peer)
{
    return uint8_t(route << 2 | peer);
}

std::vector<Beat> payload(const Bytes &d, unsigned peer, uint32_t seq, bool role, bool last)
{
    return to_beats(d, seq, dest_of(ROUTE_PEER, peer), uint8_t((role ? 2 : 0) | (last ? 1 : 0)));
}

void source_write(Sim &s, const IniCmd &c, const Bytes &data, unsigned code,
                  bool status_after_start)
{
    s.ini.cmds.push_back(c);
    s.local_src.push(payload(data, c.peer, c.seq, false, c.last));
    TxStatus st;
    st.peer = c.peer;
    st.seq = c.seq;
    st.len = uint32_t(data.size());
    st.code = code;
    if (status_after_start) {
        StreamSource *src = &s.local_src;
        StreamSink *eth = &s.eth_sink;
        uint64_t beats = eth->beats;
        st.when = [src, eth, beats] { return src->q.empty() && eth->beats > beats; };
    }
    s.ini.status.push_back(st);
}

bool wait_frames(Sim &s, size_t n, uint64_t max)
{
    return s.run_until([&] { return s.eth_sink.done.size() >= n; }, max);
}

bool wait_cpls(Sim &s, size_t n, uint64_t max)
{
    return s.run_until([&] { return s.ini.cpls.size() >= n; }, max);
}

std::string hex(const Bytes &b, size_t max)
{
    std::string r;
    char t[4];
    for (size_t i = 0; i < b.size() && i < max; i++) {
        snprintf(t, sizeof t, "%02x", b[i]);
        r += t;
    }
    return r;
}

bool word_prefix(const Bytes &f, const Bytes &full, size_t min)
{
    return f.size() >= min && f.size() <= full.size() && f.size() % 4 == 0 &&
           std::equal(f.begin(), f.end(), full.begin());
}
