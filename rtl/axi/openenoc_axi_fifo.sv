// Synchronous FIFO with a registered read: the storage array is only read
// inside always_ff into the output register, so it maps to block RAM (or
// LUT RAM when shallow). Capacity is DEPTH entries in the array plus one in
// the output register; pushes into a full array are ignored (callers check
// full).
module openenoc_axi_fifo #(
  parameter int W     = 36,
  parameter int DEPTH = 256              // power of two, >= 2
) (
  input  logic         clk,
  input  logic         rst,
  input  logic         push,
  input  logic [W-1:0] push_data,
  output logic         full,
  output logic         o_valid,
  input  logic         o_ready,
  output logic [W-1:0] o_data,
  output logic         empty             // nothing stored, nothing presented
);
  localparam int AW = $clog2(DEPTH);

  logic [W-1:0]  mem [DEPTH];
  logic [AW-1:0] wr_q, rd_q;
  logic [AW:0]   count_q;
  logic          o_valid_q;
  logic [W-1:0]  o_data_q;

  wire load = count_q != '0 && (!o_valid_q || o_ready);
  wire wr   = push && !full;

  assign full    = count_q == (AW + 1)'(DEPTH);
  assign o_valid = o_valid_q;
  assign o_data  = o_data_q;
  assign empty   = count_q == '0 && !o_valid_q;

  always_ff @(posedge clk) begin
    if (wr) mem[wr_q] <= push_data;
    if (load) o_data_q <= mem[rd_q];
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      wr_q      <= '0;
      rd_q      <= '0;
      count_q   <= '0;
      o_valid_q <= 1'b0;
    end else begin
      if (wr) wr_q <= wr_q + 1'b1;
      if (load) rd_q <= rd_q + 1'b1;
      count_q <= count_q + (AW + 1)'(wr) - (AW + 1)'(load);
      if (load) o_valid_q <= 1'b1;
      else if (o_ready) o_valid_q <= 1'b0;
    end
  end
endmodule
