// AXI4-Lite slave for the endpoint's 8 KiB CSR aperture, in front of the CSR
// bus (one request at a time: a one-cycle req pulse, then rd_ack or wr_ack).
// WSTRB byte lanes become the bus's bit enables; the address is taken
// word-aligned. AW and W are taken independently and a write starts when
// both are in; reads and writes alternate when both wait. A response waits
// for the CSR bus's acknowledge however long it takes: an RMEM window access
// is answered only when the remote peer has answered or the engine's RMEM
// timeout has expired, and the bridge adds no timeout of its own. A read's
// R is offered in the cycle the CSR bus answers (rvalid and rdata from the
// bus's answer, then held in L_R until taken): an RMEM window read is a
// remote round trip, and a cycle here is a cycle of every CPU load. Every
// response is OKAY (the aperture has no error response).
`include "axi/openenoc_axi_ports.svh"
module openenoc_axil_csr
  import openenoc_csr_pkg::*;
#(
  // A read goes to the CSR bus in the cycle its AR is taken (from the
  // address on the port, not from the request register a cycle later): on
  // at the wide widths (the co-simulation's), off at the reference widths,
  // cycle for cycle. Then the bus's logic reads araddr and arvalid, so a
  // cycle of every CPU load costs that path's depth. No CSR answers a read
  // in the cycle it is asked (the register block answers in the second
  // cycle, the RMEM block from its registers), so L_IDLE needs no R path.
  parameter bit PASS = 1'b0
) (
  input  logic                  clk,
  input  logic                  rst,
  // AXI4-Lite slave
  `OPENENOC_AXIL_PORTS(, CSR_ADDR_W, input, output),
  // CSR bus
  output logic                  csr_req,
  output logic                  csr_req_is_wr,
  output logic [CSR_ADDR_W-1:0] csr_addr,
  output logic [31:0]           csr_wr_data,
  output logic [31:0]           csr_wr_biten,
  input  logic                  csr_rd_ack,
  input  logic [31:0]           csr_rd_data,
  input  logic                  csr_wr_ack
);
  typedef enum logic [2:0] { L_IDLE, L_WR, L_RD, L_B, L_R } lite_state_e;

  lite_state_e state_q;
  logic        aw_have_q, w_have_q, rd_turn_q;
  logic [CSR_ADDR_W-1:2] waddr_q;
  logic [31:0] wdata_q;
  logic [3:0]  wstrb_q;
  logic        req_q, req_wr_q;
  logic [CSR_ADDR_W-1:0] req_addr_q;
  logic [31:0] req_data_q, req_biten_q, rdata_q;

  // protection attributes do not change the CSR access; WSTRB places a
  // narrow access, so the address is taken word-aligned
  // verilator lint_off UNUSEDSIGNAL
  wire unused = &{1'b0, awprot, arprot, awaddr[1:0], araddr[1:0]};
  // verilator lint_on UNUSEDSIGNAL

  // every READY comes from registers only, never from a VALID of the same
  // cycle (AXI allows either; a registered one lets a cycle-based host, such
  // as the co-simulation, sample the handshake before it drives the clock)
  wire wr_ready = aw_have_q && w_have_q;
  wire rd_open  = state_q == L_IDLE && (!wr_ready || rd_turn_q);
  wire go_rd    = rd_open && arvalid;
  wire go_wr    = state_q == L_IDLE && wr_ready && !go_rd;

  assign awready       = !aw_have_q;
  assign wready        = !w_have_q;
  assign arready       = rd_open;
  assign bvalid        = state_q == L_B;
  assign bresp         = 2'b00;
  wire   r_now         = state_q == L_RD && csr_rd_ack;
  assign rvalid        = r_now || state_q == L_R;
  assign rresp         = 2'b00;
  assign rdata         = r_now ? csr_rd_data : rdata_q;
  wire   rd_pass       = PASS && go_rd;
  assign csr_req       = req_q || rd_pass;
  assign csr_req_is_wr = rd_pass ? 1'b0 : req_wr_q;
  assign csr_addr      = rd_pass ? {araddr[CSR_ADDR_W-1:2], 2'b00} : req_addr_q;
  assign csr_wr_data   = req_data_q;
  assign csr_wr_biten  = req_biten_q;

  always_ff @(posedge clk) begin
    // the state read once before a branch writes it (Verilator would keep a
    // shadow copy, two copies every cycle, of a case selector a branch writes)
    lite_state_e st;
    st = state_q;
    if (rst) begin
      state_q     <= L_IDLE;
      aw_have_q   <= 1'b0;
      w_have_q    <= 1'b0;
      rd_turn_q   <= 1'b0;
      waddr_q     <= '0;
      wdata_q     <= '0;
      wstrb_q     <= '0;
      req_q       <= 1'b0;
      req_wr_q    <= 1'b0;
      req_addr_q  <= '0;
      req_data_q  <= '0;
      req_biten_q <= '0;
      rdata_q     <= '0;
    end else begin
      req_q <= 1'b0;
      if (awvalid && awready) begin
        aw_have_q <= 1'b1;
        waddr_q   <= awaddr[CSR_ADDR_W-1:2];
      end
      if (wvalid && wready) begin
        w_have_q <= 1'b1;
        wdata_q  <= wdata;
        wstrb_q  <= wstrb;
      end
      case (st)
        L_IDLE: if (go_wr) begin
          req_q       <= 1'b1;
          req_wr_q    <= 1'b1;
          req_addr_q  <= {waddr_q, 2'b00};
          req_data_q  <= wdata_q;
          req_biten_q <= {{8{wstrb_q[3]}}, {8{wstrb_q[2]}}, {8{wstrb_q[1]}}, {8{wstrb_q[0]}}};
          aw_have_q   <= 1'b0;
          w_have_q    <= 1'b0;
          rd_turn_q   <= 1'b1;
          state_q     <= L_WR;
        end else if (go_rd) begin
          req_q      <= !PASS;          // (PASS: asked now, rd_pass)
          req_wr_q   <= 1'b0;
          req_addr_q <= {araddr[CSR_ADDR_W-1:2], 2'b00};
          rd_turn_q  <= 1'b0;
          state_q    <= L_RD;
        end
        L_WR: if (csr_wr_ack) state_q <= L_B;
        L_RD: if (csr_rd_ack) begin
          rdata_q <= csr_rd_data;
          state_q <= rready ? L_IDLE : L_R;
        end
        L_B: if (bready) state_q <= L_IDLE;
        L_R: if (rready) state_q <= L_IDLE;
        default: state_q <= L_IDLE;
      endcase
    end
  end
endmodule
