// AXI4 memory master of openenoc_endpoint_axi: the endpoint's memory port
// (openenoc_ep_pkg: one transfer at a time) on the read bridge or the write
// bridge, whichever the transfer needs; the other stays idle. axi is the
// whole link: the read bridge drives AR and R (rd_master), the write bridge
// AW, W and B (wr_master).
module openenoc_axi_mem
  import openenoc_ep_pkg::*;
#(
  parameter int BURST_MAX = 256
) (
  input  logic               clk,
  input  logic               rst,
  openenoc_ep_mem_if.arbiter mem,     // the endpoint's memory port
  openenoc_axi_if            axi      // AXI4 master
);
  logic rd_idle, wr_idle;
  wire  req_fire = mem.req_valid && mem.req_ready;
  assign mem.req_ready = rd_idle && wr_idle;

  openenoc_axi_mem_rd #(.BURST_MAX(BURST_MAX)) u_rd (
    .clk, .rst, .start(req_fire && !mem.req.write), .addr(mem.req.addr), .len(mem.req.len),
    .idle(rd_idle), .r_valid(mem.r_valid), .r_ready(mem.r_ready), .r_beat(mem.r),
    .r_resp(mem.r_resp), .axi
  );

  openenoc_axi_mem_wr #(.BURST_MAX(BURST_MAX)) u_wr (
    .clk, .rst, .start(req_fire && mem.req.write), .addr(mem.req.addr), .len(mem.req.len),
    .idle(wr_idle), .w_valid(mem.w_valid), .w_ready(mem.w_ready), .w_beat(mem.w),
    .b_valid(mem.b_valid), .b_ready(mem.b_ready), .b_resp(mem.b_resp), .b_bytes(mem.b_bytes), .axi
  );
endmodule
