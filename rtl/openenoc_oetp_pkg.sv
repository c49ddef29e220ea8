// Constants, encodings and internal record types of the oETP engine
// (shared/spec/oetp-engine.txt). The wire layout itself is written once in
// include/openenoc/oetp.h; the values here are the same facts in SV form.
package openenoc_oetp_pkg;
  // CSR error codes (ERR_*, error_code_e): generated from the register map.
  import openenoc_csr_pkg::*;

  // Fixed path widths: the spec allows no other (checked at elaboration).
  localparam int DATA_W     = 32;
  localparam int KEEP_W     = DATA_W / 8;
  localparam int ADDR_W     = 32;
  localparam int LEN_W      = 32;
  localparam int SEQ_W      = 32;
  localparam int ERR_W      = 4;
  localparam int PEER_IDX_W = 2;          // NUM_OF_PEERS = 4
  localparam int DEST_W     = 2 + PEER_IDX_W;
  localparam int USER_W     = 2;

  localparam logic [15:0] ETHERTYPE = 16'h88B5;
  localparam logic [7:0]  MAGIC     = 8'h0E;
  localparam logic [31:0] EOD       = 32'hE0D0_E0D0;   // wire D0 E0 D0 E0
  localparam int          PADDED_FRAME_LEN = 60;       // 14 + 46
  localparam int          DMA_OVERHEAD     = 32;       // DMA_WRITE_REQ bytes besides data

  typedef enum logic [7:0] {
    CMD_RMEM_READ_REQ  = 8'h10,
    CMD_RMEM_READ_RSP  = 8'h11,
    CMD_RMEM_WRITE_REQ = 8'h20,
    CMD_RMEM_WRITE_RSP = 8'h21,
    CMD_DMA_READ_REQ   = 8'h30,
    CMD_DMA_READ_RSP   = 8'h31,
    CMD_DMA_WRITE_REQ  = 8'h40,
    CMD_DMA_WRITE_RSP  = 8'h41,
    CMD_ERROR_RSP      = 8'hFF
  } oetp_cmd_e;

  typedef enum logic [1:0] {
    ROUTE_PEER         = 2'd0,
    ROUTE_NON_OETP_DMA = 2'd1,
    ROUTE_DIRECT       = 2'd2,
    ROUTE_DROP         = 2'd3
  } route_e;

  typedef enum logic { KIND_DMA = 1'b0, KIND_RMEM = 1'b1 } xfer_kind_e;
  typedef enum logic { OP_READ  = 1'b0, OP_WRITE  = 1'b1 } xfer_op_e;
  typedef enum logic [1:0] { LOOKUP_BY_INDEX = 2'd0, LOOKUP_BY_RMEM = 2'd1,
                             LOOKUP_BY_MAC = 2'd2 } lookup_type_e;

  // TUSER bits of the internal streams: [0] LAST (final fragment of the
  // block), [1] role (0 initiator, 1 responder).
  localparam int TUSER_ROLE = 1;

  // Configuration the engine reads from endpoint_if.csr_to_core.
  typedef struct packed {
    logic [47:0] mac_address;
    logic [47:0] multicast_address;
    logic [1:0]  receive_mode;
    logic [31:0] rmem_timeout;
    logic [31:0] dma_timeout;
  } oetp_conf_t;

  // A command on a transfer interface (either direction).
  typedef struct packed {
    xfer_kind_e            kind;
    xfer_op_e              op;
    logic [ADDR_W-1:0]     addr;
    logic [LEN_W-1:0]      len;
    logic [PEER_IDX_W-1:0] peer;
    logic [SEQ_W-1:0]      seq;
    logic                  last;
    logic [31:0]           biten;
    logic [31:0]           wdata;
    logic [ERR_W-1:0]      error_code;
    logic                  rx_status;
  } xfer_req_t;

  typedef struct packed {
    xfer_kind_e            kind;
    xfer_op_e              op;
    logic [LEN_W-1:0]      len;
    logic [PEER_IDX_W-1:0] peer;
    logic [SEQ_W-1:0]      seq;
    logic                  last;
    logic                  error;
    logic [ERR_W-1:0]      error_code;
    logic [31:0]           rdata;
  } xfer_cpl_t;

  // Terminal status (tx_status / rx_status channels).
  typedef struct packed {
    logic [PEER_IDX_W-1:0] peer;
    logic [SEQ_W-1:0]      seq;
    logic [LEN_W-1:0]      len;
    logic [ERR_W-1:0]      error_code;
  } xfer_status_t;

  // A source-read outcome as the TX controller needs it.
  typedef struct packed {
    logic             valid;
    logic [ERR_W-1:0] code;
    logic [LEN_W-1:0] len;
  } src_status_t;

  typedef struct packed {
    lookup_type_e          kind;
    logic [3:0]            mode_mask;
    logic [PEER_IDX_W-1:0] peer;
    logic [47:0]           mac;
  } lookup_req_t;

  typedef struct packed {
    logic                  hit;
    logic [PEER_IDX_W-1:0] peer;
    logic [47:0]           mac;
    logic [1:0]            mode;
  } lookup_rsp_t;

  // One frame for the TX assembler: header, up to four parameters and an
  // optional streamed Data array with EndOfData.
  typedef struct packed {
    oetp_cmd_e             cmd;
    logic [47:0]           dst;
    logic [47:0]           src;
    logic [2:0]            nparams;     // 1..4
    logic [3:0][31:0]      params;      // params[0] is parameter 1
    logic                  has_data;
    logic [LEN_W-1:0]      data_len;
    logic [PEER_IDX_W-1:0] peer;        // payload stream metadata to match
    logic [SEQ_W-1:0]      seq;
    logic                  role;
  } tx_job_t;

  // A received request handed from RX to the responder.
  typedef struct packed {
    oetp_cmd_e             cmd;
    logic                  group;
    logic [47:0]           src_mac;
    logic [47:0]           local_mac;
    logic [PEER_IDX_W-1:0] peer;
    logic [SEQ_W-1:0]      seq;
    logic [31:0]           rid;
    logic [31:0]           addr;
    logic [31:0]           len;
    logic [31:0]           biten;
    logic [31:0]           wdata;
    logic [ERR_W-1:0]      error_code;  // early rejection (no memory access)
  } rx_admit_t;

  // The active initiating context as RX needs it for response matching.
  typedef struct packed {
    logic                  waiting;     // request sent, reply expected
    logic [47:0]           mac;
    logic [31:0]           rid;
    oetp_cmd_e             rsp_cmd;
    logic [PEER_IDX_W-1:0] peer;
    logic [SEQ_W-1:0]      seq;
    logic                  last;
    logic [LEN_W-1:0]      len;
  } ini_ctx_t;

  // A validated response (or its failure) from RX to the initiator.
  typedef struct packed {
    logic [ERR_W-1:0] code;
    logic [LEN_W-1:0] len;
    logic [31:0]      rdata;
  } rsp_result_t;

  // Ethernet header word i (0..3) of an oETP frame; byte lane k is frame
  // octet 4i+k, MAC octet 0 is bits 47:40 of the MAC value.
  function automatic logic [31:0] hdr_word(input logic [1:0] i,
                                           input logic [47:0] dst,
                                           input logic [47:0] src,
                                           input logic [7:0] cmd);
    case (i)
      2'd0:    hdr_word = {dst[23:16], dst[31:24], dst[39:32], dst[47:40]};
      2'd1:    hdr_word = {src[39:32], src[47:40], dst[7:0], dst[15:8]};
      2'd2:    hdr_word = {src[7:0], src[15:8], src[23:16], src[31:24]};
      default: hdr_word = {cmd, MAGIC, ETHERTYPE[7:0], ETHERTYPE[15:8]};
    endcase
  endfunction

  function automatic logic cmd_known(input logic [7:0] c);
    case (c)
      CMD_RMEM_READ_REQ, CMD_RMEM_READ_RSP, CMD_RMEM_WRITE_REQ,
      CMD_RMEM_WRITE_RSP, CMD_DMA_READ_REQ, CMD_DMA_READ_RSP,
      CMD_DMA_WRITE_REQ, CMD_DMA_WRITE_RSP, CMD_ERROR_RSP: cmd_known = 1'b1;
      default: cmd_known = 1'b0;
    endcase
  endfunction

  // Only bit 0 decides, by the code assignment.
  // verilator lint_off UNUSEDSIGNAL
  function automatic logic cmd_is_response(input logic [7:0] c);
    cmd_is_response = c[0];   // after cmd_known: every response code is odd
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  // Parameters before any Data array.
  function automatic logic [2:0] cmd_nparams(input logic [7:0] c);
    case (c)
      CMD_RMEM_WRITE_REQ:                  cmd_nparams = 3'd4;
      CMD_DMA_READ_REQ, CMD_DMA_WRITE_REQ: cmd_nparams = 3'd3;
      CMD_RMEM_READ_REQ, CMD_RMEM_READ_RSP,
      CMD_ERROR_RSP:                       cmd_nparams = 3'd2;
      default:                             cmd_nparams = 3'd1;
    endcase
  endfunction

  // Words of a Data array of len bytes.
  function automatic logic [LEN_W-1:0] data_words(input logic [LEN_W-1:0] len);
    data_words = (len >> 2) + {{(LEN_W-1){1'b0}}, |len[1:0]};
  endfunction

  // TKEEP of the final word of len bytes.
  function automatic logic [KEEP_W-1:0] last_keep(input logic [1:0] len_mod4);
    case (len_mod4)
      2'd1:    last_keep = 4'b0001;
      2'd2:    last_keep = 4'b0011;
      2'd3:    last_keep = 4'b0111;
      default: last_keep = 4'b1111;
    endcase
  endfunction

  function automatic logic [2:0] keep_bytes(input logic [KEEP_W-1:0] k);
    keep_bytes = 3'(k[0]) + 3'(k[1]) + 3'(k[2]) + 3'(k[3]);
  endfunction

  // Zero the bytes TKEEP marks unused: word padding is zero on the wire.
  function automatic logic [DATA_W-1:0] mask_keep(input logic [DATA_W-1:0] d,
                                                  input logic [KEEP_W-1:0] k);
    for (int b = 0; b < KEEP_W; b++) mask_keep[8*b +: 8] = k[b] ? d[8*b +: 8] : 8'h00;
  endfunction

  // csr_error_from_wire: the full 32-bit cause 1..7 -> 9..15, else 1.
  function automatic logic [ERR_W-1:0] csr_error_from_wire(input logic [31:0] cause);
    if (cause >= 32'd1 && cause <= 32'd7) csr_error_from_wire = 4'd8 + cause[3:0];
    else csr_error_from_wire = ERR_LOCAL_INVALID;
  endfunction

endpackage
