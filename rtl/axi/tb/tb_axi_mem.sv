// tb_axi_mem: the AXI4 memory master of openenoc_endpoint_axi
// (openenoc_axi_mem) with the endpoint's memory port as inputs, and
// openenoc_axi_checker on the AXI side (stops on a violation).
// MEM_W is the memory port's beat width (openenoc_ep_mem_if's W). Driven by
// tb_axi_mem.cpp. Simulation only.
`include "axi/openenoc_axi_ports.svh"
module tb_axi_mem #(
  parameter int BURST_MAX  = 256,
  parameter int AXI_DATA_W = 32,
  parameter int MEM_W      = 32
) (
  input  logic        clk,
  input  logic        rst,
  // memory port (the endpoint's side; openenoc_ep_ports.svh's fields, MEM_W wide)
  input  logic                 mem_req_valid,
  output logic                 mem_req_ready,
  input  logic                 mem_req_write,
  input  logic [31:0]          mem_req_addr,
  input  logic [15:0]          mem_req_len,
  `OPENENOC_AXI_MEM_BEAT_PORTS(mem_w_, MEM_W, input, output),
  `OPENENOC_AXI_MEM_BEAT_PORTS(mem_r_, MEM_W, output, input),
  output logic [2*(MEM_W/32)-1:0] mem_r_resp,   // per 4-byte word (openenoc_ep_mem_if)
  output logic                 mem_b_valid,
  input  logic                 mem_b_ready,
  output logic [1:0]           mem_b_resp,
  output logic [15:0]          mem_b_bytes,
  // AXI4 master
  `OPENENOC_AXI_PORTS(m_axi_, AXI_DATA_W, output, input),
  output logic [31:0] violations,
  output logic [31:0] bursts
);
  openenoc_axi_if #(.DATA_W(AXI_DATA_W)) axi ();

  openenoc_ep_mem_if #(.W(MEM_W)) mem ();
  openenoc_axi_mem #(.BURST_MAX(BURST_MAX), .AXI_DATA_W(AXI_DATA_W), .MEM_W(MEM_W)) u_mem (
    .clk, .rst, .mem, .axi, .idle()
  );
  assign mem.req_valid = mem_req_valid;
  assign mem_req_ready = mem.req_ready;
  assign mem.req       = '{write: mem_req_write, addr: mem_req_addr, len: mem_req_len};
  assign mem.w_valid   = mem_w_valid;
  assign mem_w_ready   = mem.w_ready;
  assign mem.w         = '{data: mem_w_data, keep: mem_w_keep, last: mem_w_last};
  assign mem_r_valid   = mem.r_valid;
  assign mem.r_ready   = mem_r_ready;
  assign {mem_r_data, mem_r_keep, mem_r_last} = mem.r;
  assign mem_r_resp    = mem.r_resp;
  assign mem_b_valid   = mem.b_valid;
  assign mem.b_ready   = mem_b_ready;
  assign {mem_b_resp, mem_b_bytes} = {mem.b_resp, mem.b_bytes};

  // the bench's AXI slave sees the link as flat signals
  assign {m_axi_awaddr, m_axi_awlen, m_axi_awsize, m_axi_awburst, m_axi_awcache, m_axi_awprot,
          m_axi_awvalid} =
         {axi.awaddr, axi.awlen, axi.awsize, axi.awburst, axi.awcache, axi.awprot, axi.awvalid};
  assign {m_axi_wdata, m_axi_wstrb, m_axi_wlast, m_axi_wvalid, m_axi_bready} =
         {axi.wdata, axi.wstrb, axi.wlast, axi.wvalid, axi.bready};
  assign {m_axi_araddr, m_axi_arlen, m_axi_arsize, m_axi_arburst, m_axi_arcache, m_axi_arprot,
          m_axi_arvalid, m_axi_rready} =
         {axi.araddr, axi.arlen, axi.arsize, axi.arburst, axi.arcache, axi.arprot, axi.arvalid,
          axi.rready};
  assign {axi.awready, axi.wready, axi.bresp, axi.bvalid} =
         {m_axi_awready, m_axi_wready, m_axi_bresp, m_axi_bvalid};
  assign {axi.arready, axi.rdata, axi.rresp, axi.rlast, axi.rvalid} =
         {m_axi_arready, m_axi_rdata, m_axi_rresp, m_axi_rlast, m_axi_rvalid};

  logic [6:0] kinds;
  openenoc_axi_checker #(.NAME("m_axi"), .DATA_W(AXI_DATA_W)) u_check (
    .clk, .rst, .awaddr(axi.awaddr), .awlen(axi.awlen), .awsize(axi.awsize),
    .awburst(axi.awburst), .awcache(axi.awcache), .awprot(axi.awprot), .awvalid(axi.awvalid),
    .awready(axi.awready), .wdata(axi.wdata), .wstrb(axi.wstrb), .wlast(axi.wlast),
    .wvalid(axi.wvalid), .wready(axi.wready), .bresp(axi.bresp), .bvalid(axi.bvalid),
    .bready(axi.bready), .araddr(axi.araddr), .arlen(axi.arlen), .arsize(axi.arsize),
    .arburst(axi.arburst), .arcache(axi.arcache), .arprot(axi.arprot), .arvalid(axi.arvalid),
    .arready(axi.arready), .rdata(axi.rdata), .rresp(axi.rresp), .rlast(axi.rlast),
    .rvalid(axi.rvalid), .rready(axi.rready), .violations, .kinds, .bursts
  );
  // verilator lint_off UNUSEDSIGNAL
  wire unused = &{1'b0, kinds};
  // verilator lint_on UNUSEDSIGNAL
endmodule
