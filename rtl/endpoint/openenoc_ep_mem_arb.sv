// Memory master arbiter: the DMA engine's clients share one memory port. A
// client is granted from its request to the end of its transfer (the last
// read beat, or the write response), round-robin among waiting clients, so
// beats of different transfers never interleave. One client may be parked
// on the idle port (PARK, -1: none): its request, when no other client
// asks, passes to the port in the cycle it comes, with no grant cycle (the
// endpoint parks the RMEM responder: a remote CPU load waits on its
// access); with any other client waiting the round-robin grant decides as
// always. The park test reads the clients' request flops only, with no
// owner index and no priority encoder in front of the parked client's
// ready.
module openenoc_ep_mem_arb
  import openenoc_ep_pkg::*;
#(
  parameter int N = 5,
  parameter int PARK = -1,
  parameter int W = 32                // beat width of the clients and the port
) (
  input  logic                clk,
  input  logic                rst,
  openenoc_ep_mem_if.arbiter c [N],   // clients
  openenoc_ep_mem_if.client  m        // memory port
);
  localparam int IW = $clog2(N);

  // the clients side by side (an interface array takes constant indices only)
  logic [N-1:0]      c_req_valid, c_req_ready, c_w_ready, c_r_valid, c_b_valid;
  // (inputs read only at the owner's index: unpacked, so each client's is
  // stored as it is, not merged into a packed vector's bit every cycle)
  logic              c_w_valid [N], c_r_ready [N], c_b_ready [N];
  // The requests and write beats are unpacked arrays, one element a client:
  // a packed array assigned a client at a time is, in the Verilator model,
  // one N * (W + W/8 + 1)-bit vector rebuilt piece by piece (shifts and
  // masks at unaligned offsets) every cycle to give out one client's beat;
  // unpacked, each element is a plain copy and the owner's an indexed read.
  // Same selection, same values on m. The write beats are held by field:
  // the data word-aligned, so each client's is copied as it is, not shifted
  // into the beat's layout.
  mem_req_t          c_req [N];
  logic [W-1:0]      c_w_data [N];   // the clients' write beats
  logic [W/8-1:0]    c_w_keep [N];
  logic              c_w_last [N];
  for (genvar k = 0; k < N; k++) begin : g_c
    assign c_req_valid[k] = c[k].req_valid;
    assign c_req[k]       = c[k].req;
    assign c_w_valid[k]   = c[k].w_valid;
    assign c_w_data[k]    = c[k].w.data;
    assign c_w_keep[k]    = c[k].w.keep;
    assign c_w_last[k]    = c[k].w.last;
    assign c_r_ready[k]   = c[k].r_ready;
    assign c_b_ready[k]   = c[k].b_ready;
    assign c[k].req_ready = c_req_ready[k];
    assign c[k].w_ready   = c_w_ready[k];
    assign c[k].r_valid   = c_r_valid[k];
    assign c[k].b_valid   = c_b_valid[k];
    // read beats and write responses are shared (valid per client)
    assign c[k].r         = m.r;
    assign c[k].r_resp    = m.r_resp;
    assign c[k].b_resp    = m.b_resp;
    assign c[k].b_bytes   = m.b_bytes;
  end

  typedef enum logic [1:0] { ARB_IDLE, ARB_REQ, ARB_DATA } arb_state_e;

  arb_state_e  state_q;
  logic [IW-1:0] own_q, next_q;
  logic        write_q;

  // next waiting client after the last owner
  // Round-robin as two priority encoders: the lowest requester at or
  // after next_q, else the lowest requester (the same choice as walking
  // the clients from next_q, without the rotation's adders in the path).
  // A function called in ARB_IDLE's branch, the only reader: an
  // always_comb would be evaluated every cycle of the model.
  function automatic logic [IW-1:0] pick(input logic [N-1:0] req, input logic [IW-1:0] from);
    logic          hi_any;
    logic [IW-1:0] hi_pick, lo_pick;
    hi_any  = 1'b0;
    hi_pick = '0;
    lo_pick = '0;
    for (int k = N - 1; k >= 0; k--) begin
      if (req[k] && IW'(k) >= from) begin
        hi_any  = 1'b1;
        hi_pick = IW'(k);
      end
      if (req[k]) lo_pick = IW'(k);
    end
    pick = hi_any ? hi_pick : lo_pick;
  endfunction

  wire req_phase  = state_q == ARB_REQ;
  wire data_phase = state_q == ARB_DATA;
  // idle, and the parked client is the only one asking
  localparam int P = (PARK < 0) ? 0 : PARK;
  localparam logic [N-1:0] OTHERS = ~(N'(1) << P);
  wire park = PARK >= 0 && state_q == ARB_IDLE && c_req_valid[P] && (c_req_valid & OTHERS) == '0;

  always_comb begin
    c_req_ready = '0;
    c_w_ready   = '0;
    c_r_valid   = '0;
    c_b_valid   = '0;
    m.req_valid = (req_phase && c_req_valid[own_q]) || park;
    m.req       = park ? c_req[P] : c_req[own_q];
    if (req_phase) c_req_ready[own_q] = m.req_ready;
    if (park) c_req_ready[P] = m.req_ready;
    // The data phase's signals are worked out in its branch only (the
    // model Verilator builds evaluates an always_comb every cycle, but
    // only its taken branch). m.w is the owner's write beat in a write's data phase
    // and 0 otherwise: the memory port reads it only with m.w_valid, which
    // is low outside that phase (so the beat is put together only while
    // a write can send it).
    m.w_valid   = 1'b0;
    m.w         = '0;
    m.r_ready   = 1'b0;
    m.b_ready   = 1'b0;
    if (data_phase) begin
      if (write_q) begin
        m.w_valid          = c_w_valid[own_q];
        m.w.data           = c_w_data[own_q];
        m.w.keep           = c_w_keep[own_q];
        m.w.last           = c_w_last[own_q];
        c_w_ready[own_q]   = m.w_ready;
        c_b_valid[own_q]   = m.b_valid;
        m.b_ready          = c_b_ready[own_q];
      end else begin
        c_r_valid[own_q]   = m.r_valid;
        m.r_ready          = c_r_ready[own_q];
      end
    end
  end

  always_ff @(posedge clk) begin
    logic [IW-1:0] p;                // the client granted from ARB_IDLE
    if (rst) begin
      state_q <= ARB_IDLE;
      own_q   <= '0;
      next_q  <= '0;
      write_q <= 1'b0;
    end else begin
      case (state_q)
        ARB_IDLE: if (c_req_valid != '0) begin
          // (the pick is P when the parked client asks alone)
          p       = pick(c_req_valid, next_q);
          own_q   <= p;
          next_q  <= (int'(p) == N - 1) ? '0 : p + 1'b1;
          state_q <= ARB_REQ;
          if (park && m.req_ready) begin
            write_q <= m.req.write;
            state_q <= ARB_DATA;
          end
        end
        ARB_REQ: if (m.req_valid && m.req_ready) begin
          write_q <= m.req.write;
          state_q <= ARB_DATA;
        end
        ARB_DATA: begin
          if (!write_q && m.r_valid && m.r_ready && m.r.last) state_q <= ARB_IDLE;
          if (write_q && m.b_valid && m.b_ready)              state_q <= ARB_IDLE;
        end
        default: state_q <= ARB_IDLE;
      endcase
    end
  end
endmodule
