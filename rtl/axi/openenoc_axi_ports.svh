// The flat port lists of the AXI links, for the modules that show a link as
// flat ports: the AXI top openenoc_endpoint_axi (vendor-style names s_axil_*,
// m_axi_*), the CSR slave openenoc_axil_csr, the protocol checker
// openenoc_axi_checker (instantiated by name from tb_axi_cosim and driven
// directly by its C++ self-test) and the benches tb_axi_mem (a Verilator
// top, which cannot have interface ports) and tb_axi_cosim (bound into the
// top); and the command ports of the memory master's two bridges.
// P is the name prefix (may be empty), M the direction of the signals the
// master drives, S of those the slave drives.
`ifndef OPENENOC_AXI_PORTS_SVH
`define OPENENOC_AXI_PORTS_SVH

// one AXI4 address channel of a 32-bit link (P ends in aw or ar)
`define OPENENOC_AXI_ADDR_PORTS(P, M, S) \
  M logic [31:0] P``addr, \
  M logic [7:0]  P``len, \
  M logic [2:0]  P``size, \
  M logic [1:0]  P``burst, \
  M logic [3:0]  P``cache, \
  M logic [2:0]  P``prot, \
  M logic        P``valid, \
  S logic        P``ready

// one AXI4 link with DW-bit data (32, 64, 128 or 256) and no ID, LOCK, QOS,
// REGION or USER signals: openenoc_axi_if's signals
`define OPENENOC_AXI_PORTS(P, DW, M, S) \
  `OPENENOC_AXI_ADDR_PORTS(P``aw, M, S), \
  M logic [DW-1:0]   P``wdata, \
  M logic [DW/8-1:0] P``wstrb, \
  M logic        P``wlast, \
  M logic        P``wvalid, \
  S logic        P``wready, \
  S logic [1:0]  P``bresp, \
  S logic        P``bvalid, \
  M logic        P``bready, \
  `OPENENOC_AXI_ADDR_PORTS(P``ar, M, S), \
  S logic [DW-1:0] P``rdata, \
  S logic [1:0]  P``rresp, \
  S logic        P``rlast, \
  S logic        P``rvalid, \
  M logic        P``rready

// one AXI4-Lite address channel with AW-bit addresses (P ends in aw or ar)
`define OPENENOC_AXIL_ADDR_PORTS(P, AW, M, S) \
  M logic [AW-1:0] P``addr, \
  M logic [2:0]    P``prot, \
  M logic          P``valid, \
  S logic          P``ready

// one AXI4-Lite link with AW-bit addresses and 32-bit data
`define OPENENOC_AXIL_PORTS(P, AW, M, S) \
  `OPENENOC_AXIL_ADDR_PORTS(P``aw, AW, M, S), \
  M logic [31:0]   P``wdata, \
  M logic [3:0]    P``wstrb, \
  M logic          P``wvalid, \
  S logic          P``wready, \
  S logic [1:0]    P``bresp, \
  S logic          P``bvalid, \
  M logic          P``bready, \
  `OPENENOC_AXIL_ADDR_PORTS(P``ar, AW, M, S), \
  S logic [31:0]   P``rdata, \
  S logic [1:0]    P``rresp, \
  S logic          P``rvalid, \
  M logic          P``rready

// one direction of memory-port beats, W bits of byte-packed data (keep
// contiguous from lane 0), as flat fields: tb_axi_mem's mem_w_* and mem_r_*
// (the bridges take them as one vector, mem_beat_t's layout); M drives the
// beat, S the ready
`define OPENENOC_AXI_MEM_BEAT_PORTS(P, W, M, S) \
  M logic           P``valid, \
  S logic           P``ready, \
  M logic [W-1:0]   P``data, \
  M logic [W/8-1:0] P``keep, \
  M logic           P``last

// the command side of the memory master's read and write bridges
// (openenoc_axi_mem_rd, openenoc_axi_mem_wr): start is a one-cycle pulse
// while idle, with the transfer's byte address and length
`define OPENENOC_AXI_BRIDGE_PORTS \
  input  logic        clk, \
  input  logic        rst, \
  input  logic        start, \
  input  logic [31:0] addr, \
  input  logic [15:0] len, \
  output logic        idle

`endif
