// openenoc_endpoint_oetp_engine: Ethernet/oETP parsing and assembly, Request
// ID allocation and response matching, multicast response suppression and
// response timeouts (shared/spec/oetp-engine.txt). Memory access belongs to
// the DMA engine on the other side of initiator_if/responder_if.
//
// This file only wires the controllers (initiator, responder, lookup, RX,
// TX) to the boundary; each of the four streams passes a skid buffer whose
// ready is a flop, and every other output comes from a controller register.
// Three are two-entry register slices; m_axis_eth's is a one-entry skid
// (openenoc_axis_skid PASS): TX drives it from its output register, so its
// beats leave in the cycle TX offers them (one cycle less per frame) and
// m_axis_eth is still a multiplexer of registers, never of inputs.
//
// ETH_W (32, 64, 128 or 256) is the width of s_axis_eth, s_axis_local (the DMA
// engine's transmit payload: byte-packed, every beat full but the last,
// TID/TDEST/TUSER constant in a fragment) and m_axis_eth. Above 32 bits the
// word aligner (openenoc_axis_word_align) takes the place of s_axis_eth's
// slice and hands RX the frame's 32-bit words, one a cycle in the header and
// parameters, up to N = ETH_W / 32 a cycle in Data and raw frames; TX takes
// Data a beat (N words) per cycle and emits 1..N frame words a cycle
// into openenoc_axis_word_pack, which packs them into Ethernet beats in
// front of the m_axis_eth skid (both wires at 32). m_axis_local is ETH_W
// wide too (byte-packed, every beat full but a frame's last, TID/TDEST/TUSER
// constant until TLAST): RX emits 1..N words a cycle (Data and a raw frame's
// words after its header a presentation of the aligner, the header a word),
// and openenoc_axis_payload_pack packs them (and holds the sideband) in front
// of the m_axis_local slice (wires at 32).
module openenoc_endpoint_oetp_engine
  import openenoc_oetp_pkg::*;
