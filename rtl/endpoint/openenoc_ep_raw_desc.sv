// One raw DMA descriptor (endpoint.md "raw (non-oETP) DMA"), the controller
// the TX and the RX side of openenoc_ep_raw share: a request is accepted
// after IRQ admission (a credit is reserved when the completion event is
// enabled); a buffer outside 1..max_frame bytes or wrapping 2^32 ends at
// once with error 1 (the event still produced); otherwise the descriptor
// waits until its transfer starts (go), then records the transfer's bytes
// and code and commits the event.
module openenoc_ep_raw_desc
  import openenoc_csr_pkg::*;
  import openenoc_ep_pkg::*;
#(
  parameter logic [3:0] SOURCE = 4'd0        // irq.claim.source of its event
) (
  input  logic        clk,
  input  logic        rst,
  input  logic [13:0] max_frame,             // frame ceiling in force
  // descriptor registers
  input  logic [31:0] base,
  input  logic [31:0] len,                   // frame length (TX) or capacity (RX)
  input  logic        request,
  input  logic        clear,
  output logic        request_hwclr,
  output logic        clear_hwclr,
  output logic        idle,
  output logic        done,
  output logic        error,
  output logic [3:0]  code,
  output logic [31:0] transferred,
  input  logic        ev,                    // its irq.event_enable bit
  openenoc_ep_irq_if.producer irq,
  // the transfer
  output logic        waiting,               // accepted: the transfer may start
  input  logic        go,                    // it starts (while waiting)
  output logic [31:0] base_q,
  output logic [31:0] len_q,
  input  logic        xfer_done,
  input  logic [15:0] xfer_bytes,
  input  logic [3:0]  xfer_code
);
  typedef enum logic [1:0] { D_IDLE, D_WAIT, D_BUSY } desc_state_e;
  desc_state_e state_q;
  logic        idle_q, done_q, err_q, rsv_q, cmt_q;
  logic [3:0]  code_q;
  logic [31:0] xfer_q;

  // 1 <= len <= max_frame, and base + len <= 2^32: with len in 1..max_frame
  // (14 bits) the last is len - 1 <= ~base, a 14-bit decrement and a compare
  // instead of a 33-bit sum
  wire [13:0] len_m1   = len[13:0] - 14'd1;
  wire buffer_ok = len != 0 && len <= {18'd0, max_frame} && {18'd0, len_m1} <= ~base;
  wire acc_want  = request && state_q == D_IDLE && !cmt_q;
  wire accept    = acc_want && (!ev || irq.rsv_gnt);

  assign irq.rsv_req    = acc_want && ev;
  assign irq.cmt_valid  = cmt_q;
  assign irq.cmt_source = SOURCE;
  assign irq.cmt_peer   = '0;
  assign request_hwclr  = accept;
  assign clear_hwclr    = clear;
  assign idle           = idle_q;
  assign done           = done_q;
  assign error          = err_q;
  assign code           = code_q;
  assign transferred    = xfer_q;
  assign waiting        = state_q == D_WAIT;

  always_ff @(posedge clk) begin
    // The registers the branches read, read once here, before any branch
    // writes them: Verilator keeps a shadow copy (two copies every cycle) of
    // a register one branch writes and a later one reads, a case selector
    // included; a local read here costs one.
    desc_state_e st;
    logic        rsv, cmt;
    st  = state_q;
    rsv = rsv_q;
    cmt = cmt_q;
    if (rst) begin
      state_q <= D_IDLE;
      idle_q  <= 1'b1;
      done_q  <= 1'b0;
      err_q   <= 1'b0;
      rsv_q   <= 1'b0;
      cmt_q   <= 1'b0;
      code_q  <= '0;
      xfer_q  <= '0;
      base_q  <= '0;
      len_q   <= '0;
    end else begin
      if (clear) begin err_q <= 1'b0; code_q <= '0; end
      if (cmt && irq.cmt_ready) cmt_q <= 1'b0;
      case (st)
        D_IDLE: if (accept) begin
          done_q <= 1'b0;
          xfer_q <= '0;
          base_q <= base;
          len_q  <= len;
          rsv_q  <= ev;
          if (buffer_ok) begin
            idle_q  <= 1'b0;
            state_q <= D_WAIT;
          end else begin
            err_q  <= 1'b1;
            code_q <= ERR_LOCAL_INVALID;
            cmt_q  <= ev;
          end
        end
        D_WAIT: if (go) state_q <= D_BUSY;
        D_BUSY: if (xfer_done) begin
          xfer_q  <= {16'd0, xfer_bytes};
          idle_q  <= 1'b1;
          done_q  <= xfer_code == ERR_NONE;
          if (xfer_code != ERR_NONE) begin err_q <= 1'b1; code_q <= xfer_code; end
          cmt_q   <= rsv;
          state_q <= D_IDLE;
        end
        default: state_q <= D_IDLE;
      endcase
    end
  end
endmodule
