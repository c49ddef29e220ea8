// Test registry, checks and frame/command helpers shared by the test files.
// Expected frames come from the project's C wire codec (oetp.h), never from
// a second copy of the layout.
#ifndef TB_CHECK_H
#define TB_CHECK_H

#include <cstdio>
#include <string>

#include "tb_sim.h"

struct TestCase {
    const char *name;
    void (*fn)(Sim &);
    bool with_backpressure;   // also run under random stalls on every port
};
std::vector<TestCase> &registry();
struct Registrar {
    Registrar(const char *n, void (*f)(Sim &), bool bp) { registry().push_back({n, f, bp}); }
};
#define TB_TEST(name, bp)                                 \
    static void name(Sim &s);                             \
    static Registrar reg_##name(#name, name, bp);         \
    static void name(Sim &s)

extern unsigned g_failures;
extern const char *g_test;
void check_failed(const char *file, int line, const char *what);
#define CHECK(c) do { if (!(c)) check_failed(__FILE__, __LINE__, #c); } while (0)
#define CHECK_EQ(a, b) do { if (!((a) == (b))) {                                       \
        char m_[256]; snprintf(m_, sizeof m_, "%s == %s (0x%llx vs 0x%llx)", #a, #b,   \
                               (unsigned long long)(a), (unsigned long long)(b));      \
        check_failed(__FILE__, __LINE__, m_); } } while (0)

// ---- frames (codec) ------------------------------------------------------
Bytes f_rmem_read_req(uint64_t d, uint64_t s, uint32_t rid, uint32_t addr);
Bytes f_rmem_read_rsp(uint64_t d, uint64_t s, uint32_t rid, uint32_t data);
Bytes f_rmem_write_req(uint64_t d, uint64_t s, uint32_t rid, uint32_t addr, uint32_t biten,
                       uint32_t data);
Bytes f_rmem_write_rsp(uint64_t d, uint64_t s, uint32_t rid);
Bytes f_dma_read_req(uint64_t d, uint64_t s, uint32_t rid, uint32_t addr, uint32_t len);
Bytes f_dma_read_rsp(uint64_t d, uint64_t s, uint32_t rid, const Bytes &data, bool eod = true);
Bytes f_dma_write_req(uint64_t d, uint64_t s, uint32_t rid, uint32_t addr, const Bytes &data,
                      bool eod = true);
Bytes f_dma_write_rsp(uint64_t d, uint64_t s, uint32_t rid);
Bytes f_error_rsp(uint64_t d, uint64_t s, uint32_t rid, uint32_t cause);
Bytes f_raw(uint64_t d, uint64_t s, uint16_t ethertype, size_t len, uint8_t seed);
Bytes pad_to(Bytes f, size_t len);             // append zero bytes
Bytes pattern(size_t n, uint8_t seed);

// ---- commands --------------------------------------------------------------
IniCmd c_rmem_read(unsigned peer, uint32_t addr, uint32_t seq);
IniCmd c_rmem_write(unsigned peer, uint32_t addr, uint32_t biten, uint32_t data, uint32_t seq);
IniCmd c_dma_read(unsigned peer, uint32_t addr, uint32_t len, uint32_t seq, bool last = true);
IniCmd c_dma_write(unsigned peer, uint32_t addr, uint32_t len, uint32_t seq, bool last = true);
// Queues a DMA write command with its source payload and source status;
// status_after_start holds the status until every payload beat was taken and
// a beat of the frame has gone out on m_axis_eth (a late failure).
void source_write(Sim &s, const IniCmd &c, const Bytes &data, unsigned code = 0,
                  bool status_after_start = false);
// Local payload beats of a fragment (TDEST {PEER, peer}, TUSER {role, last}).
std::vector<Beat> payload(const Bytes &d, unsigned peer, uint32_t seq, bool role, bool last);

// ---- waiting ---------------------------------------------------------------
bool wait_frames(Sim &s, size_t n, uint64_t max = 100000);
bool wait_cpls(Sim &s, size_t n, uint64_t max = 100000);
uint8_t dest_of(unsigned route, unsigned peer);
std::string hex(const Bytes &b, size_t max = 48);
// A frame cut by a failed source: a word-aligned prefix of full, at least min
// bytes long (payload emission may stop anywhere after the failure).
bool word_prefix(const Bytes &f, const Bytes &full, size_t min);

#endif
