// Register slice for the endpoint's memory-port beats (W bits of data, its
// keep and last, the fields of openenoc_ep_mem_if's beat_t, and the read
// responses, 2 bits per 4-byte word as the interface's r_resp):
// openenoc_axis_skid with the data, keep and last in the stream's fields and
// the responses in TUSER (TID and TDEST unused, constant 0). s_ready is a
// flop, one beat per cycle; PASS as in openenoc_axis_skid (1: a beat passes
// without a cycle while the slice is empty). The beat's fields are separate
// ports, not one {data, keep, last} vector: in the Verilator model a packed
// beat is put together and taken apart again with shifts (the data is not
// word-aligned in it) on every cycle, at each side of the slice.
module openenoc_axi_beat_slice #(
  parameter bit PASS = 1'b0,
  parameter int W    = 32
) (
  input  logic       clk,
  input  logic       rst,
  input  logic       s_valid,
  output logic       s_ready,
  input  logic [W-1:0]        s_data,
  input  logic [W/8-1:0]      s_keep,
  input  logic                s_last,
  input  logic [2*(W/32)-1:0] s_resp,
  output logic       m_valid,
  input  logic       m_ready,
  output logic [W-1:0]        m_data,
  output logic [W/8-1:0]      m_keep,
  output logic                m_last,
  output logic [2*(W/32)-1:0] m_resp
);
  localparam int RW = 2 * (W / 32);
  openenoc_axis_if #(.DATA_W(W), .USER_W(RW)) s (), m ();

  assign s.tvalid = s_valid;
  assign s_ready  = s.tready;
  assign s.tdata  = s_data;
  assign s.tkeep  = s_keep;
  assign s.tlast  = s_last;
  assign s.tid    = '0;
  assign s.tdest  = '0;
  assign s.tuser  = s_resp;

  openenoc_axis_skid #(.DATA_W(W), .USER_W(RW), .PASS(PASS)) u_skid (.clk, .rst, .s(s), .m(m));

  assign m_valid  = m.tvalid;
  assign m.tready = m_ready;
  assign m_data   = m.tdata;
  assign m_keep   = m.tkeep;
  assign m_last   = m.tlast;
  assign m_resp   = m.tuser;
endmodule
