// Raw (non-oETP) DMA (endpoint.md "raw (non-oETP) DMA"): one TX and one RX
// descriptor moving whole Ethernet frames between memory and the wire. Each
// request is accepted after IRQ admission (a credit is reserved when its
// completion event is enabled); a buffer outside 1..MAX_RAW_FRAME_SIZE
// bytes or wrapping 2^32 ends at once with error 1, the event still
// produced. Controllers: TX (read the frame into the local stream) and RX
// (arm, claim the next admitted raw frame once, write it, check capacity).
module openenoc_ep_raw
  import openenoc_oetp_pkg::*;
  import openenoc_csr_pkg::*;
  import openenoc_ep_pkg::*;
(
  input  logic        clk,
  input  logic        rst,
  input  logic [13:0] max_frame,             // frame ceiling in force
  input  logic        local_tx_en,
  // TX descriptor
  input  logic [31:0] tx_base,
  input  logic [31:0] tx_len,
  input  logic        tx_request,
  input  logic        tx_clear,
  output logic        tx_request_hwclr,
  output logic        tx_clear_hwclr,
  output logic        tx_idle,
  output logic        tx_done,
  output logic        tx_error,
  output logic [3:0]  tx_code,
  output logic [31:0] tx_transferred,
  input  logic        tx_ev,                 // event_enable.non_oetp_dma_tx_complete
  // RX descriptor
  input  logic [31:0] rx_base,
  input  logic [31:0] rx_cap,
  input  logic        rx_request,
  input  logic        rx_clear,
  output logic        rx_request_hwclr,
  output logic        rx_clear_hwclr,
  output logic        rx_idle,
  output logic        rx_armed,
  output logic        rx_done,
  output logic        rx_error,
  output logic [3:0]  rx_code,
  output logic [31:0] rx_received,
  input  logic        rx_ev,
  // raw descriptor claim (responder_if)
  output logic        claim_available,
  input  logic        claim_valid,
  output logic        claim_ready,
  // IRQ producers: 0 TX, 1 RX (reserve at acceptance, commit at the end)
  output logic [1:0]  rsv_req,
  input  logic [1:0]  rsv_gnt,
  output logic [1:0]  cmt_valid,
  input  logic [1:0]  cmt_ready,
  // frame reader (TX)
  output logic        rd_start,
  output logic [31:0] rd_addr,
  output logic [15:0] rd_len,
  input  logic        rd_busy,
  input  logic        rd_done,
  input  logic [15:0] rd_bytes,
  input  logic [3:0]  rd_code_in,
  // frame writer (RX)
  output logic        wr_start,
  output logic [31:0] wr_addr,
  output logic [15:0] wr_cap,
  input  logic        wr_done,
  input  logic [15:0] wr_bytes,
  input  logic [15:0] wr_seen,
  input  logic [3:0]  wr_code_in
);
  function automatic logic buffer_ok(input logic [31:0] base, input logic [31:0] len);
    buffer_ok = len != 0 && len <= {18'd0, max_frame} &&
                {1'b0, base} + {1'b0, len} <= 33'h1_0000_0000;
  endfunction

  // ---- TX ------------------------------------------------------------------
  typedef enum logic [1:0] { TX_IDLE, TX_WAIT, TX_READ } tx_state_e;
  tx_state_e   tx_q;
  logic        tx_idle_q, tx_done_q, tx_err_q, tx_rsv_q, tx_cmt_q;
  logic [3:0]  tx_code_q;
  logic [31:0] tx_xfer_q, tx_base_q;
  logic [15:0] tx_len_q;              // checked against the ceiling (<= 8192)

  wire tx_acc_want = tx_request && tx_q == TX_IDLE && !tx_cmt_q;
  assign rsv_req[0]      = tx_acc_want && tx_ev;
  wire tx_accept         = tx_acc_want && (!tx_ev || rsv_gnt[0]);
  assign tx_request_hwclr = tx_accept;
  assign tx_clear_hwclr   = tx_clear;
  assign cmt_valid[0]     = tx_cmt_q;
  assign rd_start  = tx_q == TX_WAIT && local_tx_en && !rd_busy;
  assign rd_addr   = tx_base_q;
  assign rd_len    = tx_len_q;
  assign tx_idle   = tx_idle_q;
  assign tx_done   = tx_done_q;
  assign tx_error  = tx_err_q;
  assign tx_code   = tx_code_q;
  assign tx_transferred = tx_xfer_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      tx_q      <= TX_IDLE;
      tx_idle_q <= 1'b1;
      tx_done_q <= 1'b0;
      tx_err_q  <= 1'b0;
      tx_rsv_q  <= 1'b0;
      tx_cmt_q  <= 1'b0;
      tx_code_q <= '0;
      tx_xfer_q <= '0;
      tx_base_q <= '0;
      tx_len_q  <= '0;
    end else begin
      if (tx_clear) begin tx_err_q <= 1'b0; tx_code_q <= '0; end
      if (tx_cmt_q && cmt_ready[0]) tx_cmt_q <= 1'b0;
      case (tx_q)
        TX_IDLE: if (tx_accept) begin
          tx_done_q <= 1'b0;
          tx_xfer_q <= '0;
          tx_base_q <= tx_base;
          tx_len_q  <= tx_len[15:0];
          tx_rsv_q  <= tx_ev;
          if (buffer_ok(tx_base, tx_len)) begin
            tx_idle_q <= 1'b0;
            tx_q      <= TX_WAIT;
          end else begin
            tx_err_q  <= 1'b1;
            tx_code_q <= ERR_LOCAL_INVALID;
            tx_cmt_q  <= tx_ev;
          end
        end
        TX_WAIT: if (rd_start) tx_q <= TX_READ;
        TX_READ: if (rd_done) begin
          tx_xfer_q <= {16'd0, rd_bytes};
          tx_idle_q <= 1'b1;
          tx_done_q <= rd_code_in == ERR_NONE;
          if (rd_code_in != ERR_NONE) begin tx_err_q <= 1'b1; tx_code_q <= rd_code_in; end
          tx_cmt_q  <= tx_rsv_q;
          tx_q      <= TX_IDLE;
        end
        default: tx_q <= TX_IDLE;
      endcase
    end
  end

  // ---- RX ------------------------------------------------------------------
  typedef enum logic [1:0] { RX_IDLE, RX_ARMED, RX_WRITE } rx_state_e;
  rx_state_e   rx_q;
  logic        rx_idle_q, rx_done_q, rx_err_q, rx_rsv_q, rx_cmt_q;
  logic [3:0]  rx_code_q;
  logic [31:0] rx_recv_q, rx_base_q, rx_cap_q;

  wire rx_acc_want = rx_request && rx_q == RX_IDLE && !rx_cmt_q;
  assign rsv_req[1]       = rx_acc_want && rx_ev;
  wire rx_accept          = rx_acc_want && (!rx_ev || rsv_gnt[1]);
  assign rx_request_hwclr = rx_accept;
  assign rx_clear_hwclr   = rx_clear;
  assign cmt_valid[1]     = rx_cmt_q;
  assign claim_available  = rx_q == RX_ARMED;
  assign claim_ready      = rx_q == RX_ARMED;
  assign wr_start = claim_valid && claim_ready;
  assign wr_addr  = rx_base_q;
  assign wr_cap   = rx_cap_q[15:0];
  assign rx_idle  = rx_idle_q;
  assign rx_armed = rx_q == RX_ARMED;
  assign rx_done  = rx_done_q;
  assign rx_error = rx_err_q;
  assign rx_code  = rx_code_q;
  assign rx_received = rx_recv_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      rx_q      <= RX_IDLE;
      rx_idle_q <= 1'b1;
      rx_done_q <= 1'b0;
      rx_err_q  <= 1'b0;
      rx_rsv_q  <= 1'b0;
      rx_cmt_q  <= 1'b0;
      rx_code_q <= '0;
      rx_recv_q <= '0;
      rx_base_q <= '0;
      rx_cap_q  <= '0;
    end else begin
      if (rx_clear) begin rx_err_q <= 1'b0; rx_code_q <= '0; end
      if (rx_cmt_q && cmt_ready[1]) rx_cmt_q <= 1'b0;
      case (rx_q)
        RX_IDLE: if (rx_accept) begin
          rx_done_q <= 1'b0;
          rx_recv_q <= '0;
          rx_base_q <= rx_base;
          rx_cap_q  <= rx_cap;
          rx_rsv_q  <= rx_ev;
          if (buffer_ok(rx_base, rx_cap)) begin
            rx_idle_q <= 1'b0;
            rx_q      <= RX_ARMED;
          end else begin
            rx_err_q  <= 1'b1;
            rx_code_q <= ERR_LOCAL_INVALID;
            rx_cmt_q  <= rx_ev;
          end
        end
        RX_ARMED: if (wr_start) rx_q <= RX_WRITE;
        RX_WRITE: if (wr_done) begin
          logic [3:0] code;
          code = (wr_code_in != ERR_NONE) ? wr_code_in :
                 ({16'd0, wr_seen} > rx_cap_q) ? ERR_LOCAL_OVERFLOW : ERR_NONE;
          rx_recv_q <= {16'd0, wr_bytes};
          rx_idle_q <= 1'b1;
          rx_done_q <= code == ERR_NONE;
          if (code != ERR_NONE) begin rx_err_q <= 1'b1; rx_code_q <= code; end
          rx_cmt_q  <= rx_rsv_q;
          rx_q      <= RX_IDLE;
        end
        default: rx_q <= RX_IDLE;
      endcase
    end
  end
endmodule
