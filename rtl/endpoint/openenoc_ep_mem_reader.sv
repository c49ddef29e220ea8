// Memory-to-stream mover: reads [addr, addr + len) with one memory transfer
// and streams the bytes with the given TID/TDEST/TUSER. The newest beat is
// held back until the next one arrives, so a transfer that fails part-way
// still ends its stream with TLAST on the last good beat; beats of the
// failing piece are dropped. done reports the bytes streamed and the code
// (0, or 4/5 for a read SLVERR/DECERR).
module openenoc_ep_mem_reader
  import openenoc_oetp_pkg::*;
  import openenoc_csr_pkg::*;
  import openenoc_ep_pkg::*;
(
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
  openenoc_ep_mem_if.client m,         // memory client (reads only)
  // stream
  output logic              o_valid,
  input  logic              o_ready,
  output logic [DATA_W-1:0] o_data,
  output logic [KEEP_W-1:0] o_keep,
  output logic              o_last,
  output logic [SEQ_W-1:0]  o_id,
  output logic [DEST_W-1:0] o_dest,
  output logic [USER_W-1:0] o_user
);
  typedef enum logic [1:0] { RD_IDLE, RD_REQ, RD_DATA, RD_FLUSH } rd_state_e;

  rd_state_e  state_q;
  mem_req_t   req_q;
  logic       hold_valid_q, failed_q, done_q;
  mem_beat_t  hold_q;
  logic [15:0] bytes_q;
  logic [3:0] code_q;
  logic       o_valid_q, o_last_q;
  logic [DATA_W-1:0] o_data_q;
  logic [KEEP_W-1:0] o_keep_q;
  logic [SEQ_W-1:0]  id_q;
  logic [DEST_W-1:0] dest_q;
  logic [USER_W-1:0] user_q;

  // the held beat's last flag: the transfer's end is known from m.r.last
  // verilator lint_off UNUSEDSIGNAL
  wire unused = hold_q.last;
  // verilator lint_on UNUSEDSIGNAL

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

  wire can_load = !o_valid_q || o_ready;
  // a good beat pushes the held one out, so it needs room downstream
  assign m.r_ready = state_q == RD_DATA && (failed_q || !hold_valid_q || can_load);
  wire  r_fire     = m.r_valid && m.r_ready;

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q      <= RD_IDLE;
      req_q        <= '0;
      hold_valid_q <= 1'b0;
      hold_q       <= '0;
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
      case (state_q)
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
          if (!failed_q && m.r_resp != RESP_OKAY) begin
            failed_q <= 1'b1;
            code_q   <= rd_code(m.r_resp);
          end else if (!failed_q) begin
            if (hold_valid_q) begin
              o_valid_q <= 1'b1;
              o_data_q  <= hold_q.data;
              o_keep_q  <= hold_q.keep;
              o_last_q  <= 1'b0;
            end
            hold_q       <= m.r;
            hold_valid_q <= 1'b1;
            bytes_q      <= bytes_q + 16'(keep_bytes(m.r.keep));
          end
          if (m.r.last) state_q <= RD_FLUSH;
        end
        RD_FLUSH: if (!hold_valid_q) begin
          done_q  <= 1'b1;
          state_q <= RD_IDLE;
        end else if (can_load) begin
          o_valid_q    <= 1'b1;
          o_data_q     <= hold_q.data;
          o_keep_q     <= hold_q.keep;
          o_last_q     <= 1'b1;
          hold_valid_q <= 1'b0;
        end
        default: state_q <= RD_IDLE;
      endcase
    end
  end
endmodule
