// A model with one registered output and one computed from an input: the
// seeded violation that scripts/cosim-registered-outputs.py must report
// (make check-cosim). Not part of the endpoint.
module comb_ready (
  input  logic clk,
  input  logic valid,
  output logic ready_q,    // registered: allowed
  output logic ready_comb  // from the input: must be reported
);
  always_ff @(posedge clk) ready_q <= !valid;
  assign ready_comb = !valid && ready_q;
endmodule
