// AXI-Stream skid buffer; s.tready is always a flop, so no ready path
// crosses it, and it sustains one beat per cycle.
//   PASS = 0: two-entry register slice. m.* come from the output entry (a
//             beat takes one cycle); the second entry catches the beat
//             already in flight when m.tready drops.
//   PASS = 1: one entry. A beat passes in the cycle it arrives while the
//             entry is empty (m.* are a multiplexer of the entry and s.*, no
//             added cycle), and waits in the entry when m.tready is low. For
//             a source whose outputs are flops already.
module openenoc_axis_skid #(
  parameter int DATA_W = 32,
  parameter int KEEP_W = DATA_W / 8,
  parameter int ID_W   = 1,
  parameter int DEST_W = 1,
  parameter int USER_W = 1,
  parameter bit PASS   = 1'b0
) (
  input  logic           clk,
  input  logic           rst,
  openenoc_axis_if.snk   s,
  openenoc_axis_if.src   m
);

  // Simulation-only: synthesis tools reject $fatal in initial blocks.
`ifndef SYNTHESIS
  initial begin
    if ($bits(s.tdata) != DATA_W || $bits(s.tkeep) != KEEP_W || $bits(s.tid) != ID_W ||
        $bits(s.tdest) != DEST_W || $bits(s.tuser) != USER_W ||
        $bits(m.tdata) != DATA_W || $bits(m.tkeep) != KEEP_W || $bits(m.tid) != ID_W ||
        $bits(m.tdest) != DEST_W || $bits(m.tuser) != USER_W)
      $fatal(1, "openenoc_axis_skid: interface widths differ from the parameters");
  end
`endif

  // One register per field, not one W-bit beat: Verilator then copies each
  // field as it is, where a packed beat is put together and taken apart
  // again with shifts (the fields are not word-aligned), every cycle.
  if (PASS) begin : g_pass
    logic [DATA_W-1:0] skid_data_q;
    logic [KEEP_W-1:0] skid_keep_q;
    logic              skid_last_q;
    logic [ID_W-1:0]   skid_id_q;
    logic [DEST_W-1:0] skid_dest_q;
    logic [USER_W-1:0] skid_user_q;
    logic              skid_valid_q;

    assign s.tready = !skid_valid_q;
    assign m.tvalid = skid_valid_q || s.tvalid;
    assign m.tdata  = skid_valid_q ? skid_data_q : s.tdata;
    assign m.tkeep  = skid_valid_q ? skid_keep_q : s.tkeep;
    assign m.tlast  = skid_valid_q ? skid_last_q : s.tlast;
    assign m.tid    = skid_valid_q ? skid_id_q   : s.tid;
    assign m.tdest  = skid_valid_q ? skid_dest_q : s.tdest;
    assign m.tuser  = skid_valid_q ? skid_user_q : s.tuser;

    always_ff @(posedge clk) begin
      if (rst) begin
        skid_valid_q <= 1'b0;
        skid_data_q  <= '0;
        skid_keep_q  <= '0;
        skid_last_q  <= 1'b0;
        skid_id_q    <= '0;
        skid_dest_q  <= '0;
        skid_user_q  <= '0;
      end else if (skid_valid_q) begin
        if (m.tready) skid_valid_q <= 1'b0;
      end else if (s.tvalid && !m.tready) begin
        skid_data_q  <= s.tdata;
        skid_keep_q  <= s.tkeep;
        skid_last_q  <= s.tlast;
        skid_id_q    <= s.tid;
        skid_dest_q  <= s.tdest;
        skid_user_q  <= s.tuser;
        skid_valid_q <= 1'b1;
      end
    end
  end else begin : g_reg
    logic [DATA_W-1:0] out_data_q, skid_data_q;
    logic [KEEP_W-1:0] out_keep_q, skid_keep_q;
    logic              out_last_q, skid_last_q;
    logic [ID_W-1:0]   out_id_q,   skid_id_q;
    logic [DEST_W-1:0] out_dest_q, skid_dest_q;
    logic [USER_W-1:0] out_user_q, skid_user_q;
    logic              out_valid_q, skid_valid_q, ready_q;

    assign s.tready = ready_q;
    assign m.tvalid = out_valid_q;
    assign m.tdata  = out_data_q;
    assign m.tkeep  = out_keep_q;
    assign m.tlast  = out_last_q;
    assign m.tid    = out_id_q;
    assign m.tdest  = out_dest_q;
    assign m.tuser  = out_user_q;

    wire in_fire  = s.tvalid && ready_q;
    wire out_free = !out_valid_q || m.tready;

    always_ff @(posedge clk) begin
      if (rst) begin
        out_valid_q  <= 1'b0;
        skid_valid_q <= 1'b0;
        ready_q      <= 1'b0;
        out_data_q   <= '0;
        out_keep_q   <= '0;
        out_last_q   <= 1'b0;
        out_id_q     <= '0;
        out_dest_q   <= '0;
        out_user_q   <= '0;
        skid_data_q  <= '0;
        skid_keep_q  <= '0;
        skid_last_q  <= 1'b0;
        skid_id_q    <= '0;
        skid_dest_q  <= '0;
        skid_user_q  <= '0;
      end else begin
        if (out_free) begin
          if (skid_valid_q) begin
            out_data_q   <= skid_data_q;
            out_keep_q   <= skid_keep_q;
            out_last_q   <= skid_last_q;
            out_id_q     <= skid_id_q;
            out_dest_q   <= skid_dest_q;
            out_user_q   <= skid_user_q;
            out_valid_q  <= 1'b1;
            skid_valid_q <= 1'b0;
          end else begin
            out_valid_q <= in_fire;
            if (in_fire) begin
              out_data_q <= s.tdata;
              out_keep_q <= s.tkeep;
              out_last_q <= s.tlast;
              out_id_q   <= s.tid;
              out_dest_q <= s.tdest;
              out_user_q <= s.tuser;
            end
          end
          ready_q <= 1'b1;
        end else if (in_fire) begin
          skid_data_q  <= s.tdata;
          skid_keep_q  <= s.tkeep;
          skid_last_q  <= s.tlast;
          skid_id_q    <= s.tid;
          skid_dest_q  <= s.tdest;
          skid_user_q  <= s.tuser;
          skid_valid_q <= 1'b1;
          ready_q      <= 1'b0;
        end else begin
          ready_q <= !skid_valid_q;
        end
      end
    end
  end
endmodule
