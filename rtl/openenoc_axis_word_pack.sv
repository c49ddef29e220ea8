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
`include "endpoint/openenoc_ep_ports.svh"
module openenoc_axis_word_pack #(
  parameter int ETH_W = 64   // 32, 64 or 128
) (
  input  logic               clk,
  input  logic               rst,
  `OPENENOC_EP_ETH_PORTS(s_, input, output, ETH_W),
  `OPENENOC_EP_ETH_PORTS(m_, output, input, ETH_W)
);
  if (ETH_W != 32 && ETH_W != 64 && ETH_W != 128)
    $fatal(1, "ETH_W %0d is not 32, 64 or 128", ETH_W);

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
    logic one_valid, one_last;
    openenoc_axis_word_buf #(.W(ETH_W)) u_buf (
      .clk, .rst, .s_tdata, .s_tkeep, .s_tlast, .s_tvalid, .s_tready, .w_data(m_tdata),
      .w_keep(m_tkeep), .w_one_valid(one_valid), .w_one_last(one_last), .w_all_valid(m_tvalid),
      .w_all_last(m_tlast), .w_take_one(1'b0), .w_take_all(m_tready),
      .w_all_max($clog2(ETH_W / 32 + 1)'(ETH_W / 32))
    );
    // verilator lint_off UNUSEDSIGNAL
    wire unused = &{1'b0, one_valid, one_last};
    // verilator lint_on UNUSEDSIGNAL
  end
endmodule
