// Types and constants of the endpoint around the oETP engine: the local
// memory master, the IRQ sources and the DMA engine's records.
package openenoc_ep_pkg;
  import openenoc_oetp_pkg::*;
  // IRQ sources (SRC_*) and CSR error codes (ERR_*): generated from the
  // register map, as are the register words (irq_claim_t, irq_status_t, ...),
  // which a module imports from openenoc_csr_pkg itself.
  import openenoc_csr_pkg::*;

  localparam int NUM_PEERS    = 4;
  localparam int IRQ_DEPTH    = 16;

  // Memory master (a simple transfer protocol). One request moves 1..65535
  // bytes from addr, byte-packed like the internal payload streams: lane 0 of
  // the first beat is the byte at addr, every beat but the last is full. A
  // read returns ceil(len/B) beats of B bytes (the port's width W = 8B:
  // openenoc_ep_mem_if), each with its response; a write takes
  // beats up to the one with last (len is an upper bound) and answers with a
  // response and the count of bytes written before the first failure. The
  // memory system (an AXI4 burst adapter, or the co-simulation's host
  // callbacks) splits a transfer at 4 KiB boundaries; a failure stops the
  // transfer at the failing piece.
  typedef struct packed {
    logic        write;
    logic [31:0] addr;
    logic [15:0] len;
  } mem_req_t;

  typedef enum logic [1:0] { RESP_OKAY = 2'd0, RESP_SLVERR = 2'd2, RESP_DECERR = 2'd3 } mem_resp_e;

  // a 32-bit client's beat (openenoc_ep_mem_if's beat_t at W = 32)
  typedef struct packed {
    logic [31:0] data;
    logic [3:0]  keep;
    logic        last;
  } mem_beat_t;

  // The mask of a beat's n lowest byte lanes (a beat cut after n bytes), at
  // any port width (up to 256 bits: 32 lanes; a narrower keep takes its
  // low bits). A beat's kept lanes are counted where they are read, over
  // the beat's own lanes (a count over 32 lanes would cost the simulation
  // model of a narrower port a longer loop every cycle).
  function automatic logic [31:0] lanes_below(input logic [5:0] n);
    lanes_below = 32'((33'd1 << n) - 33'd1);
  endfunction

  function automatic logic [3:0] rd_code(input logic [1:0] resp);
    rd_code = (resp == RESP_DECERR) ? ERR_LOCAL_RD_DECERR : ERR_LOCAL_RD_SLVERR;
  endfunction
  function automatic logic [3:0] wr_code(input logic [1:0] resp);
    wr_code = (resp == RESP_DECERR) ? ERR_LOCAL_WR_DECERR : ERR_LOCAL_WR_SLVERR;
  endfunction

  // the I/G bit decides (bit 40 of the value, bit 0 of the first octet)
  // verilator lint_off UNUSEDSIGNAL
  function automatic logic is_group(input logic [47:0] mac);
    is_group = mac[40];
  endfunction
  // verilator lint_on UNUSEDSIGNAL
endpackage
