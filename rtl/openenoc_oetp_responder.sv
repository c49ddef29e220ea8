// Responder controller: one context servicing a received request. RX admits
// the request (already framed, source peer resolved); the responder hands it
// to the DMA engine on responder_if, waits for the completion and queues the
// reply frame: the success response, ERROR_RSP with the servicing cause, or
// nothing for a group write. A DMA read reply streams its Data while the
// source read is still running; its completion is the source status.
// No cycle is spent between the stages: an admitted request goes to the DMA
// engine in the cycle RX admits it when the engine is free (else it is held
// in RSP_REQUEST), and the reply is queued with the completion handshake.
module openenoc_oetp_responder
  import openenoc_csr_pkg::*;
  import openenoc_oetp_pkg::*;
#(
  parameter int ETH_W = 32,  // the engine's Ethernet width (see to_idle below)
  // An RMEM read's success reply offered in the completion cycle (job_now):
  // the co-simulation's LOW_LATENCY build above 32 bits
  parameter bit NOW   = 1'b0
) (
  input  logic        clk,
  input  logic        rst,
  input  logic        admit_valid,
  input  rx_admit_t   admit,
  output logic        busy,
  output logic        accepted,      // the DMA engine took the request
  // responder_if, requester side
  output logic        req_valid,
  output xfer_req_t   req,
  input  logic        req_ready,
  input  logic        cpl_valid,
  // kind/op/peer/sequence/last echo our own request: not needed back
  // verilator lint_off UNUSEDSIGNAL
  input  xfer_cpl_t   cpl,
  // verilator lint_on UNUSEDSIGNAL
  output logic        cpl_ready,
  // TX
  output logic        job_valid,
  output tx_job_t     job,
  // NOW: the RMEM read's success reply is complete in this cycle, job with
  // its value (params[1]) job_now_p1; job_valid follows a cycle later
  output logic        job_now,
  output logic [31:0] job_now_p1,
  output src_status_t stat,
  input  logic        tx_done,
  input  logic        tx_done_sent,
  input  logic [ERR_W-1:0] tx_done_code
);
  typedef enum logic [1:0] { RSP_IDLE, RSP_REQUEST, RSP_EXECUTE, RSP_REPLY } rsp_state_e;

  rsp_state_e  state_q;
  // the request's addresses and write data go to the DMA engine from
  // admit (req_q); the context keeps what the reply and the outcome read
  // verilator lint_off UNUSEDSIGNAL
  rx_admit_t   ctx_q;
  // verilator lint_on UNUSEDSIGNAL
  xfer_req_t   req_q;
  logic        req_valid_q, cpl_ready_q, job_valid_q, accepted_q;
  logic        cpl_seen_q, txd_q;
  // NOW: an admitted RMEM read of a unicast source, its success reply
  // preloaded in job_q (all but the value), until its completion
  logic        pre_q;
  src_status_t stat_q;
  tx_job_t     job_q;

  // The helpers below take the fields they read, never a whole context or
  // job: a function's struct argument is a copy in the simulation model
  // (rx_admit_t is 283 bits), made on every evaluation.

  // the transfer request an admitted request becomes (the reply's fields
  // stay in the context)
  xfer_req_t admit_req;
  always_comb begin
    admit_req.kind       = (admit.cmd == CMD_RMEM_READ_REQ || admit.cmd == CMD_RMEM_WRITE_REQ)
                           ? KIND_RMEM : KIND_DMA;
    admit_req.op         = (admit.cmd == CMD_RMEM_WRITE_REQ || admit.cmd == CMD_DMA_WRITE_REQ)
                           ? OP_WRITE : OP_READ;
    admit_req.addr       = admit.addr;
    admit_req.len        = admit.len;
    admit_req.peer       = admit.peer;
    admit_req.seq        = admit.seq;
    admit_req.last       = 1'b1;
    admit_req.biten      = admit.biten;
    admit_req.wdata      = admit.wdata;
    admit_req.error_code = admit.error_code;
    admit_req.rx_status  = admit.cmd == CMD_DMA_WRITE_REQ && admit.error_code == ERR_NONE;
  end

  // RSP_IDLE offers the admitted request itself (RX holds admit until its
  // next admission, which waits for busy to fall)
  wire idle = state_q == RSP_IDLE;
  assign busy      = !idle;
  assign accepted  = accepted_q;
  assign req_valid = idle ? admit_valid : req_valid_q;
  assign req       = idle ? admit_req : req_q;
  assign cpl_ready = cpl_ready_q;
  assign job_valid = job_valid_q;
  assign job       = job_q;
  assign stat      = stat_q;
  // With NOW a remote CPU load's reply is picked by TX in the cycle the
  // memory read completes, from this preloaded job and the completion's
  // value, not from job_q a cycle later (its header words, the frame's
  // first beat, are all known at the admission). A failed read still gets
  // its ERROR_RSP from job_q. Constant 0 without NOW.
  assign job_now    = pre_q && cpl_valid && cpl_ready_q && !cpl.error;
  assign job_now_p1 = cpl.rdata;

  // a DMA read whose reply carries Data (the admitted request's, the context's)
  wire admit_data_read = admit.cmd == CMD_DMA_READ_REQ && admit.error_code == ERR_NONE;
  wire data_read       = ctx_q.cmd == CMD_DMA_READ_REQ && ctx_q.error_code == ERR_NONE;

  // a reply uses only the fields of the request that reach the wire
  function automatic tx_job_t reply(input oetp_cmd_e cmd, input logic [2:0] n,
                                    input logic [31:0] p1, input logic [47:0] dst,
                                    input logic [47:0] src, input logic [31:0] rid,
                                    input logic [PEER_IDX_W-1:0] peer,
                                    input logic [SEQ_W-1:0] seq, input logic [31:0] len);
    reply            = '0;
    reply.cmd        = cmd;
    reply.dst        = dst;
    reply.src        = src;
    reply.nparams    = n;
    reply.params[0]  = rid;
    reply.params[1]  = p1;
    reply.peer       = peer;
    reply.seq        = seq;
    reply.role       = 1'b1;
    reply.has_data   = (cmd == CMD_DMA_READ_RSP);
    reply.data_len   = len;
  endfunction

  // the reply to the request in the context
  function automatic tx_job_t ctx_reply(input oetp_cmd_e cmd, input logic [2:0] n,
                                        input logic [31:0] p1);
    ctx_reply = reply(cmd, n, p1, ctx_q.src_mac, ctx_q.local_mac, ctx_q.rid, ctx_q.peer,
                      ctx_q.seq, ctx_q.len);
  endfunction

  // Wire cause of a failed service; never 0 and never outside 1..7.
  function automatic logic [31:0] wire_cause(input logic [ERR_W-1:0] code);
    wire_cause = (code >= 4'd1 && code <= 4'd7) ? {28'd0, code} : 32'd1;
  endfunction

  function automatic tx_job_t success_reply(input oetp_cmd_e cmd, input logic [31:0] rdata);
    case (cmd)
      CMD_RMEM_READ_REQ:  success_reply = ctx_reply(CMD_RMEM_READ_RSP, 3'd2, rdata);
      CMD_RMEM_WRITE_REQ: success_reply = ctx_reply(CMD_RMEM_WRITE_RSP, 3'd1, '0);
      default:            success_reply = ctx_reply(CMD_DMA_WRITE_RSP, 3'd1, '0);
    endcase
  endfunction

  // the DMA engine took the request (dr: a DMA read, whose reply, set by
  // the caller, starts at once: its Data stream while the source read runs)
  task automatic take(input logic dr);
    req_valid_q <= 1'b0;
    accepted_q  <= 1'b1;
    cpl_ready_q <= 1'b1;
    if (dr) job_valid_q <= 1'b1;
    state_q <= RSP_EXECUTE;
  endtask

  // The context ends. RSP_IDLE clears the context's flags in its first
  // cycle; above 32 bits they are cleared as the context ends instead:
  // accepted is co-simulation activity, and TX registers the source status
  // a cycle after it changes, so flags falling in RSP_IDLE's first cycle
  // are two more cycles of the host call that sends every RMEM reply before
  // the model is at rest (RX reads accepted only while it waits for the
  // acceptance of its own admission; TX reads the status only with a job).
  task automatic to_idle();
    state_q <= RSP_IDLE;
    if (ETH_W > 32) begin
      accepted_q <= 1'b0;
      cpl_seen_q <= 1'b0;
      txd_q      <= 1'b0;
      stat_q     <= '0;
    end
  endtask

  // The context is loaded from the admission in a process of its own: the
  // controller's process below reads it, and a register that its own
  // process both reads and writes costs the simulation model a copy of all
  // its bits on every cycle (Verilator's delayed-assignment shadow).
  always_ff @(posedge clk) begin
    if (rst)                      ctx_q <= '0;
    else if (idle && admit_valid) ctx_q <= admit;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q     <= RSP_IDLE;
      req_q       <= '0;
      req_valid_q <= 1'b0;
      cpl_ready_q <= 1'b0;
      job_valid_q <= 1'b0;
      accepted_q  <= 1'b0;
      cpl_seen_q  <= 1'b0;
      txd_q       <= 1'b0;
      stat_q      <= '0;
      job_q       <= '0;
      pre_q       <= 1'b0;
    end else begin
      case (state_q)
        RSP_IDLE: begin
          accepted_q <= 1'b0;
          cpl_seen_q <= 1'b0;
          txd_q      <= 1'b0;
          stat_q     <= '0;
          if (admit_valid) begin
            req_q <= admit_req;
            if (NOW && admit.cmd == CMD_RMEM_READ_REQ && !admit.group) begin
              pre_q <= 1'b1;
              job_q <= reply(CMD_RMEM_READ_RSP, 3'd2, '0, admit.src_mac, admit.local_mac,
                             admit.rid, admit.peer, admit.seq, admit.len);
            end
            if (req_ready) begin
              take(admit_data_read);
              if (admit_data_read)
                job_q <= reply(CMD_DMA_READ_RSP, 3'd1, '0, admit.src_mac, admit.local_mac,
                               admit.rid, admit.peer, admit.seq, admit.len);
            end else begin
              req_valid_q <= 1'b1;
              state_q     <= RSP_REQUEST;
            end
          end
        end

        RSP_REQUEST: begin
          if (req_ready) begin
            take(data_read);
            if (data_read) job_q <= ctx_reply(CMD_DMA_READ_RSP, 3'd1, '0);
          end
        end

        RSP_EXECUTE: begin
          if (cpl_valid && cpl_ready_q) begin
            pre_q        <= 1'b0;
            cpl_ready_q  <= 1'b0;
            cpl_seen_q   <= 1'b1;
            stat_q.valid <= 1'b1;
            stat_q.code  <= cpl.error ? 4'(wire_cause(cpl.error_code)) : ERR_NONE;
            stat_q.len   <= cpl.len;
            // the reply of a request without Data is queued with the
            // completion (group requests get none)
            if (!data_read) begin
              if (ctx_q.group) begin
                to_idle();
              end else begin
                job_q       <= cpl.error ? ctx_reply(CMD_ERROR_RSP, 3'd2, wire_cause(cpl.error_code))
                                         : success_reply(ctx_q.cmd, cpl.rdata);
                job_valid_q <= 1'b1;
                state_q     <= RSP_REPLY;
              end
            end
          end
          if (tx_done) begin
            txd_q       <= 1'b1;
            job_valid_q <= 1'b0;
            if (!tx_done_sent) begin
              // the source failed before the reply frame started
              job_q       <= ctx_reply(CMD_ERROR_RSP, 3'd2, wire_cause(tx_done_code));
              job_valid_q <= 1'b1;
              state_q     <= RSP_REPLY;
            end
          end
          if (data_read && cpl_seen_q && txd_q) begin
            to_idle();                           // reply frame finished
          end
        end

        RSP_REPLY: begin
          if (tx_done) begin
            job_valid_q <= 1'b0;
            to_idle();
          end
        end

        default: state_q <= RSP_IDLE;
      endcase
    end
  end
endmodule
