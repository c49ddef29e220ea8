// openenoc_axis_word_align (RX side of the Ethernet width): an AXI-Stream
// of ETH_W-bit beats in, the frame's next 32-bit words out at the current
// word position. Beats are packed (every beat of a frame full but its last,
// tkeep contiguous from byte 0); every oETP field sits on a 4-byte boundary
// of the frame, so a consumer walks the frame in words:
//   header mode  take_one: one word a cycle (o_one_valid, o_one_last); word
//                0 is presented as soon as its beat has been stored, without
//                waiting for the beat's other words or the next beat
//   data mode    take_all: all presented words a cycle (o_all_valid when N
//                = ETH_W / 32 words are there or the frame's last word is
//                among them; o_all_last: they end the frame; o_keep gives
//                their bytes)
// The mode may change in any cycle, also in the middle of a beat (RX: word 7
// of a DMA_WRITE_REQ starts its Data). Lane 0 of o_data/o_keep is the next
// word; o_keep is 0 beyond the presented words (a frame's words never share
// a presentation with the next frame's). With take_all every cycle it moves
// N words a cycle. s_tready is a function of stored state only (no path from
// take_*); one cycle from a beat's handshake to its first word. At ETH_W =
// 32 it is wires: o_* are s_*, s_tready = take_one || take_all (ready follows
// the take, so a take must follow valid). See openenoc_axis_word_buf.
`include "endpoint/openenoc_ep_ports.svh"
module openenoc_axis_word_align #(
  parameter int ETH_W = 64   // 32, 64 or 128
) (
  input  logic               clk,
  input  logic               rst,
  `OPENENOC_EP_ETH_PORTS(s_, input, output, ETH_W),
  output logic [ETH_W-1:0]   o_data,
  output logic [ETH_W/8-1:0] o_keep,
  output logic               o_one_valid,
  output logic               o_one_last,
  output logic               o_all_valid,
  output logic               o_all_last,
  input  logic               take_one,
  input  logic               take_all
);
  if (ETH_W != 32 && ETH_W != 64 && ETH_W != 128)
    $fatal(1, "ETH_W %0d is not 32, 64 or 128", ETH_W);

  if (ETH_W == 32) begin : g_wire
    assign o_data      = s_tdata;
    assign o_keep      = s_tkeep;
    assign o_one_valid = s_tvalid;
    assign o_one_last  = s_tlast;
    assign o_all_valid = s_tvalid;
    assign o_all_last  = s_tlast;
    assign s_tready    = take_one || take_all;
    // verilator lint_off UNUSEDSIGNAL
    wire unused = &{1'b0, clk, rst};
    // verilator lint_on UNUSEDSIGNAL
  end else begin : g_buf
    openenoc_axis_word_buf #(.W(ETH_W)) u_buf (
      .clk, .rst, .in_valid(s_tvalid), .in_ready(s_tready), .in_data(s_tdata), .in_keep(s_tkeep),
      .in_last(s_tlast), .o_data, .o_keep, .o_one_valid, .o_one_last, .o_all_valid, .o_all_last,
      .take_one, .take_all
    );
  end
endmodule
