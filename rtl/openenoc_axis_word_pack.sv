// openenoc_axis_word_pack (TX side of the Ethernet width): 1..N 32-bit
// frame words a cycle in (N = ETH_W / 32), packed ETH_W-bit AXI-Stream beats
// out: every beat of a frame full but its last, tkeep contiguous from byte 0.
// Input lane i carries a word when i == 0 or s_tkeep[4*i] (words full but the
// frame's last; s_tlast: the highest word carried ends the frame). A beat
// leaves when N words are stored or the frame's last word is among them, so
// one word a cycle works (a beat every N cycles) and N words a cycle run at
// full throughput. m_* come from registers; s_tready is a function of stored
// state only (no path from m_tready). m_tdata lanes beyond m_tkeep carry
// left-over words. At ETH_W = 32 it is wires. See openenoc_axis_word_buf.
//
// PASS = 1 (for a source whose outputs are registers, TX): while nothing is
// stored, an input beat that would leave whole anyway (N words, or the
// frame's end) is presented on m_* in the cycle it arrives instead of the
// next, and is stored only if m_tready is low (presented again from the
// buffer, unchanged, until taken). m_* are then a multiplexer of the
// source's registers and the buffer's; s_tready is still the stored count
// alone. It saves the buffer's cycle on every frame's end (an oETP header
// alone, an RMEM request or reply, is one or two beats). PASS = 0 is the
// packer as before (the payload packer keeps it).
`include "endpoint/openenoc_ep_ports.svh"
module openenoc_axis_word_pack #(
  parameter int ETH_W = 64,  // 32, 64, 128 or 256
  parameter bit PASS  = 1'b0 // an empty packer passes a whole beat through
) (
  input  logic               clk,
  input  logic               rst,
  `OPENENOC_EP_ETH_PORTS(s_, input, output, ETH_W),
  `OPENENOC_EP_ETH_PORTS(m_, output, input, ETH_W)
);
  if (ETH_W != 32 && ETH_W != 64 && ETH_W != 128 && ETH_W != 256)
    $fatal(1, "ETH_W %0d is not 32, 64, 128 or 256", ETH_W);

  if (ETH_W == 32) begin : g_wire
    assign m_tdata  = s_tdata;
    assign m_tkeep  = s_tkeep;
    assign m_tlast  = s_tlast;
    assign m_tvalid = s_tvalid;
    assign s_tready  = m_tready;
    // verilator lint_off UNUSEDSIGNAL
    wire unused = &{1'b0, clk, rst};
    // verilator lint_on UNUSEDSIGNAL
  end else begin : g_buf
    localparam int KW = ETH_W / 8;
    logic             one_valid, one_last, all_valid, all_last, buf_valid;
    logic [ETH_W-1:0] w_data;
    logic [KW-1:0]    w_keep;
    // byp: the buffer is empty (w_one_valid low) and the input beat is one
    // it would present whole in the next cycle: its last lane carries a
    // word or it ends the frame. Taken at m_*, it is not stored.
    wire byp = PASS && !one_valid && s_tvalid && (s_tlast || s_tkeep[KW-4]);
    assign buf_valid = s_tvalid && !(byp && m_tready);
    openenoc_axis_word_buf #(.W(ETH_W)) u_buf (
      .clk, .rst, .s_tdata, .s_tkeep, .s_tlast, .s_tvalid(buf_valid), .s_tready, .w_data,
      .w_keep, .w_one_valid(one_valid), .w_one_last(one_last), .w_all_valid(all_valid),
      .w_all_last(all_last), .w_take_one(1'b0), .w_take_all(m_tready),
      .w_all_max($clog2(ETH_W / 32 + 1)'(ETH_W / 32))
    );
    // an empty buffer presents nothing (all_valid low), so byp alone
    // selects the input
    assign m_tvalid = byp || all_valid;
    assign m_tdata  = byp ? s_tdata : w_data;
    assign m_tkeep  = byp ? s_tkeep : w_keep;
    assign m_tlast  = byp ? s_tlast : all_last;
    // verilator lint_off UNUSEDSIGNAL
    wire unused = &{1'b0, one_last};
    // verilator lint_on UNUSEDSIGNAL
  end
endmodule
