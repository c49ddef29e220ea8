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
// Storage: CAP = 3N - 1 words. s_tready is a function of the stored count
// alone (count <= CAP - N, room for a whole beat even if nothing is taken),
// so no combinational path runs from w_take_* to s_tready, and with a take of
// N words a cycle the count stays at most 2N - 1: N words a cycle in and out
// whatever the word position (a w_take_one can leave it at any offset).
`include "endpoint/openenoc_ep_ports.svh"
module openenoc_axis_word_buf #(
  parameter int W = 64   // 64 or 128 (the converters wire W = 32 through)
) (
  input  logic clk,
  input  logic rst,
  `OPENENOC_EP_ETH_PORTS(s_, input, output, W),
  `OPENENOC_AXIS_WORD_PORTS(w_, output, input, W)
);
  localparam int N   = W / 32;
  localparam int CAP = 3 * N - 1;
  localparam int CW  = $clog2(CAP + 1);

  if (N < 2 || N * 32 != W)
    $fatal(1, "openenoc_axis_word_buf: W %0d is not a multiple of 32 above 32", W);

  logic [CAP-1:0][31:0] data_q;
  logic [CAP-1:0][3:0]  keep_q;
  logic [CAP-1:0]       last_q;
  logic [CW-1:0]        count_q;

  // ---- what is presented ------------------------------------------------------
  // n_pres: words presented (lanes 0..n_pres-1); pres_last: the last of them
  // ends a frame
  localparam int MW = $clog2(N + 1);
  logic [CW-1:0] n_pres, lim;
  logic          pres_last;
  always_comb begin
    if (w_all_max == '0)         lim = CW'(1);
    else if (w_all_max > MW'(N)) lim = CW'(N);
    else                         lim = CW'(w_all_max);
    n_pres    = '0;
    pres_last = 1'b0;
    for (int i = 0; i < N; i++)
      if (CW'(i) < count_q && CW'(i) < lim && !pres_last) begin
        n_pres    = CW'(i + 1);
        pres_last = last_q[i];
      end
  end

  always_comb
    for (int i = 0; i < N; i++) begin
      w_data[32*i +: 32] = data_q[i];
      w_keep[4*i +: 4]   = CW'(i) < n_pres ? keep_q[i] : 4'h0;
    end

  assign w_one_valid = count_q != '0;
  assign w_one_last  = last_q[0];
  assign w_all_valid = n_pres == lim || pres_last;
  assign w_all_last  = pres_last;
  assign s_tready    = count_q <= CW'(CAP - N);

  // ---- the words of an input beat -----------------------------------------------
  logic [N-1:0]  in_has, in_is_last;
  logic [CW-1:0] n_in;
  always_comb begin
    n_in = '0;
    for (int i = 0; i < N; i++) begin
      in_has[i] = i == 0 || s_tkeep[4*i];
      if (in_has[i]) n_in = CW'(i + 1);
    end
    for (int i = 0; i < N; i++)
      in_is_last[i] = s_tlast && in_has[i] && (i == N - 1 || !in_has[(i + 1) % N]);
  end

  // ---- next state: drop the words taken, append the words arriving -------------
  wire           s_fire = s_tvalid && s_tready;
  logic [CW-1:0] n_take, kept;
  always_comb begin
    if (w_take_all && w_all_valid)      n_take = n_pres;
    else if (w_take_one && w_one_valid) n_take = CW'(1);
    else                                n_take = '0;
    kept = count_q - n_take;
  end

  logic [CAP-1:0][31:0] data_d;
  logic [CAP-1:0][3:0]  keep_d;
  logic [CAP-1:0]       last_d;
  always_comb
    for (int j = 0; j < CAP; j++) begin
      // slot j keeps stored word j + n_take, else gets input lane j - kept
      data_d[j] = data_q[j];
      keep_d[j] = keep_q[j];
      last_d[j] = last_q[j];
      if (CW'(j) < kept) begin
        for (int k = 0; k <= N; k++)
          if (n_take == CW'(k) && j + k < CAP) begin
            data_d[j] = data_q[j + k];
            keep_d[j] = keep_q[j + k];
            last_d[j] = last_q[j + k];
          end
      end else begin
        for (int i = 0; i < N; i++)
          if (CW'(j) == kept + CW'(i)) begin
            data_d[j] = s_tdata[32*i +: 32];
            keep_d[j] = s_tkeep[4*i +: 4];
            last_d[j] = in_is_last[i];
          end
      end
    end

  always_ff @(posedge clk) begin
    data_q <= data_d;
    keep_q <= keep_d;
    last_q <= last_d;
    if (rst) count_q <= '0;
    else     count_q <= kept + (s_fire ? n_in : '0);
  end
endmodule
