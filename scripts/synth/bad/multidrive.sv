// Seeded violation for scripts/synth/selftest.sh: two drivers on one net.
module bad_multidrive (input logic a, input logic b, output logic y);
  wire w;
  assign w = a;
  assign w = b;
  assign y = w;
endmodule
