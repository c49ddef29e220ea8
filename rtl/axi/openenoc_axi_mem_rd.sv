// Read side of the AXI4 memory master: one read transfer of the endpoint's
// memory port (openenoc_ep_pkg: byte-packed, 1..65535 bytes from any byte
// address) becomes INCR bursts on AR/R, one burst outstanding at a time,
// with NB = AXI_DATA_W / 8 bytes a bus word:
//   body  [addr, floorNB(end))  bus-wide beats (ARSIZE log2 NB), the first
//         beat at the unaligned address; at most BURST_MAX beats, never
//         across 4 KiB
//   tail  [.., end)             1..NB-1 byte beats (ARSIZE 0) in one word,
//         in one burst, or in bursts of BURST_MAX beats where NB - 1 is more
// so every byte read is a byte asked for. R beats are repacked (lane 0 = byte
// addr + MB k) into ceil(len/MB) memory-port beats of MB = MEM_W / 8 bytes
// (openenoc_axi_mem: mem_beat_t, 4); an R beat that fills several of them
// is taken only when the accumulator holds less than one (NB > MB), and the
// accumulator gives out one port beat a cycle. The first SLVERR/DECERR
// stops the transfer: the rest of that burst is drained, no further burst is
// issued, and every remaining port beat carries the response, as the port
// contract says, per 4-byte word (openenoc_ep_mem_if's r_resp): the failing
// R beat's bytes never enter the accumulator, and a port beat is given out
// as soon as the accumulator holds one (an R beat is taken only when it
// holds less), so at the failure the accumulator's count is exactly the
// bytes read before it in the port beat being collected, whether the bus is
// as wide as the port or an R beat splits into several port beats. That
// beat's words wholly within the count are OKAY with their data, the others
// (the word holding the first failed byte and every word after it) carry
// the response; every later beat carries it on every word.
`include "axi/openenoc_axi_ports.svh"
module openenoc_axi_mem_rd
  import openenoc_ep_pkg::*;
#(
  parameter int BURST_MAX  = 256,
  parameter int AXI_DATA_W = 32,     // 32, 64, 128 or 256 (checked by openenoc_endpoint_axi)
  parameter int MEM_W      = 32      // the memory port's beat: 32, 64, 128 or 256, <= AXI_DATA_W
) (
  `OPENENOC_AXI_BRIDGE_PORTS,
  // memory port read beats (byte-packed)
  output logic        r_valid,
  input  logic        r_ready,
  output logic [MEM_W-1:0]   r_data,   // a beat's fields: mem_beat_t at MEM_W 32
  output logic [MEM_W/8-1:0] r_keep,
  output logic               r_last,
  output logic [2*(MEM_W/32)-1:0] r_resp,   // per 4-byte word (openenoc_ep_mem_if)
  openenoc_axi_if.rd_master axi       // AXI4 AR/R
);
  localparam int NB = AXI_DATA_W / 8;            // bytes of a bus word
  localparam int LB = $clog2(NB);                // their lane bits
  localparam int MB = MEM_W / 8;
  localparam int MW = MEM_W / 32;                // 4-byte words of a port beat
  if ((MEM_W != 32 && MEM_W != 64 && MEM_W != 128 && MEM_W != 256) ||
      MEM_W > AXI_DATA_W)
    $fatal(1, "MEM_W %0d is not 32, 64, 128 or 256 up to AXI_DATA_W %0d", MEM_W, AXI_DATA_W);
  localparam int ML = $clog2(MB);
  localparam int AB = MB - 1 + NB;               // accumulator bytes
  localparam int CW = $clog2(AB + 1);            // its byte count
  localparam int WA = 33 - LB;                   // bus word addresses, up to 2^32 bytes
  localparam int PB = 12 - LB;                   // word bits within a 4 KiB page
  localparam int SL = 17 - LB;                   // bus words of a start's span
  localparam int NW = $clog2(NB + 1);            // bytes of an R beat, counted
  // a bus wider than the port: an R beat may fill more than one port beat
  localparam bit DOWN = NB > MB;
  // a bus wider than 32 bits: the one-word fast path is a narrow (ARSIZE 2) beat
  localparam bit WIDE = NB > 4;
  // a port wider than 32 bits: the transfer's last R beat, when it leaves at
  // most one port beat in the accumulator, gives that beat out (with the
  // end's keep) in the cycle it is taken, instead of RD_FLUSH doing it a
  // cycle later: a 4-byte read (every RMEM access) never fills a 64- or
  // 128-bit port beat, so at those widths the flush was a cycle of every
  // remote CPU load. The beat still leaves the output register (o_*_q), the
  // same beat with the same keep, last and responses. Constant false at
  // MEM_W = 32, where the model stays the one before (RD_FLUSH).
  localparam bit LAST_NOW = MEM_W > 32;

  typedef enum logic [2:0] { RD_IDLE, RD_PLAN, RD_AR, RD_R, RD_FLUSH, RD_FAIL } rd_state_e;

  rd_state_e   state_q;
  logic [32:0] cur_q;                // next byte address to request (2^32: none)
  logic [32:0] end_q, bend_q;        // end of the transfer, and floorNB of it
  logic [14:0] left_q;               // port beats still to emit (of ceil(len/MB))
  logic [ML-1:0] tail_q;             // len mod MB
  logic [LB-1:0] lo_q;               // byte lane of the next R beat
  logic        narrow_q;             // the burst in flight has narrow beats
  logic        word_q;               // WIDE: its one narrow beat is 4 bytes (the one-word path)
  logic        failed_q;
  logic [1:0]  fail_resp_q;
  logic [8*AB-1:0] acc_q;            // repacking: up to AB bytes
  logic [CW-1:0]   cnt_q;
  logic        o_valid_q, o_last_q;
  logic [MEM_W-1:0] o_data_q;
  logic [MB-1:0]    o_keep_q;
  logic [2*MW-1:0] o_resp_q;         // per word

  // a transfer never runs past 2^32 (the co-simulation clips alike): past
  // it, the length is what is left below 2^32. These and the plans below
  // are functions, called in the branches that load them: the simulation
  // model (Verilator) evaluates every wire every cycle, but only the taken
  // branch of a process.
  function automatic logic [32:0] s_end();
    logic [32:0] sum;
    sum   = {1'b0, addr} + 33'(len);
    s_end = sum[32] ? 33'h1_0000_0000 : sum;
  endfunction
  // (past: the end's bit 32, which is the sum's carry)
  function automatic logic [16:0] s_len(input logic past);
    s_len = past ? 17'(33'h1_0000_0000 - {1'b0, addr}) : {1'b0, len};
  endfunction

  // ---- the next burst --------------------------------------------------------
  // Registered (body_q, beats_q), so the subtraction and the compares of the
  // plan do not sit in front of the address step: the first burst is planned
  // from the start's address and length in RD_IDLE, a later one from cur_q
  // in RD_PLAN.
  localparam int BW = 9;             // beat counts up to 256
  logic          body_q;             // a body burst (bus-wide beats) comes next
  logic [BW-1:0] beats_q;            // its beats
  // body beats: at most BURST_MAX, the words left to floorNB(end) and the
  // words left in the 4 KiB page
  function automatic logic [BW-1:0] plan_beats(input logic [WA-1:0] to_bend,
                                               input logic [PB:0] to_page);
    plan_beats = BW'(BURST_MAX);
    if (to_bend[WA-1:BW] == '0 && to_bend[BW-1:0] < plan_beats) plan_beats = to_bend[BW-1:0];
    if (WA'(to_page) < WA'(plan_beats)) plan_beats = BW'(to_page);
  endfunction
  function automatic logic [PB:0] page_words(input logic [PB-1:0] word_in_page);
    page_words = (PB+1)'(4096 / NB) - {1'b0, word_in_page};
  endfunction
  // from cur_q: the words to floorNB(end)
  function automatic logic [BW-1:0] body_beats();
    logic [WA-1:0] to_bend;
    to_bend    = bend_q[32:LB] - cur_q[32:LB];
    body_beats = plan_beats(to_bend, page_words(cur_q[11:LB]));
  endfunction
  // The first burst, from the start: the words from addr's word to
  // floorNB(addr + len) are (addr mod NB + len) / NB. Past 2^32 that counts
  // more words than the clipped end leaves, but never fewer than the page
  // leaves (2^32 is a page boundary), so the plan is the same; and it is 0
  // exactly when no body burst comes.
  function automatic logic [SL-1:0] s_words();
    s_words = SL'(({SL'(0), addr[LB-1:0]} + {1'b0, len}) >> LB);
  endfunction
  wire [LB-1:0] tail_beats = end_q[LB-1:0] - cur_q[LB-1:0]; // 1..NB-1, same word
  // a tail longer than BURST_MAX byte beats (possible only when NB - 1 is
  // more, e.g. 3 bytes at 32 bits and BURST_MAX 2) goes in bursts of
  // BURST_MAX: no burst is longer than the parameter says
  localparam bit TAIL_CUT = NB - 1 > BURST_MAX;
  logic [LB-1:0] tail_now;                                // this tail burst's beats
  if (TAIL_CUT) begin : g_tail_cut
    assign tail_now = tail_beats > LB'(BURST_MAX) ? LB'(BURST_MAX) : tail_beats;
  end else begin : g_tail_whole
    assign tail_now = tail_beats;
  end
  wire [LB-1:0] tail_len   = tail_now - LB'(1);
  // One aligned 32-bit word (every RMEM access) is one single-beat burst
  // that needs no plan: its AR is offered from RD_IDLE, with the start,
  // and goes straight to RD_R when taken (an RMEM read is a remote CPU
  // load's round trip; RD_AR would be one more cycle of it). Every term is
  // a register (the memory port's request is registered), and its address
  // step is the transfer's end. On a wider bus it is a narrow beat
  // (ARSIZE 2, word_q while RD_AR offers it again), so it reads no byte
  // more than asked.
  wire        one_word   = state_q == RD_IDLE && start && len == 16'd4 && addr[1:0] == 2'b00;
  wire        w4         = one_word || (WIDE && word_q);
  assign axi.araddr  = one_word ? addr : cur_q[31:0];
  assign axi.arsize  = (w4 || body_q) ? (w4 ? 3'd2 : 3'(LB)) : 3'd0;
  assign axi.arlen   = w4 ? 8'd0 :
                       body_q ? 8'(beats_q - 9'd1) : {(8-LB)'(0), tail_len};
  assign axi.arvalid = state_q == RD_AR || one_word;
  // INCR, normal non-cacheable bufferable memory, unprivileged secure data
  assign axi.arburst = 2'b01;
  assign axi.arcache = 4'b0011;
  assign axi.arprot  = 3'b000;
  // the address after the burst taken (RD_AR's branch)
  function automatic logic [32:0] cur_next();
    cur_next = (WIDE && word_q) ? end_q :
               body_q ? {cur_q[32:LB], LB'(0)} + {{(33 - BW - LB){1'b0}}, beats_q, LB'(0)} :
               TAIL_CUT ? cur_q + 33'(tail_now) : end_q;
  endfunction

  // ---- repacking ------------------------------------------------------------
  wire        o_free  = !o_valid_q || r_ready;
  // DOWN: the accumulator holds less than a port beat (else it drains first)
  wire        room    = !DOWN || cnt_q < CW'(MB);
  assign axi.rready   = state_q == RD_R && (failed_q || (o_free && room));
  wire        r_fire  = axi.rvalid && axi.rready;
  wire        wide4   = WIDE && word_q;                  // a 4-byte narrow beat
  wire [NW-1:0] n_bytes = narrow_q ? (wide4 ? NW'(4) : NW'(1)) : NW'(NB) - NW'(lo_q);
  // The accumulator with the R beat's bytes: a function called only in the
  // branches that take the beat (and in the pass-through's), not a wire:
  // the model Verilator builds evaluates every continuous assign every cycle (here a
  // variable shift of the bus word and of the accumulator, a loop over
  // their 32-bit words each) but only the taken branch of a process.
  function automatic logic [8*AB-1:0] acc_with_r(input logic [8*NB-1:0] rdata);
    logic [8*NB-1:0] r_sh, shifted;
    r_sh    = rdata >> {lo_q, 3'b000};
    shifted = narrow_q ? (wide4 ? (8*NB)'(r_sh[31:0]) : (8*NB)'(r_sh[7:0])) : r_sh;
    acc_with_r = acc_q | ((8*AB)'(shifted) << {cnt_q, 3'b000});
  endfunction
  wire [CW:0] cnt_in  = {1'b0, cnt_q} + (CW+1)'(n_bytes);
  // a count down, so no adder sits in front of the test
  wire        o_last  = left_q == 15'd1;
  wire [MB-1:0] end_keep = tail_q == '0 ? '1 : MB'(((MB+1)'(1) << tail_q) - (MB+1)'(1));
  // DOWN: a port beat left whole in the accumulator goes out first
  wire        drain   = DOWN && !room && o_free;
  // the R beat of the transfer's last burst that ends it (LAST_NOW)
  wire        r_end   = axi.rlast && cur_q == end_q;

  assign idle    = state_q == RD_IDLE && !o_valid_q;
  localparam logic [2*MW-1:0] ALL_OKAY = {MW{RESP_OKAY}};
  // LAST_NOW: the transfer's last port beat, when the output register is
  // empty and the beat slice takes it now (r_ready is the slice's flop),
  // passes to the port in the cycle its R beat comes instead of from the
  // output register a cycle later (the read data of every RMEM access). The
  // bridge's output register is a timing cut for an FPGA; bypassing it only
  // at MEM_W > 32 (the wide co-simulation libraries) keeps the RTL legal and
  // synthesizable, with the memory's R channel in front of the endpoint's
  // read beat. The beat is the one put would register (same data, keep,
  // last and responses).
  wire   lastw   = LAST_NOW && r_end && cnt_in <= (CW+1)'(MB);
  wire   thru    = LAST_NOW && state_q == RD_R && !failed_q && axi.rvalid &&
                   axi.rresp == RESP_OKAY && lastw && !o_valid_q && r_ready;
  assign r_valid = o_valid_q || thru;
  // (an always_comb, so the R beat's bytes are worked out only when passed through)
  // verilator lint_off UNUSEDSIGNAL
  logic [8*AB-1:0] acc_thru;         // (the bytes past the port beat are not read)
  // verilator lint_on UNUSEDSIGNAL
  always_comb begin
    acc_thru = '0;
    if (thru) begin
      acc_thru = acc_with_r(axi.rdata);
      r_data   = acc_thru[MEM_W-1:0];
      r_keep   = end_keep;
      r_last   = 1'b1;
    end else begin
      r_data   = o_data_q;
      r_keep   = o_keep_q;
      r_last   = o_last_q;
    end
  end
  // verilator lint_off UNUSEDSIGNAL
  wire   unused_wide = &{1'b0, word_q};
  // verilator lint_on UNUSEDSIGNAL
  assign r_resp  = thru ? ALL_OKAY : o_resp_q;

  // The first port beat after a failure: word k is OKAY with its data when
  // the accumulator's count (the bytes read before the failure in this beat)
  // holds it whole, else it carries the failure (and data 0). Later beats
  // find the count 0: every word fails.
  // (functions called in RD_FAIL's branch: an always_comb would be
  // evaluated every cycle)
  function automatic logic [2*MW-1:0] f_resp();
    for (int k = 0; k < MW; k++)
      f_resp[2*k +: 2] = int'(cnt_q) >= 4 * (k + 1) ? RESP_OKAY : fail_resp_q;
  endfunction
  function automatic logic [MEM_W-1:0] f_data();
    for (int k = 0; k < MW; k++)
      f_data[32*k +: 32] = int'(cnt_q) >= 4 * (k + 1) ? acc_q[32*k +: 32] : 32'd0;
  endfunction

  // one port beat into the output register (one of ceil(len/MB))
  task automatic put(input logic [MEM_W-1:0] data, input logic [MB-1:0] keep, input logic last,
                     input logic [2*MW-1:0] resp);
    o_valid_q <= 1'b1;
    o_data_q  <= data;
    o_keep_q  <= keep;
    o_last_q  <= last;
    o_resp_q  <= resp;
    left_q    <= left_q - 15'd1;
  endtask

  always_ff @(posedge clk) begin
    // the accumulator with the R beat taken (RD_R's branch only, above),
    // the start's end, length and words (RD_IDLE's)
    logic [8*AB-1:0] acc_in;
    logic [32:0]     se;
    logic [16:0]     sl;
    logic [SL-1:0]   sw;
    if (rst) begin
      state_q     <= RD_IDLE;
      cur_q       <= '0;
      end_q       <= '0;
      bend_q      <= '0;
      left_q      <= '0;
      tail_q      <= '0;
      lo_q        <= '0;
      narrow_q    <= 1'b0;
      word_q      <= 1'b0;
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
      if (drain) begin
        put(acc_q[MEM_W-1:0], '1, o_last, ALL_OKAY);
        acc_q     <= acc_q >> MEM_W;
        cnt_q     <= cnt_q - CW'(MB);
      end
      case (state_q)
        RD_IDLE: if (start && len != 16'd0) begin
          se = s_end();
          sl = s_len(se[32]);
          sw = s_words();
          cur_q    <= {1'b0, addr};
          end_q    <= se;
          bend_q   <= {se[32:LB], LB'(0)};
          left_q   <= 15'((sl + 17'(MB - 1)) >> ML);
          tail_q   <= sl[ML-1:0];
          failed_q <= 1'b0;
          acc_q    <= '0;
          cnt_q    <= '0;
          body_q   <= sw != '0;
          beats_q  <= plan_beats(WA'(sw), page_words(addr[11:LB]));
          word_q   <= WIDE && one_word;
          state_q  <= RD_AR;
          if (one_word && axi.arready) begin
            // taken now (as RD_AR would: the word's lane, a body beat (a
            // narrow one on a wider bus), then the end)
            lo_q     <= addr[LB-1:0] & ~LB'(3);
            narrow_q <= WIDE;
            cur_q    <= se;
            state_q  <= RD_R;
          end
        end
        RD_PLAN: begin
          body_q  <= cur_q < bend_q;
          beats_q <= body_beats();
          state_q <= RD_AR;
        end
        RD_AR: if (axi.arready) begin
          lo_q     <= cur_q[LB-1:0];
          narrow_q <= !body_q || (WIDE && word_q);
          cur_q    <= cur_next();
          state_q  <= RD_R;
        end
        RD_R: if (r_fire) begin
          if (failed_q) begin
            // draining the failed burst
          end else if (axi.rresp != RESP_OKAY) begin
            failed_q    <= 1'b1;
            fail_resp_q <= axi.rresp;
          end else if (lastw) begin
            acc_in = acc_with_r(axi.rdata);
            // the transfer's last bytes, at most one port beat: out now
            // (left_q is 1; passed through when thru, else registered), and
            // the transfer is done (RD_IDLE below)
            if (thru) left_q <= left_q - 15'd1;
            else      put(acc_in[MEM_W-1:0], end_keep, 1'b1, ALL_OKAY);
            acc_q     <= '0;
            cnt_q     <= '0;
          end else if (cnt_in >= (CW+1)'(MB)) begin
            acc_in = acc_with_r(axi.rdata);
            put(acc_in[MEM_W-1:0], '1, o_last, ALL_OKAY);
            acc_q     <= acc_in >> MEM_W;
            cnt_q     <= CW'(cnt_in - (CW+1)'(MB));
          end else begin
            acc_q <= acc_with_r(axi.rdata);
            cnt_q <= cnt_in[CW-1:0];
          end
          lo_q <= narrow_q ? lo_q + LB'(1) : LB'(0);
          if (axi.rlast) begin
            if (failed_q || axi.rresp != RESP_OKAY) state_q <= RD_FAIL;
            else if (lastw)             state_q <= RD_IDLE;
            else if (cur_q == end_q)    state_q <= RD_FLUSH;
            else                                state_q <= RD_PLAN;
          end
        end
        RD_FLUSH: if (cnt_q == '0) begin
          state_q <= RD_IDLE;
        end else if (o_free && room) begin
          put(acc_q[MEM_W-1:0], end_keep, 1'b1, ALL_OKAY);
          cnt_q     <= '0;
          state_q   <= RD_IDLE;
        end
        RD_FAIL: if (left_q == 15'd0) begin
          state_q <= RD_IDLE;
        end else if (o_free) begin
          put(f_data(), o_last ? end_keep : '1, o_last, f_resp());
          cnt_q <= '0;
        end
        default: state_q <= RD_IDLE;
      endcase
    end
  end
endmodule
