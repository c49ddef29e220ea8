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
  // packer: pack_pass 0 drives the packer with PASS 0, 1 the one with PASS
  // 1 (the other sees no VALID and stays empty)
  input  logic               pack_pass,
  `OPENENOC_EP_ETH_PORTS(pi_, input, output, ETH_W),
  `OPENENOC_EP_ETH_PORTS(po_, output, input, ETH_W)
);
  openenoc_axis_word_align #(.ETH_W(ETH_W)) u_align (
    .clk, .rst, .s_tdata(a_tdata), .s_tkeep(a_tkeep), .s_tlast(a_tlast), .s_tvalid(a_tvalid),
    .s_tready(a_tready), .w_data(a_data), .w_keep(a_keep), .w_one_valid(a_one_valid),
    .w_one_last(a_one_last), .w_all_valid(a_all_valid), .w_all_last(a_all_last),
    .w_take_one(a_take_one), .w_take_all(a_take_all), .w_all_max(a_all_max)
  );

  localparam int KW = ETH_W / 8;
  logic [ETH_W-1:0] p_tdata [2];
  logic [KW-1:0]    p_tkeep [2];
  logic             p_tlast [2], p_tvalid [2], p_tready [2];
  for (genvar k = 0; k < 2; k++) begin : g_pack
    openenoc_axis_word_pack #(.ETH_W(ETH_W), .PASS(k == 1)) u_pack (
      .clk, .rst, .s_tdata(pi_tdata), .s_tkeep(pi_tkeep), .s_tlast(pi_tlast),
      .s_tvalid(pi_tvalid && pack_pass == (k == 1)), .s_tready(p_tready[k]),
      .m_tdata(p_tdata[k]), .m_tkeep(p_tkeep[k]), .m_tlast(p_tlast[k]), .m_tvalid(p_tvalid[k]),
      .m_tready(po_tready && pack_pass == (k == 1))
    );
  end
  assign pi_tready = p_tready[pack_pass];
  assign po_tdata  = p_tdata[pack_pass];
  assign po_tkeep  = p_tkeep[pack_pass];
  assign po_tlast  = p_tlast[pack_pass];
  assign po_tvalid = p_tvalid[pack_pass];
endmodule
