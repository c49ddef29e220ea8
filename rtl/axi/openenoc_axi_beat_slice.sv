// Register slice for the endpoint's memory-port beats (openenoc_ep_pkg
// mem_beat_t and a 2-bit response): openenoc_axis_skid with the data, keep
// and last in the stream's fields and the response in TUSER (TID and TDEST
// unused, constant 0). s_ready is a flop, one beat per cycle; PASS as in
// openenoc_axis_skid (1: a beat passes without a cycle while the slice is
// empty).
module openenoc_axi_beat_slice
  import openenoc_ep_pkg::*;
#(
  parameter bit PASS = 1'b0
) (
  input  logic       clk,
  input  logic       rst,
  input  logic       s_valid,
  output logic       s_ready,
  input  mem_beat_t  s_beat,
  input  logic [1:0] s_resp,
  output logic       m_valid,
  input  logic       m_ready,
  output mem_beat_t  m_beat,
  output logic [1:0] m_resp
);
  openenoc_axis_if #(.DATA_W(32), .USER_W(2)) s (), m ();

  assign s.tvalid = s_valid;
  assign s_ready  = s.tready;
  assign s.tdata  = s_beat.data;
  assign s.tkeep  = s_beat.keep;
  assign s.tlast  = s_beat.last;
  assign s.tid    = '0;
  assign s.tdest  = '0;
  assign s.tuser  = s_resp;

  openenoc_axis_skid #(.DATA_W(32), .USER_W(2), .PASS(PASS)) u_skid (.clk, .rst, .s(s), .m(m));

  assign m_valid  = m.tvalid;
  assign m.tready = m_ready;
  assign m_beat   = '{data: m.tdata, keep: m.tkeep, last: m.tlast};
  assign m_resp   = m.tuser;
endmodule
