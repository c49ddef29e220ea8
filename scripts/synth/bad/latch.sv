// Seeded violation for scripts/synth/selftest.sh: an incomplete assignment in
// a combinational process infers a latch.
module bad_latch (input logic en, input logic [3:0] d, output logic [3:0] q);
  always @* if (en) q = d;
endmodule
