// Seeded violation for scripts/synth/selftest.sh: a name used before its
// declaration (IEEE 1800 forbids it; Verilator accepts it).
module bad_declare (input logic clk, input logic a, output logic y);
  assign y = r;
  logic r;
  always_ff @(posedge clk) r <= a;
endmodule
