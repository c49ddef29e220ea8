// The flat port list of one 32-bit AXI4 link (openenoc_axi_if's signals
// without AxCACHE/AxPROT), for the modules that must show the link as flat
// ports: openenoc_axi_checker (instantiated by name from tb_axi_cosim and
// driven directly by its C++ self-test) and tb_axi_mem (a Verilator top,
// which cannot have interface ports). P is the name prefix (may be empty), M
// the direction of the signals the master drives, S of those the slave
// drives.
`ifndef OPENENOC_AXI_PORTS_SVH
`define OPENENOC_AXI_PORTS_SVH
`define OPENENOC_AXI_PORTS(P, M, S) \
  M logic [31:0] P``awaddr, \
  M logic [7:0]  P``awlen, \
  M logic [2:0]  P``awsize, \
  M logic [1:0]  P``awburst, \
  M logic        P``awvalid, \
  S logic        P``awready, \
  M logic [31:0] P``wdata, \
  M logic [3:0]  P``wstrb, \
  M logic        P``wlast, \
  M logic        P``wvalid, \
  S logic        P``wready, \
  S logic [1:0]  P``bresp, \
  S logic        P``bvalid, \
  M logic        P``bready, \
  M logic [31:0] P``araddr, \
  M logic [7:0]  P``arlen, \
  M logic [2:0]  P``arsize, \
  M logic [1:0]  P``arburst, \
  M logic        P``arvalid, \
  S logic        P``arready, \
  S logic [31:0] P``rdata, \
  S logic [1:0]  P``rresp, \
  S logic        P``rlast, \
  S logic        P``rvalid, \
  M logic        P``rready
`endif
