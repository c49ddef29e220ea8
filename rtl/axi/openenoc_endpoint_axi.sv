// openenoc_endpoint_axi: the openENOC endpoint (rtl/endpoint/) with standard
// ports: an AXI4-Lite slave for the 8 KiB CSR aperture, an AXI4 master
// (32-bit data, INCR bursts of at most BURST_MAX beats that never cross
// 4 KiB, WSTRB for unaligned heads and tails, one burst outstanding; no ID
// signals: one ID, all in order) for local memory, AXI-Stream Ethernet
// without FCS, and the interrupt. The endpoint's memory port moves one
// transfer at a time, so the read and write sides are never busy together.
module openenoc_endpoint_axi
  import openenoc_ep_pkg::*;
  import openenoc_csr_pkg::*;
#(
  parameter int MAX_RAW_FRAME_SIZE = 8192,
  parameter int BURST_MAX          = 256    // beats per burst: power of two, 2..256
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
  input  logic [CSR_ADDR_W-1:0] s_axil_awaddr,
  input  logic [2:0]            s_axil_awprot,
  input  logic                  s_axil_awvalid,
  output logic                  s_axil_awready,
  input  logic [31:0]           s_axil_wdata,
  input  logic [3:0]            s_axil_wstrb,
  input  logic                  s_axil_wvalid,
  output logic                  s_axil_wready,
  output logic [1:0]            s_axil_bresp,
  output logic                  s_axil_bvalid,
  input  logic                  s_axil_bready,
  input  logic [CSR_ADDR_W-1:0] s_axil_araddr,
  input  logic [2:0]            s_axil_arprot,
  input  logic                  s_axil_arvalid,
  output logic                  s_axil_arready,
  output logic [31:0]           s_axil_rdata,
  output logic [1:0]            s_axil_rresp,
  output logic                  s_axil_rvalid,
  input  logic                  s_axil_rready,
  // AXI4 master: local memory
  output logic [31:0]           m_axi_awaddr,
  output logic [7:0]            m_axi_awlen,
  output logic [2:0]            m_axi_awsize,
  output logic [1:0]            m_axi_awburst,
  output logic [3:0]            m_axi_awcache,
  output logic [2:0]            m_axi_awprot,
  output logic                  m_axi_awvalid,
  input  logic                  m_axi_awready,
  output logic [31:0]           m_axi_wdata,
  output logic [3:0]            m_axi_wstrb,
  output logic                  m_axi_wlast,
  output logic                  m_axi_wvalid,
  input  logic                  m_axi_wready,
  input  logic [1:0]            m_axi_bresp,
  input  logic                  m_axi_bvalid,
  output logic                  m_axi_bready,
  output logic [31:0]           m_axi_araddr,
  output logic [7:0]            m_axi_arlen,
  output logic [2:0]            m_axi_arsize,
  output logic [1:0]            m_axi_arburst,
  output logic [3:0]            m_axi_arcache,
  output logic [2:0]            m_axi_arprot,
  output logic                  m_axi_arvalid,
  input  logic                  m_axi_arready,
  input  logic [31:0]           m_axi_rdata,
  input  logic [1:0]            m_axi_rresp,
  input  logic                  m_axi_rlast,
  input  logic                  m_axi_rvalid,
  output logic                  m_axi_rready,
  // AXI-Stream Ethernet, no FCS
  input  logic [31:0]           s_axis_eth_tdata,
  input  logic [3:0]            s_axis_eth_tkeep,
  input  logic                  s_axis_eth_tlast,
  input  logic                  s_axis_eth_tvalid,
  output logic                  s_axis_eth_tready,
  output logic [31:0]           m_axis_eth_tdata,
  output logic [3:0]            m_axis_eth_tkeep,
  output logic                  m_axis_eth_tlast,
  output logic                  m_axis_eth_tvalid,
  input  logic                  m_axis_eth_tready
);
  if (BURST_MAX < 2 || BURST_MAX > 256 || (BURST_MAX & (BURST_MAX - 1)) != 0)
    $fatal(1, "BURST_MAX %0d is not a power of two in 2..256", BURST_MAX);

  // ---- the endpoint ---------------------------------------------------------
  logic                  csr_req, csr_req_is_wr, csr_rd_ack, csr_wr_ack;
  logic [CSR_ADDR_W-1:0] csr_addr;
  logic [31:0]           csr_wr_data, csr_wr_biten, csr_rd_data;
  logic                  req_valid, req_ready, req_write;
  logic [31:0]           req_addr;
  logic [15:0]           req_len;
  logic                  w_valid, w_ready, r_valid, r_ready, b_valid, b_ready;
  mem_beat_t             w_beat, r_beat;
  logic [1:0]            r_resp, b_resp;
  logic [15:0]           b_bytes;
  logic                  ep_idle;

  // the memory master takes a request only with both bridges idle
  assign idle = ep_idle && req_ready;

  openenoc_endpoint #(.MAX_RAW_FRAME_SIZE(MAX_RAW_FRAME_SIZE)) u_ep (
    .clk, .rst, .time_step, .local_tx_en, .max_frame_size,
    .csr_req, .csr_req_is_wr, .csr_addr, .csr_wr_data, .csr_wr_biten,
    .csr_rd_ack, .csr_rd_data, .csr_wr_ack, .irq, .irq_msg, .can_receive, .timer_wake,
    .idle(ep_idle),
    .rx_tvalid(s_axis_eth_tvalid), .rx_tready(s_axis_eth_tready), .rx_tdata(s_axis_eth_tdata),
    .rx_tkeep(s_axis_eth_tkeep), .rx_tlast(s_axis_eth_tlast),
    .tx_tvalid(m_axis_eth_tvalid), .tx_tready(m_axis_eth_tready), .tx_tdata(m_axis_eth_tdata),
    .tx_tkeep(m_axis_eth_tkeep), .tx_tlast(m_axis_eth_tlast),
    .mem_req_valid(req_valid), .mem_req_ready(req_ready), .mem_req_write(req_write),
    .mem_req_addr(req_addr), .mem_req_len(req_len),
    .mem_w_valid(w_valid), .mem_w_ready(w_ready), .mem_w_data(w_beat.data),
    .mem_w_keep(w_beat.keep), .mem_w_last(w_beat.last),
    .mem_r_valid(r_valid), .mem_r_ready(r_ready), .mem_r_data(r_beat.data),
    .mem_r_keep(r_beat.keep), .mem_r_last(r_beat.last), .mem_r_resp(r_resp),
    .mem_b_valid(b_valid), .mem_b_ready(b_ready), .mem_b_resp(b_resp), .mem_b_bytes(b_bytes)
  );

  // ---- CSR aperture -----------------------------------------------------------
  openenoc_axil_csr u_axil (
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
  openenoc_axi_mem #(.BURST_MAX(BURST_MAX)) u_mem (
    .clk, .rst, .req_valid, .req_ready, .req_write, .req_addr, .req_len,
    .w_valid, .w_ready, .w_beat, .r_valid, .r_ready, .r_beat, .r_resp,
    .b_valid, .b_ready, .b_resp, .b_bytes,
    .awaddr(m_axi_awaddr), .awlen(m_axi_awlen), .awsize(m_axi_awsize), .awvalid(m_axi_awvalid),
    .awready(m_axi_awready), .wdata(m_axi_wdata), .wstrb(m_axi_wstrb), .wlast(m_axi_wlast),
    .wvalid(m_axi_wvalid), .wready(m_axi_wready), .bresp(m_axi_bresp), .bvalid(m_axi_bvalid),
    .bready(m_axi_bready), .araddr(m_axi_araddr), .arlen(m_axi_arlen), .arsize(m_axi_arsize),
    .arvalid(m_axi_arvalid), .arready(m_axi_arready), .rdata(m_axi_rdata), .rresp(m_axi_rresp),
    .rlast(m_axi_rlast), .rvalid(m_axi_rvalid), .rready(m_axi_rready)
  );

  // INCR, normal non-cacheable bufferable memory, unprivileged secure data
  assign m_axi_awburst = 2'b01;
  assign m_axi_arburst = 2'b01;
  assign m_axi_awcache = 4'b0011;
  assign m_axi_arcache = 4'b0011;
  assign m_axi_awprot  = 3'b000;
  assign m_axi_arprot  = 3'b000;
endmodule
