// One client of the endpoint's memory port (openenoc_ep_pkg: one transfer
// of 1..65535 bytes, byte-packed): request, write beats and response, read
// beats. client is the side that asks (a mover, the responder's scalar
// access, the arbiter towards memory); arbiter is the side that serves (the
// arbiter towards each client, the memory system towards the arbiter). A
// client that only reads keeps its write channel idle, and the reverse.
// W is the beat width (32, 64, 128 or 256 bits; the port's layout in
// openenoc_ep_pkg at any W). A package cannot take a parameter, so the beat
// type lives here, with the interface that carries it: every module on a
// port of width W takes its beats from the port itself (m.w, m.r), and a
// module that stores beats declares the same fields at its own W.
interface openenoc_ep_mem_if #(
  parameter int W = 32
);
  import openenoc_ep_pkg::*;

  typedef struct packed {
    logic [W-1:0]   data;
    logic [W/8-1:0] keep;
    logic           last;
  } beat_t;

  logic        req_valid;
  logic        req_ready;
  mem_req_t    req;
  logic        w_valid;
  logic        w_ready;
  beat_t       w;
  logic        r_valid;
  logic        r_ready;
  beat_t       r;
  // read responses, one per 4-byte word of the beat: word k (bytes
  // 4k..4k+3 of r.data) has its response in bits [2k+1:2k]. Every word of a
  // beat whose keep is set has a response; a read that fails part-way gives
  // OKAY for the words read before the failure and the error for the
  // failing word and every word after it in that beat (and the transfer
  // ends as the port contract says: every later beat carries the error). At
  // W = 32 this is one 2-bit response a beat.
  logic [2*(W/32)-1:0] r_resp;
  logic        b_valid;
  logic        b_ready;
  logic [1:0]  b_resp;
  logic [15:0] b_bytes;      // bytes written before the first failure

  modport client  (output req_valid, req, w_valid, w, r_ready, b_ready,
                   input  req_ready, w_ready, r_valid, r, r_resp, b_valid, b_resp, b_bytes);
  modport arbiter (input  req_valid, req, w_valid, w, r_ready, b_ready,
                   output req_ready, w_ready, r_valid, r, r_resp, b_valid, b_resp, b_bytes);
endinterface
