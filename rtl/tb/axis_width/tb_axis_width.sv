// The Verilator top of the width converters' bench (tb_axis_width.cpp): the
// aligner and the packer side by side at one ETH_W, flat ports, driven and
// checked independently by the C++ reference model.
`include "endpoint/openenoc_ep_ports.svh"
module tb_axis_width #(
  parameter int ETH_W = 64
) (
  input  logic               clk,
  input  logic               rst,
  // aligner
  `OPENENOC_EP_ETH_PORTS(a_, input, output, ETH_W),
  `OPENENOC_AXIS_WORD_PORTS(a_, output, input, ETH_W),
  // packer
  `OPENENOC_EP_ETH_PORTS(pi_, input, output, ETH_W),
  `OPENENOC_EP_ETH_PORTS(po_, output, input, ETH_W)
);
  openenoc_axis_word_align #(.ETH_W(ETH_W)) u_align (
    .clk, .rst, .s_tdata(a_tdata), .s_tkeep(a_tkeep), .s_tlast(a_tlast), .s_tvalid(a_tvalid),
    .s_tready(a_tready), .w_data(a_data), .w_keep(a_keep), .w_one_valid(a_one_valid),
    .w_one_last(a_one_last), .w_all_valid(a_all_valid), .w_all_last(a_all_last),
    .w_take_one(a_take_one), .w_take_all(a_take_all), .w_all_max(a_all_max)
  );

  openenoc_axis_word_pack #(.ETH_W(ETH_W)) u_pack (
    .clk, .rst, .s_tdata(pi_tdata), .s_tkeep(pi_tkeep), .s_tlast(pi_tlast), .s_tvalid(pi_tvalid),
    .s_tready(pi_tready), .m_tdata(po_tdata), .m_tkeep(po_tkeep), .m_tlast(po_tlast),
    .m_tvalid(po_tvalid), .m_tready(po_tready)
  );
endmodule
