// Read side of the AXI4 memory master: one read transfer of the endpoint's
// memory port (openenoc_ep_pkg: byte-packed, 1..65535 bytes from any byte
// address) becomes INCR bursts on AR/R, one burst outstanding at a time:
//   body  [addr, floor4(end))  32-bit beats (ARSIZE 2), the first beat at
//         the unaligned address; at most BURST_MAX beats, never across 4 KiB
//   tail  [.., end)            1..3 byte beats (ARSIZE 0) in one word
// so every byte read is a byte asked for. R beats are repacked (lane 0 = byte
// addr + 4k) into ceil(len/4) memory-port beats. The first SLVERR/DECERR
// stops the transfer: the rest of that burst is drained, no further burst is
// issued, and every remaining port beat (including the one holding bytes of
// the failed burst) carries the response, as the port contract says.
`include "axi/openenoc_axi_ports.svh"
module openenoc_axi_mem_rd
  import openenoc_ep_pkg::*;
#(
  parameter int BURST_MAX = 256
) (
  `OPENENOC_AXI_BRIDGE_PORTS,
  // memory port read beats
  output logic        r_valid,
  input  logic        r_ready,
  output mem_beat_t   r_beat,
  output logic [1:0]  r_resp,
  openenoc_axi_if.rd_master axi       // AXI4 AR/R
);
  typedef enum logic [2:0] { RD_IDLE, RD_PLAN, RD_AR, RD_R, RD_FLUSH, RD_FAIL } rd_state_e;

  rd_state_e   state_q;
  logic [32:0] cur_q;                // next byte address to request (2^32: none)
  logic [32:0] end_q, bend_q;        // end of the transfer, and floor4 of it
  logic [14:0] left_q;               // port beats still to emit (of ceil(len/4))
  logic [1:0]  tail_q;               // len mod 4
  logic [1:0]  lo_q;                 // byte lane of the next R beat
  logic        narrow_q;             // the burst in flight has byte beats
  logic        failed_q;
  logic [1:0]  fail_resp_q;
  logic [55:0] acc_q;                // repacking: up to 7 bytes
  logic [2:0]  cnt_q;
  logic        o_valid_q, o_last_q;
  logic [31:0] o_data_q;
  logic [3:0]  o_keep_q;
  logic [1:0]  o_resp_q;

  // a transfer never runs past 2^32 (the co-simulation clips alike): past
  // it, the length is what is left below 2^32
  wire [32:0] s_sum = {1'b0, addr} + 33'(len);
  wire [32:0] s_end = s_sum[32] ? 33'h1_0000_0000 : s_sum;
  wire [16:0] s_len = s_sum[32] ? 17'(33'h1_0000_0000 - {1'b0, addr}) : {1'b0, len};

  // ---- the next burst --------------------------------------------------------
  // Registered (body_q, beats_q), so the subtraction and the compares of the
  // plan do not sit in front of the address step: the first burst is planned
  // from the start's address and length in RD_IDLE, a later one from cur_q
  // in RD_PLAN.
  localparam int BW = 9;             // beat counts up to 256
  logic          body_q;             // a body burst (32-bit beats) comes next
  logic [BW-1:0] beats_q;            // its beats
  // body beats: at most BURST_MAX, the words left to floor4(end) and the
  // words left in the 4 KiB page
  function automatic logic [BW-1:0] plan_beats(input logic [30:0] to_bend,
                                               input logic [10:0] to_page);
    plan_beats = BW'(BURST_MAX);
    if (to_bend[30:BW] == '0 && to_bend[BW-1:0] < plan_beats) plan_beats = to_bend[BW-1:0];
    if ({20'd0, to_page} < 31'(plan_beats)) plan_beats = BW'(to_page);
  endfunction
  function automatic logic [10:0] page_words(input logic [9:0] word_in_page);
    page_words = 11'd1024 - {1'b0, word_in_page};
  endfunction
  wire        body       = cur_q < bend_q;
  wire [32:0] cur_word   = {cur_q[32:2], 2'b00};
  wire [30:0] to_bend    = bend_q[32:2] - cur_q[32:2]; // words
  wire [BW-1:0] body_beats = plan_beats(to_bend, page_words(cur_q[11:2]));
  // The first burst, from the start: the words from addr's word to
  // floor4(addr + len) are (addr mod 4 + len) / 4. Past 2^32 that counts
  // more words than the clipped end leaves, but never fewer than the page
  // leaves (2^32 is a page boundary), so the plan is the same; and it is 0
  // exactly when no body burst comes.
  wire [14:0] s_words    = 15'(({15'd0, addr[1:0]} + {1'b0, len}) >> 2);
  wire        s_body     = s_words != '0;
  wire [BW-1:0] s_beats  = plan_beats({16'd0, s_words}, page_words(addr[11:2]));
  wire [1:0]  tail_beats = end_q[1:0] - cur_q[1:0];      // 1..3, same word
  // One aligned 32-bit word (every RMEM access) is one single-beat burst
  // that needs no plan: its AR is offered from RD_IDLE, with the start,
  // and goes straight to RD_R when taken (an RMEM read is a remote CPU
  // load's round trip; RD_AR would be one more cycle of it). Every term is
  // a register (the memory port's request is registered), and its address
  // step is the transfer's end.
  wire        one_word   = state_q == RD_IDLE && start && len == 16'd4 && addr[1:0] == 2'b00;
  assign axi.araddr  = one_word ? addr : cur_q[31:0];
  assign axi.arsize  = (one_word || body_q) ? 3'd2 : 3'd0;
  assign axi.arlen   = one_word ? 8'd0 :
                       body_q ? 8'(beats_q - 9'd1) : {6'd0, tail_beats - 2'd1};
  assign axi.arvalid = state_q == RD_AR || one_word;
  // INCR, normal non-cacheable bufferable memory, unprivileged secure data
  assign axi.arburst = 2'b01;
  assign axi.arcache = 4'b0011;
  assign axi.arprot  = 3'b000;
  wire [32:0] cur_next = body_q ? cur_word + {{(33 - BW - 2){1'b0}}, beats_q, 2'b00} : end_q;

  // ---- repacking ------------------------------------------------------------
  wire        o_free  = !o_valid_q || r_ready;
  assign axi.rready   = state_q == RD_R && (failed_q || o_free);
  wire        r_fire  = axi.rvalid && axi.rready;
  wire [2:0]  n_bytes = narrow_q ? 3'd1 : 3'd4 - {1'b0, lo_q};
  wire [31:0] shifted = narrow_q ? {24'd0, 8'(axi.rdata >> {lo_q, 3'b000})}
                                 : axi.rdata >> {lo_q, 3'b000};
  wire [55:0] acc_in  = acc_q | ({24'd0, shifted} << {cnt_q, 3'b000});
  wire [3:0]  cnt_in  = {1'b0, cnt_q} + {1'b0, n_bytes};
  // a count down, so no adder sits in front of the test
  wire        o_last  = left_q == 15'd1;
  wire [3:0]  end_keep = tail_q == 2'd0 ? 4'hF : 4'((5'd1 << tail_q) - 5'd1);

  assign idle    = state_q == RD_IDLE && !o_valid_q;
  assign r_valid = o_valid_q;
  assign r_beat  = '{data: o_data_q, keep: o_keep_q, last: o_last_q};
  assign r_resp  = o_resp_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q     <= RD_IDLE;
      cur_q       <= '0;
      end_q       <= '0;
      bend_q      <= '0;
      left_q      <= '0;
      tail_q      <= '0;
      lo_q        <= '0;
      narrow_q    <= 1'b0;
      failed_q    <= 1'b0;
      fail_resp_q <= '0;
      acc_q       <= '0;
      cnt_q       <= '0;
      o_valid_q   <= 1'b0;
      o_last_q    <= 1'b0;
      o_data_q    <= '0;
      o_keep_q    <= '0;
      o_resp_q    <= '0;
      body_q      <= 1'b0;
      beats_q     <= '0;
    end else begin
      if (r_ready) o_valid_q <= 1'b0;
      case (state_q)
        RD_IDLE: if (start && len != 16'd0) begin
          cur_q    <= {1'b0, addr};
          end_q    <= s_end;
          bend_q   <= {s_end[32:2], 2'b00};
          left_q   <= 15'((s_len + 17'd3) >> 2);
          tail_q   <= s_len[1:0];
          failed_q <= 1'b0;
          acc_q    <= '0;
          cnt_q    <= '0;
          body_q   <= s_body;
          beats_q  <= s_beats;
          state_q  <= RD_AR;
          if (one_word && axi.arready) begin
            // taken now (as RD_AR would: lane 0, a body beat, then the end)
            lo_q     <= 2'd0;
            narrow_q <= 1'b0;
            cur_q    <= s_end;
            state_q  <= RD_R;
          end
        end
        RD_PLAN: begin
          body_q  <= body;
          beats_q <= body_beats;
          state_q <= RD_AR;
        end
        RD_AR: if (axi.arready) begin
          lo_q     <= cur_q[1:0];
          narrow_q <= !body_q;
          cur_q    <= cur_next;
          state_q  <= RD_R;
        end
        RD_R: if (r_fire) begin
          if (failed_q) begin
            // draining the failed burst
          end else if (axi.rresp != RESP_OKAY) begin
            failed_q    <= 1'b1;
            fail_resp_q <= axi.rresp;
          end else if (cnt_in >= 4'd4) begin
            o_valid_q <= 1'b1;
            o_data_q  <= acc_in[31:0];
            o_keep_q  <= 4'hF;
            o_last_q  <= o_last;
            o_resp_q  <= RESP_OKAY;
            left_q    <= left_q - 15'd1;
            acc_q     <= acc_in >> 32;
            cnt_q     <= 3'(cnt_in - 4'd4);
          end else begin
            acc_q <= acc_in;
            cnt_q <= cnt_in[2:0];
          end
          lo_q <= narrow_q ? lo_q + 2'd1 : 2'd0;
          if (axi.rlast) begin
            if (failed_q || axi.rresp != RESP_OKAY) state_q <= RD_FAIL;
            else if (cur_q == end_q)    state_q <= RD_FLUSH;
            else                                state_q <= RD_PLAN;
          end
        end
        RD_FLUSH: if (cnt_q == 3'd0) begin
          state_q <= RD_IDLE;
        end else if (o_free) begin
          o_valid_q <= 1'b1;
          o_data_q  <= acc_q[31:0];
          o_keep_q  <= end_keep;
          o_last_q  <= 1'b1;
          o_resp_q  <= RESP_OKAY;
          left_q    <= left_q - 15'd1;
          cnt_q     <= '0;
          state_q   <= RD_IDLE;
        end
        RD_FAIL: if (left_q == 15'd0) begin
          state_q <= RD_IDLE;
        end else if (o_free) begin
          o_valid_q <= 1'b1;
          o_data_q  <= '0;
          o_keep_q  <= o_last ? end_keep : 4'hF;
          o_last_q  <= o_last;
          o_resp_q  <= fail_resp_q;
          left_q    <= left_q - 15'd1;
        end
        default: state_q <= RD_IDLE;
      endcase
    end
  end
endmodule
