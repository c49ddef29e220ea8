// tb_axi_mem: the AXI4 memory master of openenoc_endpoint_axi
// (openenoc_axi_mem) with the endpoint's memory port as inputs, and
// openenoc_axi_checker on the AXI side (stops on a violation).
// Driven by tb_axi_mem.cpp. Simulation only.
module tb_axi_mem
  import openenoc_ep_pkg::*;
#(
  parameter int BURST_MAX = 256
) (
  input  logic        clk,
  input  logic        rst,
  // memory port (the endpoint's side)
  input  logic        mem_req_valid,
  output logic        mem_req_ready,
  input  logic        mem_req_write,
  input  logic [31:0] mem_req_addr,
  input  logic [15:0] mem_req_len,
  input  logic        mem_w_valid,
  output logic        mem_w_ready,
  input  logic [31:0] mem_w_data,
  input  logic [3:0]  mem_w_keep,
  input  logic        mem_w_last,
  output logic        mem_r_valid,
  input  logic        mem_r_ready,
  output logic [31:0] mem_r_data,
  output logic [3:0]  mem_r_keep,
  output logic        mem_r_last,
  output logic [1:0]  mem_r_resp,
  output logic        mem_b_valid,
  input  logic        mem_b_ready,
  output logic [1:0]  mem_b_resp,
  output logic [15:0] mem_b_bytes,
  // AXI4 master
  output logic [31:0] m_axi_awaddr,
  output logic [7:0]  m_axi_awlen,
  output logic [2:0]  m_axi_awsize,
  output logic        m_axi_awvalid,
  input  logic        m_axi_awready,
  output logic [31:0] m_axi_wdata,
  output logic [3:0]  m_axi_wstrb,
  output logic        m_axi_wlast,
  output logic        m_axi_wvalid,
  input  logic        m_axi_wready,
  input  logic [1:0]  m_axi_bresp,
  input  logic        m_axi_bvalid,
  output logic        m_axi_bready,
  output logic [31:0] m_axi_araddr,
  output logic [7:0]  m_axi_arlen,
  output logic [2:0]  m_axi_arsize,
  output logic        m_axi_arvalid,
  input  logic        m_axi_arready,
  input  logic [31:0] m_axi_rdata,
  input  logic [1:0]  m_axi_rresp,
  input  logic        m_axi_rlast,
  input  logic        m_axi_rvalid,
  output logic        m_axi_rready,
  output logic [31:0] violations,
  output logic [31:0] bursts
);
  mem_beat_t r_beat;
  assign mem_r_data = r_beat.data;
  assign mem_r_keep = r_beat.keep;
  assign mem_r_last = r_beat.last;

  openenoc_axi_mem #(.BURST_MAX(BURST_MAX)) u_mem (
    .clk, .rst, .req_valid(mem_req_valid), .req_ready(mem_req_ready), .req_write(mem_req_write),
    .req_addr(mem_req_addr), .req_len(mem_req_len), .w_valid(mem_w_valid),
    .w_ready(mem_w_ready), .w_beat('{data: mem_w_data, keep: mem_w_keep, last: mem_w_last}),
    .r_valid(mem_r_valid), .r_ready(mem_r_ready), .r_beat, .r_resp(mem_r_resp),
    .b_valid(mem_b_valid), .b_ready(mem_b_ready), .b_resp(mem_b_resp), .b_bytes(mem_b_bytes),
    .awaddr(m_axi_awaddr), .awlen(m_axi_awlen), .awsize(m_axi_awsize), .awvalid(m_axi_awvalid),
    .awready(m_axi_awready), .wdata(m_axi_wdata), .wstrb(m_axi_wstrb), .wlast(m_axi_wlast),
    .wvalid(m_axi_wvalid), .wready(m_axi_wready), .bresp(m_axi_bresp), .bvalid(m_axi_bvalid),
    .bready(m_axi_bready), .araddr(m_axi_araddr), .arlen(m_axi_arlen), .arsize(m_axi_arsize),
    .arvalid(m_axi_arvalid), .arready(m_axi_arready), .rdata(m_axi_rdata), .rresp(m_axi_rresp),
    .rlast(m_axi_rlast), .rvalid(m_axi_rvalid), .rready(m_axi_rready)
  );

  logic [6:0] kinds;
  openenoc_axi_checker #(.NAME("m_axi")) u_check (
    .clk, .rst, .awaddr(m_axi_awaddr), .awlen(m_axi_awlen), .awsize(m_axi_awsize),
    .awburst(2'b01), .awvalid(m_axi_awvalid), .awready(m_axi_awready), .wdata(m_axi_wdata),
    .wstrb(m_axi_wstrb), .wlast(m_axi_wlast), .wvalid(m_axi_wvalid), .wready(m_axi_wready),
    .bresp(m_axi_bresp), .bvalid(m_axi_bvalid), .bready(m_axi_bready), .araddr(m_axi_araddr),
    .arlen(m_axi_arlen), .arsize(m_axi_arsize), .arburst(2'b01), .arvalid(m_axi_arvalid),
    .arready(m_axi_arready), .rdata(m_axi_rdata), .rresp(m_axi_rresp), .rlast(m_axi_rlast),
    .rvalid(m_axi_rvalid), .rready(m_axi_rready), .violations, .kinds, .bursts
  );
  // verilator lint_off UNUSEDSIGNAL
  wire unused = &{1'b0, kinds};
  // verilator lint_on UNUSEDSIGNAL
endmodule
