// Transmit-side stream arbiter: whole packets from N sources onto the one
// local stream into the oETP engine, round-robin at packet boundaries (a
// source keeps the stream from its first beat to its TLAST). The choice is
// registered before the packet's first beat passes (one cycle per packet),
// so the round-robin pick never sits in front of the sources' ready logic.
// W is the stream's width (the memory port's: the movers' beats pass whole).
module openenoc_ep_stream_mux
  import openenoc_oetp_pkg::*;
#(
  parameter int N = 4,
  parameter int W = DATA_W
) (
  input  logic                   clk,
  input  logic                   rst,
  input  logic [N-1:0]           i_valid,
  output logic [N-1:0]           i_ready,
  input  logic [N-1:0][W-1:0]    i_data,
  input  logic [N-1:0][W/8-1:0]  i_keep,
  input  logic [N-1:0]           i_last,
  input  logic [N-1:0][SEQ_W-1:0]  i_id,
  input  logic [N-1:0][DEST_W-1:0] i_dest,
  input  logic [N-1:0][USER_W-1:0] i_user,
  openenoc_axis_if.src           m      // W bits
);
  localparam int IW = $clog2(N);

  logic          locked_q;
  logic [IW-1:0] own_q, next_q;

  wire [IW-1:0] sel = own_q;
  assign m.tvalid = locked_q && i_valid[sel];
  assign m.tdata  = i_data[sel];
  assign m.tkeep  = i_keep[sel];
  assign m.tlast  = i_last[sel];
  assign m.tid    = i_id[sel];
  assign m.tdest  = i_dest[sel];
  assign m.tuser  = i_user[sel];
  always_comb begin
    i_ready = '0;
    i_ready[sel] = m.tready && locked_q;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      locked_q <= 1'b0;
      own_q    <= '0;
      next_q   <= '0;
    end else if (!locked_q) begin
      // The round-robin pick: the first valid source from next_q on (the
      // last assignment wins, so the loop runs from the farthest down). It
      // sits in this branch, not in an always_comb, because nothing else
      // reads it and Verilator evaluates an always_comb every cycle but only
      // the taken branch of an always_ff; the wrap-around is a compare and a
      // subtraction, not a modulo (a signed division per source per cycle).
      for (int k = N - 1; k >= 0; k--) begin
        logic [IW:0]   s;
        logic [IW-1:0] c;
        s = {1'b0, next_q} + (IW + 1)'(k);
        c = (s >= (IW + 1)'(N)) ? IW'(s - (IW + 1)'(N)) : IW'(s);
        if (i_valid[c]) begin
          locked_q <= 1'b1;
          own_q    <= c;
          next_q   <= (int'(c) == N - 1) ? '0 : c + 1'b1;
        end
      end
    end else if (m.tvalid && m.tready && m.tlast) begin
      locked_q <= 1'b0;
    end
  end
endmodule
