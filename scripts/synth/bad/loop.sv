// Seeded violation for scripts/synth/selftest.sh: a combinational loop.
module bad_loop (input logic a, output logic y);
  wire p, q;
  assign p = a ^ q;
  assign q = ~p;
  assign y = q;
endmodule
