// Write side of the AXI4 memory master: one write transfer of the
// endpoint's memory port (byte-packed beats up to the one with last, at most
// len bytes from any byte address) becomes INCR bursts on AW/W/B. AXI needs
// a burst's length before its first beat, and the port only says where the
// data ends with its last beat, so the input controller places the bytes on
// their address lanes (WSTRB for the unaligned head and the tail), stores
// them in a FIFO and closes a burst at BURST_MAX words, at a 4 KiB boundary
// or at the end of the data; the burst controller then sends each closed
// burst (AWVALID and WVALID together, one burst outstanding) and waits for
// its response. After the first SLVERR/DECERR the remaining data is drained
// without bus traffic; the port's response gives that code and the bytes of
// the bursts that completed before it.
module openenoc_axi_mem_wr
  import openenoc_ep_pkg::*;
#(
  parameter int BURST_MAX = 256
) (
  input  logic        clk,
  input  logic        rst,
  input  logic        start,          // pulse while idle
  input  logic [31:0] addr,
  output logic        idle,
  // memory port write beats and response
  input  logic        w_valid,
  output logic        w_ready,
  input  mem_beat_t   w_beat,
  output logic        b_valid,
  input  logic        b_ready,
  output logic [1:0]  b_resp,
  output logic [15:0] b_bytes,
  // AXI4 AW/W/B
  output logic [31:0] awaddr,
  output logic [7:0]  awlen,
  output logic [2:0]  awsize,
  output logic        awvalid,
  input  logic        awready,
  output logic [31:0] wdata,
  output logic [3:0]  wstrb,
  output logic        wlast,
  output logic        wvalid,
  input  logic        wready,
  input  logic [1:0]  bresp,
  input  logic        bvalid,
  output logic        bready
);
  localparam int BW = 9;             // beat counts up to 256

  // ---- input controller: lanes, FIFO, burst descriptors ----------------------
  typedef enum logic [1:0] { IN_IDLE, IN_DATA, IN_FLUSH, IN_DONE } in_state_e;

  in_state_e   in_q;
  logic [55:0] acc_q;                // bytes not yet placed in a word
  logic [6:0]  strb_q;
  logic [2:0]  cnt_q;
  logic [32:0] waddr_q;              // address of the next word (from 2^32: dropped)
  logic [31:0] bstart_q;             // first word of the open burst
  logic [BW-1:0] bbeats_q;           // words in the open burst

  logic        d_full, d_valid, d_ready, d_empty, d_push;
  logic [35:0] d_data, d_in;
  logic        q_full, q_valid, q_ready, q_empty, q_push;
  logic [39:0] q_data, q_in;

  openenoc_axi_fifo #(.W(36), .DEPTH(BURST_MAX)) u_data (
    .clk, .rst, .push(d_push), .push_data(d_in), .full(d_full),
    .o_valid(d_valid), .o_ready(d_ready), .o_data(d_data), .empty(d_empty)
  );
  openenoc_axi_fifo #(.W(40), .DEPTH(2)) u_bursts (
    .clk, .rst, .push(q_push), .push_data(q_in), .full(q_full),
    .o_valid(q_valid), .o_ready(q_ready), .o_data(q_data), .empty(q_empty)
  );

  // the beat's bytes appended after the held ones (keep is contiguous from lane 0)
  wire [2:0]  kb      = 3'(w_beat.keep[0]) + 3'(w_beat.keep[1]) + 3'(w_beat.keep[2]) +
                        3'(w_beat.keep[3]);
  wire [31:0] kmask   = {{8{w_beat.keep[3]}}, {8{w_beat.keep[2]}}, {8{w_beat.keep[1]}},
                         {8{w_beat.keep[0]}}};
  wire [55:0] acc_in  = acc_q | ({24'd0, w_beat.data & kmask} << {cnt_q, 3'b000});
  wire [6:0]  strb_in = strb_q | ({3'd0, w_beat.keep} << cnt_q);
  wire [3:0]  cnt_in  = {1'b0, cnt_q} + {1'b0, kb};

  assign w_ready = in_q == IN_DATA && !d_full && !q_full;
  wire w_fire    = w_valid && w_ready;
  wire flush     = in_q == IN_FLUSH && !d_full && !q_full;
  // a word is placed when four bytes are held, or the held rest at the end
  wire word      = (w_fire && cnt_in >= 4'd4) || flush;
  wire final_w   = flush || (w_fire && w_beat.last && cnt_in == 4'd4);
  // the data ended with no word left to place (an empty last beat)
  wire end_empty = w_fire && w_beat.last && cnt_in == 4'd0;
  wire [BW-1:0] bbeats_in = bbeats_q + 1'b1;
  // words at or past 2^32 are dropped: a transfer never wraps to address 0
  // (the co-simulation clips alike; the DMA engine's window checks exclude it)
  wire placed    = word && !waddr_q[32];
  wire close     = (placed && (final_w || waddr_q[11:2] == 10'h3FF || bbeats_in == BW'(BURST_MAX))) ||
                   (end_empty && bbeats_q != '0);
  wire [31:0] bfirst = bbeats_q == '0 ? waddr_q[31:0] : bstart_q;

  assign d_push = placed;
  assign d_in   = flush ? {strb_q[3:0], acc_q[31:0]} : {strb_in[3:0], acc_in[31:0]};
  assign q_push = close;
  wire [BW-1:0] bsel = placed ? bbeats_in : bbeats_q;
  assign q_in   = {bfirst, 8'(bsel - 9'd1)};

  always_ff @(posedge clk) begin
    if (rst) begin
      in_q     <= IN_IDLE;
      acc_q    <= '0;
      strb_q   <= '0;
      cnt_q    <= '0;
      waddr_q  <= '0;
      bstart_q <= '0;
      bbeats_q <= '0;
    end else begin
      case (in_q)
        IN_IDLE: if (start) begin
          // the head's lanes below addr are placeholders without strobes
          acc_q    <= '0;
          strb_q   <= '0;
          cnt_q    <= {1'b0, addr[1:0]};
          waddr_q  <= {1'b0, addr[31:2], 2'b00};
          bbeats_q <= '0;
          in_q     <= IN_DATA;
        end
        IN_DATA: if (w_fire) begin
          if (cnt_in >= 4'd4) begin
            acc_q  <= acc_in >> 32;
            strb_q <= strb_in >> 4;
            cnt_q  <= 3'(cnt_in - 4'd4);
          end else begin
            acc_q  <= acc_in;
            strb_q <= strb_in;
            cnt_q  <= cnt_in[2:0];
          end
          if (w_beat.last) in_q <= (cnt_in == 4'd0 || cnt_in == 4'd4) ? IN_DONE : IN_FLUSH;
        end
        IN_FLUSH: if (flush) begin
          cnt_q <= '0;
          in_q  <= IN_DONE;
        end
        IN_DONE: if (b_valid && b_ready) in_q <= IN_IDLE;
        default: in_q <= IN_IDLE;
      endcase
      if (placed) begin
        waddr_q  <= waddr_q + 33'd4;
        bstart_q <= bfirst;
        bbeats_q <= close ? '0 : bbeats_in;
      end else if (close) begin
        bbeats_q <= '0;
      end
    end
  end

  // ---- burst controller ---------------------------------------------------------
  typedef enum logic [1:0] { BU_IDLE, BU_SEND, BU_RESP, BU_DROP } bu_state_e;

  bu_state_e   bu_q;
  logic        aw_pend_q;
  logic [31:0] awaddr_q;
  logic [7:0]  awlen_q, left_q;
  logic [10:0] bbytes_q;             // bytes of the burst in flight (<= 1024)
  logic [15:0] bytes_q;              // bytes of completed bursts
  logic        failed_q;
  logic [1:0]  fail_resp_q;

  wire [2:0] strb_n = 3'(wstrb[0]) + 3'(wstrb[1]) + 3'(wstrb[2]) + 3'(wstrb[3]);

  assign q_ready = bu_q == BU_IDLE;
  assign awaddr  = awaddr_q;
  assign awlen   = awlen_q;
  assign awsize  = 3'd2;
  assign awvalid = aw_pend_q;
  assign wdata   = d_data[31:0];
  assign wstrb   = d_data[35:32];
  assign wlast   = left_q == 8'd0;
  assign wvalid  = bu_q == BU_SEND && d_valid;
  assign bready  = bu_q == BU_RESP && !aw_pend_q;
  assign d_ready = (bu_q == BU_SEND && wready) || bu_q == BU_DROP;
  wire   w_done  = wvalid && wready && wlast;

  assign idle    = in_q == IN_IDLE;
  assign b_valid = in_q == IN_DONE && bu_q == BU_IDLE && q_empty && d_empty;
  assign b_resp  = failed_q ? fail_resp_q : RESP_OKAY;
  assign b_bytes = bytes_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      bu_q        <= BU_IDLE;
      aw_pend_q   <= 1'b0;
      awaddr_q    <= '0;
      awlen_q     <= '0;
      left_q      <= '0;
      bbytes_q    <= '0;
      bytes_q     <= '0;
      failed_q    <= 1'b0;
      fail_resp_q <= '0;
    end else begin
      if (in_q == IN_IDLE && start) begin
        bytes_q  <= '0;
        failed_q <= 1'b0;
      end
      case (bu_q)
        BU_IDLE: if (q_valid) begin
          awaddr_q  <= q_data[39:8];
          awlen_q   <= q_data[7:0];
          left_q    <= q_data[7:0];
          bbytes_q  <= '0;
          aw_pend_q <= !failed_q;
          bu_q      <= failed_q ? BU_DROP : BU_SEND;
        end
        BU_SEND: begin
          if (awready) aw_pend_q <= 1'b0;
          if (wvalid && wready) begin
            left_q   <= left_q - 8'd1;
            bbytes_q <= bbytes_q + 11'(strb_n);
          end
          if (w_done) bu_q <= BU_RESP;
        end
        BU_RESP: if (bvalid && bready) begin
          if (bresp == RESP_OKAY) begin
            bytes_q <= bytes_q + 16'(bbytes_q);
          end else begin
            failed_q    <= 1'b1;
            fail_resp_q <= bresp;
          end
          bu_q <= BU_IDLE;
        end
        BU_DROP: if (d_valid) begin
          left_q <= left_q - 8'd1;
          if (left_q == 8'd0) bu_q <= BU_IDLE;
        end
        default: bu_q <= BU_IDLE;
      endcase
      if (bu_q == BU_RESP && awready) aw_pend_q <= 1'b0;
    end
  end
endmodule