#(
  parameter int MAX_RAW_FRAME_SIZE = 8192,
  // Ethernet and transmit-payload width: 32, 64, 128 or 256 (see above)
  parameter int ETH_W              = 32,
  // above 32 bits, the lookup arbiter passes a query while idle (fewer
  // cycles, a longer path: openenoc_endpoint's LOW_LATENCY)
  parameter bit LOW_LATENCY        = 1'b0
) (
  input  logic                       clk,
  input  logic                       rst,
  // 1 in hardware; see openenoc_oetp_initiator (co-simulation time) and
  // openenoc_oetp_tx (transmit pacing)
  input  logic [31:0]                time_step,
  input  logic                       local_tx_en,
  // Frame ceiling in force, 36..MAX_RAW_FRAME_SIZE: MAX_RAW_FRAME_SIZE in
  // hardware; a co-simulation library built once serves every
  // engine.h max_raw_frame_size with it.
  input  logic [13:0]                max_frame_size,
  // The DMA responder holds an undelivered failure notification: a new
  // received request is discarded as if the responder were busy
  // (oetp-engine.txt "This also applies while the DMA responder retains a
  // pending IRQ notification").
  input  logic                       responder_hold,
  openenoc_endpoint_if.core          endpoint_if,
  openenoc_axis_if.snk               s_axis_local,
  openenoc_axis_if.src               m_axis_local,
  openenoc_axis_if.snk               s_axis_eth,
  openenoc_axis_if.src               m_axis_eth,
  openenoc_peer_lookup_if.mst        peer_lookup_if,
  openenoc_dma_transfer_if.executor  initiator_if,
  openenoc_dma_transfer_if.requester responder_if,
  // endpoint cycles until the initiator's response timer expires, 0 = none
  output logic [32:0]                timer_wake
);
  // Peer DMA fragment ceiling: header, DMA_WRITE_REQ metadata and EndOfData
  // take 32 bytes, Data is whole words.
  wire [13:0] frag_ceil = (max_frame_size - 14'(DMA_OVERHEAD)) & 14'h3FFC;

  // ---- elaboration checks -------------------------------------------------
  if (MAX_RAW_FRAME_SIZE < 36 || MAX_RAW_FRAME_SIZE > 8192)
    $fatal(1, "MAX_RAW_FRAME_SIZE %0d outside 36..8192", MAX_RAW_FRAME_SIZE);
  if (ETH_W != 32 && ETH_W != 64 && ETH_W != 128 && ETH_W != 256)
    $fatal(1, "ETH_W %0d is not 32, 64, 128 or 256", ETH_W);
  // Interface members are not constants inside generate conditions for the
  // simulator in use (5.006), so
  // the interface widths are checked when simulation starts, before any clock
  // (simulation only: synthesis tools reject $fatal in initial blocks).
`ifndef SYNTHESIS
  initial begin
    if ($bits(s_axis_local.tdata) != ETH_W || $bits(m_axis_eth.tdata) != ETH_W ||
        $bits(s_axis_eth.tdata) != ETH_W)
      $fatal(1, "s_axis_local, s_axis_eth and m_axis_eth must be ETH_W (%0d) bits wide", ETH_W);
    if ($bits(s_axis_local.tkeep) != ETH_W / 8 || $bits(m_axis_eth.tkeep) != ETH_W / 8 ||
        $bits(s_axis_eth.tkeep) != ETH_W / 8)
      $fatal(1, "s_axis_local, s_axis_eth and m_axis_eth TKEEP must be %0d bits wide", ETH_W / 8);
    if ($bits(m_axis_local.tdata) != ETH_W || $bits(m_axis_local.tkeep) != ETH_W / 8)
      $fatal(1, "m_axis_local must be %0d bits wide with %0d TKEEP bits", ETH_W, ETH_W / 8);
    if ($bits(s_axis_local.tid) != SEQ_W || $bits(m_axis_local.tid) != SEQ_W ||
        $bits(s_axis_local.tdest) != DEST_W || $bits(m_axis_local.tdest) != DEST_W ||
        $bits(s_axis_local.tuser) != USER_W || $bits(m_axis_local.tuser) != USER_W)
      $fatal(1, "local streams need TID %0d, TDEST %0d, TUSER %0d bits", SEQ_W, DEST_W, USER_W);
    if ($bits(initiator_if.req_addr) != ADDR_W || $bits(responder_if.req_addr) != ADDR_W ||
        $bits(peer_lookup_if.req_rmem_addr) != ADDR_W ||
        $bits(initiator_if.req_len) != LEN_W || $bits(responder_if.req_len) != LEN_W)
      $fatal(1, "transfer and lookup addresses/lengths must be %0d bits", ADDR_W);
    if ($bits(initiator_if.req_peer_idx) != PEER_IDX_W ||
        $bits(responder_if.req_peer_idx) != PEER_IDX_W ||
        $bits(peer_lookup_if.req_peer_idx) != PEER_IDX_W ||
        $bits(initiator_if.req_sequence) != SEQ_W || $bits(responder_if.req_sequence) != SEQ_W)
      $fatal(1, "peer index must be %0d bits, sequence %0d bits", PEER_IDX_W, SEQ_W);
  end
`endif

  oetp_conf_t conf;
  assign conf = endpoint_if.csr_to_core.conf;
  assign endpoint_if.core_to_csr = '0;

  // ---- register slices on the four stream boundaries ----------------------
  // eth_words: TX's frame words (1..N a cycle); eth_out: packed beats
  openenoc_axis_if #(.DATA_W(ETH_W), .ID_W(SEQ_W), .DEST_W(DEST_W), .USER_W(USER_W))
    local_in ();
  // local_out: RX's 1..N words a cycle; local_out_w: packed into ETH_W beats
  openenoc_axis_if #(.DATA_W(ETH_W), .ID_W(SEQ_W), .DEST_W(DEST_W), .USER_W(USER_W))
    local_out ();
  openenoc_axis_if #(.DATA_W(ETH_W), .ID_W(SEQ_W), .DEST_W(DEST_W), .USER_W(USER_W))
    local_out_w ();
  openenoc_axis_if #(.DATA_W(DATA_W)) eth_in ();
  openenoc_axis_if #(.DATA_W(ETH_W)) eth_words (), eth_out ();

  openenoc_axis_skid #(.DATA_W(ETH_W), .ID_W(SEQ_W), .DEST_W(DEST_W), .USER_W(USER_W))
    u_local_in_slice  (.clk, .rst, .s(s_axis_local), .m(local_in));
  openenoc_axis_payload_pack #(.ETH_W(ETH_W))
    u_local_out_pack  (.clk, .rst, .s(local_out),    .m(local_out_w));
  openenoc_axis_skid #(.DATA_W(ETH_W), .ID_W(SEQ_W), .DEST_W(DEST_W), .USER_W(USER_W))
    u_local_out_slice (.clk, .rst, .s(local_out_w),  .m(m_axis_local));
  // s_axis_eth: at ETH_W = 32 a register slice; wider, the word aligner takes
  // its place (its READY is a function of its stored count, its words come
  // from registers: the same boundary as the slice, a cycle less). RX takes
  // one word a cycle from it in header mode (eth_in) and up to N a cycle in
  // Data (the data mode: words, rx_all_*, rx_take_all, rx_all_max).
  logic [ETH_W-1:0]   words;
  logic [ETH_W/8-1:0] words_keep;
  logic               rx_all_valid, rx_all_last, rx_take_all;
  logic [$clog2(ETH_W / 32 + 1)-1:0] rx_all_max;
  if (ETH_W == 32) begin : g_eth_in32
    openenoc_axis_skid #(.DATA_W(DATA_W))
      u_eth_in_slice  (.clk, .rst, .s(s_axis_eth),   .m(eth_in));
    // RX reads its Data from eth_in at 32: the data-mode inputs are unused
    assign {words, words_keep, rx_all_valid, rx_all_last} = '0;
    // verilator lint_off UNUSEDSIGNAL
    wire unused = &{1'b0, rx_take_all, rx_all_max};
    // verilator lint_on UNUSEDSIGNAL
  end else begin : g_eth_in_wide
    openenoc_axis_word_align #(.ETH_W(ETH_W)) u_eth_in_align (
      .clk, .rst, .s_tdata(s_axis_eth.tdata), .s_tkeep(s_axis_eth.tkeep),
      .s_tlast(s_axis_eth.tlast), .s_tvalid(s_axis_eth.tvalid), .s_tready(s_axis_eth.tready),
      .w_data(words), .w_keep(words_keep), .w_one_valid(eth_in.tvalid),
      .w_one_last(eth_in.tlast), .w_all_valid(rx_all_valid), .w_all_last(rx_all_last),
      .w_take_one(eth_in.tvalid && eth_in.tready), .w_take_all(rx_take_all),
      .w_all_max(rx_all_max)
    );
    assign eth_in.tdata = words[31:0];
    assign eth_in.tkeep = words_keep[3:0];
    assign eth_in.tid   = '0;
    assign eth_in.tdest = '0;
    assign eth_in.tuser = '0;
    // verilator lint_off UNUSEDSIGNAL
    wire unused = &{1'b0, s_axis_eth.tid, s_axis_eth.tdest, s_axis_eth.tuser};
    // verilator lint_on UNUSEDSIGNAL
  end
  openenoc_axis_skid #(.DATA_W(ETH_W), .PASS(1'b1))
    u_eth_out_slice   (.clk, .rst, .s(eth_out),      .m(m_axis_eth));

  // the packer's outputs are registers or, PASS, TX's output register passed
  // through while the packer is empty (wires at 32: TX's output register),
  // so the PASS skid still multiplexes registers only
  openenoc_axis_word_pack #(.ETH_W(ETH_W), .PASS(1'b1)) u_tx_pack (
    .clk, .rst, .s_tdata(eth_words.tdata), .s_tkeep(eth_words.tkeep), .s_tlast(eth_words.tlast),
    .s_tvalid(eth_words.tvalid), .s_tready(eth_words.tready), .m_tdata(eth_out.tdata),
    .m_tkeep(eth_out.tkeep), .m_tlast(eth_out.tlast), .m_tvalid(eth_out.tvalid),
    .m_tready(eth_out.tready)
  );
  assign eth_out.tid   = '0;
  assign eth_out.tdest = '0;
  assign eth_out.tuser = '0;
  assign eth_words.tid   = '0;
  assign eth_words.tdest = '0;
  assign eth_words.tuser = '0;

  // The response timer starts at the Ethernet-facing TLAST handshake.
  wire eth_done = m_axis_eth.tvalid && m_axis_eth.tready && m_axis_eth.tlast;

  // ---- initiator_if (DMA requests, oETP executes) -----------------------
  xfer_req_t    ini_req;
  xfer_cpl_t    ini_cpl;
  xfer_status_t ini_ts;
  logic         ini_req_ready, ini_cpl_valid, ini_ts_ready;

  // The request, the transmit status and the responder's completion below
  // are put together only while offered: the initiator and the responder
  // read them only with their VALID high (a request is held until taken),
  // and Verilator would otherwise pack the structs from their interface
  // fields every cycle.
  always_comb begin
    ini_req = '0;
    if (initiator_if.req_valid)
      ini_req = '{kind: xfer_kind_e'(initiator_if.req_kind), op: xfer_op_e'(initiator_if.req_op),
                  addr: initiator_if.req_addr, len: initiator_if.req_len,
                  peer: initiator_if.req_peer_idx, seq: initiator_if.req_sequence,
                  last: initiator_if.req_last, biten: initiator_if.req_biten,
                  wdata: initiator_if.req_wdata, error_code: initiator_if.req_error_code,
                  rx_status: initiator_if.req_rx_status};
  end
  always_comb begin
    ini_ts = '0;
    if (initiator_if.tx_status_valid)
      ini_ts = '{peer: initiator_if.tx_status_peer_idx, seq: initiator_if.tx_status_sequence,
                  len: initiator_if.tx_status_len, error_code: initiator_if.tx_status_error_code};
  end
  assign initiator_if.req_ready           = ini_req_ready;
  assign initiator_if.tx_status_ready     = ini_ts_ready;
  assign initiator_if.cpl_valid           = ini_cpl_valid;
  assign {initiator_if.cpl_kind, initiator_if.cpl_op, initiator_if.cpl_transferred_len,
          initiator_if.cpl_peer_idx, initiator_if.cpl_sequence, initiator_if.cpl_last,
          initiator_if.cpl_error, initiator_if.cpl_error_code, initiator_if.cpl_rdata} =
         {ini_cpl.kind, ini_cpl.op, ini_cpl.len, ini_cpl.peer, ini_cpl.seq, ini_cpl.last,
          ini_cpl.error, ini_cpl.error_code, ini_cpl.rdata};
  // raw claims and rx_status belong to the responder path only
  assign initiator_if.non_oetp_rx_available   = 1'b0;
  assign initiator_if.non_oetp_rx_claim_ready = 1'b0;
  assign initiator_if.rx_status_ready         = 1'b0;

  // ---- responder_if (oETP requests, DMA executes) -----------------------
  xfer_req_t    rsp_req;
  xfer_cpl_t    rsp_cpl;
  xfer_status_t rxs;
  logic         rsp_req_valid, rsp_cpl_ready, rxs_valid, claim_valid;

  assign responder_if.req_valid      = rsp_req_valid;
  assign {responder_if.req_kind, responder_if.req_op, responder_if.req_addr, responder_if.req_len,
          responder_if.req_peer_idx, responder_if.req_sequence, responder_if.req_last,
          responder_if.req_biten, responder_if.req_wdata, responder_if.req_error_code,
          responder_if.req_rx_status} =
         {rsp_req.kind, rsp_req.op, rsp_req.addr, rsp_req.len, rsp_req.peer, rsp_req.seq,
          rsp_req.last, rsp_req.biten, rsp_req.wdata, rsp_req.error_code, rsp_req.rx_status};
  assign responder_if.cpl_ready      = rsp_cpl_ready;
  always_comb begin
    rsp_cpl = '0;
    if (responder_if.cpl_valid)
      rsp_cpl = '{kind: xfer_kind_e'(responder_if.cpl_kind), op: xfer_op_e'(responder_if.cpl_op),
                  len: responder_if.cpl_transferred_len, peer: responder_if.cpl_peer_idx,
                  seq: responder_if.cpl_sequence, last: responder_if.cpl_last,
                  error: responder_if.cpl_error, error_code: responder_if.cpl_error_code,
                  rdata: responder_if.cpl_rdata};
  end
  assign responder_if.rx_status_valid      = rxs_valid;
  assign responder_if.rx_status_peer_idx   = rxs.peer;
  assign responder_if.rx_status_sequence   = rxs.seq;
  assign responder_if.rx_status_len        = rxs.len;
  assign responder_if.rx_status_error_code = rxs.error_code;
  assign responder_if.non_oetp_rx_claim_valid = claim_valid;
  // tx_status belongs to the initiator path only
  assign responder_if.tx_status_valid      = 1'b0;
  assign responder_if.tx_status_peer_idx   = '0;
  assign responder_if.tx_status_sequence   = '0;
  assign responder_if.tx_status_len        = '0;
  assign responder_if.tx_status_error_code = '0;

  // The engine needs only hit, index and MAC of a peer snapshot; the
  // window fields serve the DMA engine's lookups.
  // verilator lint_off UNUSEDSIGNAL
  wire unused_lookup = &{1'b0, peer_lookup_if.rsp_rmem_offset, peer_lookup_if.rsp_local_addr,
                         peer_lookup_if.rsp_remote_addr, peer_lookup_if.rsp_size,
                         peer_lookup_if.rsp_irq_enable};
  // verilator lint_on UNUSEDSIGNAL

  // ---- controllers --------------------------------------------------------
  logic        ini_lk_valid, ini_lk_rsp, rx_lk_valid, rx_lk_rsp;
  lookup_req_t ini_lk, rx_lk;
  lookup_rsp_t lk_rsp;
  logic        ini_job_valid, rsp_job_valid;
  tx_job_t     ini_job, rsp_job;
  src_status_t ini_stat, rsp_stat;
  logic        rsp_job_now;      // the responder's reply completed now (LOW_LATENCY above 32)
  logic [31:0] rsp_job_now_p1;
  logic        ini_done, ini_done_sent, rsp_done, rsp_done_sent;
  logic [ERR_W-1:0] ini_done_code, rsp_done_code;
  ini_ctx_t    ctx;
  logic        rx_ini_done, rx_ini_busy, rx_ini_ending;
  rsp_result_t rx_ini_result;
  logic [LEN_W-1:0] rx_ini_len;
  logic        admit_valid, rsp_busy, rsp_accepted;
  rx_admit_t   admit;

  openenoc_oetp_lookup_arb #(.PASS(ETH_W > 32 && LOW_LATENCY)) u_lookup (
    .clk, .rst,
    .ini_req_valid(ini_lk_valid), .ini_req(ini_lk), .ini_rsp_valid(ini_lk_rsp),
    .rx_req_valid(rx_lk_valid), .rx_req(rx_lk), .rx_rsp_valid(rx_lk_rsp),
    .rsp(lk_rsp), .lk(peer_lookup_if)
  );

  openenoc_oetp_initiator #(.ETH_W(ETH_W)) u_initiator (
    .clk, .rst, .frag_ceil, .time_step, .conf,
    .req_valid(initiator_if.req_valid), .req(ini_req), .req_ready(ini_req_ready),
    .cpl_valid(ini_cpl_valid), .cpl(ini_cpl), .cpl_ready(initiator_if.cpl_ready),
    .ts_valid(initiator_if.tx_status_valid), .ts(ini_ts), .ts_ready(ini_ts_ready),
    .lk_req_valid(ini_lk_valid), .lk_req(ini_lk), .lk_rsp_valid(ini_lk_rsp), .lk_rsp(lk_rsp),
    .job_valid(ini_job_valid), .job(ini_job), .stat(ini_stat),
    .tx_done(ini_done), .tx_done_sent(ini_done_sent), .tx_done_code(ini_done_code),
    .ctx, .rx_done(rx_ini_done), .rx_result(rx_ini_result), .rx_busy(rx_ini_busy), .rx_ending(rx_ini_ending),
    .rx_len(rx_ini_len), .timer_wake
  );

  openenoc_oetp_responder #(.ETH_W(ETH_W), .NOW(ETH_W > 32 && LOW_LATENCY)) u_responder (
    .clk, .rst,
    .admit_valid, .admit, .busy(rsp_busy), .accepted(rsp_accepted),
    .req_valid(rsp_req_valid), .req(rsp_req), .req_ready(responder_if.req_ready),
    .cpl_valid(responder_if.cpl_valid), .cpl(rsp_cpl), .cpl_ready(rsp_cpl_ready),
    .job_valid(rsp_job_valid), .job(rsp_job), .job_now(rsp_job_now), .job_now_p1(rsp_job_now_p1),
    .stat(rsp_stat), .tx_done(rsp_done), .tx_done_sent(rsp_done_sent), .tx_done_code(rsp_done_code)
  );

  openenoc_oetp_rx #(.ETH_W(ETH_W)) u_rx (
    .clk, .rst, .max_frame(max_frame_size), .frag_ceil, .conf,
    .eth(eth_in), .w_data(words), .w_keep(words_keep), .w_all_valid(rx_all_valid),
    .w_all_last(rx_all_last), .w_take_all(rx_take_all), .w_all_max(rx_all_max), .loc(local_out),
    .lk_req_valid(rx_lk_valid), .lk_req(rx_lk), .lk_rsp_valid(rx_lk_rsp), .lk_rsp(lk_rsp),
    .claim_available(responder_if.non_oetp_rx_available), .claim_valid,
    .claim_ready(responder_if.non_oetp_rx_claim_ready),
    .admit_valid, .admit, .rsp_busy(rsp_busy || responder_hold), .rsp_accepted,
    .rxs_valid, .rxs, .rxs_ready(responder_if.rx_status_ready),
    .ctx, .ini_done(rx_ini_done), .ini_result(rx_ini_result), .ini_busy(rx_ini_busy), .ini_ending(rx_ini_ending),
    .ini_len(rx_ini_len)
  );

  openenoc_oetp_tx #(.ETH_W(ETH_W), .RSP_NOW(ETH_W > 32 && LOW_LATENCY)) u_tx (
    .clk, .rst, .local_tx_en,
    .loc(local_in), .eth(eth_words), .eth_done,
    .ini_job_valid, .ini_job, .ini_stat, .ini_done, .ini_done_sent, .ini_done_code,
    .rsp_job_valid, .rsp_job, .rsp_stat, .rsp_now(rsp_job_now), .rsp_now_p1(rsp_job_now_p1),
    .rsp_done, .rsp_done_sent, .rsp_done_code
  );
endmodule
