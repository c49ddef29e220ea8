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
  output logic [ETH_W-1:0]   a_data,
  output logic [ETH_W/8-1:0] a_keep,
  output logic               a_one_valid,
  output logic               a_one_last,
  output logic               a_all_valid,
  output logic               a_all_last,
  input  logic               a_take_one,
  input  logic               a_take_all,
  // packer
  input  logic [ETH_W-1:0]   p_data,
  input  logic [ETH_W/8-1:0] p_keep,
  input  logic               p_last,
  input  logic               p_valid,
  output logic               p_ready,
  `OPENENOC_EP_ETH_PORTS(p_, output, input, ETH_W)
);
  openenoc_axis_word_align #(.ETH_W(ETH_W)) u_align (
    .clk, .rst, .s_tdata(a_tdata), .s_tkeep(a_tkeep), .s_tlast(a_tlast), .s_tvalid(a_tvalid),
    .s_tready(a_tready), .o_data(a_data), .o_keep(a_keep), .o_one_valid(a_one_valid),
    .o_one_last(a_one_last), .o_all_valid(a_all_valid), .o_all_last(a_all_last),
    .take_one(a_take_one), .take_all(a_take_all)
  );

  openenoc_axis_word_pack #(.ETH_W(ETH_W)) u_pack (
    .clk, .rst, .i_data(p_data), .i_keep(p_keep), .i_last(p_last), .i_valid(p_valid),
    .i_ready(p_ready), .m_tdata(p_tdata), .m_tkeep(p_tkeep), .m_tlast(p_tlast),
    .m_tvalid(p_tvalid), .m_tready(p_tready)
  );
endmodule
