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
  localparam int W = DATA_W + KEEP_W + 1 + ID_W + DEST_W + USER_W;

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

  logic [W-1:0] in_beat;
  assign in_beat = {s.tdata, s.tkeep, s.tlast, s.tid, s.tdest, s.tuser};

  if (PASS) begin : g_pass
    logic [W-1:0] skid_q;
    logic         skid_valid_q;

    assign s.tready = !skid_valid_q;
    assign m.tvalid = skid_valid_q || s.tvalid;
    assign {m.tdata, m.tkeep, m.tlast, m.tid, m.tdest, m.tuser} = skid_valid_q ? skid_q : in_beat;

    always_ff @(posedge clk) begin
      if (rst) begin
        skid_valid_q <= 1'b0;
        skid_q       <= '0;
      end else if (skid_valid_q) begin
        if (m.tready) skid_valid_q <= 1'b0;
      end else if (s.tvalid && !m.tready) begin
        skid_q       <= in_beat;
        skid_valid_q <= 1'b1;
      end
    end
  end else begin : g_reg
    logic [W-1:0] out_q, skid_q;
    logic         out_valid_q, skid_valid_q, ready_q;

    assign s.tready = ready_q;
    assign m.tvalid = out_valid_q;
    assign {m.tdata, m.tkeep, m.tlast, m.tid, m.tdest, m.tuser} = out_q;

    wire in_fire  = s.tvalid && ready_q;
    wire out_free = !out_valid_q || m.tready;

    always_ff @(posedge clk) begin
      if (rst) begin
        out_valid_q  <= 1'b0;
        skid_valid_q <= 1'b0;
        ready_q      <= 1'b0;
        out_q        <= '0;
        skid_q       <= '0;
      end else begin
        if (out_free) begin
          if (skid_valid_q) begin
            // ready_q was low, so nothing arrives in this cycle
            out_q        <= skid_q;
            out_valid_q  <= 1'b1;
            skid_valid_q <= 1'b0;
          end else begin
            out_valid_q <= in_fire;
            if (in_fire) out_q <= in_beat;
          end
          ready_q <= 1'b1;
        end else if (in_fire) begin
          skid_q       <= in_beat;
          skid_valid_q <= 1'b1;
          ready_q      <= 1'b0;
        end else begin
          ready_q <= !skid_valid_q;
        end
      end
    end
  end
endmodule
