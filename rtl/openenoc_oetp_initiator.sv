// Initiator controller: the single locally initiated context. A command from
// the DMA engine stays unaccepted until its peer lookup has finished: the
// lookup is asked in the cycle the command appears, and the registered
// acceptance (req_ready) follows the cycle the lookup answers. On
// acceptance it gets the next Request ID and snapshots the MAC addresses,
// the group decision and its response timer. The request frame goes to TX; the
// timer starts at the frame's Ethernet TLAST handshake; RX reports the
// matching validated response. Group writes complete locally.
module openenoc_oetp_initiator
  import openenoc_csr_pkg::*;
  import openenoc_oetp_pkg::*;
#(
  parameter int ETH_W = 32   // the engine's Ethernet width (see tx_done below)
) (
  input  logic         clk,
  input  logic         rst,
  input  logic [13:0]  frag_ceil,     // peer fragment ceiling in force
  // Endpoint cycles this clock edge stands for: 1 in hardware. A
  // co-simulation that hides pipeline latency from its host gives 0 while it
  // settles a host call and N to jump time, so response timers count host
  // time exactly (hw/cosim/).
  input  logic [31:0]  time_step,
  // RX-only configuration fields (multicast address, receive mode) unused here
  // verilator lint_off UNUSEDSIGNAL
  input  oetp_conf_t   conf,
  // verilator lint_on UNUSEDSIGNAL
  // command / completion (initiator_if, executor side)
  input  logic         req_valid,
  input  xfer_req_t    req,
  output logic         req_ready,
  output logic         cpl_valid,
  output xfer_cpl_t    cpl,
  input  logic         cpl_ready,
  input  logic         ts_valid,       // tx_status
  // one initiating context: the status's peer/sequence can only be ours
  // verilator lint_off UNUSEDSIGNAL
  input  xfer_status_t ts,
  // verilator lint_on UNUSEDSIGNAL
  output logic         ts_ready,
  // peer lookup client
  output logic         lk_req_valid,
  output lookup_req_t  lk_req,
  input  logic         lk_rsp_valid,
  input  lookup_rsp_t  lk_rsp,
  // TX
  output logic         job_valid,
  output tx_job_t      job,
  output src_status_t  stat,
  input  logic         tx_done,
  input  logic         tx_done_sent,
  input  logic [ERR_W-1:0] tx_done_code,
  // RX
  output ini_ctx_t     ctx,
  input  logic         rx_done,        // validated response (or its failure)
  input  rsp_result_t  rx_result,
  input  logic         rx_busy,        // RX is inside a frame matched to ctx
  input  logic         rx_ending,      // ... and has taken its TLAST: verdict due
  input  logic [LEN_W-1:0] rx_len,      // payload bytes RX delivered so far
  // endpoint cycles (time_step) until the running response timer expires;
  // 0 = none runs. A co-simulation host sleeps until then.
  output logic [32:0]  timer_wake
);
  typedef enum logic [2:0] {
    INI_IDLE, INI_LOOKUP, INI_ACCEPT, INI_TX, INI_WAIT, INI_ABORT, INI_COMPLETE
  } ini_state_e;

  ini_state_e  state_q /*verilator public_flat_rd*/;
  xfer_req_t   cmd_q;
  // the lookup snapshot's mode and index are not needed after the hit
  // verilator lint_off UNUSEDSIGNAL
  lookup_rsp_t peer_q;
  // verilator lint_on UNUSEDSIGNAL
  logic [31:0] rid_q /*verilator public_flat_rw*/;   // wire Request ID counter
  logic [31:0] cur_rid_q;
  logic [31:0] tmo_q /*verilator public_flat_rd*/;   // response timeout snapshot, 0 = none
  logic [31:0] cnt_q /*verilator public_flat_rd*/;
  logic [31:0] step_q;                                // time_step of the last edge
  logic        group_q, req_ready_q, ts_ready_q, job_valid_q, cpl_valid_q;
  logic        txd_q, txd_sent_q;
  logic [ERR_W-1:0] txd_code_q;
  src_status_t stat_q;
  tx_job_t     job_q;
  xfer_cpl_t   cpl_q;

  assign req_ready    = req_ready_q;
  assign ts_ready     = ts_ready_q;
  // A response's completion is offered in the cycle RX reports it (from
  // INI_WAIT, make_cpl of RX's registered result): an RMEM read is a CPU
  // load's round trip, and a register here would be one more cycle of it.
  // Not taken at once, it is held in cpl_q (INI_COMPLETE), the same record.
  wire        rsp_cpl_now = state_q == INI_WAIT && rx_done;
  xfer_cpl_t  rsp_cpl;
  assign cpl_valid    = cpl_valid_q || rsp_cpl_now;
  assign job_valid    = job_valid_q;
  assign job          = job_q;
  assign stat         = stat_q;

  // The lookup is asked from the command itself in the cycle it appears,
  // then from its copy until answered (the lookup controller registers the
  // question, and may serve RX first).
  wire       lk_first = state_q == INI_IDLE;
  // only kind, op and peer make the question
  // verilator lint_off UNUSEDSIGNAL
  xfer_req_t lk_cmd;
  // verilator lint_on UNUSEDSIGNAL
  assign lk_cmd = lk_first ? req : cmd_q;
  assign lk_req_valid     = (lk_first && req_valid) || state_q == INI_LOOKUP;
  assign lk_req.kind      = LOOKUP_BY_INDEX;
  assign lk_req.mode_mask = (lk_cmd.kind == KIND_RMEM) ? 4'(1 << MODE_RMEM)
                          : (lk_cmd.op == OP_WRITE)   ? 4'(1 << MODE_MIRROR_LOCAL_TO_REMOTE)
                                                      : 4'(1 << MODE_MIRROR_REMOTE_TO_LOCAL);
  assign lk_req.peer      = lk_cmd.peer;
  assign lk_req.mac       = '0;

  wire [31:0] tmo_used = cnt_q < tmo_q ? cnt_q : tmo_q;
  assign timer_wake = (state_q == INI_WAIT && tmo_q != 32'd0) ?
                      {1'b0, tmo_q} - {1'b0, tmo_used} + 33'd1 : 33'd0;

  always_comb begin
    ctx.waiting = (state_q == INI_WAIT);
    ctx.mac     = peer_q.mac;
    ctx.rid     = cur_rid_q;
    ctx.rsp_cmd = oetp_cmd_e'(job_q.cmd | 8'h01);
    ctx.peer    = cmd_q.peer;
    ctx.seq     = cmd_q.seq;
    ctx.last    = cmd_q.last;
    ctx.len     = cmd_q.len;
  end

  wire dma_write = cmd_q.kind == KIND_DMA && cmd_q.op == OP_WRITE;
  wire txd_now = txd_q || tx_done;
  wire txd_sent_now = tx_done ? tx_done_sent : txd_sent_q;
  wire [ERR_W-1:0] txd_code_now = tx_done ? tx_done_code : txd_code_q;

  // Early rejection, decided from the lookup's answer (registered in
  // early_q for the acceptance), and the request frame built from the
  // answer and offered to TX in the acceptance cycle: the registered
  // acceptance follows for certain (req_valid stays up until req_ready), and
  // TX takes a job one cycle after it appears, so no frame starts before the
  // command is accepted. The command is cmd_q's copy in INI_LOOKUP; above 32
  // bits the lookup may answer in INI_IDLE (openenoc_oetp_lookup_arb.sv,
  // PASS), where it is the offered command itself. There both are made
  // only in the cycle of an answer: the offered command, and so all of
  // this, can follow an input (local_tx_en, the CSR bus), and a simulator
  // evaluates such logic once more on every cycle.
  logic [ERR_W-1:0] early_code, early_q;
  tx_job_t          new_job;
  always_comb begin
    // (last and the error code are not asked about)
    // verilator lint_off UNUSEDSIGNAL
    xfer_req_t c;
    // verilator lint_on UNUSEDSIGNAL
    c          = (ETH_W > 32 && lk_first) ? req : cmd_q;
    early_code = ERR_NONE;
    new_job    = '0;
    if (ETH_W == 32 || lk_rsp_valid) begin
      if (!lk_rsp.hit)                              early_code = ERR_LOCAL_INVALID;
      else if (lk_rsp.mac[40] && c.op == OP_READ)   early_code = ERR_LOCAL_INVALID;
      else if (c.kind == KIND_DMA &&
               (c.len == '0 || c.len > LEN_W'(frag_ceil))) early_code = ERR_LOCAL_INVALID;
      new_job.dst      = lk_rsp.mac;
      new_job.src      = conf.mac_address;
      new_job.peer     = c.peer;
      new_job.seq      = c.seq;
      new_job.role     = 1'b0;
      // params[0], the Request ID, is loaded from rid_q with the job: the
      // wrapper writes rid_q (public) to restore a saved counter, so
      // anything computed from it would be evaluated on every input change
      new_job.params[0] = '0;
      new_job.params[1] = c.addr;
      if (c.kind == KIND_RMEM) begin
        new_job.cmd       = (c.op == OP_WRITE) ? CMD_RMEM_WRITE_REQ : CMD_RMEM_READ_REQ;
        new_job.nparams   = (c.op == OP_WRITE) ? 3'd4 : 3'd2;
        new_job.params[2] = c.biten;
        new_job.params[3] = c.wdata;
      end else begin
        new_job.cmd       = (c.op == OP_WRITE) ? CMD_DMA_WRITE_REQ : CMD_DMA_READ_REQ;
        new_job.nparams   = 3'd3;
        new_job.params[2] = c.len;
        new_job.has_data  = (c.op == OP_WRITE);
        new_job.data_len  = c.len;
      end
    end
  end

  function automatic logic [31:0] sat_add(input logic [31:0] a, input logic [31:0] b);
    logic [32:0] sum;
    sum     = {1'b0, a} + {1'b0, b};
    sat_add = sum[32] ? 32'hFFFF_FFFF : sum[31:0];
  endfunction

  // Completion record; failed scalar reads return all ones.
  // verilator lint_off UNUSEDSIGNAL
  function automatic xfer_cpl_t make_cpl(input xfer_req_t c, input logic [ERR_W-1:0] code,
                                         input logic [LEN_W-1:0] len, input logic [31:0] rdata);
    make_cpl.kind       = c.kind;
    make_cpl.op         = c.op;
    make_cpl.len        = len;
    make_cpl.peer       = c.peer;
    make_cpl.seq        = c.seq;
    make_cpl.last       = c.last;
    make_cpl.error      = (code != ERR_NONE);
    make_cpl.error_code = code;
    make_cpl.rdata      = (code != ERR_NONE) ? 32'hFFFF_FFFF : rdata;
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  // a validated response (or its failure): RMEM and writes report the
  // command's length, a DMA read the bytes RX delivered (built only in the
  // cycle RX reports it: a simulator skips it in every other cycle)
  always_comb begin
    rsp_cpl = cpl_q;
    if (rsp_cpl_now)
      rsp_cpl = make_cpl(cmd_q, rx_result.code,
                         (rx_result.code == ERR_NONE &&
                          (cmd_q.op == OP_WRITE || cmd_q.kind == KIND_RMEM)) ? cmd_q.len
                                                                             : rx_result.len,
                         rx_result.rdata);
  end
  // cpl_q while it holds a completion (cpl_valid_q), else the one offered now
  assign cpl = rsp_cpl;


  // the lookup's answer to the command asked about
  task automatic answered();
    peer_q      <= lk_rsp;
    group_q     <= lk_rsp.mac[40];
    early_q     <= early_code;
    req_ready_q <= 1'b1;          // registered: offered in INI_ACCEPT
    state_q     <= INI_ACCEPT;
    if (early_code == ERR_NONE) begin
      job_q       <= new_job;
      job_q.params[0] <= rid_q;
      job_valid_q <= 1'b1;
    end
  endtask

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q     <= INI_IDLE;
      cmd_q       <= '0;
      peer_q      <= '0;
      rid_q       <= '0;
      cur_rid_q   <= '0;
      tmo_q       <= '0;
      cnt_q       <= '0;
      group_q     <= 1'b0;
      req_ready_q <= 1'b0;
      ts_ready_q  <= 1'b0;
      job_valid_q <= 1'b0;
      cpl_valid_q <= 1'b0;
      txd_q       <= 1'b0;
      txd_sent_q  <= 1'b0;
      txd_code_q  <= ERR_NONE;
      stat_q      <= '0;
      job_q       <= '0;
      cpl_q       <= '0;
      early_q     <= ERR_NONE;
      step_q      <= '0;
    end else begin
      req_ready_q <= 1'b0;
      step_q      <= time_step;
      if (ts_valid && ts_ready_q) begin
        ts_ready_q   <= 1'b0;
        stat_q.valid <= 1'b1;
        stat_q.code  <= ts.error_code;
        stat_q.len   <= ts.len;
      end
      if (tx_done) begin
        txd_q      <= 1'b1;
        txd_sent_q <= tx_done_sent;
        txd_code_q <= tx_done_code;
      end

      case (state_q)
        INI_IDLE: begin
          if (req_valid) begin
            cmd_q   <= req;      // looked at only until the real acceptance
            // above 32 bits the question may be answered as it is asked
            // (openenoc_oetp_lookup_arb.sv, PASS): no INI_LOOKUP cycle
            if (ETH_W > 32 && lk_rsp_valid) answered();
            else                            state_q <= INI_LOOKUP;
          end
        end
        INI_LOOKUP: begin
          // the answer comes as a one-cycle pulse; the question drops with it
          if (lk_rsp_valid) answered();
        end
        INI_ACCEPT: begin
          // req_ready_q is high in this cycle: the held offer is accepted now
          cmd_q  <= req;
          txd_q  <= 1'b0;
          stat_q <= '0;
          if (early_q != ERR_NONE) begin
            cpl_q       <= make_cpl(req, early_q, '0, '0);
            cpl_valid_q <= 1'b1;
            state_q     <= INI_COMPLETE;
          end else begin
            rid_q       <= rid_q + 32'd1;
            cur_rid_q   <= rid_q;
            tmo_q       <= group_q ? 32'd0 :
                           (req.kind == KIND_RMEM) ? conf.rmem_timeout : conf.dma_timeout;
            ts_ready_q  <= (req.kind == KIND_DMA && req.op == OP_WRITE);
            state_q     <= INI_TX;
          end
        end
        INI_TX: begin
          if (tx_done) job_valid_q <= 1'b0;
          // a write's source status must be in before the context moves on
          if (txd_now && (!dma_write || stat_q.valid)) begin
            if (!txd_sent_now || txd_code_now != ERR_NONE) begin
              cpl_q       <= make_cpl(cmd_q, txd_code_now, '0, '0);
              cpl_valid_q <= 1'b1;
              state_q     <= INI_COMPLETE;
            end else if (group_q) begin
              cpl_q       <= make_cpl(cmd_q, ERR_NONE, cmd_q.len, '0);
              cpl_valid_q <= 1'b1;
              state_q     <= INI_COMPLETE;
            end else begin
              // the handshake cycle and this one have passed since TLAST;
              // above 32 bits TX reports a sent frame in the handshake
              // cycle itself (openenoc_oetp_tx.sv, end_now), so a done
              // pulse now is that cycle alone
              cnt_q   <= (ETH_W > 32 && tx_done) ? time_step : sat_add(step_q, time_step);
              state_q <= INI_WAIT;
            end
          end
        end
        INI_WAIT: begin
          // a response validated in the expiry cycle wins over the timeout
          if (rx_done) begin
            // offered now (rsp_cpl_now); held if not taken in this cycle
            if (cpl_ready) begin
              state_q <= INI_IDLE;
            end else begin
              cpl_q       <= rsp_cpl;
              cpl_valid_q <= 1'b1;
              state_q     <= INI_COMPLETE;
            end
          end else if (tmo_q != 32'd0 && time_step != 32'd0 &&
                       {1'b0, cnt_q} + {1'b0, time_step} > {1'b0, tmo_q} && !rx_ending) begin
            state_q <= INI_ABORT;
          end else begin
            cnt_q <= sat_add(cnt_q, time_step);
          end
        end
        INI_ABORT: begin
          // RX closes a partly delivered read payload before the report
          if (!rx_busy) begin
            cpl_q       <= make_cpl(cmd_q, ERR_TIMEOUT, rx_len, '0);
            cpl_valid_q <= 1'b1;
            state_q     <= INI_COMPLETE;
          end
        end
        INI_COMPLETE: begin
          if (cpl_ready) begin
            cpl_valid_q <= 1'b0;
            state_q     <= INI_IDLE;
          end
        end
        default: state_q <= INI_IDLE;
      endcase
    end
  end
endmodule
