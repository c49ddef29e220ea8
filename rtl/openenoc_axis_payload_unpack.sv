// openenoc_axis_payload_unpack: the oETP engine's ETH_W-bit m_axis_local
// (RX's memory data and raw frames: byte-packed, every beat full but a
// frame's last, TID/TDEST/TUSER constant until TLAST) narrowed to the DMA
// engine's 32-bit local_rx: the word aligner (openenoc_axis_word_align) in
// one-word mode, and the frame's sideband, which the aligner does not carry,
// held in registers from the frame's first beat. The mirror of
// openenoc_axis_payload_pack. The aligner may store beats of two frames, the
// sideband register one frame's: a new frame's first beat enters only after
// the previous frame's last word left (a cycle or two between frames).
// At ETH_W = 32 it is wires.
module openenoc_axis_payload_unpack
  import openenoc_oetp_pkg::*;
#(
  parameter int ETH_W = 64   // 32, 64, 128 or 256
) (
  input  logic         clk,
  input  logic         rst,
  openenoc_axis_if.snk s,    // ETH_W bits
  openenoc_axis_if.src m     // DATA_W bits
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
  end else begin : g_unpack
    logic               al_ready, all_valid, all_last;
    logic [ETH_W-1:0]   words;
    logic [ETH_W/8-1:0] words_keep;
    logic               open_q;   // a frame's first beat went in, its TLAST not yet
    logic               pend_q;   // a frame's TLAST beat went in, its last word not out yet
    logic [SEQ_W-1:0]   id_q;
    logic [DEST_W-1:0]  dest_q;
    logic [USER_W-1:0]  user_q;

    // no beat of the next frame while the sideband register serves this one
    assign s.tready = al_ready && !pend_q;
    openenoc_axis_word_align #(.ETH_W(ETH_W)) u_align (
      .clk, .rst, .s_tdata(s.tdata), .s_tkeep(s.tkeep), .s_tlast(s.tlast),
      .s_tvalid(s.tvalid && !pend_q), .s_tready(al_ready),
      .w_data(words), .w_keep(words_keep), .w_one_valid(m.tvalid), .w_one_last(m.tlast),
      .w_all_valid(all_valid), .w_all_last(all_last),
      .w_take_one(m.tvalid && m.tready), .w_take_all(1'b0), .w_all_max('1)
    );
    assign m.tdata = words[DATA_W-1:0];
    assign m.tkeep = words_keep[KEEP_W-1:0];
    assign m.tid   = id_q;
    assign m.tdest = dest_q;
    assign m.tuser = user_q;
    // verilator lint_off UNUSEDSIGNAL
    wire unused = &{1'b0, words[ETH_W-1:DATA_W], words_keep[ETH_W/8-1:KEEP_W], all_valid,
                    all_last};
    // verilator lint_on UNUSEDSIGNAL

    always_ff @(posedge clk) begin
      if (rst) begin
        open_q <= 1'b0;
        pend_q <= 1'b0;
        id_q   <= '0;
        dest_q <= '0;
        user_q <= '0;
      end else begin
        if (s.tvalid && s.tready) begin
          // the sideband of a frame is taken with its first beat
          if (!open_q) {id_q, dest_q, user_q} <= {s.tid, s.tdest, s.tuser};
          open_q <= !s.tlast;
          pend_q <= s.tlast;
        end
        // the frame's last word leaves (no beat enters while pend_q)
        if (m.tvalid && m.tready && m.tlast) pend_q <= 1'b0;
      end
    end
  end
endmodule
