// AXI4 memory master of openenoc_endpoint_axi: the endpoint's memory port
// (openenoc_ep_pkg: one transfer at a time) on the read bridge or the write
// bridge, whichever the transfer needs; the other stays idle. axi is the
// whole link: the read bridge drives AR and R (rd_master), the write bridge
// AW, W and B (wr_master). The port is registered, so the bridges' address
// and byte-packing logic and the endpoint's arbiter and stream logic are
// never in one cycle: the request is held a cycle before its bridge starts
// (at MEM_W > 32 a read's is not: RD_THRU below),
// and the write beats pass a two-entry register slice (both ways: the
// slice's ready is a flop too; a write beat takes one cycle more). The read
// bridge's beats come from its own output register, so the read slice is a
// one-entry skid (PASS): its ready is a flop, a beat passes in the cycle it
// is offered and waits in the entry only while the endpoint stalls. The rate
// stays one beat per cycle. A transfer is taken only when both bridges and
// the read slice are empty, so no read beat of one transfer meets the next.
// The link is AXI_DATA_W bits, the memory port MEM_W bits (its interface's
// W, up to AXI_DATA_W); the bridges up- and down-size.
module openenoc_axi_mem #(
  parameter int BURST_MAX  = 256,
  parameter int AXI_DATA_W = 32,     // the link: 32, 64, 128 or 256 (checked by openenoc_endpoint_axi)
  parameter int MEM_W      = 32      // the memory port's beat (checked by the bridges)
) (
  input  logic               clk,
  input  logic               rst,
  openenoc_ep_mem_if.arbiter mem,     // the endpoint's memory port
  openenoc_axi_if            axi,     // AXI4 master
  // no request held, both slices empty, both bridges idle (the AXI top's
  // idle output for the co-simulation; unused in hardware)
  output logic               idle
);
  logic rd_idle, wr_idle;
  logic        rq_valid_q, rq_write_q;   // the request taken in the previous cycle
  logic [31:0] rq_addr_q;
  logic [15:0] rq_len_q;
  wire  req_fire = mem.req_valid && mem.req_ready;
  // At MEM_W > 32 the read bridge may pass a transfer's last beat from the
  // R channel (an input) to mem.r in one cycle (openenoc_axi_mem_rd,
  // LAST_NOW), so the ready reads the read slice's entry (r_held_q: the
  // PASS skid keeps exactly a beat offered and not taken) instead of
  // mem.r_valid, and no output (the read bridge's one-word AR) is computed
  // from an input. Equal: with the read bridge idle it offers no beat, and
  // the slice's m side is its entry alone.
  logic r_held_q;
  wire  r_busy = (MEM_W > 32) ? r_held_q : mem.r_valid;
  assign mem.req_ready = rd_idle && wr_idle && !r_busy && !rq_valid_q;
  // At MEM_W > 32 (the wide co-simulation libraries) a read request goes to
  // the read bridge in the cycle it is taken, not from the held copy a
  // cycle later: the held cycle is a cycle of every RMEM read (a remote CPU
  // load's round trip). This puts the arbiter's request mux in front of the
  // read bridge's plan and its one-word AR (still synthesizable, single-clock
  // RTL; an FPGA build that needs the cut keeps MEM_W = 32 or restores it
  // here). Writes are held as before. Constant false at MEM_W = 32.
  localparam bit RD_THRU = MEM_W > 32;
  wire  rq_hold  = req_fire && !(RD_THRU && !mem.req.write);

  always_ff @(posedge clk) begin
    if (rst) begin
      rq_valid_q <= 1'b0;
      r_held_q   <= 1'b0;
      rq_write_q <= 1'b0;
      rq_addr_q  <= '0;
      rq_len_q   <= '0;
    end else begin
      rq_valid_q <= rq_hold;
      r_held_q   <= mem.r_valid && !mem.r_ready;
      if (req_fire) begin
        rq_write_q <= mem.req.write;
        rq_addr_q  <= mem.req.addr;
        rq_len_q   <= mem.req.len;
      end
    end
  end

  // the slices (the write beats carry no response)
  logic       wb_valid, wb_ready, rb_valid, rb_ready;
  // the beats by field (openenoc_axi_beat_slice: no packing and unpacking)
  logic [MEM_W-1:0]   wb_data, rb_data, r_data;
  logic [MEM_W/8-1:0] wb_keep, rb_keep, r_keep;
  logic               wb_last, rb_last, r_last;
  logic [2*(MEM_W/32)-1:0] rb_resp;   // per 4-byte word
  // verilator lint_off UNUSEDSIGNAL
  logic [2*(MEM_W/32)-1:0] wb_resp;
  // verilator lint_on UNUSEDSIGNAL
  openenoc_axi_beat_slice #(.W(MEM_W)) u_w_slice (
    .clk, .rst, .s_valid(mem.w_valid), .s_ready(mem.w_ready),
    .s_data(mem.w.data), .s_keep(mem.w.keep), .s_last(mem.w.last), .s_resp('0),
    .m_valid(wb_valid), .m_ready(wb_ready), .m_data(wb_data), .m_keep(wb_keep), .m_last(wb_last),
    .m_resp(wb_resp)
  );
  openenoc_axi_beat_slice #(.PASS(1'b1), .W(MEM_W)) u_r_slice (
    .clk, .rst, .s_valid(rb_valid), .s_ready(rb_ready),
    .s_data(rb_data), .s_keep(rb_keep), .s_last(rb_last), .s_resp(rb_resp),
    .m_valid(mem.r_valid), .m_ready(mem.r_ready), .m_data(r_data), .m_keep(r_keep),
    .m_last(r_last), .m_resp(mem.r_resp)
  );
  assign mem.r = '{data: r_data, keep: r_keep, last: r_last};

  // req_ready already says: bridges idle, no request held, read slice empty
  assign idle = mem.req_ready && !wb_valid;

  openenoc_axi_mem_rd #(.BURST_MAX(BURST_MAX), .AXI_DATA_W(AXI_DATA_W), .MEM_W(MEM_W)) u_rd (
    .clk, .rst,
    .start(RD_THRU ? req_fire && !mem.req.write : rq_valid_q && !rq_write_q),
    .addr(RD_THRU ? mem.req.addr : rq_addr_q), .len(RD_THRU ? mem.req.len : rq_len_q),
    .idle(rd_idle),
    .r_valid(rb_valid), .r_ready(rb_ready), .r_data(rb_data), .r_keep(rb_keep), .r_last(rb_last),
    .r_resp(rb_resp), .axi
  );

  openenoc_axi_mem_wr #(.BURST_MAX(BURST_MAX), .AXI_DATA_W(AXI_DATA_W), .MEM_W(MEM_W)) u_wr (
    .clk, .rst, .start(rq_valid_q && rq_write_q), .addr(rq_addr_q), .len(rq_len_q), .idle(wr_idle),
    .w_valid(wb_valid), .w_ready(wb_ready), .w_data(wb_data), .w_keep(wb_keep), .w_last(wb_last),
    .b_valid(mem.b_valid),
    .b_ready(mem.b_ready), .b_resp(mem.b_resp), .b_bytes(mem.b_bytes), .axi
  );
endmodule
