// AXI4 protocol checker (simulation only) for one master/slave link of
// DATA_W bits (32, 64, 128 or 256).
// An AXI4-Lite link is checked by tying AxLEN = 0, AxSIZE = 2, AxBURST = INCR
// and xLAST = 1. Every clock edge outside reset it checks:
//   VALID_DROP  a VALID fell before its READY (all five channels)
//   UNSTABLE    a payload changed while VALID && !READY
//   LAST        WLAST/RLAST not on beat AxLEN + 1 (W bursts matched to AW in
//               order, W may lead AW), or a W burst past 256 beats
//   CROSS_4K    an INCR burst crossing a 4 KiB boundary (or 2^32)
//   BURST       reserved AxBURST, AxSIZE above the bus width, a WRAP length
//               other than 2/4/8/16 or unaligned WRAP, a FIXED burst over 16
//   RESPONSE    a B without a completed write (AW and its last W beat), an
//               R without an outstanding AR
//   WSTRB       a strobe on a lane below the start address in a burst's
//               first beat
// A violation prints "AXI-CHECK <name>: <kind> ...", sets its bit in kinds
// and counts; with FATAL = 1 it also stops the simulation ($fatal).
// The checker keeps its bookkeeping in blocking variables and queues.
`include "axi/openenoc_axi_ports.svh"
/* verilator lint_off BLKSEQ */
module openenoc_axi_checker #(
  parameter string NAME  = "axi",
  parameter bit    FATAL = 1'b1,
  parameter int    DATA_W = 32
) (
  input  logic        clk,
  input  logic        rst,
  `OPENENOC_AXI_PORTS(, DATA_W, input, input),
  output logic [31:0] violations,
  output logic [6:0]  kinds,
  output logic [31:0] bursts        // AW and AR handshakes seen
);
  localparam int NB = DATA_W / 8, LB = $clog2(NB);
  localparam int K_VALID_DROP = 0, K_UNSTABLE = 1, K_LAST = 2, K_CROSS_4K = 3, K_BURST = 4,
                 K_RESPONSE = 5, K_WSTRB = 6;

  typedef struct packed {
    logic [31:0] addr;
    logic [7:0]  len;
  } ax_t;

  logic [51:0] aw_p, ar_p;          // AxCACHE and AxPROT are payload too
  logic [DATA_W+NB:0] w_p;
  logic [1:0]  b_p;
  logic [DATA_W+2:0]  r_p;
  assign aw_p = {awaddr, awlen, awsize, awburst, awcache, awprot};
  assign ar_p = {araddr, arlen, arsize, arburst, arcache, arprot};
  assign w_p  = {wdata, wstrb, wlast};
  assign b_p  = bresp;
  assign r_p  = {rdata, rresp, rlast};

  // previous edge: which channels were stalled, with what payload
  logic        aw_h, w_h, b_h, ar_h, r_h;
  logic [51:0] aw_q, ar_q;
  logic [DATA_W+NB:0] w_q;
  logic [1:0]  b_q;
  logic [DATA_W+2:0]  r_q;

  // outstanding bursts in rings of 16 (fixed arrays: the co-simulation
  // saves and restores the model, and Verilator cannot save queues)
  localparam int QN = 16;
  ax_t  awq [QN], arq [QN];
  int   wq [QN];                   // beats of complete W bursts not yet matched
  logic [NB-1:0] wfirst_q [QN];    // their first beat's strobes
  int   awq_h, awq_n, arq_h, arq_n, wq_h, wq_n;
  int   wbeats, rbeats, writes_done;
  logic [NB-1:0] wfirst;

  function automatic string kind_name(input int k);
    case (k)
      K_VALID_DROP: return "VALID_DROP";
      K_UNSTABLE:   return "UNSTABLE";
      K_LAST:       return "LAST";
      K_CROSS_4K:   return "CROSS_4K";
      K_BURST:      return "BURST";
      K_RESPONSE:   return "RESPONSE";
      default:      return "WSTRB";
    endcase
  endfunction

  task automatic flag(input int k, input string what);
    $display("AXI-CHECK %s: %s %s", NAME, kind_name(k), what);
    violations = violations + 1;
    kinds[k] = 1'b1;
    if (FATAL) $fatal(1, "AXI-CHECK %s: protocol violation", NAME);
  endtask

  // burst legality and the 4 KiB rule at an address handshake
  task automatic check_ax(input string ch, input logic [31:0] a, input logic [7:0] l,
                          input logic [2:0] s, input logic [1:0] b);
    logic [32:0] first;
    logic [20:0] first_page, last_page;
    if (b == 2'b11) flag(K_BURST, $sformatf("%s reserved burst type", ch));
    if (s > 3'(LB)) flag(K_BURST, $sformatf("%s size %0d above %0d bytes", ch, s, NB));
    if (b == 2'b10 && !(l == 8'd1 || l == 8'd3 || l == 8'd7 || l == 8'd15))
      flag(K_BURST, $sformatf("%s WRAP length %0d", ch, l + 1));
    if (b == 2'b10 && (a & ((32'd1 << s) - 1)) != 0)
      flag(K_BURST, $sformatf("%s unaligned WRAP address %h", ch, a));
    if (b == 2'b00 && l > 8'd15) flag(K_BURST, $sformatf("%s FIXED length %0d", ch, l + 1));
    if (b == 2'b01) begin
      first = {1'b0, a} & ~((33'd1 << s) - 33'd1);
      first_page = first[32:12];
      last_page  = 21'((first + ((33'(l) + 33'd1) << s) - 33'd1) >> 12);
      if (last_page != first_page)
        flag(K_CROSS_4K, $sformatf("%s %h len %0d size %0d crosses 4 KiB", ch, a, l + 1, s));
    end
  endtask

  task automatic stable(input string ch, input logic held, input logic valid, input logic same);
    if (held && !valid) flag(K_VALID_DROP, $sformatf("%s VALID fell before READY", ch));
    else if (held && !same) flag(K_UNSTABLE, $sformatf("%s payload changed while stalled", ch));
  endtask

  always @(posedge clk) begin
    if (rst) begin
      aw_h = 0; w_h = 0; b_h = 0; ar_h = 0; r_h = 0;
      awq_h = 0; awq_n = 0; arq_h = 0; arq_n = 0; wq_h = 0; wq_n = 0;
      wbeats = 0; rbeats = 0; writes_done = 0; wfirst = '0;
      violations = 0; kinds = '0; bursts = 0;
    end else begin
      stable("AW", aw_h, awvalid, aw_p == aw_q);
      stable("W",  w_h,  wvalid,  w_p == w_q);
      stable("B",  b_h,  bvalid,  b_p == b_q);
      stable("AR", ar_h, arvalid, ar_p == ar_q);
      stable("R",  r_h,  rvalid,  r_p == r_q);

      if (awvalid && awready) begin
        check_ax("AW", awaddr, awlen, awsize, awburst);
        if (awq_n == QN) $fatal(1, "AXI-CHECK %s: more than %0d AW outstanding", NAME, QN);
        awq[(awq_h + awq_n) % QN] = ax_t'{addr: awaddr, len: awlen};
        awq_n = awq_n + 1;
        bursts = bursts + 1;
      end
      if (wvalid && wready) begin
        if (wbeats == 0) wfirst = wstrb;
        wbeats = wbeats + 1;
        if (wlast) begin
          if (wq_n == QN) $fatal(1, "AXI-CHECK %s: more than %0d W bursts ahead", NAME, QN);
          wq[(wq_h + wq_n) % QN]       = wbeats;
          wfirst_q[(wq_h + wq_n) % QN] = wfirst;
          wq_n = wq_n + 1;
          wbeats = 0;
        end else if (wbeats >= 256) begin
          flag(K_LAST, "W burst of 256 beats without WLAST");
          wbeats = 0;
        end
      end
      // match complete W bursts with their AW, in order
      while (awq_n != 0 && wq_n != 0) begin
        ax_t  ax;
        int   n;
        logic [NB-1:0] f, below;
        ax = awq[awq_h];
        n  = wq[wq_h];
        f  = wfirst_q[wq_h];
        awq_h = (awq_h + 1) % QN;  awq_n = awq_n - 1;
        wq_h  = (wq_h + 1) % QN;   wq_n  = wq_n - 1;
        if (n != int'(ax.len) + 1)
          flag(K_LAST, $sformatf("WLAST on beat %0d of an AW burst of %0d", n, ax.len + 1));
        below = NB'(((NB+1)'(1) << ax.addr[LB-1:0]) - (NB+1)'(1));
        if ((f & below) != 0)
          flag(K_WSTRB, $sformatf("first WSTRB %b below address %h", f, ax.addr));
        writes_done = writes_done + 1;
      end
      if (bvalid && bready) begin
        if (writes_done == 0) flag(K_RESPONSE, "B without a completed write");
        else writes_done = writes_done - 1;
      end
      if (arvalid && arready) begin
        check_ax("AR", araddr, arlen, arsize, arburst);
        if (arq_n == QN) $fatal(1, "AXI-CHECK %s: more than %0d AR outstanding", NAME, QN);
        arq[(arq_h + arq_n) % QN] = ax_t'{addr: araddr, len: arlen};
        arq_n = arq_n + 1;
        bursts = bursts + 1;
      end
      if (rvalid && rready) begin
        if (arq_n == 0) begin
          flag(K_RESPONSE, "R without an outstanding AR");
        end else begin
          rbeats = rbeats + 1;
          if (rlast != (rbeats == int'(arq[arq_h].len) + 1))
            flag(K_LAST, $sformatf("RLAST=%0d on beat %0d of an AR burst of %0d", rlast, rbeats,
                                   arq[arq_h].len + 1));
          if (rlast || rbeats == int'(arq[arq_h].len) + 1) begin
            arq_h = (arq_h + 1) % QN;
            arq_n = arq_n - 1;
            rbeats = 0;
          end
        end
      end

      aw_h = awvalid && !awready;  aw_q = aw_p;
      w_h  = wvalid && !wready;    w_q  = w_p;
      b_h  = bvalid && !bready;    b_q  = b_p;
      ar_h = arvalid && !arready;  ar_q = ar_p;
      r_h  = rvalid && !rready;    r_q  = r_p;
    end
  end
endmodule
/* verilator lint_on BLKSEQ */
