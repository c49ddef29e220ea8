// tb_axi_cosim: openenoc_endpoint_axi behind the port list of
// openenoc_endpoint, so the co-simulation wrapper (hw/cosim/oe_cosim.cpp,
// unchanged) and with it the engine conformance suite and the vectors run
// through the AXI ports. Simulation only. Around the DUT:
//   - an AXI4-Lite master that turns each CSR bus request into one AXI4-Lite
//     transaction and acknowledges it when B/R arrives;
//   - an AXI4 slave that serves each burst as one transfer of the wrapper's
//     memory port of exactly its bytes (a read burst from its unaligned
//     start, a write burst from its first to its last strobed byte; narrow
//     read beats one by one), with that transfer's response;
//   - random READY/VALID delays (a 16-bit LFSR that only steps in a cycle
//     whose handshake it may delay, so an idle or waiting model is still
//     quiescent; STALL of 8 is the chance of a delay per cycle);
//   - openenoc_axi_checker on both links, stopping the simulation on a
//     violation.
module tb_axi_cosim
  import openenoc_csr_pkg::*;
#(
  parameter int MAX_RAW_FRAME_SIZE = 8192,
  parameter int BURST_MAX          = 256,
  parameter int STALL              = 3,
  parameter logic [15:0] SEED      = 16'hACE1
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic [31:0]           time_step,
  input  logic                  local_tx_en,
  input  logic [13:0]           max_frame_size,
  input  logic                  csr_req,
  input  logic                  csr_req_is_wr,
  input  logic [CSR_ADDR_W-1:0] csr_addr,
  input  logic [31:0]           csr_wr_data,
  input  logic [31:0]           csr_wr_biten,
  output logic                  csr_rd_ack,
  output logic [31:0]           csr_rd_data,
  output logic                  csr_wr_ack,
  output logic                  irq,
  output logic                  irq_msg,
  output logic                  can_receive,
  output logic [32:0]           timer_wake,
  input  logic                  rx_tvalid,
  output logic                  rx_tready,
  input  logic [31:0]           rx_tdata,
  input  logic [3:0]            rx_tkeep,
  input  logic                  rx_tlast,
  output logic                  tx_tvalid,
  input  logic                  tx_tready,
  output logic [31:0]           tx_tdata,
  output logic [3:0]            tx_tkeep,
  output logic                  tx_tlast,
  output logic                  mem_req_valid,
  input  logic                  mem_req_ready,
  output logic                  mem_req_write,
  output logic [31:0]           mem_req_addr,
  output logic [15:0]           mem_req_len,
  output logic                  mem_w_valid,
  input  logic                  mem_w_ready,
  output logic [31:0]           mem_w_data,
  output logic [3:0]            mem_w_keep,
  output logic                  mem_w_last,
  input  logic                  mem_r_valid,
  output logic                  mem_r_ready,
  input  logic [31:0]           mem_r_data,
  input  logic [3:0]            mem_r_keep,
  input  logic                  mem_r_last,
  input  logic [1:0]            mem_r_resp,
  input  logic                  mem_b_valid,
  output logic                  mem_b_ready,
  input  logic [1:0]            mem_b_resp,
  input  logic [15:0]           mem_b_bytes
);
  // AXI4-Lite
  logic [CSR_ADDR_W-1:0] l_awaddr, l_araddr;
  logic        l_awvalid, l_awready, l_wvalid, l_wready, l_bvalid, l_bready;
  logic        l_arvalid, l_arready, l_rvalid, l_rready;
  logic [31:0] l_wdata, l_rdata;
  logic [3:0]  l_wstrb;
  logic [1:0]  l_bresp, l_rresp;
  // AXI4
  logic [31:0] awaddr, araddr, wdata, rdata;
  logic [7:0]  awlen, arlen;
  logic [2:0]  awsize, arsize, awprot, arprot;
  logic [1:0]  awburst, arburst, bresp, rresp;
  logic [3:0]  awcache, arcache, wstrb;
  logic        awvalid, awready, wlast, wvalid, wready, bvalid, bready;
  logic        arvalid, arready, rlast, rvalid, rready;

  openenoc_endpoint_axi #(.MAX_RAW_FRAME_SIZE(MAX_RAW_FRAME_SIZE), .BURST_MAX(BURST_MAX)) u_dut (
    .clk, .rst, .time_step, .local_tx_en, .max_frame_size, .irq, .irq_msg, .can_receive,
    .timer_wake,
    .s_axil_awaddr(l_awaddr), .s_axil_awprot(3'b000), .s_axil_awvalid(l_awvalid),
    .s_axil_awready(l_awready), .s_axil_wdata(l_wdata), .s_axil_wstrb(l_wstrb),
    .s_axil_wvalid(l_wvalid), .s_axil_wready(l_wready), .s_axil_bresp(l_bresp),
    .s_axil_bvalid(l_bvalid), .s_axil_bready(l_bready), .s_axil_araddr(l_araddr),
    .s_axil_arprot(3'b000), .s_axil_arvalid(l_arvalid), .s_axil_arready(l_arready),
    .s_axil_rdata(l_rdata), .s_axil_rresp(l_rresp), .s_axil_rvalid(l_rvalid),
    .s_axil_rready(l_rready),
    .m_axi_awaddr(awaddr), .m_axi_awlen(awlen), .m_axi_awsize(awsize), .m_axi_awburst(awburst),
    .m_axi_awcache(awcache), .m_axi_awprot(awprot), .m_axi_awvalid(awvalid),
    .m_axi_awready(awready), .m_axi_wdata(wdata), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast),
    .m_axi_wvalid(wvalid), .m_axi_wready(wready), .m_axi_bresp(bresp), .m_axi_bvalid(bvalid),
    .m_axi_bready(bready), .m_axi_araddr(araddr), .m_axi_arlen(arlen), .m_axi_arsize(arsize),
    .m_axi_arburst(arburst), .m_axi_arcache(arcache), .m_axi_arprot(arprot),
    .m_axi_arvalid(arvalid), .m_axi_arready(arready), .m_axi_rdata(rdata), .m_axi_rresp(rresp),
    .m_axi_rlast(rlast), .m_axi_rvalid(rvalid), .m_axi_rready(rready),
    .s_axis_eth_tdata(rx_tdata), .s_axis_eth_tkeep(rx_tkeep), .s_axis_eth_tlast(rx_tlast),
    .s_axis_eth_tvalid(rx_tvalid), .s_axis_eth_tready(rx_tready),
    .m_axis_eth_tdata(tx_tdata), .m_axis_eth_tkeep(tx_tkeep), .m_axis_eth_tlast(tx_tlast),
    .m_axis_eth_tvalid(tx_tvalid), .m_axis_eth_tready(tx_tready)
  );

  // ---- random delays ---------------------------------------------------------
  typedef enum logic [1:0] { LM_IDLE, LM_WR, LM_B, LM_R } lm_state_e;
  typedef enum logic [3:0] { S_IDLE, S_BREQ, S_BR, S_RREQ, S_RDATA, S_R, S_W, S_WREQ, S_WS,
                             S_WFIN, S_WB, S_B } s_state_e;
  lm_state_e   lm_q;
  s_state_e    s_q;
  // the slave's beat in flight
  logic [31:0] cur_q, beat_q;
  logic [7:0]  left_q;
  logic [2:0]  size_q;
  logic        xvalid_q, wlast_q;
  logic [1:0]  xresp_q;
  logic [1:0]  lo_q;
  // a write burst's strobed bytes repacked for the memory port: the newest
  // whole word is held (hq) until the next, so the last one can carry last
  logic [55:0] pk_q;
  logic [2:0]  pk_cnt_q;
  logic        hq_valid_q, o_valid_q, o_last_q;
  logic [31:0] hq_q, o_data_q;
  logic [3:0]  o_keep_q;
  logic [31:0] prev_q;
  logic [15:0] lfsr_q;
  // steps only in a cycle whose handshake it may delay, so a model waiting
  // (an RMEM access pending for its remote answer) stays quiescent
  wire  busy  = (lm_q == LM_B && l_bvalid) || (lm_q == LM_R && l_rvalid) ||
                (s_q == S_IDLE && (arvalid || awvalid)) || ((s_q == S_W || s_q == S_WS) && wvalid) ||
                ((s_q == S_R || s_q == S_B) && !xvalid_q) || (s_q == S_BR && mem_r_valid && !xvalid_q);
  wire  stall = {1'b0, lfsr_q[2:0]} < 4'(STALL);

  always_ff @(posedge clk) begin
    if (rst) lfsr_q <= SEED;
    else if (busy) lfsr_q <= {1'b0, lfsr_q[15:1]} ^ (lfsr_q[0] ? 16'hB400 : 16'h0000);
  end

  // ---- AXI4-Lite master from the CSR bus ----------------------------------------
  logic aw_pend_q, w_pend_q, ar_pend_q, rd_ack_q, wr_ack_q;
  logic [31:0] rd_data_q;
  logic [CSR_ADDR_W-1:0] addr_q;
  logic [31:0] data_q;
  logic [3:0]  strb_q;

  assign l_awaddr  = addr_q;
  assign l_araddr  = addr_q;
  assign l_awvalid = aw_pend_q;
  assign l_wvalid  = w_pend_q;
  assign l_wdata   = data_q;
  assign l_wstrb   = strb_q;
  assign l_arvalid = ar_pend_q;
  assign l_bready  = lm_q == LM_B && !stall;
  assign l_rready  = lm_q == LM_R && !stall;
  assign csr_rd_ack  = rd_ack_q;
  assign csr_rd_data = rd_data_q;
  assign csr_wr_ack  = wr_ack_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      lm_q <= LM_IDLE;
      aw_pend_q <= 1'b0; w_pend_q <= 1'b0; ar_pend_q <= 1'b0;
      rd_ack_q <= 1'b0; wr_ack_q <= 1'b0; rd_data_q <= '0;
      addr_q <= '0; data_q <= '0; strb_q <= '0;
    end else begin
      rd_ack_q <= 1'b0;
      wr_ack_q <= 1'b0;
      if (l_awready) aw_pend_q <= 1'b0;
      if (l_wready)  w_pend_q  <= 1'b0;
      if (l_arready) ar_pend_q <= 1'b0;
      case (lm_q)
        LM_IDLE: if (csr_req) begin
          addr_q <= csr_addr;
          data_q <= csr_wr_data;
          for (int k = 0; k < 4; k++) strb_q[k] <= csr_wr_biten[8*k +: 8] != 8'd0;
          aw_pend_q <= csr_req_is_wr;
          w_pend_q  <= csr_req_is_wr;
          ar_pend_q <= !csr_req_is_wr;
          lm_q      <= csr_req_is_wr ? LM_WR : LM_R;
        end
        LM_WR: if ((!aw_pend_q || l_awready) && (!w_pend_q || l_wready)) lm_q <= LM_B;
        LM_B: if (l_bvalid && l_bready) begin
          wr_ack_q <= 1'b1;
          lm_q     <= LM_IDLE;
        end
        LM_R: if (l_rvalid && l_rready) begin
          rd_ack_q  <= 1'b1;
          rd_data_q <= l_rdata;
          lm_q      <= LM_IDLE;
        end
        default: lm_q <= LM_IDLE;
      endcase
    end
  end

  // ---- AXI4 slave: one memory-port transfer per beat ----------------------------

  wire [31:0] size_bytes = 32'd1 << size_q;
  wire [31:0] beat_next  = (cur_q & ~(size_bytes - 32'd1)) + size_bytes;
  wire [2:0]  beat_n     = 3'(size_bytes - (cur_q & (size_bytes - 32'd1)));

  assign arready = s_q == S_IDLE && arvalid && !stall;
  assign awready = s_q == S_IDLE && !arvalid && awvalid && !stall;
  wire   o_free  = !o_valid_q || mem_w_ready;
  assign wready  = !stall && (s_q == S_W || (s_q == S_WS && o_free));
  // a 32-bit read burst is one memory-port transfer of exactly its bytes: its
  // packed beats, moved up to the address lanes, are the R beats
  wire [31:0] lanes = 32'(({mem_r_data, prev_q} << {cur_q[1:0], 3'b000}) >> 32);
  wire        br_valid = s_q == S_BR && mem_r_valid && (xvalid_q || !stall);
  assign rvalid  = (s_q == S_R && xvalid_q) || br_valid;
  assign rdata   = s_q == S_BR ? lanes : beat_q;
  assign rresp   = s_q == S_BR ? mem_r_resp : xresp_q;
  assign rlast   = s_q == S_BR ? mem_r_last : left_q == 8'd0;
  assign bvalid  = s_q == S_B && xvalid_q;
  assign bresp   = xresp_q;

  assign mem_req_valid = s_q == S_BREQ || s_q == S_RREQ || s_q == S_WREQ;
  assign mem_req_write = s_q == S_WREQ;
  assign mem_req_addr  = s_q == S_WREQ ? {cur_q[31:2], lo_q} : cur_q;
  assign mem_req_len   = s_q == S_WREQ ? {6'd0, left_q, 2'b00} + 16'd4 :
                         s_q == S_BREQ ? {6'd0, left_q, 2'b00} + 16'd4 - {14'd0, cur_q[1:0]} :
                         16'(beat_n);
  assign mem_r_ready   = s_q == S_RDATA || (br_valid && rready);
  assign mem_w_valid   = o_valid_q;
  assign mem_w_data    = o_data_q;
  assign mem_w_keep    = o_keep_q;
  assign mem_w_last    = o_last_q;
  assign mem_b_ready   = s_q == S_WB;

  // the lanes of a write beat: its strobes, lowest first (the DUT's are contiguous)
  logic [1:0] w_lo;
  logic [2:0] w_n;
  always_comb begin
    w_lo = 2'd0;
    w_n  = 3'd0;
    for (int k = 3; k >= 0; k--) if (wstrb[k]) w_lo = 2'(k);
    for (int k = 0; k < 4; k++) w_n = w_n + 3'(wstrb[k]);
  end
  wire [31:0] w_mask  = {{8{wstrb[3]}}, {8{wstrb[2]}}, {8{wstrb[1]}}, {8{wstrb[0]}}};
  wire [55:0] pk_in   = pk_q | ({24'd0, (wdata & w_mask) >> {w_lo, 3'b000}} << {pk_cnt_q, 3'b000});
  wire [3:0]  pk_n    = {1'b0, pk_cnt_q} + {1'b0, w_n};

  always_ff @(posedge clk) begin
    if (rst) begin
      s_q <= S_IDLE;
      cur_q <= '0; beat_q <= '0; left_q <= '0; size_q <= '0; xvalid_q <= 1'b0;
      wlast_q <= 1'b0; xresp_q <= '0; lo_q <= '0; prev_q <= '0;
      pk_q <= '0; pk_cnt_q <= '0; hq_valid_q <= 1'b0; hq_q <= '0;
      o_valid_q <= 1'b0; o_last_q <= 1'b0; o_data_q <= '0; o_keep_q <= '0;
    end else begin
      if (mem_w_ready) o_valid_q <= 1'b0;
      case (s_q)
        S_IDLE: if (arready) begin
          cur_q <= araddr; left_q <= arlen; size_q <= arsize; prev_q <= '0; xvalid_q <= 1'b0;
          s_q <= arsize == 3'd2 ? S_BREQ : S_RREQ;
        end else if (awready) begin
          cur_q <= awaddr; left_q <= awlen; size_q <= 3'd2; xresp_q <= 2'b00;
          pk_q <= '0; pk_cnt_q <= '0; hq_valid_q <= 1'b0; s_q <= S_W;
        end
        S_BREQ: if (mem_req_ready) s_q <= S_BR;
        S_BR: if (br_valid && rready) begin
          xvalid_q <= 1'b0;
          prev_q   <= mem_r_data;
          if (mem_r_last) s_q <= S_IDLE;
        end else if (br_valid) begin
          xvalid_q <= 1'b1;
        end
        S_RREQ: if (mem_req_ready) s_q <= S_RDATA;
        S_RDATA: if (mem_r_valid) begin
          beat_q   <= mem_r_data << {cur_q[1:0], 3'b000};
          xresp_q  <= mem_r_resp;
          xvalid_q <= 1'b0;
          s_q      <= S_R;
        end
        S_R: if (!xvalid_q) begin
          if (!stall) xvalid_q <= 1'b1;
        end else if (rready) begin
          xvalid_q <= 1'b0;
          cur_q    <= beat_next;
          left_q   <= left_q - 8'd1;
          s_q      <= left_q == 8'd0 ? S_IDLE : S_RREQ;
        end
        // one memory-port write per burst, from the first strobed byte
        S_W, S_WS: if (wvalid && wready) begin
          if (s_q == S_W) lo_q <= w_lo;
          if (pk_n >= 4'd4) begin
            if (hq_valid_q) begin
              o_valid_q <= 1'b1;
              o_data_q  <= hq_q;
              o_keep_q  <= 4'hF;
              o_last_q  <= 1'b0;
            end
            hq_valid_q <= 1'b1;
            hq_q       <= pk_in[31:0];
            pk_q       <= pk_in >> 32;
            pk_cnt_q   <= 3'(pk_n - 4'd4);
          end else begin
            pk_q     <= pk_in;
            pk_cnt_q <= pk_n[2:0];
          end
          wlast_q <= wlast;
          if (s_q == S_W) s_q <= S_WREQ;
          else if (wlast) s_q <= S_WFIN;
        end
        S_WREQ: if (mem_req_ready) s_q <= wlast_q ? S_WFIN : S_WS;
        S_WFIN: if (o_free && hq_valid_q) begin
          o_valid_q  <= 1'b1;
          o_data_q   <= hq_q;
          o_keep_q   <= 4'hF;
          o_last_q   <= pk_cnt_q == 3'd0;
          hq_valid_q <= 1'b0;
        end else if (o_free && pk_cnt_q != 3'd0) begin
          o_valid_q <= 1'b1;
          o_data_q  <= pk_q[31:0];
          o_keep_q  <= 4'((5'd1 << pk_cnt_q) - 5'd1);
          o_last_q  <= 1'b1;
          pk_cnt_q  <= '0;
        end else if (!o_valid_q && !hq_valid_q && pk_cnt_q == 3'd0) begin
          s_q <= S_WB;
        end
        S_WB: if (mem_b_valid) begin
          xresp_q  <= mem_b_resp;
          xvalid_q <= 1'b0;
          s_q      <= S_B;
        end
        S_B: if (!xvalid_q) begin
          if (!stall) xvalid_q <= 1'b1;
        end else if (bready) begin
          xvalid_q <= 1'b0;
          s_q      <= S_IDLE;
        end
        default: s_q <= S_IDLE;
      endcase
    end
  end

  // ---- protocol checkers ------------------------------------------------------------
  logic [31:0] m_viol, l_viol, m_bursts, l_bursts;
  logic [6:0]  m_kinds, l_kinds;

  openenoc_axi_checker #(.NAME("m_axi")) u_check_m (
    .clk, .rst, .awaddr, .awlen, .awsize, .awburst, .awvalid, .awready, .wdata, .wstrb, .wlast,
    .wvalid, .wready, .bresp, .bvalid, .bready, .araddr, .arlen, .arsize, .arburst, .arvalid,
    .arready, .rdata, .rresp, .rlast, .rvalid, .rready,
    .violations(m_viol), .kinds(m_kinds), .bursts(m_bursts)
  );
  openenoc_axi_checker #(.NAME("s_axil")) u_check_l (
    .clk, .rst, .awaddr({19'd0, l_awaddr}), .awlen(8'd0), .awsize(3'd2), .awburst(2'b01),
    .awvalid(l_awvalid), .awready(l_awready), .wdata(l_wdata), .wstrb(l_wstrb), .wlast(1'b1),
    .wvalid(l_wvalid), .wready(l_wready), .bresp(l_bresp), .bvalid(l_bvalid),
    .bready(l_bready), .araddr({19'd0, l_araddr}), .arlen(8'd0), .arsize(3'd2),
    .arburst(2'b01), .arvalid(l_arvalid), .arready(l_arready), .rdata(l_rdata),
    .rresp(l_rresp), .rlast(1'b1), .rvalid(l_rvalid), .rready(l_rready),
    .violations(l_viol), .kinds(l_kinds), .bursts(l_bursts)
  );

  // one line per model at its end (the wrapper calls final() when the engine
  // is destroyed), so a run shows the traffic really crossed the AXI ports
  final $display("tb_axi_cosim: AXI4 %0d bursts, AXI4-Lite %0d transactions, %0d violations",
                 m_bursts, l_bursts, m_viol + l_viol);

  // verilator lint_off UNUSEDSIGNAL
  wire unused = &{1'b0, awcache, arcache, awprot, arprot, awsize, mem_r_keep, mem_r_last,
                  mem_b_bytes, m_kinds, l_kinds};
  // verilator lint_on UNUSEDSIGNAL
endmodule
