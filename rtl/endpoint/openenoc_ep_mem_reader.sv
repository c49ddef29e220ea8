// Memory-to-stream mover: reads [addr, addr + len) with one memory transfer
// and streams the bytes with the given TID/TDEST/TUSER, W bits a beat (the
// memory port's width: its beats are the stream's, byte-packed from the
// first byte, every beat full but the last). The newest beat is held back
// until the next one arrives, so a transfer that fails part-way still ends
// its stream with TLAST on the last good beat. Every 4-byte word of a read
// beat has its own response (openenoc_ep_mem_if): the words of a beat before
// its first failing word are good and go out as the stream's last beat (keep
// cut there), as a 32-bit reader sends them word by word; the rest of the
// transfer is dropped. done reports the bytes streamed and the code (0, or
// 4/5 for a read SLVERR/DECERR).
module openenoc_ep_mem_reader
  import openenoc_oetp_pkg::*;
  import openenoc_csr_pkg::*;
  import openenoc_ep_pkg::*;
#(
  parameter int W = 32              // beat width: 32, 64, 128 or 256 (the port's)
) (
  input  logic              clk,
  input  logic              rst,
  input  logic              start,         // pulse while idle
  input  logic [31:0]       addr,
  input  logic [15:0]       len,           // 1..65535
  input  logic [SEQ_W-1:0]  id,
  input  logic [DEST_W-1:0] dest,
  input  logic [USER_W-1:0] user,
  output logic              busy,
  output logic              done,          // pulse
  output logic [15:0]       done_bytes,
  output logic [3:0]        done_code,
  openenoc_ep_mem_if.client m,             // memory client (reads only), W bits
  // stream
  output logic              o_valid,
  input  logic              o_ready,
  output logic [W-1:0]      o_data,
  output logic [W/8-1:0]    o_keep,
  output logic              o_last,
  output logic [SEQ_W-1:0]  o_id,
  output logic [DEST_W-1:0] o_dest,
  output logic [USER_W-1:0] o_user
);
  localparam int N  = W / 32;       // 4-byte words of a beat
  localparam int KW = W / 8;
  if (W != 32 && W != 64 && W != 128 && W != 256)
    $fatal(1, "W %0d is not 32, 64, 128 or 256", W);

  typedef enum logic [1:0] { RD_IDLE, RD_REQ, RD_DATA, RD_FLUSH } rd_state_e;

  rd_state_e  state_q;
  mem_req_t   req_q;
  logic       hold_valid_q, failed_q, done_q;
  logic [W-1:0]  hold_data_q;
  logic [KW-1:0] hold_keep_q;
  logic [15:0] bytes_q;
  logic [3:0] code_q;
  logic       o_valid_q, o_last_q;
  logic [W-1:0]  o_data_q;
  logic [KW-1:0] o_keep_q;
  logic [SEQ_W-1:0]  id_q;
  logic [DEST_W-1:0] dest_q;
  logic [USER_W-1:0] user_q;

  assign busy        = state_q != RD_IDLE;
  assign done        = done_q;
  assign done_bytes  = bytes_q;
  assign done_code   = code_q;
  assign m.req_valid = state_q == RD_REQ;
  assign m.req       = req_q;
  assign m.w_valid   = 1'b0;
  assign m.w         = '0;
  assign m.b_ready   = 1'b0;
  assign o_valid     = o_valid_q;
  assign o_data      = o_data_q;
  assign o_keep      = o_keep_q;
  assign o_last      = o_last_q;
  assign o_id        = id_q;
  assign o_dest      = dest_q;
  assign o_user      = user_q;

  // The beat's good part: its words up to the first failing one that carries
  // a byte (word 0 always does; a word beyond the transfer's end carries none
  // and its response says nothing), the failing word's code. A failing word
  // 0 leaves no good part (r_some), so only words 1.. cut the keep: at W = 32
  // a good beat is the whole beat. Worked out only while a beat can be
  // taken (RD_DATA, the only reader): the model Verilator builds evaluates
  // an always_comb every cycle but only its taken branch (the
  // other values are unused).
  logic          r_bad;
  logic [1:0]    r_bad_resp;
  logic [KW-1:0] r_good_keep;
  always_comb begin
    r_bad       = 1'b0;
    r_bad_resp  = RESP_OKAY;
    r_good_keep = '0;
    if (state_q == RD_DATA) begin
      r_good_keep = m.r.keep;
      for (int k = N - 1; k >= 0; k--)
        if ((k == 0 || m.r.keep[4*k]) && m.r_resp[2*k +: 2] != RESP_OKAY) begin
          r_bad      = 1'b1;
          r_bad_resp = m.r_resp[2*k +: 2];
          if (k > 0) r_good_keep = m.r.keep & KW'(lanes_below(6'(4 * k)));
        end
    end
  end

  // the good part carries a byte: word 0 (the first of every beat) is good
  wire r_some = m.r_resp[1:0] == RESP_OKAY;

  wire can_load = !o_valid_q || o_ready;
  // a good beat pushes the held one out, so it needs room downstream
  assign m.r_ready = state_q == RD_DATA && (failed_q || !hold_valid_q || can_load);
  wire  r_fire     = m.r_valid && m.r_ready;

  always_ff @(posedge clk) begin
    // The registers the branches read, read once here, before any branch
    // writes them: Verilator keeps a shadow copy (two copies every cycle) of
    // a register one branch writes and a later one reads, a case selector
    // included; a local read here costs one.
    rd_state_e     st;
    logic          hold_v, failed;
    logic [W-1:0]  hold_d;
    logic [KW-1:0] hold_k;
    logic [15:0]   nbytes;
    logic [5:0]    good_n;         // bytes of the good part
    st     = state_q;
    hold_v = hold_valid_q;
    failed = failed_q;
    hold_d = hold_data_q;
    hold_k = hold_keep_q;
    nbytes = bytes_q;
    good_n = '0;
    if (rst) begin
      state_q      <= RD_IDLE;
      req_q        <= '0;
      hold_valid_q <= 1'b0;
      hold_data_q  <= '0;
      hold_keep_q  <= '0;
      failed_q     <= 1'b0;
      done_q       <= 1'b0;
      bytes_q      <= '0;
      code_q       <= '0;
      o_valid_q    <= 1'b0;
      o_last_q     <= 1'b0;
      o_data_q     <= '0;
      o_keep_q     <= '0;
      id_q         <= '0;
      dest_q       <= '0;
      user_q       <= '0;
    end else begin
      done_q <= 1'b0;
      if (o_ready) o_valid_q <= 1'b0;
      case (st)
        RD_IDLE: if (start) begin
          req_q        <= '{write: 1'b0, addr: addr, len: len};
          id_q         <= id;
          dest_q       <= dest;
          user_q       <= user;
          bytes_q      <= '0;
          code_q       <= ERR_NONE;
          failed_q     <= 1'b0;
          hold_valid_q <= 1'b0;
          state_q      <= RD_REQ;
        end
        RD_REQ: if (m.req_ready) state_q <= RD_DATA;
        RD_DATA: if (r_fire) begin
          if (!failed && r_bad) begin
            failed_q <= 1'b1;
            code_q   <= rd_code(r_bad_resp);
          end
          if (!failed && r_some) begin
            if (hold_v) begin
              o_valid_q <= 1'b1;
              o_data_q  <= hold_d;
              o_keep_q  <= hold_k;
              o_last_q  <= 1'b0;
            end
            hold_data_q  <= m.r.data;
            hold_keep_q  <= r_good_keep;
            hold_valid_q <= 1'b1;
            for (int b = 0; b < KW; b++) good_n = good_n + 6'(r_good_keep[b]);
            bytes_q      <= nbytes + 16'(good_n);
          end
          if (m.r.last) state_q <= RD_FLUSH;
        end
        RD_FLUSH: if (!hold_v) begin
          done_q  <= 1'b1;
          state_q <= RD_IDLE;
        end else if (can_load) begin
          o_valid_q    <= 1'b1;
          o_data_q     <= hold_d;
          o_keep_q     <= hold_k;
          o_last_q     <= 1'b1;
          hold_valid_q <= 1'b0;
        end
        default: state_q <= RD_IDLE;
      endcase
    end
  end
endmodule
