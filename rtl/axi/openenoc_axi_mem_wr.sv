// Write side of the AXI4 memory master: one write transfer of the
// endpoint's memory port (byte-packed beats up to the one with last, at most
// len bytes from any byte address) becomes INCR bursts on AW/W/B, cut
// through: the bursts are planned over the bus words of [addr, addr + len)
// (AXI_DATA_W bits, AWSIZE the bus width; at most BURST_MAX beats, never
// across 4 KiB), a burst starts (AWVALID with its
// first WVALID) as soon as its first word is there, and its words go out as
// they arrive, placed on their address lanes (WSTRB for the unaligned head
// and the tail). len is only an upper bound: data that ends inside a burst
// finishes it with beats without strobes, and no further burst is started.
// One burst is outstanding. After the first SLVERR/DECERR the remaining data
// is drained without bus traffic; the port's response gives that code and
// the bytes of the bursts that completed before it.
// The memory port's beats are MEM_W bits (openenoc_axi_mem: mem_beat_t, 32)
// and may be narrower than the bus: the accumulator collects them into bus
// words.
`include "axi/openenoc_axi_ports.svh"
module openenoc_axi_mem_wr
  import openenoc_ep_pkg::*;
#(
  parameter int BURST_MAX  = 256,
  parameter int AXI_DATA_W = 32,     // 32, 64, 128 or 256 (checked by openenoc_endpoint_axi)
  parameter int MEM_W      = 32      // the memory port's beat: 32, 64, 128 or 256, <= AXI_DATA_W
) (
  `OPENENOC_AXI_BRIDGE_PORTS,
  // memory port write beats (byte-packed, keep contiguous from lane 0) and response
  input  logic        w_valid,
  output logic        w_ready,
  input  logic [MEM_W-1:0]   w_data,   // a beat's fields: mem_beat_t at MEM_W 32
  input  logic [MEM_W/8-1:0] w_keep,
  input  logic               w_last,
  output logic        b_valid,
  input  logic        b_ready,
  output logic [1:0]  b_resp,
  output logic [15:0] b_bytes,
  openenoc_axi_if.wr_master axi       // AXI4 AW/W/B
);
  localparam int BW = 9;             // beat counts up to 256
  localparam int NB = AXI_DATA_W / 8;            // bytes of a bus word
  localparam int LB = $clog2(NB);                // their lane bits
  localparam int MB = MEM_W / 8;
  if ((MEM_W != 32 && MEM_W != 64 && MEM_W != 128 && MEM_W != 256) ||
      MEM_W > AXI_DATA_W)
    $fatal(1, "MEM_W %0d is not 32, 64, 128 or 256 up to AXI_DATA_W %0d", MEM_W, AXI_DATA_W);
  localparam int AB = NB - 1 + MB;               // accumulator bytes
  localparam int CW = $clog2(AB + 1);            // its byte count
  localparam int WA = 33 - LB;                   // bus word addresses, up to 2^32 bytes
  localparam int PB = 12 - LB;                   // word bits within a 4 KiB page
  localparam int SN = $clog2(NB + 1);            // strobes of a word, counted
  localparam int BB = $clog2(256 * NB + 1);      // bytes of a burst, counted

  // ---- input controller: bytes onto their lanes, one word at a time ---------
  typedef enum logic [1:0] { IN_IDLE, IN_DATA, IN_FLUSH, IN_DONE } in_state_e;

  in_state_e   in_q;
  logic [8*AB-1:0]   acc_q;          // bytes not yet placed in a word
  logic [AB-1:0]     strb_q;
  logic [CW-1:0]     cnt_q;
  logic              wq_valid_q;     // the next word for W
  logic [8*NB-1:0]   wq_data_q;
  logic [NB-1:0]     wq_strb_q;
  logic              wq_pop;

  // the beat's bytes appended after the held ones (keep is contiguous from lane 0)
  // A beat's kept bytes (the others zero) and their count. Called only in
  // the branch that takes a beat: Verilator evaluates a continuous assign
  // or an always_comb every cycle, but only the taken branch of an
  // always_ff, and the bridge takes a beat in few of its cycles (none while
  // the endpoint reads memory).
  function automatic logic [MEM_W-1:0] kept_data(input logic [MEM_W-1:0] data,
                                                  input logic [MB-1:0] keep);
    for (int i = 0; i < MB; i++) kept_data[8*i +: 8] = data[8*i +: 8] & {8{keep[i]}};
  endfunction
  function automatic logic [CW-1:0] kept_bytes(input logic [MB-1:0] keep);
    kept_bytes = CW'(keep[0]);
    for (int i = 1; i < MB; i++) kept_bytes = kept_bytes + CW'(keep[i]);
  endfunction
  wire            wq_free = !wq_valid_q || wq_pop;

  assign w_ready = in_q == IN_DATA && wq_free;
  wire w_fire    = w_valid && w_ready;
  wire flush     = in_q == IN_FLUSH && wq_free;
  wire in_end    = in_q == IN_DONE && !wq_valid_q;   // every word has left

  always_ff @(posedge clk) begin
    // the accumulator with the beat taken (IN_DATA's branch only, above)
    logic [8*AB-1:0] acc_in;
    logic [AB-1:0]   strb_in;
    logic [CW:0]     cnt_in;
    if (rst) begin
      in_q       <= IN_IDLE;
      acc_q      <= '0;
      strb_q     <= '0;
      cnt_q      <= '0;
      wq_valid_q <= 1'b0;
      wq_data_q  <= '0;
      wq_strb_q  <= '0;
    end else begin
      if (wq_pop) wq_valid_q <= 1'b0;
      case (in_q)
        IN_IDLE: if (start) begin
          // the head's lanes below addr are placeholders without strobes
          acc_q  <= '0;
          strb_q <= '0;
          cnt_q  <= CW'(addr[LB-1:0]);
          in_q   <= IN_DATA;
        end
        IN_DATA: if (w_fire) begin
          acc_in  = acc_q | ({(8*AB-MEM_W)'(0), kept_data(w_data, w_keep)} << {cnt_q, 3'b000});
          strb_in = strb_q | (AB'(w_keep) << cnt_q);
          cnt_in  = {1'b0, cnt_q} + {1'b0, kept_bytes(w_keep)};
          if (cnt_in >= (CW+1)'(NB)) begin
            wq_valid_q <= 1'b1;
            wq_data_q  <= acc_in[8*NB-1:0];
            wq_strb_q  <= strb_in[NB-1:0];
            acc_q      <= acc_in >> 8*NB;
            strb_q     <= strb_in >> NB;
            cnt_q      <= CW'(cnt_in - (CW+1)'(NB));
          end else begin
            acc_q  <= acc_in;
            strb_q <= strb_in;
            cnt_q  <= cnt_in[CW-1:0];
          end
          if (w_last) in_q <= (cnt_in == '0 || cnt_in == (CW+1)'(NB)) ? IN_DONE : IN_FLUSH;
        end
        IN_FLUSH: if (flush) begin
          wq_valid_q <= 1'b1;
          wq_data_q  <= acc_q[8*NB-1:0];
          wq_strb_q  <= strb_q[NB-1:0];
          cnt_q      <= '0;
          in_q       <= IN_DONE;
        end
        IN_DONE: if (b_valid && b_ready) in_q <= IN_IDLE;
        default: in_q <= IN_IDLE;
      endcase
    end
  end

  // ---- burst controller ---------------------------------------------------------
  typedef enum logic [2:0] { BU_IDLE, BU_SEND, BU_PAD, BU_RESP } bu_state_e;

  bu_state_e   bu_q;
  logic [WA-1:0] cur_q, end_q;       // next word, end of the planned words (word addresses)
  logic        aw_pend_q;
  logic [31:0] awaddr_q;
  logic [7:0]  awlen_q, left_q;
  logic [BB-1:0] bbytes_q;           // bytes of the burst in flight (<= 256 words)
  logic [15:0] bytes_q;              // bytes of completed bursts
  logic        failed_q;
  logic [1:0]  fail_resp_q;

  // the planned words: [floorNB(addr), ceilNB(min(addr + len, 2^32)))
  wire [32:0]   s_sum  = {1'b0, addr} + 33'(len) + 33'(NB - 1);
  wire [WA-1:0] s_endw = s_sum[32] ? WA'(33'h1_0000_0000 >> LB) : WA'(s_sum >> LB);

  // The next burst from cur_q, registered every cycle (beats_q, past_q):
  // BU_IDLE reads them, and cur_q and end_q last changed at least a cycle
  // before (at the start, whose first word takes a cycle to be packed, or
  // with a burst's last beat, which BU_RESP follows), so the subtraction
  // and the compares do not sit in front of the burst's registers.
  wire [WA-1:0] to_end  = end_q - cur_q;
  wire [PB:0]   to_page = (PB+1)'(4096 / NB) - {1'b0, cur_q[PB-1:0]};
  logic [BW-1:0] beats, beats_q;
  logic          past_q;             // cur_q >= end_q
  always_comb begin
    beats = BW'(BURST_MAX);
    if (to_end[WA-1:BW] == '0 && to_end[BW-1:0] < beats) beats = to_end[BW-1:0];
    if (WA'(to_page) < WA'(beats)) beats = BW'(to_page);
  end
  // a word past the plan (the port's len was exceeded) or after a failure is dropped
  wire drop = bu_q == BU_IDLE && wq_valid_q && (failed_q || past_q);

  // the strobes of a W beat, counted in the branch that sends it (an
  // always_comb would be evaluated every cycle)
  function automatic logic [SN-1:0] strb_count(input logic [NB-1:0] strb);
    strb_count = SN'(strb[0]);
    for (int i = 1; i < NB; i++) strb_count = strb_count + SN'(strb[i]);
  endfunction

  assign axi.awaddr  = awaddr_q;
  assign axi.awlen   = awlen_q;
  assign axi.awsize  = 3'(LB);
  assign axi.awvalid = aw_pend_q;
  // INCR, normal non-cacheable bufferable memory, unprivileged secure data
  assign axi.awburst = 2'b01;
  assign axi.awcache = 4'b0011;
  assign axi.awprot  = 3'b000;
  assign axi.wvalid  = (bu_q == BU_SEND && wq_valid_q) || bu_q == BU_PAD;
  assign axi.wdata   = bu_q == BU_PAD ? '0 : wq_data_q;
  assign axi.wstrb   = bu_q == BU_PAD ? '0 : wq_strb_q;
  assign axi.wlast   = left_q == 8'd0;
  assign axi.bready  = bu_q == BU_RESP && !aw_pend_q;
  assign wq_pop  = (bu_q == BU_SEND && wq_valid_q && axi.wready) || drop;

  assign idle    = in_q == IN_IDLE;
  assign b_valid = in_end && bu_q == BU_IDLE;
  assign b_resp  = failed_q ? fail_resp_q : RESP_OKAY;
  assign b_bytes = bytes_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      bu_q        <= BU_IDLE;
      cur_q       <= '0;
      end_q       <= '0;
      aw_pend_q   <= 1'b0;
      awaddr_q    <= '0;
      awlen_q     <= '0;
      left_q      <= '0;
      bbytes_q    <= '0;
      bytes_q     <= '0;
      failed_q    <= 1'b0;
      fail_resp_q <= '0;
      beats_q     <= '0;
      past_q      <= 1'b0;
    end else begin
      beats_q <= beats;
      past_q  <= cur_q >= end_q;
      if (axi.awready) aw_pend_q <= 1'b0;
      if (in_q == IN_IDLE && start) begin
        cur_q    <= WA'(addr[31:LB]);
        end_q    <= s_endw;
        bytes_q  <= '0;
        failed_q <= 1'b0;
      end
      case (bu_q)
        BU_IDLE: if (wq_valid_q && !drop) begin
          awaddr_q  <= {cur_q[WA-2:0], LB'(0)};
          awlen_q   <= 8'(beats_q - 9'd1);
          left_q    <= 8'(beats_q - 9'd1);
          bbytes_q  <= '0;
          aw_pend_q <= 1'b1;
          bu_q      <= BU_SEND;
        end
        BU_SEND: if (axi.wvalid && axi.wready) begin
          cur_q    <= cur_q + WA'(1);
          left_q   <= left_q - 8'd1;
          bbytes_q <= bbytes_q + BB'(strb_count(axi.wstrb));
          if (axi.wlast) bu_q <= BU_RESP;
        end else if (!wq_valid_q && in_q == IN_DONE) begin
          bu_q <= BU_PAD;            // the data ended inside the burst
        end
        BU_PAD: if (axi.wready) begin
          left_q <= left_q - 8'd1;
          if (axi.wlast) bu_q <= BU_RESP;
        end
        BU_RESP: if (axi.bvalid && axi.bready) begin
          if (axi.bresp == RESP_OKAY) begin
            bytes_q <= bytes_q + 16'(bbytes_q);
          end else begin
            failed_q    <= 1'b1;
            fail_resp_q <= axi.bresp;
          end
          bu_q <= BU_IDLE;
        end
        default: bu_q <= BU_IDLE;
      endcase
    end
  end
endmodule
