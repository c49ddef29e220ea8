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
(
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
  output src_status_t stat,
  input  logic        tx_done,
  input  logic        tx_done_sent,
  input  logic [ERR_W-1:0] tx_done_code
);
  typedef enum logic [1:0] { RSP_IDLE, RSP_REQUEST, RSP_EXECUTE, RSP_REPLY } rsp_state_e;

  rsp_state_e  state_q;
  rx_admit_t   ctx_q;
  xfer_req_t   req_q;
  logic        req_valid_q, cpl_ready_q, job_valid_q, accepted_q;
  logic        cpl_seen_q, txd_q;
  src_status_t stat_q;
  tx_job_t     job_q;

  // the transfer request an admitted request becomes (the reply's fields
  // stay in the context)
  // verilator lint_off UNUSEDSIGNAL
  function automatic xfer_req_t to_req(input rx_admit_t a);
    to_req.kind       = (a.cmd == CMD_RMEM_READ_REQ || a.cmd == CMD_RMEM_WRITE_REQ)
                        ? KIND_RMEM : KIND_DMA;
    to_req.op         = (a.cmd == CMD_RMEM_WRITE_REQ || a.cmd == CMD_DMA_WRITE_REQ)
                        ? OP_WRITE : OP_READ;
    to_req.addr       = a.addr;
    to_req.len        = a.len;
    to_req.peer       = a.peer;
    to_req.seq        = a.seq;
    to_req.last       = 1'b1;
    to_req.biten      = a.biten;
    to_req.wdata      = a.wdata;
    to_req.error_code = a.error_code;
    to_req.rx_status  = a.cmd == CMD_DMA_WRITE_REQ && a.error_code == ERR_NONE;
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  // RSP_IDLE offers the admitted request itself (RX holds admit until its
  // next admission, which waits for busy to fall)
  wire idle = state_q == RSP_IDLE;
  assign busy      = !idle;
  assign accepted  = accepted_q;
  assign req_valid = idle ? admit_valid : req_valid_q;
  assign req       = idle ? to_req(admit) : req_q;
  assign cpl_ready = cpl_ready_q;
  assign job_valid = job_valid_q;
  assign job       = job_q;
  assign stat      = stat_q;

  // verilator lint_off UNUSEDSIGNAL
  function automatic logic is_data_read(input rx_admit_t c);
    is_data_read = c.cmd == CMD_DMA_READ_REQ && c.error_code == ERR_NONE;
  endfunction
  // verilator lint_on UNUSEDSIGNAL
  wire data_read = is_data_read(ctx_q);

  // a reply uses only the fields of the context that reach the wire
  // verilator lint_off UNUSEDSIGNAL
  function automatic tx_job_t reply(input rx_admit_t c, input oetp_cmd_e cmd,
                                    input logic [2:0] n, input logic [31:0] p1);
    reply            = '0;
    reply.cmd        = cmd;
    reply.dst        = c.src_mac;
    reply.src        = c.local_mac;
    reply.nparams    = n;
    reply.params[0]  = c.rid;
    reply.params[1]  = p1;
    reply.peer       = c.peer;
    reply.seq        = c.seq;
    reply.role       = 1'b1;
    reply.has_data   = (cmd == CMD_DMA_READ_RSP);
    reply.data_len   = c.len;
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  // Wire cause of a failed service; never 0 and never outside 1..7.
  function automatic logic [31:0] wire_cause(input logic [ERR_W-1:0] code);
    wire_cause = (code >= 4'd1 && code <= 4'd7) ? {28'd0, code} : 32'd1;
  endfunction

  function automatic tx_job_t success_reply(input rx_admit_t c, input logic [31:0] rdata);
    case (c.cmd)
      CMD_RMEM_READ_REQ:  success_reply = reply(c, CMD_RMEM_READ_RSP, 3'd2, rdata);
      CMD_RMEM_WRITE_REQ: success_reply = reply(c, CMD_RMEM_WRITE_RSP, 3'd1, '0);
      default:            success_reply = reply(c, CMD_DMA_WRITE_RSP, 3'd1, '0);
    endcase
  endfunction

  // the DMA engine took the request of context c: a DMA read reply starts
  // at once (its Data stream while the source read runs)
  task automatic take(input rx_admit_t c);
    req_valid_q <= 1'b0;
    accepted_q  <= 1'b1;
    cpl_ready_q <= 1'b1;
    if (is_data_read(c)) begin
      job_q       <= reply(c, CMD_DMA_READ_RSP, 3'd1, '0);
      job_valid_q <= 1'b1;
    end
    state_q <= RSP_EXECUTE;
  endtask

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q     <= RSP_IDLE;
      ctx_q       <= '0;
      req_q       <= '0;
      req_valid_q <= 1'b0;
      cpl_ready_q <= 1'b0;
      job_valid_q <= 1'b0;
      accepted_q  <= 1'b0;
      cpl_seen_q  <= 1'b0;
      txd_q       <= 1'b0;
      stat_q      <= '0;
      job_q       <= '0;
    end else begin
      case (state_q)
        RSP_IDLE: begin
          accepted_q <= 1'b0;
          cpl_seen_q <= 1'b0;
          txd_q      <= 1'b0;
          stat_q     <= '0;
          if (admit_valid) begin
            ctx_q <= admit;
            req_q <= to_req(admit);
            if (req_ready) begin
              take(admit);
            end else begin
              req_valid_q <= 1'b1;
              state_q     <= RSP_REQUEST;
            end
          end
        end

        RSP_REQUEST: if (req_ready) take(ctx_q);

        RSP_EXECUTE: begin
          if (cpl_valid && cpl_ready_q) begin
            cpl_ready_q  <= 1'b0;
            cpl_seen_q   <= 1'b1;
            stat_q.valid <= 1'b1;
            stat_q.code  <= cpl.error ? 4'(wire_cause(cpl.error_code)) : ERR_NONE;
            stat_q.len   <= cpl.len;
            // the reply of a request without Data is queued with the
            // completion (group requests get none)
            if (!data_read) begin
              if (ctx_q.group) begin
                state_q <= RSP_IDLE;
              end else begin
                job_q       <= cpl.error ? reply(ctx_q, CMD_ERROR_RSP, 3'd2, wire_cause(cpl.error_code))
                                         : success_reply(ctx_q, cpl.rdata);
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
              job_q       <= reply(ctx_q, CMD_ERROR_RSP, 3'd2, wire_cause(tx_done_code));
              job_valid_q <= 1'b1;
              state_q     <= RSP_REPLY;
            end
          end
          if (data_read && cpl_seen_q && txd_q) begin
            state_q <= RSP_IDLE;                 // reply frame finished
          end
        end

        RSP_REPLY: begin
          if (tx_done) begin
            job_valid_q <= 1'b0;
            state_q     <= RSP_IDLE;
          end
        end

        default: state_q <= RSP_IDLE;
      endcase
    end
  end
endmodule
