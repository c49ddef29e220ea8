// One AXI4 link with DATA_W-bit data (32, 64, 128 or 256) and no ID, LOCK, QOS, REGION or USER
// signals (one ID, all in order), as the memory master of
// openenoc_endpoint_axi drives it. The read side (AR, R) and the write side
// (AW, W, B) have their own master modports, so the read and the write
// bridge each drive only their channels; monitor observes the whole link.
interface openenoc_axi_if #(
  parameter int ADDR_W = 32,
  parameter int DATA_W = 32
);
  // the address channels AW and AR carry the same fields
  logic [ADDR_W-1:0] awaddr,  araddr;
  logic [7:0]        awlen,   arlen;
  logic [2:0]        awsize,  arsize;
  logic [1:0]        awburst, arburst;
  logic [3:0]        awcache, arcache;
  logic [2:0]        awprot,  arprot;
  logic              awvalid, arvalid;
  logic              awready, arready;
  logic [DATA_W-1:0]   wdata;
  logic [DATA_W/8-1:0] wstrb;
  logic              wlast;
  logic              wvalid;
  logic              wready;
  logic [1:0]        bresp;
  logic              bvalid;
  logic              bready;
  logic [DATA_W-1:0]   rdata;
  logic [1:0]        rresp;
  logic              rlast;
  logic              rvalid;
  logic              rready;

  modport rd_master (output araddr, arlen, arsize, arburst, arcache, arprot, arvalid, rready,
                     input  arready, rdata, rresp, rlast, rvalid);
  modport wr_master (output awaddr, awlen, awsize, awburst, awcache, awprot, awvalid, wdata, wstrb,
                            wlast, wvalid, bready,
                     input  awready, wready, bresp, bvalid);
  modport slave     (input  awaddr, awlen, awsize, awburst, awcache, awprot, awvalid, wdata, wstrb,
                            wlast, wvalid, bready, araddr, arlen, arsize, arburst, arcache, arprot,
                            arvalid, rready,
                     output awready, wready, bresp, bvalid, arready, rdata, rresp, rlast, rvalid);
  modport monitor   (input  awaddr, awlen, awsize, awburst, awcache, awprot, awvalid, awready, wdata,
                            wstrb, wlast, wvalid, wready, bresp, bvalid, bready, araddr, arlen,
                            arsize, arburst, arcache, arprot, arvalid, arready, rdata, rresp, rlast,
                            rvalid, rready);
endinterface
