// AXI4 memory master of openenoc_endpoint_axi: the endpoint's memory port
// (openenoc_ep_pkg: one transfer at a time) on the read bridge or the write
// bridge, whichever the transfer needs; the other stays idle.
module openenoc_axi_mem
  import openenoc_ep_pkg::*;
#(
  parameter int BURST_MAX = 256
) (
  input  logic        clk,
  input  logic        rst,
  // memory port
  input  logic        req_valid,
  output logic        req_ready,
  input  logic        req_write,
  input  logic [31:0] req_addr,
  input  logic [15:0] req_len,
  input  logic        w_valid,
  output logic        w_ready,
  input  mem_beat_t   w_beat,
  output logic        r_valid,
  input  logic        r_ready,
  output mem_beat_t   r_beat,
  output logic [1:0]  r_resp,
  output logic        b_valid,
  input  logic        b_ready,
  output logic [1:0]  b_resp,
  output logic [15:0] b_bytes,
  // AXI4 master
  output logic [31:0] awaddr,
  output logic [7:0]  awlen,
  output logic [2:0]  awsize,
  output logic        awvalid,
  input  logic        awready,
  output logic [31:0] wdata,
  output logic [3:0]  wstrb,
  output logic        wlast,
  output logic        wvalid,
  input  logic        wready,
  input  logic [1:0]  bresp,
  input  logic        bvalid,
  output logic        bready,
  output logic [31:0] araddr,
  output logic [7:0]  arlen,
  output logic [2:0]  arsize,
  output logic        arvalid,
  input  logic        arready,
  input  logic [31:0] rdata,
  input  logic [1:0]  rresp,
  input  logic        rlast,
  input  logic        rvalid,
  output logic        rready
);
  logic rd_idle, wr_idle;
  wire  req_fire = req_valid && req_ready;
  assign req_ready = rd_idle && wr_idle;

  openenoc_axi_mem_rd #(.BURST_MAX(BURST_MAX)) u_rd (
    .clk, .rst, .start(req_fire && !req_write), .addr(req_addr), .len(req_len), .idle(rd_idle),
    .r_valid, .r_ready, .r_beat, .r_resp,
    .araddr, .arlen, .arsize, .arvalid, .arready, .rdata, .rresp, .rlast, .rvalid, .rready
  );

  openenoc_axi_mem_wr #(.BURST_MAX(BURST_MAX)) u_wr (
    .clk, .rst, .start(req_fire && req_write), .addr(req_addr), .len(req_len), .idle(wr_idle),
    .w_valid, .w_ready, .w_beat, .b_valid, .b_ready, .b_resp, .b_bytes,
    .awaddr, .awlen, .awsize, .awvalid, .awready, .wdata, .wstrb, .wlast, .wvalid, .wready,
    .bresp, .bvalid, .bready
  );
endmodule
