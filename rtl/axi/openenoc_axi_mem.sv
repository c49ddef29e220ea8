// AXI4 memory master of openenoc_endpoint_axi: the endpoint's memory port
// (openenoc_ep_pkg: one transfer at a time) on the read bridge or the write
// bridge, whichever the transfer needs; the other stays idle. The port is
// registered, so the bridges' address and byte-packing logic and the
// endpoint's arbiter and stream logic are never in one cycle: the request
// is held a cycle before its bridge starts, and the write beats and read
// beats pass a two-entry register slice each (both ways: the slices' ready
// is a flop too); a beat takes one cycle more, the rate stays one beat per
// cycle. A transfer is taken only when both bridges and the read slice are
// empty, so no read beat of one transfer meets the next.
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
  logic        rq_valid_q, rq_write_q;   // the request taken in the previous cycle
  logic [31:0] rq_addr_q;
  logic [15:0] rq_len_q;
  wire  req_fire = req_valid && req_ready;
  assign req_ready = rd_idle && wr_idle && !r_valid && !rq_valid_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      rq_valid_q <= 1'b0;
      rq_write_q <= 1'b0;
      rq_addr_q  <= '0;
      rq_len_q   <= '0;
    end else begin
      rq_valid_q <= req_fire;
      if (req_fire) begin
        rq_write_q <= req_write;
        rq_addr_q  <= req_addr;
        rq_len_q   <= req_len;
      end
    end
  end

  // the slices (the write beats carry no response)
  logic       wb_valid, wb_ready, rb_valid, rb_ready;
  mem_beat_t  wb_beat, rb_beat;
  logic [1:0] rb_resp;
  // verilator lint_off UNUSEDSIGNAL
  logic [1:0] wb_resp;
  // verilator lint_on UNUSEDSIGNAL
  openenoc_axi_beat_slice u_w_slice (
    .clk, .rst, .s_valid(w_valid), .s_ready(w_ready), .s_beat(w_beat), .s_resp(2'b00),
    .m_valid(wb_valid), .m_ready(wb_ready), .m_beat(wb_beat), .m_resp(wb_resp)
  );
  openenoc_axi_beat_slice u_r_slice (
    .clk, .rst, .s_valid(rb_valid), .s_ready(rb_ready), .s_beat(rb_beat), .s_resp(rb_resp),
    .m_valid(r_valid), .m_ready(r_ready), .m_beat(r_beat), .m_resp(r_resp)
  );

  openenoc_axi_mem_rd #(.BURST_MAX(BURST_MAX)) u_rd (
    .clk, .rst, .start(rq_valid_q && !rq_write_q), .addr(rq_addr_q), .len(rq_len_q), .idle(rd_idle),
    .r_valid(rb_valid), .r_ready(rb_ready), .r_beat(rb_beat), .r_resp(rb_resp),
    .araddr, .arlen, .arsize, .arvalid, .arready, .rdata, .rresp, .rlast, .rvalid, .rready
  );

  openenoc_axi_mem_wr #(.BURST_MAX(BURST_MAX)) u_wr (
    .clk, .rst, .start(rq_valid_q && rq_write_q), .addr(rq_addr_q), .len(rq_len_q), .idle(wr_idle),
    .w_valid(wb_valid), .w_ready(wb_ready), .w_beat(wb_beat), .b_valid, .b_ready, .b_resp, .b_bytes,
    .awaddr, .awlen, .awsize, .awvalid, .awready, .wdata, .wstrb, .wlast, .wvalid, .wready,
    .bresp, .bvalid, .bready
  );
endmodule
