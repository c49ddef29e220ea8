// Stream-to-memory mover: writes an incoming payload (one packet, up to its
// TLAST; W bits a beat, the memory port's width, byte-packed: every beat full
// but the last, so its beats are the port's) at addr with one memory
// transfer of at most cap bytes, cut inside a beat at cap's byte. Bytes
// beyond cap are consumed and dropped (overflow is reported), so the stream
// always drains to its TLAST. done reports the bytes written, the bytes the
// packet carried, and the code (0, or 6/7 for a write SLVERR/DECERR).
module openenoc_ep_mem_writer
  import openenoc_oetp_pkg::*;
  import openenoc_csr_pkg::*;
  import openenoc_ep_pkg::*;
#(
  parameter int W = 32               // beat width: 32, 64, 128 or 256 (the port's)
) (
  input  logic              clk,
  input  logic              rst,
  input  logic              start,          // pulse while idle
  input  logic [31:0]       addr,
  input  logic [15:0]       cap,            // 0: consume and drop the packet
  output logic              busy,
  output logic              done,           // pulse
  output logic [15:0]       done_bytes,     // written
  output logic [15:0]       done_seen,      // carried by the packet (saturating)
  output logic [3:0]        done_code,
  // stream in
  input  logic              i_valid,
  output logic              i_ready,
  input  logic [W-1:0]      i_data,
  input  logic [W/8-1:0]    i_keep,
  input  logic              i_last,
  openenoc_ep_mem_if.client m          // memory client (writes only), W bits
);
  localparam int KW = W / 8;
  if (W != 32 && W != 64 && W != 128 && W != 256)
    $fatal(1, "W %0d is not 32, 64, 128 or 256", W);

  typedef enum logic [2:0] { WR_IDLE, WR_REQ, WR_DATA, WR_DRAIN, WR_RESP, WR_DONE } wr_state_e;

  wr_state_e   state_q;
  mem_req_t    req_q;
  logic [15:0] room_q, seen_q, bytes_q;
  logic [3:0]  code_q;
  logic        done_q;

  assign busy       = state_q != WR_IDLE;
  assign done       = done_q;
  assign done_bytes = bytes_q;
  assign done_seen  = seen_q;
  assign done_code  = code_q;
  assign m.req_valid = state_q == WR_REQ;
  assign m.req       = req_q;
  assign m.b_ready   = state_q == WR_RESP;
  assign m.r_ready   = 1'b0;

  // the beat that reaches cap is cut there and ends the memory transfer
  // (1 <= room_q <= kb <= KW when it cuts: its low bits are the lanes kept,
  // 0 for all of them)
  // Worked out only while a beat can be taken (WR_DATA; the count also in
  // WR_DRAIN): Verilator evaluates an always_comb every cycle but only its
  // taken branch. In the other states nothing reads them (no beat is taken,
  // w_valid is low).
  localparam int LB = $clog2(KW);
  logic [5:0]    kb;
  logic          cut;
  logic [KW-1:0] ckeep;
  wire  [LB-1:0] cut_at = room_q[LB-1:0];
  always_comb begin
    kb    = '0;
    cut   = 1'b0;
    ckeep = i_keep;
    if (state_q == WR_DATA || state_q == WR_DRAIN) begin
      for (int b = 0; b < KW; b++) kb = kb + 6'(i_keep[b]);
      if (state_q == WR_DATA) begin
        cut = 16'(kb) >= room_q;
        if (cut && cut_at != '0) ckeep = KW'(lanes_below(6'(cut_at))) & i_keep;
      end
    end
  end

  always_comb begin
    m.w_valid = state_q == WR_DATA && i_valid;
    m.w.data  = i_data;
    m.w.keep  = ckeep;
    m.w.last  = i_last || cut;
    case (state_q)
      WR_DATA:  i_ready = m.w_ready;
      WR_DRAIN: i_ready = 1'b1;
      default:  i_ready = 1'b0;
    endcase
  end
  wire i_fire = i_valid && i_ready;

  always_ff @(posedge clk) begin
    // The registers the branches read, read once here, before any branch
    // writes them: Verilator keeps a shadow copy (two copies every cycle) of
    // a register one branch writes and a later one reads, a case selector
    // included; a local read here costs one.
    wr_state_e   st;
    logic [15:0] seen, room, req_len;
    st      = state_q;
    seen    = seen_q;
    room    = room_q;
    req_len = req_q.len;
    if (rst) begin
      state_q <= WR_IDLE;
      req_q   <= '0;
      room_q  <= '0;
      seen_q  <= '0;
      bytes_q <= '0;
      code_q  <= '0;
      done_q  <= 1'b0;
    end else begin
      done_q <= 1'b0;
      if (i_fire && seen != 16'hFFFF)
        seen_q <= (seen > 16'hFFFF - 16'(KW)) ? 16'hFFFF : seen + 16'(kb);
      case (st)
        WR_IDLE: if (start) begin
          req_q   <= '{write: 1'b1, addr: addr, len: cap};
          room_q  <= cap;
          seen_q  <= '0;
          bytes_q <= '0;
          code_q  <= ERR_NONE;
          state_q <= (cap == 16'd0) ? WR_DRAIN : WR_REQ;
        end
        WR_REQ: if (m.req_ready) state_q <= WR_DATA;
        WR_DATA: if (i_fire) begin
          room_q <= cut ? 16'd0 : room - 16'(kb);
          if (i_last)   state_q <= WR_RESP;
          else if (cut) state_q <= WR_DRAIN;
        end
        WR_DRAIN: if (i_fire && i_last) state_q <= (req_len == 16'd0) ? WR_DONE : WR_RESP;
        WR_RESP: if (m.b_valid) begin
          bytes_q <= m.b_bytes;
          code_q  <= (m.b_resp == RESP_OKAY) ? ERR_NONE : wr_code(m.b_resp);
          state_q <= WR_DONE;
        end
        WR_DONE: begin
          done_q  <= 1'b1;
          state_q <= WR_IDLE;
        end
        default: state_q <= WR_IDLE;
      endcase
    end
  end
endmodule
