// openenoc_endpoint_axi: the openENOC endpoint (rtl/endpoint/) with standard
// ports: an AXI4-Lite slave for the 8 KiB CSR aperture, an AXI4 master
// (AXI_DATA_W-bit data, INCR bursts of at most BURST_MAX beats that never cross
// 4 KiB, WSTRB for unaligned heads and tails, one burst outstanding; no ID
// signals: one ID, all in order) for local memory, AXI-Stream Ethernet
// without FCS, and the interrupt. The endpoint's memory port moves one
// transfer at a time, so the read and write sides are never busy together.
`include "axi/openenoc_axi_ports.svh"
`include "endpoint/openenoc_ep_ports.svh"
module openenoc_endpoint_axi
  import openenoc_ep_pkg::*;
  import openenoc_csr_pkg::*;
#(
  parameter int MAX_RAW_FRAME_SIZE = 8192,
  parameter int BURST_MAX          = 256,   // beats per burst: power of two, 2..256
  parameter int ETH_W              = 32,    // Ethernet stream width: 32, 64, 128 or 256
  parameter int AXI_DATA_W         = 32,    // AXI4 master data bits: 32, 64, 128 or 256
  // the endpoint's memory port: 32, 64, 128 or 256 bits, at most AXI_DATA_W (the
  // memory master's bridges up- and down-size between it and the bus)
  parameter int MEM_W              = 32,
  // above 32 bits: an RMEM read without four register stages (fewer cycles,
  // a longer path; openenoc_endpoint has the list): for co-simulation
  parameter bit LOW_LATENCY        = 1'b0
) (
  input  logic                  clk,
  input  logic                  rst,            // synchronous, active high
  input  logic [31:0]           time_step,      // 1 in hardware (co-simulation: host time)
  input  logic                  local_tx_en,    // 1 in hardware without pacing
  input  logic [13:0]           max_frame_size, // MAX_RAW_FRAME_SIZE in hardware
  // interrupt: level, plus a one-cycle message pulse on a pop that leaves claims
  output logic                  irq,
  output logic                  irq_msg,
  // the direct-stream sink still has room for a maximum frame
  output logic                  can_receive,
  // endpoint cycles until a running response timer expires (0 = none): the
  // co-simulation host's next wake-up (unused in hardware)
  output logic [32:0]           timer_wake,
  // nothing moves inside and no memory transfer is in flight: with the
  // inputs held, the endpoint waits for a port, a CSR access or time (the
  // co-simulation host's call may end; unused in hardware)
  output logic                  idle,
  // AXI4-Lite slave: CSR aperture (byte offsets 0..0x1FFF)
  `OPENENOC_AXIL_PORTS(s_axil_, CSR_ADDR_W, input, output),
  // AXI4 master: local memory
  `OPENENOC_AXI_PORTS(m_axi_, AXI_DATA_W, output, input),
  // AXI-Stream Ethernet, no FCS
  `OPENENOC_EP_ETH_PORTS(s_axis_eth_, input, output, ETH_W),
  `OPENENOC_EP_ETH_PORTS(m_axis_eth_, output, input, ETH_W)
);
  if (BURST_MAX < 2 || BURST_MAX > 256 || (BURST_MAX & (BURST_MAX - 1)) != 0)
    $fatal(1, "BURST_MAX %0d is not a power of two in 2..256", BURST_MAX);
  if (AXI_DATA_W != 32 && AXI_DATA_W != 64 && AXI_DATA_W != 128 && AXI_DATA_W != 256)
    $fatal(1, "AXI_DATA_W %0d is not 32, 64, 128 or 256", AXI_DATA_W);
  if (MEM_W > AXI_DATA_W)
    $fatal(1, "MEM_W %0d is wider than AXI_DATA_W %0d", MEM_W, AXI_DATA_W);

  // ---- the endpoint ---------------------------------------------------------
  logic                  csr_req, csr_req_is_wr, csr_rd_ack, csr_wr_ack;
  logic [CSR_ADDR_W-1:0] csr_addr;
  logic [31:0]           csr_wr_data, csr_wr_biten, csr_rd_data;
  openenoc_ep_mem_if #(.W(MEM_W)) mem ();
  openenoc_axi_if #(.DATA_W(AXI_DATA_W)) axi ();
  logic                  ep_idle, mem_idle;

  // the memory master holds no request, no beat and no burst
  assign idle = ep_idle && mem_idle;

  openenoc_endpoint #(.MAX_RAW_FRAME_SIZE(MAX_RAW_FRAME_SIZE), .ETH_W(ETH_W), .MEM_W(MEM_W),
                    .LOW_LATENCY(LOW_LATENCY)) u_ep (
    .clk, .rst, .time_step, .local_tx_en, .max_frame_size,
    .csr_req, .csr_req_is_wr, .csr_addr, .csr_wr_data, .csr_wr_biten,
    .csr_rd_ack, .csr_rd_data, .csr_wr_ack, .irq, .irq_msg, .can_receive, .timer_wake,
    .idle(ep_idle),
    .rx_tvalid(s_axis_eth_tvalid), .rx_tready(s_axis_eth_tready), .rx_tdata(s_axis_eth_tdata),
    .rx_tkeep(s_axis_eth_tkeep), .rx_tlast(s_axis_eth_tlast),
    .tx_tvalid(m_axis_eth_tvalid), .tx_tready(m_axis_eth_tready), .tx_tdata(m_axis_eth_tdata),
    .tx_tkeep(m_axis_eth_tkeep), .tx_tlast(m_axis_eth_tlast),
    .mem_req_valid(mem.req_valid), .mem_req_ready(mem.req_ready), .mem_req_write(mem.req.write),
    .mem_req_addr(mem.req.addr), .mem_req_len(mem.req.len),
    .mem_w_valid(mem.w_valid), .mem_w_ready(mem.w_ready), .mem_w_data(mem.w.data),
    .mem_w_keep(mem.w.keep), .mem_w_last(mem.w.last),
    .mem_r_valid(mem.r_valid), .mem_r_ready(mem.r_ready), .mem_r_data(mem.r.data),
    .mem_r_keep(mem.r.keep), .mem_r_last(mem.r.last), .mem_r_resp(mem.r_resp),
    .mem_b_valid(mem.b_valid), .mem_b_ready(mem.b_ready), .mem_b_resp(mem.b_resp),
    .mem_b_bytes(mem.b_bytes)
  );

  // ---- CSR aperture -----------------------------------------------------------
  openenoc_axil_csr #(.PASS(ETH_W > 32 && LOW_LATENCY)) u_axil (
    .clk, .rst,
    .awaddr(s_axil_awaddr), .awprot(s_axil_awprot), .awvalid(s_axil_awvalid),
    .awready(s_axil_awready), .wdata(s_axil_wdata), .wstrb(s_axil_wstrb),
    .wvalid(s_axil_wvalid), .wready(s_axil_wready), .bresp(s_axil_bresp),
    .bvalid(s_axil_bvalid), .bready(s_axil_bready), .araddr(s_axil_araddr),
    .arprot(s_axil_arprot), .arvalid(s_axil_arvalid), .arready(s_axil_arready),
    .rdata(s_axil_rdata), .rresp(s_axil_rresp), .rvalid(s_axil_rvalid), .rready(s_axil_rready),
    .csr_req, .csr_req_is_wr, .csr_addr, .csr_wr_data, .csr_wr_biten,
    .csr_rd_ack, .csr_rd_data, .csr_wr_ack
  );

  // ---- memory master ------------------------------------------------------------
  openenoc_axi_mem #(.BURST_MAX(BURST_MAX), .AXI_DATA_W(AXI_DATA_W), .MEM_W(MEM_W)) u_mem (
    .clk, .rst, .mem, .axi, .idle(mem_idle)
  );

  // the link on the flat m_axi_* ports
  assign m_axi_awaddr  = axi.awaddr;   assign m_axi_awlen   = axi.awlen;
  assign m_axi_awsize  = axi.awsize;   assign m_axi_awburst = axi.awburst;
  assign m_axi_awcache = axi.awcache;  assign m_axi_awprot  = axi.awprot;
  assign m_axi_awvalid = axi.awvalid;  assign axi.awready   = m_axi_awready;
  assign m_axi_wdata   = axi.wdata;    assign m_axi_wstrb   = axi.wstrb;
  assign m_axi_wlast   = axi.wlast;    assign m_axi_wvalid  = axi.wvalid;
  assign axi.wready    = m_axi_wready; assign axi.bresp     = m_axi_bresp;
  assign axi.bvalid    = m_axi_bvalid; assign m_axi_bready  = axi.bready;
  assign m_axi_araddr  = axi.araddr;   assign m_axi_arlen   = axi.arlen;
  assign m_axi_arsize  = axi.arsize;   assign m_axi_arburst = axi.arburst;
  assign m_axi_arcache = axi.arcache;  assign m_axi_arprot  = axi.arprot;
  assign m_axi_arvalid = axi.arvalid;  assign axi.arready   = m_axi_arready;
  assign axi.rdata     = m_axi_rdata;  assign axi.rresp     = m_axi_rresp;
  assign axi.rlast     = m_axi_rlast;  assign axi.rvalid    = m_axi_rvalid;
  assign m_axi_rready  = axi.rready;
endmodule
