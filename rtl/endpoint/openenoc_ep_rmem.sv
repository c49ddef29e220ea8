// RMEM initiator (endpoint.md section 5): a CPU load/store in the CSR window
// becomes a remote 32-bit access through the lowest mode-1 peer whose slice
// holds the word. A miss answers at once (reads all ones, nothing recorded);
// a failed translation, a group read or a failed remote access records the
// peer's error (and an RMEM_ERROR event if enabled at detection, coalesced
// per peer until admitted) and answers all ones; the bus never errs.
module openenoc_ep_rmem
  import openenoc_csr_pkg::*;
  import openenoc_ep_pkg::*;
#(
  // a good access is offered to the initiating slot with the window check,
  // in the cycle of the bus request (RM_IDLE), without the RM_PICK cycle: on
  // at the wide widths (the co-simulation's), off at the reference widths,
  // cycle for cycle
  parameter bit EARLY = 1'b0
) (
  input  logic                        clk,
  input  logic                        rst,
  input  logic [NUM_PEERS-1:0][47:0]  peer_mac,
  input  logic [NUM_PEERS-1:0][31:0]  peer_rmem,
  input  logic [NUM_PEERS-1:0][31:0]  peer_remote,
  input  logic [NUM_PEERS-1:0][31:0]  peer_size,
  input  logic [NUM_PEERS-1:0][1:0]   peer_mode,
  input  logic                        ev_rmem,
  // window access from the register block
  input  logic                        req,
  input  logic                        req_is_wr,
  // a narrow access works on its whole word (the byte lanes are in biten)
  // verilator lint_off UNUSEDSIGNAL
  input  logic [9:0]                  req_addr,
  // verilator lint_on UNUSEDSIGNAL
  input  logic [31:0]                 req_wdata,
  input  logic [31:0]                 req_biten,
  output logic                        rd_ack,
  output logic [31:0]                 rd_data,
  output logic                        wr_ack,
  // to the initiating slot
  output logic                        acc_valid,
  output logic [1:0]                  acc_peer,
  output logic                        acc_is_wr,
  output logic [31:0]                 acc_remote,
  output logic [31:0]                 acc_biten,
  output logic [31:0]                 acc_wdata,
  input  logic                        acc_taken,
  input  logic                        acc_done,
  input  logic [3:0]                  acc_code,
  input  logic [31:0]                 acc_rdata,
  // failure record and event
  output logic                        rec_valid,
  output logic [1:0]                  rec_peer,
  output logic [3:0]                  rec_code,
  openenoc_ep_irq_if.producer         irq
);
  typedef enum logic [2:0] { RM_IDLE, RM_PICK, RM_WAIT, RM_SENT } rm_state_e;

  rm_state_e  state_q;
  logic       is_wr_q, ack_q, rd_q, rec_q;
  logic [1:0] peer_q;
  logic [31:0] remote_q, biten_q, wdata_q, data_q;
  logic [3:0] code_q;
  logic [NUM_PEERS-1:0] ev_pend_q;
  logic       cmt_q;
  logic [1:0] cmt_n_q;

  // The window check and translation are made on the request itself and
  // registered with it (RM_IDLE): the offset from every peer's window base
  // (disp, bit 32 set below the base), then every window tested with one
  // subtraction each and the lowest hit taken; the verdict (go_q, miss_q)
  // and the translation are registered. Every input is a register (the bus
  // request's address, the peers' CSRs), so the two adder chains in a row
  // start at flops and end at flops (a separate offset register, RM_CHECK,
  // was one more cycle of every CPU load). RM_PICK offers a good access to
  // the initiating slot at once (acc_valid from go_q alone, so nothing of
  // the check sits in front of the slot's logic), then holds it in
  // RM_WAIT. A remote access's answer goes to the bus in the cycle the slot
  // reports it (rd_ack/wr_ack from acc_done, no register): every cycle of
  // this block is a cycle of a CPU load's round trip.
  wire [31:0] woff = {22'd0, req_addr[9:2], 2'b00};
  logic                       go_q, miss_q;
  // One window's check: {in the window, bad, the translation}.
  function automatic logic [33:0] win_check(input logic [31:0] off, input logic [31:0] base,
                                            input logic [31:0] size, input logic [31:0] remote_base,
                                            input logic [1:0] mode, input logic [47:0] mac,
                                            input logic is_wr);
    logic [32:0] disp, room, rem;
    disp = {1'b0, off} - {1'b0, base};
    room = {1'b0, size} - {1'b0, disp[31:0]};     // size - offset
    rem  = {1'b0, remote_base} + {1'b0, disp[31:0]};
    // the word must fit the slice and the remote 32-bit space
    win_check = {mode == MODE_RMEM && !disp[32] && !room[32] && room != '0,
                 room < 33'd4 || rem > 33'h0_FFFF_FFFC || (is_group(mac) && !is_wr),
                 rem[31:0]};
  endfunction
  // The lowest window hit (hit, its peer n, its verdict bad and its
  // translation remote), worked out with a request only: every reader of
  // them (go_now, the RM_IDLE branch) needs req, and Verilator evaluates an
  // always_comb every cycle but only its taken branch.
  logic        hit, bad;
  logic [1:0]  n;
  logic [31:0] remote;
  logic [33:0] chk;
  always_comb begin
    hit    = 1'b0;
    n      = '0;
    bad    = 1'b0;
    remote = '0;
    chk    = '0;
    if (req)
      for (int k = NUM_PEERS - 1; k >= 0; k--) begin   // the lowest hit last
        chk = win_check(woff, peer_rmem[k], peer_size[k], peer_remote[k], peer_mode[k],
                      peer_mac[k], req_is_wr);
        if (chk[33]) begin
          hit    = 1'b1;
          n      = 2'(k);
          bad    = chk[32];
          remote = chk[31:0];
        end
      end
  end

  wire sent_end = state_q == RM_SENT && acc_done;
  // EARLY: the access offered now, from the request and the check (the slot
  // takes an access at the earliest in the cycle after its offer, so RM_WAIT
  // holds it from the next cycle on, from the registers)
  wire go_now = EARLY && state_q == RM_IDLE && req && hit && !bad;
  assign acc_valid  = (state_q == RM_PICK && go_q) || state_q == RM_WAIT || go_now;
  // one test of go_now for the whole access, not one per field
  always_comb
    if (go_now) begin
      acc_peer   = n;
      acc_is_wr  = req_is_wr;
      acc_remote = remote;
      acc_biten  = req_biten;
      acc_wdata  = req_wdata;
    end else begin
      acc_peer   = peer_q;
      acc_is_wr  = is_wr_q;
      acc_remote = remote_q;
      acc_biten  = biten_q;
      acc_wdata  = wdata_q;
    end
  assign rd_ack     = (ack_q || sent_end) && rd_q;
  assign wr_ack     = (ack_q || sent_end) && !rd_q;
  assign rd_data    = sent_end ? ((acc_code != 0) ? 32'hFFFF_FFFF : acc_rdata) : data_q;
  assign rec_valid  = rec_q;
  assign rec_peer   = peer_q;
  assign rec_code   = code_q;


  // coalesced RMEM_ERROR events, one peer at a time
  logic       ev_any;
  logic [1:0] ev_n;
  always_comb begin
    ev_any = 1'b0;
    ev_n   = '0;
    if (ev_pend_q != '0)        // (a simulator skips the search without one)
      for (int k = NUM_PEERS - 1; k >= 0; k--)
        if (ev_pend_q[k]) begin ev_any = 1'b1; ev_n = 2'(k); end
  end
  assign irq.rsv_req    = ev_any && !cmt_q;
  assign irq.cmt_valid  = cmt_q;
  assign irq.cmt_peer   = {9'd0, cmt_n_q};
  assign irq.cmt_source = SRC_RMEM_ERROR;

  always_ff @(posedge clk) begin
    // The registers the branches read, read once here, before any branch
    // writes them: Verilator keeps a shadow copy (two copies every cycle) of
    // a register one branch writes and a later one reads, a case selector
    // included; a local read here costs one.
    rm_state_e  st;
    logic       cmt, go, miss;
    logic [1:0] peer;
    st   = state_q;
    cmt  = cmt_q;
    go   = go_q;
    miss = miss_q;
    peer = peer_q;
    if (rst) begin
      state_q   <= RM_IDLE;
      is_wr_q   <= 1'b0;
      ack_q     <= 1'b0;
      rd_q      <= 1'b0;
      rec_q     <= 1'b0;
      peer_q    <= '0;
      remote_q  <= '0;
      go_q      <= 1'b0;
      miss_q    <= 1'b0;
      biten_q   <= '0;
      wdata_q   <= '0;
      data_q    <= '0;
      code_q    <= '0;
      ev_pend_q <= '0;
      cmt_q     <= 1'b0;
      cmt_n_q   <= '0;
    end else begin
      ack_q <= 1'b0;
      rec_q <= 1'b0;
      if (irq.rsv_req && irq.rsv_gnt) begin
        cmt_q          <= 1'b1;
        cmt_n_q        <= ev_n;
        ev_pend_q[ev_n] <= 1'b0;
      end
      if (cmt && irq.cmt_ready) cmt_q <= 1'b0;
      case (st)
        RM_IDLE: if (req) begin
          rd_q     <= !req_is_wr;
          is_wr_q  <= req_is_wr;
          biten_q  <= req_biten;
          wdata_q  <= req_wdata;
          go_q     <= hit && !bad;
          miss_q   <= !hit;
          peer_q   <= n;
          remote_q <= remote;
          state_q  <= go_now ? RM_WAIT : RM_PICK;
        end
        RM_PICK: begin
          state_q <= RM_IDLE;
          if (miss) begin
            ack_q  <= 1'b1;
            data_q <= 32'hFFFF_FFFF;
          end else if (!go) begin
            ack_q  <= 1'b1;
            data_q <= 32'hFFFF_FFFF;
            rec_q  <= 1'b1;
            code_q <= ERR_LOCAL_INVALID;
            if (ev_rmem) ev_pend_q[peer] <= 1'b1;
          end else begin
            // offered now (acc_valid); the slot takes it at the earliest
            // in the next cycle
            state_q <= RM_WAIT;
          end
        end
        RM_WAIT: if (acc_taken) state_q <= RM_SENT;
        RM_SENT: if (acc_done) begin
          // answered now (sent_end)
          state_q <= RM_IDLE;
          if (acc_code != 0) begin
            rec_q  <= 1'b1;
            code_q <= acc_code;
            if (ev_rmem) ev_pend_q[peer] <= 1'b1;
          end
        end
        default: state_q <= RM_IDLE;
      endcase
    end
  end
endmodule
