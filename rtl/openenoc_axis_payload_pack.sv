// openenoc_axis_payload_pack: the DMA engine's 32-bit transmit payload (the
// u_tx_mux output: byte-packed words, TID/TDEST/TUSER constant until TLAST)
// widened to the oETP engine's ETH_W-bit s_axis_local: N = ETH_W / 32 words
// a beat, every beat full but a frame's last (openenoc_axis_word_pack), and
// the frame's sideband, which the packer does not carry, held in registers.
// The packer may hold the words of several frames, the sideband register one
// frame's: a new frame enters only after the previous one's last beat left
// (a cycle or two between frames; fragments are hundreds of words). A word
// that keeps no byte and does not end its frame (a direct-source frame may
// hold one) is taken and dropped: in a packed beat it would hide the words
// after it (a lane carries a word only when its first byte is kept); the
// 32-bit link carries no byte for it either. At ETH_W = 32 it is wires.
// The oETP engine packs RX's output into its m_axis_local with it as well
// (an ETH_W-wide s: 1..N words a cycle, lane i carrying a word when i == 0 or
// s.tkeep[4i]; openenoc_axis_payload_unpack narrows them again for the DMA
// engine).
module openenoc_axis_payload_pack
  import openenoc_oetp_pkg::*;
#(
  parameter int ETH_W = 64   // 32, 64, 128 or 256
) (
  input  logic         clk,
  input  logic         rst,
  openenoc_axis_if.snk s,    // DATA_W or ETH_W bits (zero-extended)
  openenoc_axis_if.src m     // ETH_W bits
);
  if (ETH_W == 32) begin : g_wire
    assign m.tvalid = s.tvalid;
    assign s.tready = m.tready;
    assign m.tdata  = s.tdata;
    assign m.tkeep  = s.tkeep;
    assign m.tlast  = s.tlast;
    assign m.tid    = s.tid;
    assign m.tdest  = s.tdest;
    assign m.tuser  = s.tuser;
    // verilator lint_off UNUSEDSIGNAL
    wire unused = &{1'b0, clk, rst};
    // verilator lint_on UNUSEDSIGNAL
  end else begin : g_pack
    logic              pk_ready;
    logic              open_q;   // a frame's first word went in, its TLAST not yet
    logic              pend_q;   // a frame's TLAST went in, its last beat not out yet
    logic [SEQ_W-1:0]  id_q;
    logic [DEST_W-1:0] dest_q;
    logic [USER_W-1:0] user_q;

    // no word of the next frame while the sideband register serves this one
    wire null_word = s.tkeep == '0 && !s.tlast;
    assign s.tready = !pend_q && (pk_ready || null_word);
    openenoc_axis_word_pack #(.ETH_W(ETH_W)) u_pack (
      .clk, .rst, .s_tdata(ETH_W'(s.tdata)), .s_tkeep((ETH_W / 8)'(s.tkeep)), .s_tlast(s.tlast),
      .s_tvalid(s.tvalid && !pend_q && !null_word), .s_tready(pk_ready), .m_tdata(m.tdata), .m_tkeep(m.tkeep),
      .m_tlast(m.tlast), .m_tvalid(m.tvalid), .m_tready(m.tready)
    );
    assign m.tid   = id_q;
    assign m.tdest = dest_q;
    assign m.tuser = user_q;

    always_ff @(posedge clk) begin
      if (rst) begin
        open_q <= 1'b0;
        pend_q <= 1'b0;
        id_q   <= '0;
        dest_q <= '0;
        user_q <= '0;
      end else begin
        if (s.tvalid && s.tready) begin
          // the sideband of a frame is taken with its first word
          if (!open_q) {id_q, dest_q, user_q} <= {s.tid, s.tdest, s.tuser};
          open_q <= !s.tlast;
          pend_q <= s.tlast;
        end
        // the frame's last beat leaves (no word enters while pend_q)
        if (m.tvalid && m.tready && m.tlast) pend_q <= 1'b0;
      end
    end
  end
endmodule
