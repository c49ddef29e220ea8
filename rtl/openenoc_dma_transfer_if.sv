// DMA and RMEM transfer interface (shared/spec/rtl-interfaces.md). Two
// instances sit at the oETP engine: initiator (DMA requests, oETP executes)
// and responder (oETP requests, DMA executes). Every channel holds its fields
// stable while valid is high and ready is low.
interface openenoc_dma_transfer_if #(
  parameter int ADDR_W     = 32,
  parameter int LEN_W      = 32,
  parameter int PEER_IDX_W = 2,
  parameter int SEQ_W      = 32,
  parameter int ERR_W      = 4
);
  // One-time claim of an armed raw RX descriptor.
  logic                  non_oetp_rx_available;
  logic                  non_oetp_rx_claim_valid;
  logic                  non_oetp_rx_claim_ready;
  // Request.
  logic                  req_valid;
  logic                  req_ready;
  logic                  req_kind;          // 0 bulk DMA, 1 RMEM
  logic                  req_op;            // 0 READ, 1 WRITE (executor's view)
  logic [ADDR_W-1:0]     req_addr;
  logic [LEN_W-1:0]      req_len;
  logic [PEER_IDX_W-1:0] req_peer_idx;
  logic [SEQ_W-1:0]      req_sequence;
  logic                  req_last;
  logic [31:0]           req_biten;
  logic [31:0]           req_wdata;
  logic [ERR_W-1:0]      req_error_code;    // early protocol rejection
  logic                  req_rx_status;     // also wait for rx_status
  // Source-read result of an initiating write (DMA -> oETP).
  logic                  tx_status_valid;
  logic                  tx_status_ready;
  logic [PEER_IDX_W-1:0] tx_status_peer_idx;
  logic [SEQ_W-1:0]      tx_status_sequence;
  logic [LEN_W-1:0]      tx_status_len;
  logic [ERR_W-1:0]      tx_status_error_code;
  // Framing/EndOfData result of an incoming write (oETP -> DMA).
  logic                  rx_status_valid;
  logic                  rx_status_ready;
  logic [PEER_IDX_W-1:0] rx_status_peer_idx;
  logic [SEQ_W-1:0]      rx_status_sequence;
  logic [LEN_W-1:0]      rx_status_len;
  logic [ERR_W-1:0]      rx_status_error_code;
  // Completion.
  logic                  cpl_valid;
  logic                  cpl_ready;
  logic                  cpl_kind;
  logic                  cpl_op;
  logic [LEN_W-1:0]      cpl_transferred_len;
  logic [PEER_IDX_W-1:0] cpl_peer_idx;
  logic [SEQ_W-1:0]      cpl_sequence;
  logic                  cpl_last;
  logic                  cpl_error;
  logic [ERR_W-1:0]      cpl_error_code;    // initiator: CSR code; responder: wire cause
  logic [31:0]           cpl_rdata;

  // The directions are written once, from the requester's side (OUT is what
  // it drives); the executor's modport is the same list with them swapped.
`define OPENENOC_XFER_PORTS(OUT, IN) \
    IN  non_oetp_rx_available, non_oetp_rx_claim_ready, \
    OUT non_oetp_rx_claim_valid, \
    OUT req_valid, req_kind, req_op, req_addr, req_len, req_peer_idx, \
        req_sequence, req_last, req_biten, req_wdata, req_error_code, req_rx_status, \
    IN  req_ready, \
    OUT tx_status_valid, tx_status_peer_idx, tx_status_sequence, tx_status_len, \
        tx_status_error_code, \
    IN  tx_status_ready, \
    OUT rx_status_valid, rx_status_peer_idx, rx_status_sequence, rx_status_len, \
        rx_status_error_code, \
    IN  rx_status_ready, \
    IN  cpl_valid, cpl_kind, cpl_op, cpl_transferred_len, cpl_peer_idx, cpl_sequence, \
        cpl_last, cpl_error, cpl_error_code, cpl_rdata, \
    OUT cpl_ready

  modport requester (`OPENENOC_XFER_PORTS(output, input));
  modport executor  (`OPENENOC_XFER_PORTS(input, output));
`undef OPENENOC_XFER_PORTS
endinterface
