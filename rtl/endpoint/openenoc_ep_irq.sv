// IRQ controller (endpoint.md section 6): one FIFO of 16 claims fed by the
// event producers. A producer whose event is enabled reserves a credit
// before its operation starts (queued + reserved <= 16) and commits the
// claim when the operation ends, so no claim is lost; one reservation and
// one commit are served per cycle (lowest producer first). Each queued claim
// takes the next 16-bit sequence number. The output is a level:
// global_enable AND FIFO not empty; msg pulses when a completion pops the
// FIFO while it stays non-empty (one more message for edge-triggered hosts).
module openenoc_ep_irq
  import openenoc_ep_pkg::*;
  import openenoc_csr_pkg::*;
#(
  parameter int NP = 7      // producers
) (
  input  logic                clk,
  input  logic                rst,
  input  logic                global_enable,
  input  logic                clear_errors,      // irq.control.clear_errors
  output logic                clear_errors_hwclr,
  input  logic                complete_valid,    // irq.complete.valid (command)
  input  irq_complete_t       complete_word,
  output logic                complete_hwclr,
  // producers (the lowest first)
  openenoc_ep_irq_if.controller p [NP],
  input  logic [NP-1:0]       cmt_reserved,
  // CSR views
  output irq_claim_t          claim_word,
  output irq_status_t         status_word,
  output logic                irq,
  output logic                msg
);
  logic [NP-1:0]       rsv_req, rsv_gnt, cmt_valid, cmt_ready;   // one-cycle grant
  // unpacked: a claim reads one entry, nothing packs all producers' fields
  logic [3:0]          cmt_source [NP];
  logic [10:0]         cmt_peer   [NP];
  for (genvar k = 0; k < NP; k++) begin : g_p
    assign rsv_req[k]    = p[k].rsv_req;
    assign cmt_valid[k]  = p[k].cmt_valid;
    assign cmt_source[k] = p[k].cmt_source;
    assign cmt_peer[k]   = p[k].cmt_peer;
    assign p[k].rsv_gnt   = rsv_gnt[k];
    assign p[k].cmt_ready = cmt_ready[k];
  end

  // The claim store: unpacked and not reset (an entry is read only after a
  // commit wrote it, as the head word while the FIFO holds it), so a
  // simulator writes one entry per commit instead of copying all 16 every
  // cycle.
  irq_claim_t  fifo_q [IRQ_DEPTH];        // claim words (valid set)
  logic [3:0]  head_q;
  // head_w_q is fifo_q[head_q] at all times, kept beside the FIFO so the
  // 16-way read does not sit in front of the completion compare (pop) and
  // the count and level behind it
  irq_claim_t  head_w_q;
  logic [4:0]  count_q, reserved_q;
  logic [15:0] seq_q;
  logic        overflow_q, invalid_q, msg_q;

  wire [3:0] head_nx   = head_q + 4'd1;     // the head after a pop
  wire [5:0] used      = {1'b0, count_q} + {1'b0, reserved_q};
  wire       credit_ok = used < 6'(IRQ_DEPTH);

  // Requests and commits are rare: with none (the usual cycle) every
  // output of this block is its default, and a simulator skips the rest.
  logic any_rsv, any_cmt, cmt_ok, rsv_room;
  logic [$clog2(NP)-1:0] cmt_i;
  always_comb begin
    any_rsv   = |rsv_req;
    any_cmt   = |cmt_valid;
    cmt_i     = '0;
    cmt_ok    = 1'b0;
    rsv_room  = credit_ok;
    rsv_gnt   = '0;
    cmt_ready = '0;
    if (any_cmt) begin
      for (int k = NP - 1; k >= 0; k--)
        if (cmt_valid[k]) cmt_i = k[$clog2(NP)-1:0];
      // a commit without a reservation needs a free credit of its own
      cmt_ok   = cmt_reserved[cmt_i] ? count_q < 5'(IRQ_DEPTH) : credit_ok;
      rsv_room = credit_ok && !(cmt_ok && !cmt_reserved[cmt_i] && used == 6'(IRQ_DEPTH - 1));
      cmt_ready[cmt_i] = 1'b1;     // taken (or dropped as overflow)
    end
    // each grant as its own AND of the request, no lower request and room
    // (not through the encoded index): the producers act on it in this cycle
    if (any_rsv)
      for (int k = 0; k < NP; k++)
        rsv_gnt[k] = rsv_req[k] && (rsv_req & NP'((1 << k) - 1)) == '0 && rsv_room;
  end
  wire rsv_ok = any_rsv && rsv_room;

  irq_claim_t head;
  assign head       = head_w_q;
  assign claim_word = (count_q != 0) ? head : '0;
  // the completion is the claim word written back (irq.complete has its layout)
  logic pop;
  always_comb begin
    pop = 1'b0;
    if (complete_valid) pop = count_q != 0 && complete_word == head;
  end
  wire   level      = global_enable && count_q != 0;

  assign status_word = '{reserved_count: 8'(reserved_q), fifo_level: 8'(count_q),
                         irq_asserted: level, invalid_complete: invalid_q, overflow: overflow_q,
                         credit_full: !credit_ok, claim_pending: count_q != 0, default: '0};
  assign irq = level;
  assign msg = msg_q;
  assign clear_errors_hwclr = clear_errors;
  assign complete_hwclr     = complete_valid;

  always_ff @(posedge clk) begin
    // The registers the branches read, read once here, before any branch
    // writes them: Verilator keeps a shadow copy (two copies every cycle) of
    // a register one branch writes and a later one reads; a local read here
    // costs one.
    logic [3:0]  hd;
    logic [4:0]  count, rsvd;
    logic [15:0] seq;
    irq_claim_t  hw;
    hd    = head_q;
    count = count_q;
    rsvd  = reserved_q;
    seq   = seq_q;
    hw    = head_w_q;
    if (rst) begin
      head_q     <= '0;
      head_w_q   <= '0;
      count_q    <= '0;
      reserved_q <= '0;
      seq_q      <= '0;
      overflow_q <= 1'b0;
      invalid_q  <= 1'b0;
      msg_q      <= 1'b0;
    end else begin
      msg_q <= 1'b0;
      if (clear_errors) begin
        overflow_q <= 1'b0;
        invalid_q  <= 1'b0;
      end
      if (complete_valid && !pop) invalid_q <= 1'b1;
      if (pop) msg_q <= global_enable && count != 5'd1;   // not empty after the pop
      if (any_cmt || rsv_ok) begin
        logic [4:0] res;
        res = rsvd;
        if (any_cmt) begin
          if (cmt_ok) seq_q <= seq + 16'd1;
          else overflow_q <= 1'b1;
          if (cmt_reserved[cmt_i]) res = res - 5'd1;
        end
        if (rsv_ok) res = res + 5'd1;
        reserved_q <= res;
      end
      // The FIFO changes only with a stored claim or a completion.
      if (cmt_ok || pop) begin
        logic [4:0] cnt_stay, cnt_pop;
        irq_claim_t cmt_word, hw_stay, hw_pop;
        cmt_word = '{valid: 1'b1, sequence_f: seq, source: cmt_source[cmt_i],
                     peer_idx: cmt_peer[cmt_i]};
        if (cmt_ok) fifo_q[4'(hd + 4'(count))] <= cmt_word;
        // The FIFO after this cycle for both outcomes of the completion,
        // made without pop and chosen by it last: pop's 32-bit compare is
        // the deep term. A claim written at the next head (no other entry
        // remains) is the new head word.
        cnt_stay = count + 5'(cmt_ok);
        cnt_pop  = cnt_stay - 5'd1;
        hw_stay  = (cmt_ok && count == 5'd0) ? cmt_word : hw;
        hw_pop   = (cmt_ok && count == 5'd1) ? cmt_word : fifo_q[head_nx];
        count_q  <= pop ? cnt_pop : cnt_stay;
        head_q   <= pop ? head_nx : hd;
        head_w_q <= pop ? hw_pop : hw_stay;
      end
    end
  end
endmodule
