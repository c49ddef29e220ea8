// Raw (non-oETP) DMA (endpoint.md "raw (non-oETP) DMA"): one TX and one RX
// descriptor (openenoc_ep_raw_desc each: admission, buffer check, status,
// event) moving whole Ethernet frames between memory and the wire: TX reads
// the frame into the local stream, RX arms, claims the next admitted raw
// frame once, writes it and checks the capacity.
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
  // IRQ producers (reserve at acceptance, commit at the end)
  openenoc_ep_irq_if.producer tx_irq,
  openenoc_ep_irq_if.producer rx_irq,
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
  // ---- TX: read the frame into the local stream -------------------------------
  logic        tx_waiting;
  logic [31:0] tx_base_q, tx_len_q;   // the length is checked against the ceiling (<= 8192)

  openenoc_ep_raw_desc #(.SOURCE(SRC_RAW_TX)) u_tx (
    .clk, .rst, .max_frame, .base(tx_base), .len(tx_len), .request(tx_request), .clear(tx_clear),
    .request_hwclr(tx_request_hwclr), .clear_hwclr(tx_clear_hwclr), .idle(tx_idle),
    .done(tx_done), .error(tx_error), .code(tx_code), .transferred(tx_transferred), .ev(tx_ev),
    .irq(tx_irq), .waiting(tx_waiting), .go(rd_start), .base_q(tx_base_q), .len_q(tx_len_q),
    .xfer_done(rd_done), .xfer_bytes(rd_bytes), .xfer_code(rd_code_in)
  );
  assign rd_start = tx_waiting && local_tx_en && !rd_busy;
  assign rd_addr  = tx_base_q;
  assign rd_len   = tx_len_q[15:0];

  // ---- RX: arm, claim the next admitted raw frame once, write it ----------------
  logic        rx_waiting;
  logic [31:0] rx_base_q, rx_cap_q;
  // a frame longer than the buffer is an overflow (the writer stops at the
  // capacity); read with the writer's done only (Verilator evaluates an
  // always_comb every cycle but only its taken branch)
  logic [3:0]  rx_code_in;
  always_comb begin
    rx_code_in = ERR_NONE;
    if (wr_done)
      rx_code_in = (wr_code_in != ERR_NONE) ? wr_code_in :
                   ({16'd0, wr_seen} > rx_cap_q) ? ERR_LOCAL_OVERFLOW : ERR_NONE;
  end

  openenoc_ep_raw_desc #(.SOURCE(SRC_RAW_RX)) u_rx (
    .clk, .rst, .max_frame, .base(rx_base), .len(rx_cap), .request(rx_request), .clear(rx_clear),
    .request_hwclr(rx_request_hwclr), .clear_hwclr(rx_clear_hwclr), .idle(rx_idle),
    .done(rx_done), .error(rx_error), .code(rx_code), .transferred(rx_received), .ev(rx_ev),
    .irq(rx_irq), .waiting(rx_waiting), .go(wr_start), .base_q(rx_base_q), .len_q(rx_cap_q),
    .xfer_done(wr_done), .xfer_bytes(wr_bytes), .xfer_code(rx_code_in)
  );
  assign rx_armed        = rx_waiting;
  assign claim_available = rx_waiting;
  assign claim_ready     = rx_waiting;
  assign wr_start        = claim_valid && claim_ready;
  assign wr_addr         = rx_base_q;
  assign wr_cap          = rx_cap_q[15:0];

  // verilator lint_off UNUSEDSIGNAL
  wire unused = &{1'b0, tx_len_q[31:16]};   // at most the frame ceiling
  // verilator lint_on UNUSEDSIGNAL
endmodule
