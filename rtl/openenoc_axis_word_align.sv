// openenoc_axis_word_align (RX side of the Ethernet width): an AXI-Stream
// of ETH_W-bit beats in, the frame's next 32-bit words out at the current
// word position. Beats are packed (every beat of a frame full but its last,
// tkeep contiguous from byte 0); every oETP field sits on a 4-byte boundary
// of the frame, so a consumer walks the frame in words:
//   header mode  w_take_one: one word a cycle (w_one_valid, w_one_last);
//                word 0 is presented as soon as its beat has been stored,
//                without waiting for the beat's other words or the next beat
//   data mode    w_take_all: all presented words a cycle (w_all_valid when
//                w_all_max words (N = ETH_W / 32 for full rate, fewer for
//                the end of a field) are there or the frame's last word is
//                among them; w_all_last: they end the frame; w_keep gives
//                their bytes)
// The mode may change in any cycle, also in the middle of a beat (RX: word 7
// of a DMA_WRITE_REQ starts its Data). Lane 0 of w_data/w_keep is the next
// word; w_keep is 0 beyond the presented words (a frame's words never share
// a presentation with the next frame's). With w_take_all every cycle it
// moves N words a cycle. s_tready is a function of stored state only (no
// path from the takes); one cycle from a beat's handshake to its first word.
// At ETH_W = 32 it is wires: w_* are s_*, s_tready = w_take_one ||
// w_take_all (ready follows the take, so a take must follow valid). Ports:
// OPENENOC_EP_ETH_PORTS and OPENENOC_AXIS_WORD_PORTS
// (endpoint/openenoc_ep_ports.svh); see openenoc_axis_word_buf.
`include "endpoint/openenoc_ep_ports.svh"
module openenoc_axis_word_align #(
  parameter int ETH_W = 64   // 32, 64, 128 or 256
) (
  input  logic               clk,
  input  logic               rst,
  `OPENENOC_EP_ETH_PORTS(s_, input, output, ETH_W),
  `OPENENOC_AXIS_WORD_PORTS(w_, output, input, ETH_W)
);
  if (ETH_W != 32 && ETH_W != 64 && ETH_W != 128 && ETH_W != 256)
    $fatal(1, "ETH_W %0d is not 32, 64, 128 or 256", ETH_W);

  if (ETH_W == 32) begin : g_wire
    assign w_data      = s_tdata;
    assign w_keep      = s_tkeep;
    assign w_one_valid = s_tvalid;
    assign w_one_last  = s_tlast;
    assign w_all_valid = s_tvalid;
    assign w_all_last  = s_tlast;
    assign s_tready    = w_take_one || w_take_all;
    // verilator lint_off UNUSEDSIGNAL
    wire unused = &{1'b0, clk, rst, w_all_max};
    // verilator lint_on UNUSEDSIGNAL
  end else begin : g_buf
    openenoc_axis_word_buf #(.W(ETH_W)) u_buf (.*);
  end
endmodule
