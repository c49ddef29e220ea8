// Lookup controller: shares the engine's one peer-lookup port between the
// initiator (destination MAC of an outgoing command) and RX (source peer of a
// received request). One query is outstanding at a time; when both clients
// wait, the one not served last goes first, so neither can starve.
// The port's request and response ready come from registers; the response
// ready rises with the request, so a lookup may answer in the cycle it
// takes the query (the endpoint's does for INDEX queries). The answer
// reaches its client in the cycle the lookup gives it, as a one-cycle
// response pulse. A client drops its request at the edge that ends its
// pulse, so the controller, back in LK_IDLE, never sees a request already
// answered.
// With PASS (the wide widths) a query also goes to the port in the cycle it
// comes while the controller is idle, not from the request register a cycle
// later: the initiator's lookup of every CPU load through the RMEM window
// and RX's source lookup of every received RMEM request are a cycle shorter.
// A query the port does not take then is registered as before.
module openenoc_oetp_lookup_arb
  import openenoc_oetp_pkg::*;
#(
  parameter bit PASS = 1'b0
) (
  input  logic        clk,
  input  logic        rst,
  // initiator client
  input  logic        ini_req_valid,
  input  lookup_req_t ini_req,
  output logic        ini_rsp_valid,     // one-cycle pulse, rsp below
  // RX client
  input  logic        rx_req_valid,
  input  lookup_req_t rx_req,
  output logic        rx_rsp_valid,      // one-cycle pulse
  output lookup_rsp_t rsp,
  openenoc_peer_lookup_if.mst lk
);
  typedef enum logic [2:0] {
    LK_IDLE, LK_INITIATOR_REQ, LK_INITIATOR_RSP, LK_RX_REQ, LK_RX_RSP
  } lk_state_e;

  lk_state_e   state_q;
  logic        last_rx_q;            // RX was served last
  logic        req_valid_q, rsp_ready_q;
  lookup_req_t req_q;

  wire pick_rx  = rx_req_valid && (!ini_req_valid || !last_rx_q);
  wire pick_ini = !pick_rx && ini_req_valid;
  // a query passed to the port now (PASS, LK_IDLE), RX's or the initiator's
  wire pass     = PASS && state_q == LK_IDLE && (rx_req_valid || ini_req_valid);
  lookup_req_t q;
  assign q = !pass ? req_q : pick_rx ? rx_req : ini_req;

  assign lk.req_valid     = req_valid_q || pass;
  assign lk.req_type      = q.kind;
  assign lk.req_mode_mask = q.mode_mask;
  assign lk.req_peer_idx  = q.peer;
  assign lk.req_rmem_addr = '0;
  assign lk.req_mac_addr  = q.mac;
  assign lk.rsp_ready     = rsp_ready_q || pass;
  // an answer counts once the query is taken (in that cycle or later)
  wire   taken_now        = lk.req_valid && lk.req_ready;
  assign ini_rsp_valid    = lk.rsp_valid && (state_q == LK_INITIATOR_RSP ||
                                             (state_q == LK_INITIATOR_REQ && taken_now) ||
                                             (pass && pick_ini && taken_now));
  assign rx_rsp_valid     = lk.rsp_valid && (state_q == LK_RX_RSP ||
                                             (state_q == LK_RX_REQ && taken_now) ||
                                             (pass && pick_rx && taken_now));
  assign rsp.hit          = lk.rsp_hit;
  assign rsp.peer         = lk.rsp_peer_idx;
  assign rsp.mac          = lk.rsp_mac_addr;
  assign rsp.mode         = lk.rsp_dma_mode;

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q     <= LK_IDLE;
      last_rx_q   <= 1'b0;
      req_valid_q <= 1'b0;
      rsp_ready_q <= 1'b0;
      req_q       <= '0;
    end else begin
      case (state_q)
        LK_IDLE: begin
          if (pass && lk.req_ready) begin
            // passed and taken now: answered now, or wait for the answer
            last_rx_q <= pick_rx;
            if (!lk.rsp_valid) begin
              rsp_ready_q <= 1'b1;
              state_q     <= pick_rx ? LK_RX_RSP : LK_INITIATOR_RSP;
            end
          end else if (pick_rx) begin
            req_q       <= rx_req;
            req_valid_q <= 1'b1;
            rsp_ready_q <= 1'b1;
            last_rx_q   <= 1'b1;
            state_q     <= LK_RX_REQ;
          end else if (ini_req_valid) begin
            req_q       <= ini_req;
            req_valid_q <= 1'b1;
            rsp_ready_q <= 1'b1;
            last_rx_q   <= 1'b0;
            state_q     <= LK_INITIATOR_REQ;
          end
        end
        LK_INITIATOR_REQ, LK_RX_REQ: begin
          if (lk.req_ready) begin
            req_valid_q <= 1'b0;
            if (lk.rsp_valid) begin
              // answered as taken
              rsp_ready_q <= 1'b0;
              state_q     <= LK_IDLE;
            end else begin
              state_q     <= (state_q == LK_RX_REQ) ? LK_RX_RSP : LK_INITIATOR_RSP;
            end
          end
        end
        LK_INITIATOR_RSP, LK_RX_RSP: begin
          if (lk.rsp_valid) begin
            rsp_ready_q <= 1'b0;
            state_q     <= LK_IDLE;
          end
        end
        default: state_q <= LK_IDLE;
      endcase
    end
  end
endmodule
