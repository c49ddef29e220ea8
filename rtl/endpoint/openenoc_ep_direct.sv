// Direct CSR stream (endpoint.md "direct stream"): software moves raw frames
// one 32-bit beat at a time. Byte lane k of tdata is frame byte 4i + k.
//
// Source controller: a beat is taken when software sets tvalid; the first
// beat of a frame waits for IRQ admission (a credit when the TX event is
// enabled) and for the previous frame to have entered the transmit path.
// The frame is kept whole (8 KiB store) and sent once its TLAST is in, so a
// slow writer never holds the shared transmit stream; a frame longer than
// MAX_RAW_FRAME_SIZE is dropped (its event is still produced).
// Sink controller: admitted raw frames queue in a 16 KiB store that never
// drops a frame for room (can_receive tells the host when a maximum frame no
// longer fits); a frame longer than the frame ceiling (the receiver cuts it
// one byte past) is rejected: its words are taken back at its TLAST, so
// software never sees it;
// the head frame becomes visible only after IRQ admission, which raises the
// RX-available event if enabled.
module openenoc_ep_direct
  import openenoc_oetp_pkg::*;
  import openenoc_csr_pkg::*;
  import openenoc_ep_pkg::*;
#(
  parameter int MAX_RAW_FRAME_SIZE = 8192
) (
  input  logic              clk,
  input  logic              rst,
  input  logic [13:0]       max_frame,          // frame ceiling in force
  input  logic              local_tx_en,
  input  logic              credit_ok,          // the IRQ FIFO has a free credit
  // source CSRs
  input  logic [31:0]       src_tdata,
  input  logic              src_tvalid,
  input  logic              src_tlast,
  input  logic [3:0]        src_tkeep,
  output logic              src_tvalid_hwclr,
  output logic              src_tready,
  input  logic              tx_ev,              // event_enable.non_oetp_direct_tx_complete
  // sink CSRs
  output logic [31:0]       snk_tdata,
  output logic              snk_tvalid,
  output logic              snk_tlast,
  output logic [3:0]        snk_tkeep,
  input  logic              snk_tready,
  output logic              snk_tready_hwclr,
  input  logic              rx_ev,              // event_enable.non_oetp_direct_rx_available
  output logic              can_receive,
  // IRQ producers: TX (reserve at the first beat, commit when sent), RX
  // (reserve, then commit at admission)
  openenoc_ep_irq_if.producer tx_irq,
  openenoc_ep_irq_if.producer rx_irq,
  // frames to the transmit stream (route DIRECT)
  output logic              o_valid,
  input  logic              o_ready,
  output logic [DATA_W-1:0] o_data,
  output logic [KEEP_W-1:0] o_keep,
  output logic              o_last,
  // frames from the receive stream (route DIRECT)
  input  logic              i_valid,
  output logic              i_ready,
  input  logic [DATA_W-1:0] i_data,
  input  logic [KEEP_W-1:0] i_keep,
  input  logic              i_last
);
  // Both stores are block RAM: power-of-two depths, registered reads.
  localparam int TX_WORDS = 2 ** $clog2((MAX_RAW_FRAME_SIZE + 3) / 4);
  localparam int RX_WORDS = 4096;                 // 16 KiB
  localparam int TA = $clog2(TX_WORDS);           // store address
  localparam int TW = TA + 1;                     // word count 0..TX_WORDS

  // ---- source --------------------------------------------------------------
  typedef enum logic [1:0] { DS_FILL, DS_SEND, DS_EVENT } ds_state_e;
  ds_state_e   ds_q;
  logic [35:0] txbuf_q [TX_WORDS];
  logic [TW-1:0] wcount_q, rptr_q;
  logic [13:0] bytes_q;
  logic        in_frame_q, oversize_q, rsv_q;
  logic [35:0] txrd_q;          // registered read of txbuf_q[rptr_q]
  logic        primed_q;        // txrd_q holds the word at rptr_q
  // "a byte is stored" (bytes_q != 0) and wcount_q - 1, kept beside the
  // counts (no adder or wide OR in front of the transmit handshake)
  logic          stored_q;
  logic [TW-1:0] last_q;

  wire first     = !in_frame_q;
  wire can_take  = ds_q == DS_FILL && (!first || !tx_ev || credit_ok);
  assign src_tready = can_take;
  assign tx_irq.rsv_req = src_tvalid && ds_q == DS_FILL && first && tx_ev;
  wire take       = src_tvalid && ds_q == DS_FILL && (!first || !tx_ev || tx_irq.rsv_gnt);
  assign src_tvalid_hwclr = take;
  assign tx_irq.cmt_valid  = ds_q == DS_EVENT && rsv_q;
  assign tx_irq.cmt_source = SRC_DIRECT_TX;
  assign tx_irq.cmt_peer   = '0;

  assign o_valid = ds_q == DS_SEND && primed_q && local_tx_en && !oversize_q && stored_q;
  assign {o_keep, o_data} = txrd_q;
  assign o_last  = rptr_q == last_q;
  // the read address runs one word ahead of rptr_q while beats leave
  wire [TA-1:0] txrd_addr = TA'((o_valid && o_ready) ? rptr_q + 1'b1 : rptr_q);

  always_ff @(posedge clk) txrd_q <= txbuf_q[txrd_addr];

  always_ff @(posedge clk) begin
    // The registers the branches read, read once here, before any branch
    // writes them: Verilator keeps a shadow copy (two copies every cycle) of
    // a register one branch writes and a later one reads, a case selector
    // included; a local read here costs one.
    ds_state_e     ds;
    logic [TW-1:0] wcount, rptr;
    logic [13:0]   nbytes;
    logic          rsv, oversize, stored;
    ds       = ds_q;
    wcount   = wcount_q;
    rptr     = rptr_q;
    nbytes   = bytes_q;
    rsv      = rsv_q;
    oversize = oversize_q;
    stored   = stored_q;
    if (rst) begin
      ds_q       <= DS_FILL;
      wcount_q   <= '0;
      rptr_q     <= '0;
      bytes_q    <= '0;
      in_frame_q <= 1'b0;
      oversize_q <= 1'b0;
      rsv_q      <= 1'b0;
      primed_q   <= 1'b0;
      stored_q   <= 1'b0;
      last_q     <= '0;
    end else begin
      // the first SEND cycle reads word 0; its beat may leave from the next
      primed_q <= ds == DS_SEND;
      case (ds)
        DS_FILL: if (take) begin
          // the word's bytes counted here, in the branch that takes it (an
          // assign is evaluated every cycle)
          logic [13:0] nb;
          nb = (first ? 14'd0 : nbytes) + 14'(keep_bytes(src_tkeep));
          if (first) begin
            rsv_q      <= tx_ev;
            oversize_q <= 1'b0;
            wcount_q   <= '0;
            stored_q   <= 1'b0;
          end
          // a frame that breaks the one-full-word-per-beat rule can outgrow
          // the store: dropped like an oversized one
          if (nb > max_frame || (!first && wcount == TW'(TX_WORDS))) begin
            oversize_q <= 1'b1;
          end else begin
            txbuf_q[first ? '0 : TA'(wcount)] <= {src_tkeep, src_tdata};
            wcount_q <= (first ? '0 : wcount) + 1'b1;
            stored_q <= nb != '0;
            last_q   <= first ? '0 : wcount;
            bytes_q  <= nb;
          end
          in_frame_q <= !src_tlast;
          if (src_tlast) begin
            rptr_q <= '0;
            ds_q   <= DS_SEND;
          end
        end
        DS_SEND: begin
          // an empty (no byte kept) or oversized frame is not sent; its
          // event still is
          if (oversize || !stored) ds_q <= DS_EVENT;
          else if (o_valid && o_ready) begin
            rptr_q <= rptr + 1'b1;
            if (o_last) ds_q <= DS_EVENT;
          end
        end
        DS_EVENT: if (!rsv || tx_irq.cmt_ready) begin
          rsv_q <= 1'b0;
          ds_q  <= DS_FILL;
        end
        default: ds_q <= DS_FILL;
      endcase
    end
  end

  // ---- sink ----------------------------------------------------------------
  typedef enum logic [1:0] { SK_HIDDEN, SK_RESERVE, SK_COMMIT, SK_VISIBLE } sk_state_e;
  sk_state_e   sk_q;
  logic [36:0] rxbuf_q [RX_WORDS];
  logic [11:0] sw_q, sr_q;
  logic [11:0] fstart_q;                  // first word of the frame being stored
  logic [12:0] fwords_q;                  // its words stored so far
  logic [13:0] fbytes_q;                  // its bytes so far (saturating)
  logic [12:0] count_q;
  logic [12:0] frames_q;

  // the frame's bytes with this beat, and whether they pass the ceiling:
  // read with a beat offered, or for i_ready with the store full (Verilator
  // evaluates an always_comb every cycle but only its taken branch)
  logic [14:0] fb_next;
  logic        over;
  always_comb begin
    fb_next = '0;
    over    = 1'b0;
    if (i_valid || count_q >= 13'(RX_WORDS)) begin
      fb_next = {1'b0, fbytes_q} + 15'(keep_bytes(i_keep));
      over    = fb_next > {1'b0, max_frame};
    end
  end
  // a beat past the ceiling is not stored, so it needs no room
  assign i_ready     = count_q < 13'(RX_WORDS) || over;
  wire   push        = i_valid && i_ready;
  wire   reject      = push && i_last && over;
  wire   store       = push && !over;
  assign can_receive = count_q + {1'b0, max_frame[13:2]} + 13'(|max_frame[1:0]) <= 13'(RX_WORDS);
  logic [36:0] head;             // registered read of rxbuf_q[sr_q]
  assign snk_tvalid  = sk_q == SK_VISIBLE;
  assign snk_tdata   = snk_tvalid ? head[31:0] : '0;
  assign snk_tkeep   = snk_tvalid ? head[35:32] : '0;
  assign snk_tlast   = snk_tvalid && head[36];
  wire   pop         = snk_tvalid && snk_tready;
  assign snk_tready_hwclr = pop;
  assign rx_irq.rsv_req    = sk_q == SK_RESERVE && rx_ev;
  assign rx_irq.cmt_valid  = sk_q == SK_COMMIT;
  assign rx_irq.cmt_source = SRC_DIRECT_RX;
  assign rx_irq.cmt_peer   = '0;

  // Every word of the head frame was written two or more cycles before the
  // frame becomes visible (frames_q counts complete frames), so the read
  // never needs the word being written.
  always_ff @(posedge clk) head <= rxbuf_q[pop ? sr_q + 12'd1 : sr_q];

  always_ff @(posedge clk) begin
    // read once before the branches write them (see the source's process)
    sk_state_e   sk;
    logic [11:0] sw, sr, fstart;
    logic [12:0] fwords, count, frames;
    sk     = sk_q;
    sw     = sw_q;
    sr     = sr_q;
    fstart = fstart_q;
    fwords = fwords_q;
    count  = count_q;
    frames = frames_q;
    if (rst) begin
      sk_q     <= SK_HIDDEN;
      sw_q     <= '0;
      sr_q     <= '0;
      count_q  <= '0;
      frames_q <= '0;
      fstart_q <= '0;
      fwords_q <= '0;
      fbytes_q <= '0;
    end else begin
      // the store and its counts change only with a beat in or out (a
      // simulator skips them in the other cycles)
      if (push || pop) begin
        if (store) begin
          rxbuf_q[sw] <= {i_last, i_keep, i_data};
          sw_q          <= sw + 12'd1;
        end
        if (reject) sw_q <= fstart;
        else if (store && i_last) fstart_q <= sw + 12'd1;
        fwords_q <= (push && i_last) ? '0 : fwords + 13'(store);
        if (push) fbytes_q <= i_last ? '0 : (fb_next > 15'h3FFF ? 14'h3FFF : fb_next[13:0]);
        count_q  <= count + 13'(store) - 13'(pop) - (reject ? fwords : '0);
        frames_q <= frames + 13'(store && i_last) - 13'(pop && head[36]);
        if (pop) sr_q <= sr + 12'd1;
      end
      case (sk)
        SK_HIDDEN:  if (frames != 0) sk_q <= rx_ev ? SK_RESERVE : SK_VISIBLE;
        // the enable counts while the frame waits for its credit: once it
        // is cleared, the frame is shown without an event
        SK_RESERVE: if (!rx_ev) sk_q <= SK_VISIBLE;
                    else if (rx_irq.rsv_gnt) sk_q <= SK_COMMIT;
        SK_COMMIT:  if (rx_irq.cmt_ready) sk_q <= SK_VISIBLE;
        SK_VISIBLE: if (pop && head[36]) sk_q <= SK_HIDDEN;
        default:    sk_q <= SK_HIDDEN;
      endcase
    end
  end
endmodule
