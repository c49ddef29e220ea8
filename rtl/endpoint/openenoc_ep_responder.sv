// Responder memory service (endpoint.md section 5): executes the requests
// the oETP engine received, after the peer policy checks in widened
// arithmetic (mode, alignment, 0 < len <= ceiling, window). RMEM runs one
// 32-bit access (a partial BitEnable is a read-merge-write, a zero one no
// access; failures are cause 4 for reads and 6 for writes); a DMA read
// streams memory as the reply's Data; a DMA write takes its payload to
// memory (or drains it when rejected) and joins the framing status. A
// failure is recorded in the peer's error first, then notified if enabled;
// while that notification waits for admission no new request is taken.
// An RMEM read completes with its read beat: the beat is offered as the
// completion in the cycle it arrives (RS_RMEM_R), without an RS_CPL cycle.
module openenoc_ep_responder
  import openenoc_oetp_pkg::*;
  import openenoc_csr_pkg::*;
  import openenoc_ep_pkg::*;
#(
  // an RMEM read that passes the check as it is offered asks memory in that
  // cycle (RS_IDLE), without an RS_RMEM_REQ cycle: on at the wide widths
  // (the co-simulation's), off at the reference widths, cycle for cycle
  parameter bit FAST_RMEM = 1'b0
) (
  input  logic                        clk,
  input  logic                        rst,
  input  logic [13:0]                 frag_ceil,       // peer fragment ceiling in force
  input  logic [NUM_PEERS-1:0][31:0]  peer_local,
  input  logic [NUM_PEERS-1:0][31:0]  peer_size,
  input  logic [NUM_PEERS-1:0][1:0]   peer_mode,
  input  logic [NUM_PEERS-1:0]        peer_irq_enable,
  input  logic                        ev_peer_dma,     // irq.event_enable bits
  input  logic                        ev_rmem,
  openenoc_dma_transfer_if.executor   rsp,
  // failure record (peer status lives in the peer DMA block)
  output logic                        hold,         // notification pending: take no request
  output logic                        rec_valid,
  output logic [1:0]                  rec_peer,
  output logic [3:0]                  rec_code,
  // IRQ producer: reserve, then commit the held notification
  openenoc_ep_irq_if.producer         irq,
  openenoc_ep_mem_if.client           m,            // scalar memory access (RMEM)
  // DMA read: memory -> reply Data
  output logic                        rd_start,
  output logic [31:0]                 rd_addr,
  output logic [15:0]                 rd_len,
  output logic [SEQ_W-1:0]            rd_id,
  output logic [DEST_W-1:0]           rd_dest,
  input  logic                        rd_done,
  input  logic [15:0]                 rd_bytes,
  input  logic [3:0]                  rd_code_in,
  // DMA write: payload -> memory
  input  logic                        wr_in_valid,  // payload waiting for the writer
  input  logic                        wr_busy,
  output logic                        wr_start,
  output logic [31:0]                 wr_addr,
  output logic [15:0]                 wr_cap,       // 0 = drain (rejected)
  input  logic                        wr_done,
  input  logic [15:0]                 wr_bytes,
  input  logic [3:0]                  wr_code_in
);
  typedef enum logic [3:0] {
    RS_IDLE, RS_CHECK, RS_RMEM_REQ, RS_RMEM_R, RS_RMEM_WREQ, RS_RMEM_W, RS_RMEM_B,
    RS_DMA, RS_CPL, RS_NOTIFY
  } rs_state_e;

  rs_state_e   state_q;
  logic        kind_q, op_q, rxs_q;
  logic [31:0] addr_q, len_q, biten_q, wdata_q, rdata_q;
  logic [1:0]  peer_q;
  logic [31:0] seq_q;
  logic [3:0]  early_q;
  logic [3:0]  cause_q, rec_code_q;
  logic [31:0] xfer_q;
  logic        dma_done_q, rxs_seen_q, rxs_bad_q, rec_q, notify_q, cmt_q, merge_q, wr_started_q;
  logic [31:0] rxs_len_q;
  logic [3:0]  dma_code_q;

  // policy check of a request, widened to 33 bits, except the length's
  // ceiling: frag_ceil is made from max_frame_size, an input, and whatever
  // reads an input is evaluated again on every input change (the
  // input-combinational region), so only the ceiling compare and the final
  // AND read it
  function automatic logic policy_ok_but_ceil(input logic kind, input logic op,
                                              input logic [31:0] addr, input logic [31:0] len,
                                              input logic [1:0] peer);
    logic [1:0]  mode;
    logic [32:0] base, wend;
    logic        mode_ok;
    mode    = peer_mode[peer];
    base    = {1'b0, peer_local[peer]};
    wend    = base + {1'b0, peer_size[peer]};
    mode_ok = kind ? (mode == MODE_RMEM && addr[1:0] == 2'b00)
                   : (op ? mode == MODE_MIRROR_REMOTE_TO_LOCAL : mode == MODE_MIRROR_LOCAL_TO_REMOTE);
    policy_ok_but_ceil = mode_ok && len != 0 &&
                         base <= {1'b0, addr} && {1'b0, addr} + {1'b0, len} <= wend &&
                         wend <= 33'h1_0000_0000;
  endfunction
  // the held request's check (RS_CHECK)
  wire allowed_but_ceil = policy_ok_but_ceil(kind_q, op_q, addr_q, len_q, peer_q);
  wire allowed = allowed_but_ceil && len_q <= {18'd0, frag_ceil};
  // An RMEM read that passes the check as it is offered goes to memory
  // from RS_IDLE; every other request (and a failing read: RS_CHECK
  // records the failure) takes RS_CHECK.
  wire fast_read_but_ceil = rsp.req_kind && !rsp.req_op && rsp.req_error_code == '0 &&
                            policy_ok_but_ceil(1'b1, 1'b0, rsp.req_addr, rsp.req_len,
                                               rsp.req_peer_idx);
  wire fast_read = fast_read_but_ceil && rsp.req_len <= {18'd0, frag_ceil};
  // With FAST_RMEM the memory request goes out from RS_IDLE with the check,
  // so nothing in front of it may read an input (the AXI top's AR would be
  // computed from max_frame_size): an RMEM read is 4 bytes (RX admits it so),
  // and the ceiling's "4 fits" is a register of the ceiling in force, which
  // is 4 or more for every frame ceiling of 36 or more. A read the register
  // turns away takes RS_CHECK, which checks the live ceiling.
  logic ceil4_q;
  wire  fast_read_reg = fast_read_but_ceil && rsp.req_len == 32'd4 && ceil4_q;
  wire  fast_go       = FAST_RMEM ? fast_read_reg : fast_read;
  // the read asked for now (RS_IDLE, with FAST_RMEM)
  wire  mem_now       = FAST_RMEM && state_q == RS_IDLE && !notify_q && rsp.req_valid &&
                        fast_read_reg;

  assign rsp.req_ready       = state_q == RS_IDLE && !notify_q;
  assign rsp.tx_status_ready = 1'b0;
  assign rsp.rx_status_ready = state_q == RS_DMA && !rxs_seen_q;
  // an RMEM read's beat is its completion (cause 4 on a bad response)
  wire        rd_cpl   = state_q == RS_RMEM_R && !op_q;
  wire        rd_bad   = m.r_resp != RESP_OKAY;
  assign rsp.cpl_valid       = state_q == RS_CPL || (rd_cpl && m.r_valid);
  assign rsp.cpl_kind        = kind_q;
  assign rsp.cpl_op          = op_q;
  assign rsp.cpl_transferred_len = rd_cpl ? (rd_bad ? 32'd0 : 32'd4) : xfer_q;
  assign rsp.cpl_peer_idx    = peer_q;
  assign rsp.cpl_sequence    = seq_q;
  assign rsp.cpl_last        = 1'b1;
  assign rsp.cpl_error       = rd_cpl ? rd_bad : cause_q != 0;
  assign rsp.cpl_error_code  = rd_cpl ? (rd_bad ? 4'd4 : 4'd0) : cause_q;
  assign rsp.cpl_rdata       = rd_cpl ? m.r.data : rdata_q;

  assign hold      = notify_q;
  assign rec_valid = rec_q;
  assign rec_peer  = peer_q;
  assign rec_code  = rec_code_q;

  // the notification: RMEM_ERROR for RMEM, PEER_DMA_COMPLETE (per-peer
  // enable) for bulk, sampled when the failure is recorded
  wire notify_en = kind_q ? ev_rmem : (ev_peer_dma && peer_irq_enable[peer_q]);
  assign irq.rsv_req    = notify_q && !cmt_q;
  assign irq.cmt_valid  = cmt_q;
  assign irq.cmt_source = kind_q ? SRC_RMEM_ERROR : SRC_PEER_DMA;
  assign irq.cmt_peer   = {9'd0, peer_q};

  assign m.req_valid = state_q == RS_RMEM_REQ || state_q == RS_RMEM_WREQ || mem_now;
  assign m.req       = '{write: state_q == RS_RMEM_WREQ, addr: mem_now ? rsp.req_addr : addr_q,
                         len: 16'd4};
  // a read's beat waits until its completion can be taken
  assign m.r_ready   = state_q == RS_RMEM_R && (op_q || rsp.cpl_ready);
  assign m.w_valid   = state_q == RS_RMEM_W;
  assign m.w         = '{data: (rdata_q & ~biten_q) | (wdata_q & biten_q), keep: 4'hF, last: 1'b1};
  assign m.b_ready   = state_q == RS_RMEM_B;

  assign rd_start = state_q == RS_CHECK && !kind_q && !op_q && early_q == 0 && allowed;
  assign rd_addr  = addr_q;
  assign rd_len   = len_q[15:0];
  assign rd_id    = seq_q;
  assign rd_dest  = {ROUTE_PEER, peer_q};
  // the writer starts with the payload's first beat: a write cut before its
  // Data brings none (its rx_status then reports 0 bytes)
  assign wr_start = state_q == RS_DMA && !kind_q && op_q && rxs_q && !wr_started_q &&
                    wr_in_valid && !wr_busy;
  assign wr_addr  = addr_q;
  assign wr_cap   = (early_q == 0 && allowed) ? len_q[15:0] : 16'd0;

  // verilator lint_off UNUSEDSIGNAL
  wire unused = &{1'b0, rsp.req_last, rsp.tx_status_valid, rsp.tx_status_peer_idx,
                  rsp.tx_status_sequence, rsp.tx_status_len, rsp.tx_status_error_code,
                  rsp.rx_status_peer_idx, rsp.rx_status_sequence,
                  m.r.keep, m.r.last, wr_bytes};
  // verilator lint_on UNUSEDSIGNAL

  always_ff @(posedge clk) begin
    if (rst) ceil4_q <= 1'b0;
    else     ceil4_q <= FAST_RMEM && frag_ceil >= 14'd4;
  end

  // Record a failure (CSR code) and answer with a wire cause.
  task automatic fail(input logic [3:0] cause, input logic [3:0] code);
    cause_q    <= cause;
    rec_q      <= 1'b1;
    rec_code_q <= code;
    notify_q   <= notify_en;
  endtask

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q    <= RS_IDLE;
      kind_q     <= 1'b0;
      op_q       <= 1'b0;
      rxs_q      <= 1'b0;
      addr_q     <= '0;
      len_q      <= '0;
      biten_q    <= '0;
      wdata_q    <= '0;
      rdata_q    <= '0;
      peer_q     <= '0;
      seq_q      <= '0;
      early_q    <= '0;
      cause_q    <= '0;
      rec_code_q <= '0;
      xfer_q     <= '0;
      dma_done_q <= 1'b0;
      dma_code_q <= '0;
      rxs_seen_q <= 1'b0;
      rxs_bad_q  <= 1'b0;
      rec_q      <= 1'b0;
      notify_q   <= 1'b0;
      cmt_q      <= 1'b0;
      merge_q    <= 1'b0;
      wr_started_q <= 1'b0;
      rxs_len_q  <= '0;
    end else begin
      rec_q <= 1'b0;
      if (irq.rsv_req && irq.rsv_gnt) cmt_q <= 1'b1;
      if (cmt_q && irq.cmt_ready) begin
        cmt_q    <= 1'b0;
        notify_q <= 1'b0;
      end
      if (rsp.rx_status_valid && rsp.rx_status_ready) begin
        rxs_seen_q <= 1'b1;
        rxs_bad_q  <= rsp.rx_status_error_code != 0;
        rxs_len_q  <= rsp.rx_status_len;
      end
      if (wr_start) wr_started_q <= 1'b1;
      if (rd_done) begin
        dma_done_q <= 1'b1;
        dma_code_q <= rd_code_in;
        xfer_q     <= {16'd0, rd_bytes};
      end
      if (wr_done) begin
        dma_done_q <= 1'b1;
        dma_code_q <= wr_code_in;
      end

      case (state_q)
        RS_IDLE: if (rsp.req_valid && rsp.req_ready) begin
          kind_q     <= rsp.req_kind;
          op_q       <= rsp.req_op;
          rxs_q      <= rsp.req_rx_status;
          addr_q     <= rsp.req_addr;
          len_q      <= rsp.req_len;
          biten_q    <= rsp.req_biten;
          wdata_q    <= rsp.req_wdata;
          peer_q     <= rsp.req_peer_idx;
          seq_q      <= rsp.req_sequence;
          early_q    <= rsp.req_error_code;
          cause_q    <= '0;
          xfer_q     <= '0;
          rdata_q    <= '0;
          dma_done_q <= 1'b0;
          rxs_seen_q <= 1'b0;
          rxs_bad_q  <= 1'b0;
          wr_started_q <= 1'b0;
          state_q    <= !fast_go ? RS_CHECK : (mem_now && m.req_ready) ? RS_RMEM_R : RS_RMEM_REQ;
        end

        RS_CHECK: begin
          if (!kind_q && op_q && rxs_q) begin
            // a write with payload: written (or drained), then joined
            if (early_q != 0)   fail(4'd1, ERR_LOCAL_INVALID);
            else if (!allowed)  fail(4'd1, ERR_LOCAL_INVALID);
            state_q <= RS_DMA;
          end else if (early_q != 0) begin
            // early rejection by the parser; a cut DMA_WRITE_REQ is the
            // remote's stream error (10), a bad fixed layout our own (2)
            fail(early_q, (!kind_q && op_q && early_q == ERR_LOCAL_AXIS) ? ERR_REMOTE_AXIS
                                                                         : early_q);
            state_q <= RS_CPL;
          end else if (!allowed) begin
            fail(4'd1, ERR_LOCAL_INVALID);
            state_q <= RS_CPL;
          end else if (kind_q) begin
            merge_q <= biten_q != 32'hFFFF_FFFF;
            if (!op_q)                       state_q <= RS_RMEM_REQ;
            else if (biten_q == 32'd0)       begin xfer_q <= 32'd4; state_q <= RS_CPL; end
            else if (biten_q == 32'hFFFF_FFFF) state_q <= RS_RMEM_WREQ;
            else                             state_q <= RS_RMEM_REQ;   // read-merge-write
          end else begin
            state_q <= RS_DMA;                                          // DMA read
          end
        end

        RS_RMEM_REQ: if (m.req_ready) state_q <= RS_RMEM_R;
        RS_RMEM_R: if (m.r_valid && m.r_ready) begin
          rdata_q <= m.r.data;
          if (rd_bad) begin
            if (op_q) fail(4'd6, ERR_LOCAL_WR_SLVERR);
            else      fail(4'd4, ERR_LOCAL_RD_SLVERR);
          end
          // a read completed with this beat
          if (!op_q)       state_q <= RS_IDLE;
          else if (rd_bad) state_q <= RS_CPL;
          else             state_q <= RS_RMEM_WREQ;
        end
        RS_RMEM_WREQ: begin
          if (!merge_q) rdata_q <= '0;
          if (m.req_ready) state_q <= RS_RMEM_W;
        end
        RS_RMEM_W: if (m.w_ready) state_q <= RS_RMEM_B;
        RS_RMEM_B: if (m.b_valid) begin
          if (m.b_resp != RESP_OKAY) fail(4'd6, ERR_LOCAL_WR_SLVERR);
          else xfer_q <= 32'd4;
          state_q <= RS_CPL;
        end

        RS_DMA: begin
          if (!op_q && dma_done_q) begin
            // the read's completion is the reply's source status
            if (dma_code_q != 0) fail(dma_code_q, dma_code_q);
            state_q <= RS_CPL;
          end else if (op_q && rxs_seen_q && (rxs_len_q == 0 ? !wr_started_q : dma_done_q)) begin
            if (cause_q != 0) ;                                   // rejected, recorded
            else if (dma_code_q != 0) fail(dma_code_q, dma_code_q);  // bus error wins
            else if (rxs_bad_q)       fail(4'd2, ERR_REMOTE_AXIS);
            else                      xfer_q <= len_q;
            state_q <= RS_CPL;
          end
        end

        RS_CPL: if (rsp.cpl_ready) state_q <= RS_IDLE;

        default: state_q <= RS_IDLE;
      endcase
    end
  end
endmodule
