// tb_axi_cosim: protocol checkers bound into openenoc_endpoint_axi, so the
// co-simulation library built from the AXI top (hw/cosim/oe_cosim.cpp over
// the model of openenoc_endpoint_axi, as build/cosim/libopenenoc_rtl.so) and
// with it the engine conformance suite and the vectors run with both links
// checked: openenoc_axi_checker on the AXI4 memory master and on the
// AXI4-Lite CSR slave, stopping the simulation on a violation. The random
// READY/VALID delays come from the wrapper's memory slave (axi_mem_slave.h,
// OE_COSIM_AXI_STALL_PCT in mk/axi.mk). Simulation only.
`include "axi/openenoc_axi_ports.svh"
module tb_axi_cosim
  import openenoc_csr_pkg::*;
#(
  parameter int AXI_DATA_W = 32      // the top's
) (
  input logic                  clk,
  input logic                  rst,
  `OPENENOC_AXIL_PORTS(s_axil_, CSR_ADDR_W, input, input),
  `OPENENOC_AXI_PORTS(m_axi_, AXI_DATA_W, input, input)
);

  // ---- protocol checkers ------------------------------------------------------------
  logic [31:0] m_viol, l_viol, m_bursts, l_bursts;
  logic [6:0]  m_kinds, l_kinds;

  openenoc_axi_checker #(.NAME("m_axi"), .DATA_W(AXI_DATA_W)) u_check_m (
    .clk, .rst, .awaddr(m_axi_awaddr), .awlen(m_axi_awlen), .awsize(m_axi_awsize),
    .awburst(m_axi_awburst), .awcache(m_axi_awcache), .awprot(m_axi_awprot),
    .awvalid(m_axi_awvalid), .awready(m_axi_awready),
    .wdata(m_axi_wdata), .wstrb(m_axi_wstrb), .wlast(m_axi_wlast), .wvalid(m_axi_wvalid),
    .wready(m_axi_wready), .bresp(m_axi_bresp), .bvalid(m_axi_bvalid), .bready(m_axi_bready),
    .araddr(m_axi_araddr), .arlen(m_axi_arlen), .arsize(m_axi_arsize), .arburst(m_axi_arburst),
    .arcache(m_axi_arcache), .arprot(m_axi_arprot),
    .arvalid(m_axi_arvalid), .arready(m_axi_arready), .rdata(m_axi_rdata), .rresp(m_axi_rresp),
    .rlast(m_axi_rlast), .rvalid(m_axi_rvalid), .rready(m_axi_rready),
    .violations(m_viol), .kinds(m_kinds), .bursts(m_bursts)
  );
  openenoc_axi_checker #(.NAME("s_axil")) u_check_l (
    .clk, .rst, .awaddr({19'd0, s_axil_awaddr}), .awlen(8'd0), .awsize(3'd2), .awburst(2'b01),
    .awcache(4'd0), .awprot(s_axil_awprot), .awvalid(s_axil_awvalid), .awready(s_axil_awready),
    .wdata(s_axil_wdata), .wstrb(s_axil_wstrb), .wlast(1'b1), .wvalid(s_axil_wvalid),
    .wready(s_axil_wready), .bresp(s_axil_bresp), .bvalid(s_axil_bvalid), .bready(s_axil_bready),
    .araddr({19'd0, s_axil_araddr}), .arlen(8'd0), .arsize(3'd2), .arburst(2'b01),
    .arcache(4'd0), .arprot(s_axil_arprot), .arvalid(s_axil_arvalid), .arready(s_axil_arready),
    .rdata(s_axil_rdata), .rresp(s_axil_rresp), .rlast(1'b1), .rvalid(s_axil_rvalid),
    .rready(s_axil_rready), .violations(l_viol), .kinds(l_kinds), .bursts(l_bursts)
  );

  // one line per model at its end (the wrapper calls final() when the engine
  // is destroyed), so a run shows the traffic really crossed the AXI ports
  final $display("tb_axi_cosim: AXI4 %0d bursts, AXI4-Lite %0d transactions, %0d violations",
                 m_bursts, l_bursts, m_viol + l_viol);

  // verilator lint_off UNUSEDSIGNAL
  wire unused = &{1'b0, m_kinds, l_kinds};
  // verilator lint_on UNUSEDSIGNAL
endmodule

bind openenoc_endpoint_axi tb_axi_cosim #(.AXI_DATA_W(AXI_DATA_W)) u_tb (.*);
