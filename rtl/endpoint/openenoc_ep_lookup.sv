// Peer table lookup (spec/rtl-interfaces.md openenoc_peer_lookup_if, slave
// side) over the peer entries of the CSR block. A query is taken, the match
// is computed from the live entries and its snapshot is answered one cycle
// later; an INDEX query (the oETP initiator's, a stage of every outgoing
// command and of every CPU load through the RMEM window) is answered in the
// cycle it is taken when the client's response ready is up (its match is an
// index compare and a mode-mask bit per entry, so neither the MAC compare
// nor the range compares sit in front of that answer). INDEX matches an
// entry whose mode is in the mask; RMEM the lowest mode-1 entry whose slice
// holds the offset; MAC the lowest entry with a mode in the mask and that
// MAC. Misses answer all zero.
// With NOW (the wide widths) every query is answered as it is taken when the
// response ready is up, a MAC query too (the MAC compare then sits in front
// of the answer): RX's source lookup of every received RMEM request is a
// cycle shorter.
module openenoc_ep_lookup
  import openenoc_csr_pkg::*;
  import openenoc_ep_pkg::*;
#(
  parameter bit NOW = 1'b0
) (
  input  logic                         clk,
  input  logic                         rst,
  input  logic [NUM_PEERS-1:0][47:0]   mac,
  input  logic [NUM_PEERS-1:0][31:0]   rmem_offset,
  input  logic [NUM_PEERS-1:0][31:0]   local_addr,
  input  logic [NUM_PEERS-1:0][31:0]   remote_addr,
  input  logic [NUM_PEERS-1:0][31:0]   size,
  input  logic [NUM_PEERS-1:0][1:0]    mode,
  input  logic [NUM_PEERS-1:0]         irq_enable,
  openenoc_peer_lookup_if.slv          lk
);
  typedef enum logic { LK_IDLE, LK_RESPOND } lk_state_e;

  lk_state_e state_q;
  logic      hit_q;
  logic [1:0] idx_q;

  // Each entry's match is made for every query type at once and the type
  // picks among the four match vectors: the 48-bit MAC compare and the
  // RMEM range compares then run side by side, not through a selection.
  logic [NUM_PEERS-1:0] m_idx, m_rmem, m_mac, m;
  // With NOW the query can follow an input (the initiator's command, see
  // openenoc_oetp_initiator.sv), so the matches are made only while a query
  // is offered: a simulator evaluates such logic once more on every cycle.
  always_comb begin
    {m_idx, m_rmem, m_mac} = '0;
    for (int n = 0; n < NUM_PEERS; n++) if (!NOW || lk.req_valid) begin
      m_idx[n]  = (lk.req_peer_idx == 2'(n)) && lk.req_mode_mask[mode[n]];
      m_rmem[n] = mode[n] == MODE_RMEM && size[n] != 0 && rmem_offset[n] <= lk.req_rmem_addr &&
                  {1'b0, lk.req_rmem_addr} < {1'b0, rmem_offset[n]} + {1'b0, size[n]};
      m_mac[n]  = lk.req_mode_mask[mode[n]] && mac[n] == lk.req_mac_addr;
    end
    case (lk.req_type)
      2'd0:    m = m_idx;
      2'd1:    m = m_rmem;
      default: m = m_mac;
    endcase
  end
  function automatic logic [2:0] lowest(input logic [NUM_PEERS-1:0] v);   // {hit, index}
    lowest = '0;
    for (int n = NUM_PEERS - 1; n >= 0; n--)
      if (v[n]) lowest = {1'b1, 2'(n)};
  endfunction
  logic      hit, hit_i;
  logic [1:0] idx, idx_i;
  // (with NOW only while a query is offered, as the matches: every reader,
  // now and the LK_IDLE branch, needs one)
  always_comb begin
    {hit, idx, hit_i, idx_i} = '0;
    if (!NOW || lk.req_valid) begin
      {hit, idx}     = lowest(m);
      {hit_i, idx_i} = lowest(m_idx);
    end
  end
  // an INDEX query answered as it is taken
  wire now = state_q == LK_IDLE && lk.req_valid && (NOW || lk.req_type == 2'd0) && lk.rsp_ready;
  wire       a_hit = !now ? hit_q : NOW ? hit : hit_i;
  wire [1:0] a_idx = !now ? idx_q : NOW ? idx : idx_i;

  assign lk.req_ready       = state_q == LK_IDLE;
  assign lk.rsp_valid       = state_q == LK_RESPOND || now;
  assign lk.rsp_hit         = a_hit;
  assign lk.rsp_peer_idx    = a_hit ? a_idx : '0;
  assign lk.rsp_mac_addr    = a_hit ? mac[a_idx] : '0;
  assign lk.rsp_rmem_offset = a_hit ? rmem_offset[a_idx] : '0;
  assign lk.rsp_local_addr  = a_hit ? local_addr[a_idx] : '0;
  assign lk.rsp_remote_addr = a_hit ? remote_addr[a_idx] : '0;
  assign lk.rsp_size        = a_hit ? size[a_idx] : '0;
  assign lk.rsp_dma_mode    = a_hit ? mode[a_idx] : '0;
  assign lk.rsp_irq_enable  = a_hit ? irq_enable[a_idx] : '0;

  always_ff @(posedge clk) begin
    // the state read once before a branch writes it (Verilator would keep a
    // shadow copy, two copies every cycle, of a case selector a branch writes)
    lk_state_e st;
    st = state_q;
    if (rst) begin
      state_q <= LK_IDLE;
      hit_q   <= 1'b0;
      idx_q   <= '0;
    end else begin
      case (st)
        LK_IDLE: if (lk.req_valid && !now) begin
          hit_q   <= hit;
          idx_q   <= idx;
          state_q <= LK_RESPOND;
        end
        LK_RESPOND: if (lk.rsp_ready) state_q <= LK_IDLE;
        default: state_q <= LK_IDLE;
      endcase
    end
  end
endmodule
