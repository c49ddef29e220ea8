// openenoc_axis_word_buf: the shared core of the Ethernet width converters
// (openenoc_axis_word_align on RX, openenoc_axis_word_pack on TX). A frame
// is a sequence of 32-bit words, all full but possibly the last (every oETP
// field sits on a 4-byte boundary); this buffer takes 1..N words a cycle and
// gives back one word or up to N words a cycle, N = W / 32 >= 2.
//
// Input (valid/ready): s_tdata/s_tkeep hold N word lanes; lane i carries a
// word when i == 0 or s_tkeep[4*i] (keep contiguous from byte 0, so a beat
// carries 1..N words); s_tlast says the highest word carried ends the frame.
// Lane 0 always carries a word, so a beat with s_tkeep == 0 is one word with
// keep 0, as the 32-bit link would pass it.
//
// Output: w_data/w_keep present the next words, lane 0 = the oldest. The
// presented words are the first min(count, M) words, M = w_all_max (1..N;
// 0 counts as 1, above N as N), cut after the first one that ends a frame;
// w_keep is 0 on the lanes beyond them (w_data there is left over: read
// w_keep). M lets a consumer take exactly the words of a field (RX: the
// last Data words, not the EndOfData after them); N otherwise. Two ways to
// take them, chosen per cycle:
//   w_take_one  the word in lane 0 (allowed while w_one_valid; w_one_last:
//               it ends its frame). It is presented as soon as it is stored.
//   w_take_all  every presented word (allowed while w_all_valid: M words
//               are there or a frame's last word is among them; w_all_last:
//               the presented words end the frame).
// w_take_all wins when both are set; a take whose valid is low is ignored.
//
// Storage: a ring of SLOTS = 4N words (a power of two, so the read and
// write positions wrap by themselves), of which at most CAP = 3N - 1 are
// used. s_tready is a function of the stored count alone (count <= CAP - N,
// room for a whole beat even if nothing is taken), so no combinational path
// runs from w_take_* to s_tready, and with a take of N words a cycle the
// count stays at most 2N - 1: N words a cycle in and out whatever the word
// position (a w_take_one can leave it at any offset). A ring rather than a
// shift register: a take moves a position, not the stored words, so the
// logic is N write enables and N read multiplexers instead of a multiplexer
// in front of every slot, and a simulator indexes words instead of shifting
// them.
`include "endpoint/openenoc_ep_ports.svh"
module openenoc_axis_word_buf #(
  parameter int W = 64   // 64, 128 or 256 (the converters wire W = 32 through)
) (
  input  logic clk,
  input  logic rst,
  `OPENENOC_EP_ETH_PORTS(s_, input, output, W),
  `OPENENOC_AXIS_WORD_PORTS(w_, output, input, W)
);
  localparam int N     = W / 32;
  localparam int CAP   = 3 * N - 1;
  localparam int CW    = $clog2(CAP + 1);
  localparam int SLOTS = 4 * N;
  localparam int PW    = $clog2(SLOTS);

  if (N < 2 || N * 32 != W)
    $fatal(1, "openenoc_axis_word_buf: W %0d is not a multiple of 32 above 32", W);

  logic [31:0]   data_q [SLOTS];
  logic [3:0]    keep_q [SLOTS];
  logic          last_q [SLOTS];
  logic [PW-1:0] rd_q, wr_q;       // oldest stored word; next free slot
  logic [CW-1:0] count_q;

  // ---- what is presented ------------------------------------------------------
  // lane i shows slot rd_q + i; n_pres: words presented (lanes 0..n_pres-1);
  // pres_last: the last of them ends a frame. An empty buffer presents none
  // (w_keep 0, w_data 0 too: nothing is read there) and is not all-valid:
  // everything below sits behind that test because Verilator evaluates an
  // always_comb every cycle but only its taken branch, and most of the
  // converters are empty most of the time (the direct stream's in a DMA
  // block, all of them between frames).
  localparam int MW = $clog2(N + 1);
  logic [CW-1:0] n_pres, lim;
  logic          pres_last;
  always_comb begin
    lim         = '0;
    n_pres      = '0;
    pres_last   = 1'b0;
    w_all_valid = 1'b0;
    w_one_last  = last_q[rd_q];      // (read with w_one_valid)
    w_data      = '0;
    w_keep      = '0;
    if (count_q != '0) begin
      if (w_all_max == '0)         lim = CW'(1);
      else if (w_all_max > MW'(N)) lim = CW'(N);
      else                         lim = CW'(w_all_max);
      for (int i = 0; i < N; i++) begin
        w_data[32*i +: 32] = data_q[rd_q + PW'(i)];
        if (CW'(i) < count_q && CW'(i) < lim && !pres_last) begin
          n_pres           = CW'(i + 1);
          pres_last        = last_q[rd_q + PW'(i)];
          w_keep[4*i +: 4] = keep_q[rd_q + PW'(i)];
        end
      end
      w_all_valid = n_pres == lim || pres_last;
    end
  end

  assign w_one_valid = count_q != '0;
  assign w_all_last  = pres_last;
  assign s_tready    = count_q <= CW'(CAP - N);

  // ---- next state: the read position passes the words taken, the words
  //      arriving are written behind the stored ones ---------------------------
  wire           s_fire = s_tvalid && s_tready;
  logic [CW-1:0] n_take;
  always_comb
    if (w_take_all && w_all_valid)      n_take = n_pres;
    else if (w_take_one && w_one_valid) n_take = CW'(1);
    else                                n_take = '0;

  always_ff @(posedge clk) begin
    // A beat's words go to slots wr_q .. wr_q + N - 1, all free (count <=
    // CAP - N); lanes it does not carry are written too and never presented.
    // Lane i carries a word when i == 0 or its first keep bit is set; the
    // highest word carried ends the frame with s_tlast. Worked out here, in
    // the beat's branch, not in an always_comb: Verilator would evaluate it
    // every cycle, and twice where the beat comes from an input port.
    // (wr_q and count_q read once, before a branch writes them: Verilator
    // would keep a shadow copy, two copies every cycle, of a register one
    // branch writes and a later one reads)
    logic [N-1:0]  in_has;
    logic [CW-1:0] n_in;
    logic [PW-1:0] wr;
    logic [CW-1:0] cnt;
    in_has = '0;
    n_in   = '0;
    wr     = wr_q;
    cnt    = count_q;
    if (s_fire) begin
      for (int i = 0; i < N; i++) begin
        in_has[i] = i == 0 || s_tkeep[4*i];
        if (in_has[i]) n_in = CW'(i + 1);
      end
      for (int i = 0; i < N; i++) begin
        data_q[wr + PW'(i)] <= s_tdata[32*i +: 32];
        keep_q[wr + PW'(i)] <= s_tkeep[4*i +: 4];
        last_q[wr + PW'(i)] <= s_tlast && in_has[i] && (i == N - 1 || !in_has[(i + 1) % N]);
      end
    end
    if (rst) begin
      rd_q    <= '0;
      wr_q    <= '0;
      count_q <= '0;
    end else begin
      rd_q    <= rd_q + PW'(n_take);
      wr_q    <= wr + PW'(n_in);      // n_in is 0 without a beat
      count_q <= cnt - n_take + n_in;
    end
  end
endmodule
