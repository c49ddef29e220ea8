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
  assign m.tlast  = i_last[sel];
  // The owner's beat, one constant select per source: Verilator turns a
  // select of a packed array by a variable index into shifts and masks of
  // every word of the wide beat, every cycle; a case picks one copy.
  always_comb begin
    m.tdata = i_data[0];
    m.tkeep = i_keep[0];
    m.tid   = i_id[0];
    m.tdest = i_dest[0];
    m.tuser = i_user[0];
    for (int k = 1; k < N; k++)
      if (sel == IW'(k)) begin
        m.tdata = i_data[k];
        m.tkeep = i_keep[k];
        m.tid   = i_id[k];
        m.tdest = i_dest[k];
        m.tuser = i_user[k];
      end
  end
  always_comb begin
    i_ready = '0;
    i_ready[sel] = m.tready && locked_q;
  end

  always_ff @(posedge clk) begin
    // read once before the branches write them (Verilator would keep a
    // shadow copy, two copies every cycle, of a register one branch writes
    // and a later one reads)
    logic          locked;
    logic [IW-1:0] nxt;
    locked = locked_q;
    nxt    = next_q;
    if (rst) begin
      locked_q <= 1'b0;
      own_q    <= '0;
      next_q   <= '0;
    end else if (!locked) begin
      // The round-robin pick: the first valid source from next_q on (the
      // last assignment wins, so the loop runs from the farthest down). It
      // sits in this branch, not in an always_comb, because nothing else
      // reads it and Verilator evaluates an always_comb every cycle but only
      // the taken branch of an always_ff; the wrap-around is a compare and a
      // subtraction, not a modulo (a signed division per source per cycle).
      for (int k = N - 1; k >= 0; k--) begin
        logic [IW:0]   s;
        logic [IW-1:0] c;
        s = {1'b0, nxt} + (IW + 1)'(k);
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
