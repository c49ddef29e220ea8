// The project's own AXI-Stream interface: one stream direction, valid/ready
// handshake. src drives the stream, snk receives it, mon only observes.
interface openenoc_axis_if #(
  parameter int DATA_W = 32,
  parameter int KEEP_W = DATA_W / 8,
  parameter int ID_W   = 1,
  parameter int DEST_W = 1,
  parameter int USER_W = 1
);
  logic              tvalid;
  logic              tready;
  logic [DATA_W-1:0] tdata;
  logic [KEEP_W-1:0] tkeep;
  logic              tlast;
  // The sideband is optional: a link that carries none (the Ethernet and
  // memory-beat links) ties it to 0 and its sink never reads it.
  // verilator lint_off UNUSEDSIGNAL
  logic [ID_W-1:0]   tid;
  logic [DEST_W-1:0] tdest;
  logic [USER_W-1:0] tuser;
  // verilator lint_on UNUSEDSIGNAL

  modport src (output tvalid, tdata, tkeep, tlast, tid, tdest, tuser, input tready);
  modport snk (input tvalid, tdata, tkeep, tlast, tid, tdest, tuser, output tready);
  modport mon (input tvalid, tready, tdata, tkeep, tlast, tid, tdest, tuser);
endinterface
