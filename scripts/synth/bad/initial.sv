// Seeded violation for scripts/synth/selftest.sh: an unguarded simulation
// check in an initial block.
module bad_initial #(parameter int W = 4) (
  input  logic         clk,
  input  logic [W-1:0] a,
  output logic [W-1:0] y
);
  initial if ($bits(y) != W || y != '0) $fatal(1, "width");
  always_ff @(posedge clk) y <= a;
endmodule
