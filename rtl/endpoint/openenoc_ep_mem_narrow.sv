// A 32-bit memory client on a W-bit memory port (openenoc_ep_mem_if: the
// port's layout at both widths, byte-packed, every beat but the last full).
// Requests and write responses pass as they are. Read: a W-bit beat is held
// and given to the client a 32-bit word a cycle, each word with its own
// response (the port gives one per 4-byte word: a read failing inside a beat
// gives the client the words read before the failure, as a 32-bit port
// would); the next beat is taken in the cycle the held one's last word goes.
// Write: the client's words are gathered into W-bit beats, one leaves when it
// is full or holds the client's last word, so every beat the port sees is
// full but the last. One word a cycle either way; at W = 32 it is wires.
module openenoc_ep_mem_narrow #(
  parameter int W = 64   // the port's beat: 32, 64, 128 or 256
) (
  input  logic               clk,
  input  logic               rst,
  openenoc_ep_mem_if.arbiter c,   // the client (32 bits)
  openenoc_ep_mem_if.client  m    // towards the arbiter (W bits)
);
  localparam int N = W / 32;      // words of a port beat
  if (W != 32 && W != 64 && W != 128 && W != 256)
    $fatal(1, "W %0d is not 32, 64, 128 or 256", W);

  assign m.req_valid = c.req_valid;
  assign c.req_ready = m.req_ready;
  assign m.req       = c.req;
  assign c.b_valid   = m.b_valid;
  assign m.b_ready   = c.b_ready;
  assign c.b_resp    = m.b_resp;
  assign c.b_bytes   = m.b_bytes;

  if (W == 32) begin : g_wire
    assign m.w_valid = c.w_valid;
    assign c.w_ready = m.w_ready;
    assign m.w       = c.w;
    assign c.r_valid = m.r_valid;
    assign m.r_ready = c.r_ready;
    assign c.r       = m.r;
    assign c.r_resp  = m.r_resp;
    // verilator lint_off UNUSEDSIGNAL
    wire unused = &{1'b0, clk, rst};
    // verilator lint_on UNUSEDSIGNAL
  end else begin : g_conv
    localparam int IW = $clog2(N);

    // ---- read: one held beat, given out a word a cycle ----------------------
    // With no beat held, the port's beat is offered as it comes: its word 0
    // goes to the client in the cycle the port offers it (the responder's
    // scalar read is one word: holding it first was a cycle of every RMEM
    // read at W > 32). The port's ready does not read the client's: with
    // nothing held the beat is always taken, and kept (from word 0 if the
    // client did not take it, else from word 1) unless the client took its
    // only word. The client sees the same words, keeps, lasts and responses
    // in the same order as from the held beat alone; c.r_valid, c.r and
    // c.r_resp now also pass from m (the port's beats come from the memory
    // master's output register).
    logic           rh_valid_q, rh_last_q;
    logic [W-1:0]   rh_data_q;
    logic [W/8-1:0] rh_keep_q;
    logic [2*N-1:0] rh_resp_q;     // per word
    logic [IW-1:0]  ri_q;          // the word given out
    // the held beat's words beyond ri_q: none carries a byte (the beat ends)
    wire  [W/8-1:0] rest = rh_keep_q >> {ri_q, 2'b00} >> 4;
    wire            r_end = rest == '0;
    wire            r_take = rh_valid_q && c.r_ready && r_end;
    // the port's beat, offered through (nothing held): its word 0 ends it
    wire            p_end = (m.r.keep >> 4) == '0;
    wire            p_fire = m.r_valid && m.r_ready;
    wire            p_gone = !rh_valid_q && c.r_ready && p_end;   // taken whole now

    assign c.r_valid = rh_valid_q || m.r_valid;
    // (an always_comb, so the held beat's word is shifted out only while a
    // beat is held: the model Verilator builds evaluates a continuous
    // assign whole every cycle, but only the taken branch of a process)
    always_comb begin
      if (rh_valid_q)
        c.r = '{data: 32'(rh_data_q >> {ri_q, 5'b00000}),
                keep: 4'(rh_keep_q >> {ri_q, 2'b00}), last: rh_last_q && r_end};
      else
        c.r = '{data: m.r.data[31:0], keep: m.r.keep[3:0], last: m.r.last && p_end};
    end
    assign c.r_resp  = rh_valid_q ? 2'(rh_resp_q >> {ri_q, 1'b0}) : m.r_resp[1:0];
    assign m.r_ready = !rh_valid_q || r_take;

    always_ff @(posedge clk) begin
      if (rst) begin
        rh_valid_q <= 1'b0;
        ri_q       <= '0;
      end else begin
        if (rh_valid_q && c.r_ready) ri_q <= r_end ? '0 : ri_q + 1'b1;
        if (p_fire && !p_gone) begin
          rh_valid_q <= 1'b1;
          rh_data_q  <= m.r.data;
          rh_keep_q  <= m.r.keep;
          rh_last_q  <= m.r.last;
          rh_resp_q  <= m.r_resp;
          // its word 0 taken now (not held before): word 1 is next
          if (!rh_valid_q && c.r_ready) ri_q <= IW'(1);
        end else if (r_take) begin
          rh_valid_q <= 1'b0;
        end
      end
    end

    // ---- write: words gathered into a beat ------------------------------------
    logic           wo_valid_q, wo_last_q;
    logic [W-1:0]   wo_data_q, wa_data_q;
    logic [W/8-1:0] wo_keep_q, wa_keep_q;
    logic [IW-1:0]  wi_q;          // the next word's lane
    wire            w_take = c.w_valid && c.w_ready;
    wire            w_close = c.w.last || int'(wi_q) == N - 1;
    // the beat collected with the word taken: functions called in the
    // taken word's branch only (wires would be evaluated every cycle)
    function automatic logic [W-1:0] w_data();
      w_data = wa_data_q | (W'(c.w.data) << {wi_q, 5'b00000});
    endfunction
    function automatic logic [W/8-1:0] w_keep();
      w_keep = wa_keep_q | ((W/8)'(c.w.keep) << {wi_q, 2'b00});
    endfunction

    assign c.w_ready = !wo_valid_q || m.w_ready;
    assign m.w_valid = wo_valid_q;
    assign m.w       = '{data: wo_data_q, keep: wo_keep_q, last: wo_last_q};

    always_ff @(posedge clk) begin
      if (rst) begin
        wo_valid_q <= 1'b0;
        wi_q       <= '0;
        wa_data_q  <= '0;
        wa_keep_q  <= '0;
      end else begin
        if (m.w_valid && m.w_ready) wo_valid_q <= 1'b0;
        if (w_take) begin
          if (w_close) begin
            wo_valid_q <= 1'b1;
            wo_data_q  <= w_data();
            wo_keep_q  <= w_keep();
            wo_last_q  <= c.w.last;
            wi_q       <= '0;
            wa_data_q  <= '0;
            wa_keep_q  <= '0;
          end else begin
            wi_q      <= wi_q + 1'b1;
            wa_data_q <= w_data();
            wa_keep_q <= w_keep();
          end
        end
      end
    end
  end
endmodule
