// Register slice for the endpoint's memory-port beats (W bits of data, its
// keep and last, as openenoc_ep_mem_if's beat_t, and the read responses, 2
// bits per 4-byte word as the interface's r_resp): openenoc_axis_skid with the
// data, keep and last in the stream's fields and the responses in TUSER (TID
// and TDEST unused, constant 0). s_ready is a flop, one beat per cycle; PASS
// as in openenoc_axis_skid (1: a beat passes without a cycle while the slice
// is empty).
module openenoc_axi_beat_slice #(
  parameter bit PASS = 1'b0,
  parameter int W    = 32
) (
  input  logic       clk,
  input  logic       rst,
  input  logic       s_valid,
  output logic       s_ready,
  input  logic [W+W/8:0]      s_beat,   // {data, keep, last}
  input  logic [2*(W/32)-1:0] s_resp,
  output logic       m_valid,
  input  logic       m_ready,
  output logic [W+W/8:0]      m_beat,
  output logic [2*(W/32)-1:0] m_resp
);
  localparam int RW = 2 * (W / 32);
  openenoc_axis_if #(.DATA_W(W), .USER_W(RW)) s (), m ();

  assign s.tvalid = s_valid;
  assign s_ready  = s.tready;
  assign {s.tdata, s.tkeep, s.tlast} = s_beat;
  assign s.tid    = '0;
  assign s.tdest  = '0;
  assign s.tuser  = s_resp;

  openenoc_axis_skid #(.DATA_W(W), .USER_W(RW), .PASS(PASS)) u_skid (.clk, .rst, .s(s), .m(m));

  assign m_valid  = m.tvalid;
  assign m.tready = m_ready;
  assign m_beat   = {m.tdata, m.tkeep, m.tlast};
  assign m_resp   = m.tuser;
endmodule
