// Peer bulk DMA and the single initiating slot (endpoint.md sections 4 and 5,
// RMEM initiator step 3): block acceptance with IRQ admission and snapshot,
// fragmentation by the effective MFS, round-robin between active peers, one
// request on the wire at a time, a pending RMEM access ahead of the next
// unsent fragment, completion and the first-failure rule. It also owns the
// per-peer status (idle/done/error/code) that every failure is recorded in.
//
// Controllers: the block controller (acceptance, completion, status) and the
// issuer (the initiating slot: command, source read or sink write, status,
// completion).
module openenoc_ep_peer_dma
  import openenoc_oetp_pkg::*;
  import openenoc_csr_pkg::*;
  import openenoc_ep_pkg::*;
(
  input  logic                        clk,
  input  logic                        rst,
  input  logic [13:0]                 frag_ceil,          // peer fragment ceiling in force
  input  logic                        local_tx_en,
  // CSR fields
  input  logic [NUM_PEERS-1:0][47:0]  peer_mac,
  input  logic [NUM_PEERS-1:0][31:0]  peer_local,
  input  logic [NUM_PEERS-1:0][31:0]  peer_remote,
  input  logic [NUM_PEERS-1:0][31:0]  peer_size,
  input  logic [NUM_PEERS-1:0][1:0]   peer_mode,
  input  logic [NUM_PEERS-1:0]        peer_irq_enable,
  input  logic [NUM_PEERS-1:0]        peer_request,
  input  logic [NUM_PEERS-1:0]        peer_clear_error,
  output logic [NUM_PEERS-1:0]        peer_request_hwclr,
  output logic [NUM_PEERS-1:0]        peer_clear_error_hwclr,
  output logic [NUM_PEERS-1:0]        peer_idle,
  output logic [NUM_PEERS-1:0]        peer_done,
  output logic [NUM_PEERS-1:0]        peer_error,
  output logic [NUM_PEERS-1:0][3:0]   peer_error_code,
  // rounded down to whole words: the low bits do not matter
  // verilator lint_off UNUSEDSIGNAL
  input  logic [31:0]                 max_fragment_size,
  // verilator lint_on UNUSEDSIGNAL
  input  logic                        event_enable,       // irq.event_enable.peer_dma_complete
  // failures recorded for other controllers (responder, RMEM)
  input  logic                        rec_a_valid,
  input  logic [1:0]                  rec_a_peer,
  input  logic [3:0]                  rec_a_code,
  input  logic                        rec_b_valid,
  input  logic [1:0]                  rec_b_peer,
  input  logic [3:0]                  rec_b_code,
  // the RMEM access waiting for the slot
  input  logic                        rmem_valid,
  input  logic [1:0]                  rmem_peer,
  input  logic                        rmem_is_wr,
  input  logic [31:0]                 rmem_remote,
  input  logic [31:0]                 rmem_biten,
  input  logic [31:0]                 rmem_wdata,
  output logic                        rmem_taken,         // pulse: command accepted
  output logic                        rmem_done,          // pulse
  output logic [3:0]                  rmem_code,
  output logic [31:0]                 rmem_rdata,
  // IRQ producer (reserve at acceptance, commit at block end)
  openenoc_ep_irq_if.producer         irq,
  // oETP initiator
  openenoc_dma_transfer_if.requester  ini,
  // source reader (DMA write payload)
  output logic                        src_start,
  output logic [31:0]                 src_addr,
  output logic [15:0]                 src_len,
  output logic [SEQ_W-1:0]            src_id,
  output logic [DEST_W-1:0]           src_dest,
  output logic [USER_W-1:0]           src_user,
  input  logic                        src_done,
  input  logic [15:0]                 src_bytes,
  input  logic [3:0]                  src_code,
  // sink writer (DMA read response payload)
  output logic                        snk_start,
  output logic [31:0]                 snk_addr,
  output logic [15:0]                 snk_cap,
  input  logic                        snk_done,
  input  logic [3:0]                  snk_code,
  input  logic                        snk_in_valid,       // payload waiting for the writer
  input  logic                        snk_busy
);
  // ---- block controller -----------------------------------------------------
  // Each block's state, one unpacked array (or bit vector) per field: the
  // simulator then writes one element per update instead of copying a
  // packed array of whole blocks every cycle. The control bits are reset;
  // the data fields are read only while their block is active, and an
  // acceptance writes every one of them.
  logic [NUM_PEERS-1:0] blk_active_q, blk_rsv_q, blk_failed_q;
  logic [3:0]  blk_code_q   [NUM_PEERS];
  logic [1:0]  blk_mode_q   [NUM_PEERS];
  logic [31:0] blk_local_q  [NUM_PEERS];
  logic [31:0] blk_remote_q [NUM_PEERS];
  logic [31:0] blk_size_q   [NUM_PEERS];
  logic [31:0] blk_mfs_q    [NUM_PEERS];
  logic [31:0] blk_issued_q [NUM_PEERS];
  logic [31:0] blk_seq_q    [NUM_PEERS];
  logic [NUM_PEERS-1:0]   idle_q, done_q, err_q, cmt_pend_q;
  // all_issued_q[n]: blk_issued_q[n] == blk_size_q[n] one cycle late, so the
  // 32-bit compare does not sit behind the fragment's peer mux in front of
  // the block's end. A fragment ends at least two cycles after its issue
  // (IS_CMD, IS_WAIT, IS_END); one that fails locally ends the cycle after,
  // but failed, where the compare is not read.
  logic [NUM_PEERS-1:0]   all_issued_q;
  // Each block's next fragment, one cycle late like all_issued_q: its length
  // (bytes left capped at the MFS), whether it is the last, its remote and
  // local addresses and the block's issued count after it. The issuer takes
  // a block only when its choice is fresh (no block was accepted, issued
  // from or ended in the cycle before), so these hold the current block
  // then, and no 32-bit subtract, compare or adder sits behind the
  // fragment's peer mux. They are functions of the block's size, MFS,
  // bases and issued count, which change only at an acceptance or an
  // issued fragment: nx_stale_q[n] marks the cycle after one (and after
  // reset), and only then are they computed again (the same values every
  // cycle as computing them always; a simulator skips the arithmetic of
  // idle blocks).
  logic [NUM_PEERS-1:0]   nx_stale_q;
  logic [31:0] nx_len_q [NUM_PEERS], nx_addr_q [NUM_PEERS], nx_local_q [NUM_PEERS],
               nx_issued_q [NUM_PEERS];
  logic [NUM_PEERS-1:0]       nx_last_q;
  // left_q[n]: blk_issued_q[n] < blk_size_q[n], kept beside the count (an
  // accepted block has bytes; after a fragment, bytes are left unless it was
  // the last), so the next-fragment choice compares nothing
  logic [NUM_PEERS-1:0]       left_q;
  logic [NUM_PEERS-1:0][3:0] code_q;
  logic [1:0]             acc_rr_q, frag_rr_q;

  // fragment result from the issuer (one-cycle pulse)
  logic        frag_end;
  logic [1:0]  frag_peer;
  logic [3:0]  frag_code;
  // fragment issued by the issuer
  logic        frag_issue;
  logic [1:0]  frag_issue_peer;
  logic [31:0] frag_issue_next;    // the block's issued count after the issued fragment
  logic        frag_issue_left;    // and whether bytes are left after it

  wire [31:0] mfs_now = {max_fragment_size[31:2], 2'b00};

  // acceptance candidate (round-robin), chosen one cycle ahead (acc_n_q)
  // and taken while it still holds: the round-robin choice does not sit in
  // front of the IRQ reservation and the block load. Only an acceptance
  // (which clears the block's request and idle, and moves the round-robin
  // pointer) or software withdrawing the request undoes a choice; the
  // enables are sampled with the choice.
  // the first candidate at or after the round-robin pointer: {found, index}
  function automatic logic [2:0] rr_pick(input logic [NUM_PEERS-1:0] cand, input logic [1:0] rr);
    rr_pick = '0;
    for (int k = NUM_PEERS - 1; k >= 0; k--)
      if (cand[2'(int'(rr) + k)]) rr_pick = {1'b1, 2'(int'(rr) + k)};
  endfunction

  logic       acc_any_next;
  logic [1:0] acc_n_next;
  // (with no candidate, the usual cycle, the round-robin scan is skipped)
  wire [NUM_PEERS-1:0] acc_cand = peer_request & idle_q & ~cmt_pend_q;
  always_comb begin
    {acc_any_next, acc_n_next} = '0;
    if (acc_cand != '0) {acc_any_next, acc_n_next} = rr_pick(acc_cand, acc_rr_q);
  end
  logic       acc_any_q, acc_en_q;
  logic [1:0] acc_n_q;
  wire [1:0]  acc_n   = acc_n_q;
  wire        acc_any = acc_any_q && peer_request[acc_n];
  wire acc_enabled = acc_en_q;
  assign irq.rsv_req = acc_any && acc_enabled;
  wire accept        = acc_any && (!acc_enabled || irq.rsv_gnt);

  function automatic logic block_ok(input logic [1:0] mode, input logic [47:0] mac,
                                    input logic [31:0] lb, input logic [31:0] rb,
                                    input logic [31:0] size, input logic [31:0] mfs);
    block_ok = (mode == MODE_MIRROR_REMOTE_TO_LOCAL || mode == MODE_MIRROR_LOCAL_TO_REMOTE) &&
               size != 0 && mfs >= 32'd4 &&
               mfs <= {18'd0, frag_ceil} &&
               {1'b0, lb} + {1'b0, size} <= 33'h1_0000_0000 &&
               {1'b0, rb} + {1'b0, size} <= 33'h1_0000_0000 &&
               !(is_group(mac) && mode == MODE_MIRROR_REMOTE_TO_LOCAL);
  endfunction

  // commit of a finished block's event (one at a time)
  logic       cmt_any;
  logic [1:0] cmt_n;
  always_comb begin
    cmt_any = 1'b0;
    cmt_n   = '0;
    for (int n = NUM_PEERS - 1; n >= 0; n--)
      if (cmt_pend_q[n]) begin cmt_any = 1'b1; cmt_n = 2'(n); end
  end
  assign irq.cmt_valid  = cmt_any;
  assign irq.cmt_peer   = {9'd0, cmt_n};
  assign irq.cmt_source = SRC_PEER_DMA;

  assign peer_idle       = idle_q;
  assign peer_done       = done_q;
  assign peer_error      = err_q;
  assign peer_error_code = code_q;
  assign peer_clear_error_hwclr = peer_clear_error;
  always_comb begin
    peer_request_hwclr = '0;
    if (accept) peer_request_hwclr[acc_n] = 1'b1;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      blk_active_q <= '0;
      blk_rsv_q    <= '0;
      blk_failed_q <= '0;
      idle_q     <= '1;
      done_q     <= '0;
      err_q      <= '0;
      code_q     <= '0;
      cmt_pend_q <= '0;
      all_issued_q <= '0;
      nx_last_q    <= '0;
      nx_stale_q   <= '1;
      left_q       <= '0;
      acc_rr_q   <= '0;
      acc_any_q  <= 1'b0;
      acc_en_q   <= 1'b0;
      acc_n_q    <= '0;
    end else begin
      acc_any_q <= acc_any_next && !accept;
      acc_en_q  <= event_enable && peer_irq_enable[acc_n_next];
      acc_n_q   <= acc_n_next;
      for (int n = 0; n < NUM_PEERS; n++)
        if (nx_stale_q[n]) begin
          logic [31:0] left;
          left = blk_size_q[n] - blk_issued_q[n];
          all_issued_q[n] <= blk_issued_q[n] == blk_size_q[n];
          nx_len_q[n]     <= (left < blk_mfs_q[n]) ? left : blk_mfs_q[n];
          nx_last_q[n]    <= left <= blk_mfs_q[n];
          nx_addr_q[n]    <= blk_remote_q[n] + blk_issued_q[n];
          nx_local_q[n]   <= blk_local_q[n] + blk_issued_q[n];
          nx_issued_q[n]  <= (left < blk_mfs_q[n]) ? blk_size_q[n] : blk_issued_q[n] + blk_mfs_q[n];
        end
      // the blocks written in this cycle (below)
      nx_stale_q <= (frag_issue ? NUM_PEERS'(1) << frag_issue_peer : '0) |
                    (accept ? NUM_PEERS'(1) << acc_n : '0);
      // software clears first: a failure in the same cycle wins
      for (int n = 0; n < NUM_PEERS; n++)
        if (peer_clear_error[n]) begin err_q[n] <= 1'b0; code_q[n] <= '0; end
      if (rec_a_valid) begin err_q[rec_a_peer] <= 1'b1; code_q[rec_a_peer] <= rec_a_code; end
      if (rec_b_valid) begin err_q[rec_b_peer] <= 1'b1; code_q[rec_b_peer] <= rec_b_code; end

      if (cmt_any && irq.cmt_ready) cmt_pend_q[cmt_n] <= 1'b0;

      // per block, so the issuing peer (behind the local-failure decision)
      // only enables the registers and selects no adder operand
      for (int n = 0; n < NUM_PEERS; n++)
        if (frag_issue && frag_issue_peer == 2'(n)) begin
          blk_issued_q[n] <= frag_issue_next;
          left_q[n]       <= frag_issue_left;
          blk_seq_q[n]    <= blk_seq_q[n] + 32'd1;
        end
      if (frag_end && blk_active_q[frag_peer]) begin
        logic failed;
        logic [3:0] code;
        failed = blk_failed_q[frag_peer] || frag_code != ERR_NONE;
        code   = blk_failed_q[frag_peer] ? blk_code_q[frag_peer] : frag_code;
        blk_failed_q[frag_peer] <= failed;
        blk_code_q[frag_peer]   <= code;
        if (failed || all_issued_q[frag_peer]) begin
          blk_active_q[frag_peer] <= 1'b0;
          idle_q[frag_peer]       <= 1'b1;
          done_q[frag_peer]       <= !failed;
          if (failed) begin err_q[frag_peer] <= 1'b1; code_q[frag_peer] <= code; end
          if (blk_rsv_q[frag_peer]) cmt_pend_q[frag_peer] <= 1'b1;
        end
      end

      // a request waiting for an IRQ credit passes its turn, so it never
      // holds up another peer's request that needs none (endpoint.md 4.1
      // lists each request's own conditions only)
      if (acc_any && !accept) acc_rr_q <= acc_n + 2'd1;
      if (accept) begin
        acc_rr_q       <= acc_n + 2'd1;
        done_q[acc_n]  <= 1'b0;
        left_q[acc_n]  <= 1'b1;   // a valid block has size != 0; an invalid one is not active
        blk_active_q[acc_n] <= 1'b1;
        blk_rsv_q[acc_n]    <= acc_enabled;
        blk_failed_q[acc_n] <= 1'b0;
        blk_code_q[acc_n]   <= ERR_NONE;
        blk_mode_q[acc_n]   <= peer_mode[acc_n];
        blk_local_q[acc_n]  <= peer_local[acc_n];
        blk_remote_q[acc_n] <= peer_remote[acc_n];
        blk_size_q[acc_n]   <= peer_size[acc_n];
        blk_mfs_q[acc_n]    <= mfs_now;
        blk_issued_q[acc_n] <= '0;
        blk_seq_q[acc_n]    <= '0;
        if (block_ok(peer_mode[acc_n], peer_mac[acc_n], peer_local[acc_n], peer_remote[acc_n],
                     peer_size[acc_n], mfs_now)) begin
          idle_q[acc_n] <= 1'b0;
        end else begin
          // invalid: error 1 at once, nothing transferred, event still produced
          blk_active_q[acc_n] <= 1'b0;
          err_q[acc_n]        <= 1'b1;
          code_q[acc_n]       <= ERR_LOCAL_INVALID;
          if (acc_enabled) cmt_pend_q[acc_n] <= 1'b1;
        end
      end
    end
  end

  // ---- issuer: the single initiating slot ----------------------------------
  typedef enum logic [2:0] { IS_IDLE, IS_CMD, IS_WAIT, IS_STATUS, IS_END } is_state_e;

  // A write fragment is issued only while its entry still admits it (mode 3):
  // the oETP initiator looks the peer up again and would reject the command
  // after its source read had started, leaving that payload at the head of
  // the shared stream. A write whose entry changed fails locally (code 1).
  logic       fr_any;
  logic [1:0] fr_n;
  // The next fragment's block is chosen one cycle ahead (fr_*_q): the
  // 32-bit "bytes left" compares of every block, the round-robin choice and
  // the fragment's length and addresses do not fit one cycle together. The
  // choice is taken only when it is current ("fresh"): no block was
  // accepted, issued from or ended in the cycle it was made.
  logic       fr_any_q, fr_fresh_q;
  logic [1:0] fr_n_q;
  wire fr_write    = blk_mode_q[fr_n] == MODE_MIRROR_LOCAL_TO_REMOTE;
  wire fr_rejected = fr_write && peer_mode[fr_n] != MODE_MIRROR_LOCAL_TO_REMOTE;
  logic local_fail;

  is_state_e   is_q;
  logic        is_rmem_q, is_write_q;
  logic [1:0]  is_peer_q;
  logic [31:0] is_len_q, is_addr_q, is_local_q, is_seq_q;
  logic [31:0] is_issued_q;   // the block's issued count after this fragment
  logic        is_last_q;
  logic        cpl_seen_q, local_seen_q, status_sent_q, snk_started_q;
  logic [31:0] cpl_len_q;
  logic [3:0]  cpl_code_q, local_code_q;
  logic [31:0] cpl_rdata_q;
  logic [15:0] src_bytes_q;

  // next fragment (round-robin among active, unfailed blocks with bytes left)
  logic       fr_any_next;
  logic [1:0] fr_n_next;
  // (skipped with no candidate, like the acceptance scan)
  wire [NUM_PEERS-1:0] fr_cand = blk_active_q & ~blk_failed_q & left_q;
  always_comb begin
    {fr_any_next, fr_n_next} = '0;
    if (fr_cand != '0) {fr_any_next, fr_n_next} = rr_pick(fr_cand, frag_rr_q);
  end
  assign fr_any = fr_any_q && fr_fresh_q;
  assign fr_n   = fr_n_q;
  wire [31:0] fr_len  = nx_len_q[fr_n];

  // An RMEM access is offered to the initiator from IS_IDLE in the cycle it
  // comes (from the RMEM block's registers and local_tx_en, a CSR flop):
  // the initiator's request is accepted at the earliest two cycles later
  // (req_ready is a register set after its lookup), and IS_CMD holds the
  // same command until then, so an IS_CMD cycle in front of every CPU load
  // is saved. A fragment is offered from IS_CMD as before.
  wire rmem_now = is_q == IS_IDLE && local_tx_en && rmem_valid;
  assign ini.non_oetp_rx_claim_valid = 1'b0;
  assign ini.req_valid      = is_q == IS_CMD || rmem_now;
  assign ini.req_kind       = rmem_now || is_rmem_q;
  assign ini.req_op         = rmem_now ? rmem_is_wr : is_write_q;
  assign ini.req_addr       = rmem_now ? rmem_remote : is_addr_q;
  assign ini.req_len        = rmem_now ? 32'd4 : is_len_q;
  assign ini.req_peer_idx   = rmem_now ? rmem_peer : is_peer_q;
  assign ini.req_sequence   = rmem_now ? '0 : is_seq_q;
  assign ini.req_last       = rmem_now || is_last_q;
  assign ini.req_biten      = rmem_biten;
  assign ini.req_wdata      = rmem_wdata;
  assign ini.req_error_code = '0;
  assign ini.req_rx_status  = 1'b0;
  assign ini.tx_status_valid      = is_q == IS_STATUS;
  assign ini.tx_status_peer_idx   = is_peer_q;
  assign ini.tx_status_sequence   = is_seq_q;
  assign ini.tx_status_len        = {16'd0, src_bytes_q};
  assign ini.tx_status_error_code = local_code_q;
  assign ini.rx_status_valid      = 1'b0;
  assign ini.rx_status_peer_idx   = '0;
  assign ini.rx_status_sequence   = '0;
  assign ini.rx_status_len        = '0;
  assign ini.rx_status_error_code = '0;
  assign ini.cpl_ready            = (is_q == IS_WAIT || is_q == IS_STATUS) && !cpl_seen_q;

  assign src_addr = is_local_q;
  assign src_len  = is_len_q[15:0];
  assign src_id   = is_seq_q;
  assign src_dest = {ROUTE_PEER, is_peer_q};
  assign src_user = {1'b0, is_last_q};
  assign snk_addr = is_local_q;
  assign snk_cap  = is_len_q[15:0];

  wire cmd_fire = ini.req_valid && ini.req_ready;
  assign src_start = cmd_fire && !ini.req_kind && is_write_q;
  // the read response payload (if any comes) starts the writer when it arrives
  assign snk_start = is_q == IS_WAIT && !is_rmem_q && !is_write_q && !snk_started_q &&
                     snk_in_valid && !snk_busy;
  assign rmem_taken = cmd_fire && ini.req_kind;

  assign local_fail = is_q == IS_IDLE && local_tx_en && !rmem_valid && fr_any && fr_rejected;

  // the fragment's result: a local memory error wins; a local stream error
  // (2) that only follows a remote truncated transfer does not replace the
  // remote stream error (10): oetp-engine.txt "Error origin and CSR status"
  wire [3:0] frag_result = (cpl_code_q == ERR_REMOTE_AXIS && local_code_q == ERR_LOCAL_AXIS) ?
                           cpl_code_q :
                           (local_code_q != ERR_NONE) ? local_code_q : cpl_code_q;

  always_comb begin
    frag_issue      = (cmd_fire && !ini.req_kind) || local_fail;
    frag_issue_peer = local_fail ? fr_n : is_peer_q;
    frag_issue_next = local_fail ? nx_issued_q[fr_n] : is_issued_q;
    frag_issue_left = !(local_fail ? nx_last_q[fr_n] : is_last_q);
    frag_end        = is_q == IS_END && !is_rmem_q;
    frag_peer       = is_peer_q;
    frag_code       = frag_result;
    // an RMEM access is reported from IS_END, from the completion's
    // registers: passed on in its handshake cycle, RX's verdict logic, the
    // initiator's completion and the RMEM block's answer in one cycle made
    // the endpoint 11 LUT levels deep (u_rx.state_q -> u_rmem.ev_pend_q)
    rmem_done       = is_q == IS_END && is_rmem_q;
    rmem_code       = cpl_code_q;
    rmem_rdata      = cpl_rdata_q;
  end

  // unused completion fields: the slot knows its own command
  // verilator lint_off UNUSEDSIGNAL
  wire unused_cpl = &{1'b0, ini.cpl_kind, ini.cpl_op, ini.cpl_transferred_len, ini.cpl_peer_idx,
                      ini.cpl_sequence, ini.cpl_last, ini.cpl_error, ini.tx_status_ready,
                      ini.non_oetp_rx_available, ini.non_oetp_rx_claim_ready,
                      ini.rx_status_ready, blk_mode_q[fr_n][1]};
  // verilator lint_on UNUSEDSIGNAL

  always_ff @(posedge clk) begin
    if (rst) begin
      is_q         <= IS_IDLE;
      is_rmem_q    <= 1'b0;
      is_write_q   <= 1'b0;
      is_peer_q    <= '0;
      is_len_q     <= '0;
      is_addr_q    <= '0;
      is_local_q   <= '0;
      is_seq_q     <= '0;
      is_issued_q  <= '0;
      is_last_q    <= 1'b0;
      cpl_seen_q   <= 1'b0;
      local_seen_q <= 1'b0;
      cpl_code_q   <= '0;
      local_code_q <= '0;
      cpl_rdata_q  <= '0;
      cpl_len_q    <= '0;
      status_sent_q <= 1'b0;
      snk_started_q <= 1'b0;
      src_bytes_q  <= '0;
      frag_rr_q    <= '0;
      fr_any_q     <= 1'b0;
      fr_n_q       <= '0;
      fr_fresh_q   <= 1'b0;
    end else begin
      fr_any_q   <= fr_any_next;
      fr_n_q     <= fr_n_next;
      fr_fresh_q <= !(accept || frag_issue || frag_end);
      if (ini.cpl_valid && ini.cpl_ready) begin
        // an RMEM access leaves IS_WAIT with this handshake and never reads
        // the flag: left clear, it does not change after the access ends
        // (IS_IDLE would clear it again)
        cpl_seen_q  <= !is_rmem_q;
        cpl_code_q  <= ini.cpl_error_code;
        cpl_rdata_q <= ini.cpl_rdata;
        cpl_len_q   <= ini.cpl_transferred_len;
      end
      if (snk_start) snk_started_q <= 1'b1;
      if (src_done) begin
        local_seen_q <= 1'b1;
        local_code_q <= src_code;
        src_bytes_q  <= src_bytes;
      end
      if (snk_done) begin
        local_seen_q <= 1'b1;
        local_code_q <= snk_code;
      end
      case (is_q)
        IS_IDLE: begin
          cpl_seen_q   <= 1'b0;
          local_seen_q <= 1'b0;
          local_code_q <= ERR_NONE;
          cpl_code_q   <= ERR_NONE;
          status_sent_q <= 1'b0;
          snk_started_q <= 1'b0;
          if (local_tx_en && rmem_valid) begin
            is_rmem_q  <= 1'b1;
            is_write_q <= rmem_is_wr;
            is_peer_q  <= rmem_peer;
            is_addr_q  <= rmem_remote;
            is_len_q   <= 32'd4;
            is_seq_q   <= '0;
            is_last_q  <= 1'b1;
            // (never accepted in this cycle: see rmem_now)
            is_q       <= IS_CMD;
          end else if (local_fail) begin
            is_rmem_q    <= 1'b0;
            is_peer_q    <= fr_n;
            local_code_q <= ERR_LOCAL_INVALID;
            frag_rr_q    <= fr_n + 2'd1;
            is_q         <= IS_END;
          end else if (local_tx_en && fr_any) begin
            is_rmem_q  <= 1'b0;
            is_write_q <= fr_write;
            is_peer_q  <= fr_n;
            is_addr_q  <= nx_addr_q[fr_n];
            is_local_q <= nx_local_q[fr_n];
            is_len_q   <= fr_len;
            is_seq_q   <= blk_seq_q[fr_n];
            // the block is not accepted again and issues nothing else before
            // this fragment's command goes (one slot, the block stays active)
            is_issued_q <= nx_issued_q[fr_n];
            // issued + fr_len == size, without the adder (bytes left > 0)
            is_last_q  <= nx_last_q[fr_n];
            frag_rr_q  <= fr_n + 2'd1;
            is_q       <= IS_CMD;
          end
        end
        IS_CMD: if (ini.req_ready) is_q <= IS_WAIT;
        IS_WAIT: begin
          if (is_rmem_q) begin
            // an RMEM access ends with its completion's handshake: cpl_*_q
            // take the result in the same edge, so IS_END reports it
            if (cpl_seen_q || (ini.cpl_valid && ini.cpl_ready)) is_q <= IS_END;
          end else if (is_write_q) begin
            // the source status goes to the oETP engine (it gates EndOfData)
            if (local_seen_q && !status_sent_q) is_q <= IS_STATUS;
            else if (cpl_seen_q && status_sent_q) is_q <= IS_END;
          end else begin
            // a read ends when its completion is in and the bytes it
            // delivered are written
            if (cpl_seen_q && (cpl_len_q == 0 ? !snk_started_q : local_seen_q)) is_q <= IS_END;
          end
        end
        IS_STATUS: if (ini.tx_status_ready) begin
          status_sent_q <= 1'b1;
          is_q          <= IS_WAIT;
        end
        IS_END: is_q <= IS_IDLE;
        default: is_q <= IS_IDLE;
      endcase
    end
  end
endmodule
