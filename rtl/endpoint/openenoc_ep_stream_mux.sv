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

  logic [IW-1:0] pick;
  logic          any;
  always_comb begin
    pick = '0;
    any  = 1'b0;
    for (int k = N - 1; k >= 0; k--) begin
      logic [IW-1:0] c;
      c = IW'((int'(next_q) + k) % N);
      if (i_valid[c]) begin
        pick = c;
        any  = 1'b1;
      end
    end
  end

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
      if (any) begin
        locked_q <= 1'b1;
        own_q    <= pick;
        next_q   <= (int'(pick) == N - 1) ? '0 : pick + 1'b1;
      end
    end else if (m.tvalid && m.tready && m.tlast) begin
      locked_q <= 1'b0;
    end
  end
endmodule
