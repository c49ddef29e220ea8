// Memory master arbiter: the DMA engine's clients share one memory port. A
// client is granted from its request to the end of its transfer (the last
// read beat, or the write response), round-robin among waiting clients, so
// beats of different transfers never interleave.
module openenoc_ep_mem_arb
  import openenoc_ep_pkg::*;
#(
  parameter int N = 5
) (
  input  logic                clk,
  input  logic                rst,
  // clients
  input  logic [N-1:0]        c_req_valid,
  output logic [N-1:0]        c_req_ready,
  input  mem_req_t [N-1:0]    c_req,
  input  logic [N-1:0]        c_w_valid,
  output logic [N-1:0]        c_w_ready,
  input  mem_beat_t [N-1:0]   c_w,
  output logic [N-1:0]        c_r_valid,
  input  logic [N-1:0]        c_r_ready,
  output mem_beat_t           r,          // shared read beat (valid per client)
  output logic [1:0]          r_resp,
  output logic [N-1:0]        c_b_valid,
  input  logic [N-1:0]        c_b_ready,
  output logic [1:0]          b_resp,
  output logic [15:0]         b_bytes,
  // memory port
  output logic                m_req_valid,
  input  logic                m_req_ready,
  output mem_req_t            m_req,
  output logic                m_w_valid,
  input  logic                m_w_ready,
  output mem_beat_t           m_w,
  input  logic                m_r_valid,
  output logic                m_r_ready,
  input  mem_beat_t           m_r,
  input  logic [1:0]          m_r_resp,
  input  logic                m_b_valid,
  output logic                m_b_ready,
  input  logic [1:0]          m_b_resp,
  input  logic [15:0]         m_b_bytes
);
  localparam int IW = $clog2(N);

  typedef enum logic [1:0] { ARB_IDLE, ARB_REQ, ARB_DATA } arb_state_e;

  arb_state_e  state_q;
  logic [IW-1:0] own_q, next_q;
  logic        write_q;

  // next waiting client after the last owner
  // Round-robin as two priority encoders: the lowest requester at or
  // after next_q, else the lowest requester (the same choice as walking
  // the clients from next_q, without the rotation's adders in the path).
  logic [IW-1:0] pick;
  logic          any;
  always_comb begin
    logic          hi_any;
    logic [IW-1:0] hi_pick, lo_pick;
    hi_any  = 1'b0;
    hi_pick = '0;
    lo_pick = '0;
    for (int k = N - 1; k >= 0; k--) begin
      if (c_req_valid[k] && IW'(k) >= next_q) begin
        hi_any  = 1'b1;
        hi_pick = IW'(k);
      end
      if (c_req_valid[k]) lo_pick = IW'(k);
    end
    any  = |c_req_valid;
    pick = hi_any ? hi_pick : lo_pick;
  end

  wire req_phase  = state_q == ARB_REQ;
  wire data_phase = state_q == ARB_DATA;

  always_comb begin
    c_req_ready = '0;
    c_w_ready   = '0;
    c_r_valid   = '0;
    c_b_valid   = '0;
    m_req_valid = req_phase && c_req_valid[own_q];
    m_req       = c_req[own_q];
    if (req_phase) c_req_ready[own_q] = m_req_ready;
    m_w_valid   = data_phase && write_q && c_w_valid[own_q];
    m_w         = c_w[own_q];
    if (data_phase && write_q) c_w_ready[own_q] = m_w_ready;
    if (data_phase && !write_q) c_r_valid[own_q] = m_r_valid;
    m_r_ready   = data_phase && !write_q && c_r_ready[own_q];
    if (data_phase && write_q) c_b_valid[own_q] = m_b_valid;
    m_b_ready   = data_phase && write_q && c_b_ready[own_q];
  end
  assign r      = m_r;
  assign r_resp = m_r_resp;
  assign b_resp = m_b_resp;
  assign b_bytes = m_b_bytes;

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= ARB_IDLE;
      own_q   <= '0;
      next_q  <= '0;
      write_q <= 1'b0;
    end else begin
      case (state_q)
        ARB_IDLE: if (any) begin
          own_q   <= pick;
          next_q  <= (int'(pick) == N - 1) ? '0 : pick + 1'b1;
          state_q <= ARB_REQ;
        end
        ARB_REQ: if (m_req_valid && m_req_ready) begin
          write_q <= m_req.write;
          state_q <= ARB_DATA;
        end
        ARB_DATA: begin
          if (!write_q && m_r_valid && m_r_ready && m_r.last) state_q <= ARB_IDLE;
          if (write_q && m_b_valid && m_b_ready)              state_q <= ARB_IDLE;
        end
        default: state_q <= ARB_IDLE;
      endcase
    end
  end
endmodule
