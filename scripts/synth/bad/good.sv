// Control case for scripts/synth/selftest.sh: a clean design passes, so a
// failing case fails for its seeded reason and not for the flow itself.
module good_counter (input logic clk, input logic rst, output logic [7:0] q);
  always_ff @(posedge clk)
    if (rst) q <= '0;
    else     q <= q + 8'd1;
endmodule
