// BENCH figures of the oETP engine RTL: bulk words per cycle on the
// Ethernet side for transmit and receive (8160-byte fragments, no
// backpressure) and the simulation speed of the Verilator model.
#include <chrono>

#include "tb_check.h"

int run_bench(int, char **)
{
    return 0;
}
