// TX controller: assembles every outgoing Ethernet frame. Three producers
// compete at frame boundaries: responder replies (priority), initiator
// requests and raw local frames (these two alternate). Header and
// parameters go out up to N = ETH_W / 32 words a cycle (one at 32 bits);
// bulk Data streams from the local payload head a beat per cycle (N words,
// byte-packed, every beat full but the last); the final beat is held until
// the source-read status is known, so EndOfData follows only a successful,
// complete source (above 32 bits in the final beat's first free lane, if
// it has one). The output is the word side of openenoc_axis_word_pack
// (lane i carries a word when i == 0 or tkeep[4i]), which packs header and
// Data words into Ethernet beats whatever the word position Data starts at.
// A frame is finished (and its owner told) only at the Ethernet-facing TLAST
// handshake, after the TX register slice.
module openenoc_oetp_tx
  import openenoc_csr_pkg::*;
  import openenoc_oetp_pkg::*;
#(
  parameter int ETH_W = 32,  // width of loc and eth: 32, 64, 128 or 256
  // the responder's RMEM read reply picked in its completion cycle
  // (rsp_now): the co-simulation's LOW_LATENCY build above 32 bits
  parameter bit RSP_NOW = 1'b0
) (
  input  logic              clk,
  input  logic              rst,
  // Locally initiated frames (initiator requests, raw frames) may start: 1
  // in hardware without pacing; low while the host's transmit path is
  // saturated (engine.h tx_ready). Replies are not held back.
  input  logic              local_tx_en,
  // local payload stream (s_axis_local, after its register slice)
  openenoc_axis_if.snk      loc,
  // Ethernet stream (into the m_axis_eth register slice); TID/TDEST/TUSER unused
  openenoc_axis_if.src      eth,
  input  logic              eth_done,      // TLAST handshake at m_axis_eth
  // initiator requests
  input  logic              ini_job_valid,
  input  tx_job_t           ini_job,
  input  src_status_t       ini_stat,
  output logic              ini_done,      // pulse: job finished
  output logic              ini_done_sent, // a frame went out
  output logic [ERR_W-1:0]  ini_done_code,
  // responder replies
  input  logic              rsp_job_valid,
  input  tx_job_t           rsp_job,
  input  src_status_t       rsp_stat,
  // RSP_NOW: the responder's success reply without Data is complete now,
  // rsp_job with the value rsp_now_p1 (its job_valid follows next cycle)
  input  logic              rsp_now,
  input  logic [31:0]       rsp_now_p1,
  output logic              rsp_done,
  output logic              rsp_done_sent,
  output logic [ERR_W-1:0]  rsp_done_code
);
  typedef enum logic [3:0] {
    TX_IDLE, TX_PRE_DRAIN, TX_HEADER, TX_DATA, TX_STATUS, TX_EOD,
    TX_ERROR_FLUSH, TX_DRAIN, TX_RAW, TX_WAIT_END
  } tx_state_e;
  typedef enum logic [1:0] { OWN_RAW, OWN_INI, OWN_RSP } owner_e;

  tx_state_e         state_q;
  owner_e            owner_q;
  // metadata fields matter only when the frame is picked
  // verilator lint_off UNUSEDSIGNAL
  tx_job_t           job_q;
  // verilator lint_on UNUSEDSIGNAL
  logic [2:0]        hidx_q;          // header/parameter word index
  localparam int N  = ETH_W / 32;     // words per beat
  localparam int KW = ETH_W / 8;
  logic [ETH_W-1:0]  held_q;          // newest Data beat, not yet emitted
  logic [KW-1:0]     held_keep_q;     // its words (full on the wire, padding zero)
  logic [LEN_W-1:0]  wc_q;            // Data words taken from the source
  logic              in_last_seen_q;
  logic              eth_seen_q;
  logic              raw_drop_q;
  logic              raw_turn_q;      // raw goes first when both wait
  logic [ERR_W-1:0]  code_q;
  logic              o_valid_q, o_last_q;
  logic [ETH_W-1:0]  o_data_q;
  logic [KW-1:0]     o_keep_q;
  logic              ini_done_q, rsp_done_q, done_sent_q;
  logic [ERR_W-1:0]  done_code_q;

  assign {eth.tvalid, eth.tdata, eth.tkeep, eth.tlast} = {o_valid_q, o_data_q, o_keep_q, o_last_q};
  // Above 32 bits a sent frame's owner hears of its end in the cycle of the
  // frame's TLAST handshake at m_axis_eth (end_now, from TX_WAIT_END), not
  // from the done register a cycle later: the initiator starts waiting, and
  // the responder is free again, a cycle earlier, and the host call that
  // sent an RMEM request or reply ends a cycle earlier (both endpoints'
  // cycles count in every remote CPU load). The owner drops its job at that
  // edge, so TX back in TX_IDLE needs no settle cycle for it. At 32 bits
  // the registered pulse stays (the reference design, cycle for cycle).
  wire end_now = N > 1 && state_q == TX_WAIT_END && (eth_done || eth_seen_q);
  assign ini_done      = ini_done_q || (end_now && owner_q == OWN_INI);
  assign rsp_done      = rsp_done_q || (end_now && owner_q == OWN_RSP);
  assign ini_done_sent = end_now || done_sent_q;
  assign rsp_done_sent = end_now || done_sent_q;
  assign ini_done_code = end_now ? code_q : done_code_q;
  assign rsp_done_code = end_now ? code_q : done_code_q;

  // ---- a Data beat of the local stream ---------------------------------------
  // in_words_f: the words the head beat carries (lane i when i == 0 or
  // tkeep[4i]; keep is contiguous, beats full but the last); in_keep_f: those
  // words' lanes with every byte kept (Data words are whole on the wire,
  // their unused bytes zeroed by in_data_f); in_over: the beat takes the
  // count past the Data words of the job (at N = 1 exactly when every word
  // was taken already, wz_q, so the 32-bit engine keeps its compare out of
  // this path)
  // Computed where a beat is taken (the pick and TX_DATA), not every
  // cycle: the simulation model runs an always_comb on every cycle, a
  // function call only in the branch that makes it.
  function automatic logic [LEN_W-1:0] in_words_f(input logic [KW-1:0] k);
    in_words_f = '0;
    for (int i = 0; i < N; i++)
      if (i == 0 || k[4*i]) in_words_f = LEN_W'(i + 1);
  endfunction
  function automatic logic [KW-1:0] in_keep_f(input logic [KW-1:0] k);
    for (int i = 0; i < N; i++)
      in_keep_f[4*i +: 4] = (i == 0 || k[4*i]) ? 4'hF : 4'h0;
  endfunction
  function automatic logic [ETH_W-1:0] in_data_f(input logic [ETH_W-1:0] d,
                                                 input logic [KW-1:0] k);
    for (int b = 0; b < KW; b++) in_data_f[8*b +: 8] = k[b] ? d[8*b +: 8] : 8'h00;
  endfunction

  // ---- frame selection (combinational view of the stream head) ----------
  wire   head_raw = loc.tvalid && (loc.tdest[DEST_W-1 -: 2] != ROUTE_PEER);

  // The helpers below take the few fields of a job they read, not the
  // whole job: a function's struct argument is a copy in the simulation
  // model (tx_job_t is 303 bits), made on every evaluation.
  function automatic logic head_for(input logic [PEER_IDX_W-1:0] peer, input logic role,
                                    input logic [SEQ_W-1:0] seq);
    head_for = loc.tvalid && loc.tdest == {ROUTE_PEER, peer} &&
               loc.tuser[TUSER_ROLE] == role && loc.tid == seq;
  endfunction

  // A source that already failed (or delivered the wrong length) never
  // starts a frame.
  function automatic logic pre_failed(input logic has_data, input logic [LEN_W-1:0] data_len,
                                      input src_status_t s);
    pre_failed = has_data && s.valid && (s.code != ERR_NONE || s.len != data_len);
  endfunction

  // A failed source's leftover beats are drained once they reach the head;
  // a source that delivered nothing is reported at once.
  function automatic logic eligible(input logic v, input logic has_data,
                                    input logic [LEN_W-1:0] data_len,
                                    input logic [PEER_IDX_W-1:0] peer, input logic role,
                                    input logic [SEQ_W-1:0] seq, input src_status_t s);
    eligible = v && (!has_data || head_for(peer, role, seq) ||
                     (pre_failed(has_data, data_len, s) && s.len == '0));
  endfunction

  // The pick is made from the previous cycle's view and registered (pk_*):
  // the 32-bit TID, length and status compares of both owners, the choice
  // among them and the start of the frame do not fit one cycle together.
  // The registered choice is taken only while it is current ("fresh"): no
  // beat was taken from the stream head, no owner's source status came or
  // went and no owner was told its job finished (it changes or drops the
  // job in the next cycle) since it was made. A job that appears or a head
  // that arrives is picked one cycle later, never early (a reply without
  // Data is picked at once, see pick_rsp_now).
  // Above 32 bits the owner told by end_now drops its job at this edge:
  // the choice registered with it leaves that job out (which TX_IDLE's
  // first cycle never picked anyway), so it is the next cycle's choice
  // already and, with nothing else offered, stays unchanged from the
  // frame's end on (fresh_q, below).
  wire  rsp_elig = eligible(rsp_job_valid, rsp_job.has_data, rsp_job.data_len, rsp_job.peer,
                           rsp_job.role, rsp_job.seq, rsp_stat) &&
                   !(end_now && owner_q == OWN_RSP);
  // the initiator's eligibility without local_tx_en (a top-level input):
  // only the final AND reads the input, so the compares are not part of
  // the model's input-combinational logic, evaluated again on every input
  wire  ini_ok   = eligible(ini_job_valid, ini_job.has_data, ini_job.data_len, ini_job.peer,
                            ini_job.role, ini_job.seq, ini_stat) &&
                   !(end_now && owner_q == OWN_INI);
  // the choice without local_tx_en too: the register's input ANDs it in
  // (raw and initiator frames are chosen only while it is high)
  wire  c_raw_c  = !rsp_elig && head_raw && (!ini_ok || raw_turn_q);
  wire  c_ini_c  = !rsp_elig && !c_raw_c && ini_ok;
  // Each owner's verdict is registered on its own and selected by the
  // registered choice, so neither the choice (the TID compares of the
  // eligibility) nor a multiplexer sits in front of the verdict's compares.
  typedef struct packed {
    logic             failed;   // pre_failed: no frame
    logic             drain;    // the failed source streamed beats to drain
    logic             data;     // a frame with Data starts: its first beat is taken
    logic [ERR_W-1:0] code;     // the failed source's code
  } verdict_t;
  function automatic verdict_t verdict(input logic has_data, input logic [LEN_W-1:0] data_len,
                                       input src_status_t s);
    verdict.failed = pre_failed(has_data, data_len, s);
    verdict.drain  = s.len != '0;
    verdict.data   = has_data && !pre_failed(has_data, data_len, s);
    verdict.code   = (s.code != ERR_NONE) ? s.code : ERR_LOCAL_AXIS;
  endfunction
  logic pk_rsp_q, pk_ini_q, pk_raw_q;  // the choice of the previous cycle
  verdict_t pk_rsp_v_q, pk_ini_v_q;    // each owner's verdict of the previous cycle
  // pk_v.data is read per owner (start_data)
  // verilator lint_off UNUSEDSIGNAL
  verdict_t pk_v;
  // verilator lint_on UNUSEDSIGNAL
  assign pk_v = pk_rsp_q ? pk_rsp_v_q : pk_ini_v_q;
  logic rsp_sv_q, ini_sv_q;            // source status valid in the previous cycle
  logic fresh_q;
  wire  fresh = fresh_q && rsp_sv_q == rsp_stat.valid && ini_sv_q == ini_stat.valid;

  // An owner drops its job in the cycle after its done pulse: no pick then
  // (a done pulse follows a cycle out of TX_IDLE or a pick, after which
  // fresh_q is low).
  wire settle   = ini_done_q || rsp_done_q;
  wire pick_ok  = fresh;
  wire pick_rsp = pick_ok && rsp_job_valid && pk_rsp_q;
  // pick_raw, pick_ini_now, pick_i, pick_failed and load_job are read only
  // by the clocked processes: functions called there, so the model does
  // not evaluate them as logic of the local_tx_en input (its input region
  // evaluates that logic again every cycle). pick_ini, read by the stream's
  // ready (start_data), stays a wire.
  function automatic logic pick_raw();
    pick_raw = pick_ok && local_tx_en && pk_raw_q;
  endfunction
  wire pick_ini = pick_ok && local_tx_en && ini_job_valid && pk_ini_q;
  // A reply without Data needs none of those compares: it is eligible as
  // soon as its job is offered, so when no other frame was chosen it is
  // picked in that cycle from the live job (all flops: the owner's job
  // register and TX's own state), a cycle before the registered choice
  // would take it. The choice it skips could only have been this reply.
  wire pick_rsp_now = state_q == TX_IDLE && !settle && !pk_ini_q && !pk_raw_q &&
                      rsp_job_valid && !rsp_job.has_data;
  // With RSP_NOW the same a cycle earlier: a reply completed in this
  // cycle (rsp_now; rsp_job is then preloaded with all but its value, and
  // no reply is offered, so none was chosen), under the same conditions.
  wire rsp_cpl      = RSP_NOW && rsp_now;
  wire pick_rsp_cpl = state_q == TX_IDLE && !settle && !pk_ini_q && !pk_raw_q && rsp_cpl;
  wire pick_r       = pick_rsp || pick_rsp_now || pick_rsp_cpl;
  // The same for an initiator request without Data (RMEM_READ_REQ, ...)
  // when no reply is offered and the raw head does not have its turn: the
  // registered choice would take it in the next cycle.
  wire pick_ini_now_c = state_q == TX_IDLE && !settle && !pk_rsp_q && !pk_raw_q && !pk_ini_q &&
                        ini_job_valid && !ini_job.has_data && !rsp_job_valid && !rsp_cpl &&
                        !(head_raw && raw_turn_q);
  function automatic logic pick_ini_now();
    pick_ini_now = local_tx_en && pick_ini_now_c;
  endfunction
  function automatic logic pick_i();
    pick_i = pick_ini || pick_ini_now();
  endfunction

  src_status_t cur_stat;
  // the registered choices are exclusive: the responder's job unless the
  // initiator was chosen or no reply is offered (pick_rsp and pick_rsp_now
  // need rsp_job_valid, pick_rsp_now a low pk_ini_q)
  // pick_ini_sel: the picked job is the initiator's. The job itself is not
  // multiplexed into a wire (303 bits copied every cycle in the model):
  // each use selects the fields it reads.
  wire pick_ini_sel = pk_ini_q || !(rsp_job_valid || rsp_cpl);
  assign cur_stat  = (owner_q == OWN_RSP) ? rsp_stat : ini_stat;

  // a pick of the initiator means the responder was not eligible (pk_rsp_q
  // low); a reply without Data never failed its source
  function automatic logic pick_failed();
    pick_failed = pk_v.failed && !pick_rsp_now && !pick_rsp_cpl && !pick_ini_now();
  endfunction

  wire can_load   = !o_valid_q || eth.tready;
  wire start_data = (pick_rsp && pk_rsp_v_q.data) || (pick_ini && pk_ini_v_q.data);
  // Data words of the job, registered (at 32 bits the header takes four or
  // more cycles after the pick, so ew_q is in place before Data is
  // counted; wider, it is loaded at the pick)
  logic [LEN_W-1:0] ew_q;
  // wz_q is wc_q == ew_q, registered: one cycle late while neither changes
  // (the header's cycles and TX_STATUS), and ahead for the Data word TX_DATA
  // counts, so the 32-bit compare is not in front of the Data and status
  // decisions
  logic             wz_q;

  // the stream head is this job's (the drain states' ready): read from the
  // job register's fields, apart from the ready's other terms
  wire drain_head = head_for(job_q.peer, job_q.role, job_q.seq);

  // (evaluated in TX_DATA only; in_words, the words of the head beat)
  function automatic logic in_over(input logic [LEN_W-1:0] in_words);
    if (N == 1) in_over = wz_q;
    else        in_over = wc_q + in_words > ew_q;
  endfunction

  always_comb begin
    case (state_q)
      TX_IDLE:                   loc.tready = start_data;
      // a failed source still ends its stream with TLAST after its last
      // good beat: every beat read before the failure is sent, however
      // early the failed status arrives
      TX_DATA:                   loc.tready = can_load;
      TX_RAW:                    loc.tready = can_load || raw_drop_q;
      // only this job's beats: a raw frame may sit behind them
      TX_DRAIN, TX_PRE_DRAIN:    loc.tready = drain_head;
      default:                   loc.tready = 1'b0;
    endcase
  end
  // the handshake per state, each from its own ready term, so the drain's
  // TID compare is not in front of everything the other states take a beat
  // into (the same handshake as loc.tvalid && loc.tready in that state)
  wire fire_idle  = loc.tvalid && start_data;
  wire fire_data  = loc.tvalid && can_load;
  wire fire_raw   = loc.tvalid && (can_load || raw_drop_q);
  wire fire_drain = loc.tvalid && drain_head;

  // the header word hidx_q of the job (read only in TX_HEADER), in lane 0
  function automatic logic [DATA_W-1:0] hword();
    hword = (hidx_q < 3'd4) ? hdr_word(hidx_q[1:0], job_q.dst, job_q.src, job_q.cmd)
                            : job_q.params[hidx_q[1:0]];
  endfunction
  wire hdr_final = (hidx_q == 3'd3 + job_q.nparams);

  // Above 32 bits the header and parameters go out up to N words a cycle
  // (an RMEM request or reply is a header alone, so one word a cycle would
  // make almost every cycle of its frame a one-word cycle into the packer).
  // pick_hdr: the picked job's words 0..N-1, all header words (N <= 4), so
  // never the frame's last; hdr_lanes: words hidx_q .. hidx_q + N - 1 of
  // the job being sent, those past its last parameter not kept (and zero);
  // hdr_end: the last parameter is among them.
  // Each a function called in the one branch that uses it (the pick,
  // TX_HEADER), not an always_comb the model runs every cycle.
  function automatic logic [ETH_W-1:0] pick_hdr(input logic [47:0] dst, input logic [47:0] src,
                                                input logic [7:0] cmd);
    for (int i = 0; i < N; i++) pick_hdr[32*i +: 32] = hdr_word(2'(i), dst, src, cmd);
  endfunction
  // the lane's header or parameter word index
  function automatic logic [3:0] hdr_j(input logic [3:0] i);
    hdr_j = {1'b0, hidx_q} + i;
  endfunction
  function automatic logic [KW-1:0] hdr_keep();
    for (int i = 0; i < N; i++)
      hdr_keep[4*i +: 4] = (i == 0 || hdr_j(4'(i)) <= 4'd3 + 4'(job_q.nparams)) ? 4'hF : 4'h0;
  endfunction
  function automatic logic [ETH_W-1:0] hdr_lanes();
    logic [3:0] j;
    for (int i = 0; i < N; i++) begin
      j = hdr_j(4'(i));
      if (i == 0 || j <= 4'd3 + 4'(job_q.nparams))
        hdr_lanes[32*i +: 32] = (j < 4'd4) ? hdr_word(j[1:0], job_q.dst, job_q.src, job_q.cmd)
                                           : job_q.params[j[1:0]];
      else
        hdr_lanes[32*i +: 32] = 32'h0;
    end
  endfunction
  wire hdr_end = 4'({1'b0, hidx_q} + 4'(N - 1)) >= 4'd3 + 4'(job_q.nparams);
  // At N >= 8 (256 bits) a beat holds the header and every parameter (at
  // most 4 + 4 words): the pick sends them all (pick_all: hdr_lanes of the
  // picked job at hidx_q = 0, pick_keep its keep) and the frame goes on
  // without a TX_HEADER cycle; TX_HEADER (the pick's beat not loaded) then
  // sends the same beat from hidx_q = 0.
  function automatic logic [ETH_W-1:0] pick_all(input logic [47:0] dst, input logic [47:0] src,
                                                input logic [7:0] cmd,
                                                input logic [3:0][31:0] params,
                                                input logic [2:0] np);
    pick_all = '0;
    for (int i = 0; i < N; i++)
      if (i < 4)                            pick_all[32*i +: 32] = hdr_word(2'(i), dst, src, cmd);
      else if (i < 8 && 4'(i) <= 4'd3 + 4'(np)) pick_all[32*i +: 32] = params[2'(i - 4)];
  endfunction
  // The reply's second parameter as it is picked: a read that completes in
  // this cycle (pick_rsp_cpl) puts its value in place of the preloaded one
  // (job_q and the 256-bit pick alike).
  function automatic logic [31:0] rsp_pick_p1();
    rsp_pick_p1 = rsp_cpl ? rsp_now_p1 : rsp_job.params[1];
  endfunction
  function automatic logic [3:0][31:0] rsp_pick_params();
    rsp_pick_params    = rsp_job.params;
    rsp_pick_params[1] = rsp_pick_p1();
  endfunction
  function automatic logic picked_has_data();
    picked_has_data = pick_ini_sel ? ini_job.has_data : rsp_job.has_data;
  endfunction
  // Data words of the picked job (ew_q and the 256-bit pick's wz_q)
  function automatic logic [LEN_W-1:0] picked_words();
    picked_words = data_words(pick_ini_sel ? ini_job.data_len : rsp_job.data_len);
  endfunction
  function automatic logic [KW-1:0] pick_keep(input logic [2:0] np);
    for (int i = 0; i < N; i++)
      pick_keep[4*i +: 4] = (i < 8 && 4'(i) <= 4'd3 + 4'(np)) ? 4'hF : 4'h0;
  endfunction

  // Above 32 bits a final Data beat with a free lane carries the EndOfData
  // word too (in the lane after its last word), so a good source ends the
  // frame in the status cycle instead of a cycle of its own (TX_EOD).
  // Data words are whole, so the held keep is whole words, contiguous,
  // lane 0 always kept.
  wire              held_room = N > 1 && !held_keep_q[KW-4];
  // (called in TX_STATUS only)
  function automatic logic [ETH_W-1:0] held_eod();
    for (int i = 0; i < N; i++)
      if (held_keep_q[4*i])                        held_eod[32*i +: 32] = held_q[32*i +: 32];
      else if (i > 0 && held_keep_q[4*(i - 1)])    held_eod[32*i +: 32] = EOD;
      else                                         held_eod[32*i +: 32] = 32'h0;
  endfunction
  function automatic logic [KW-1:0] held_eod_keep();
    for (int i = 0; i < N; i++)
      held_eod_keep[4*i +: 4] = (held_keep_q[4*i] || (i > 0 && held_keep_q[4*(i - 1)])) ? 4'hF
                                                                                      : 4'h0;
  endfunction

  // The job register is loaded at the pick, in a process of its own: the
  // controller's process below reads it, and a register that its own
  // process both reads and writes costs the simulation model a copy of all
  // its 303 bits on every cycle (Verilator's delayed-assignment shadow).
  function automatic logic load_job();
    load_job = state_q == TX_IDLE && !pick_raw() && (pick_r || pick_i());
  endfunction
  always_ff @(posedge clk) begin
    if (rst)           job_q <= '0;
    else if (load_job()) begin
      job_q <= pick_ini_sel ? ini_job : rsp_job;
      // the completion's value into the preloaded reply (pick_rsp_cpl)
      if (!pick_ini_sel) job_q.params[1] <= rsp_pick_p1();
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q        <= TX_IDLE;
      owner_q        <= OWN_RAW;
      ew_q           <= '0;
      wz_q           <= 1'b1;
      pk_rsp_q       <= 1'b0;
      pk_ini_q       <= 1'b0;
      pk_raw_q       <= 1'b0;
      pk_rsp_v_q     <= '0;
      pk_ini_v_q     <= '0;
      rsp_sv_q       <= 1'b0;
      ini_sv_q       <= 1'b0;
      fresh_q        <= 1'b0;
      hidx_q         <= '0;
      held_q         <= '0;
      held_keep_q    <= '0;
      wc_q           <= '0;
      in_last_seen_q <= 1'b0;
      eth_seen_q     <= 1'b0;
      raw_drop_q     <= 1'b0;
      raw_turn_q     <= 1'b0;
      code_q         <= ERR_NONE;
      o_valid_q      <= 1'b0;
      o_last_q       <= 1'b0;
      o_data_q       <= '0;
      o_keep_q       <= '0;
      ini_done_q     <= 1'b0;
      rsp_done_q     <= 1'b0;
      done_sent_q    <= 1'b0;
      done_code_q    <= ERR_NONE;
    end else begin
      ini_done_q <= 1'b0;
      rsp_done_q <= 1'b0;
      // above 32 bits the header can take a single cycle after the pick,
      // so ew_q is loaded from the picked job at the pick itself (wz_q is
      // then in place for the first TX_STATUS, two cycles after the pick)
      if (N > 1 && load_job())
        ew_q <= picked_words();
      else                   ew_q <= data_words(job_q.data_len);
      wz_q       <= wc_q == ew_q;
      pk_rsp_q    <= rsp_elig;
      pk_ini_q    <= local_tx_en && c_ini_c;
      pk_raw_q    <= local_tx_en && c_raw_c;
      // the verdicts and the status views are read only through fresh_q,
      // which a cycle out of TX_IDLE leaves low or (end_now, below) sets
      // with nothing chosen: loaded in TX_IDLE only, they do not change
      // after a frame's end
      if (state_q == TX_IDLE) begin
        pk_rsp_v_q <= verdict(rsp_job.has_data, rsp_job.data_len, rsp_stat);
        pk_ini_v_q <= verdict(ini_job.has_data, ini_job.data_len, ini_stat);
        rsp_sv_q   <= rsp_stat.valid;
        ini_sv_q   <= ini_stat.valid;
      end
      // Above 32 bits the choice registered at a frame's end (end_now)
      // leaves the ending owner's job out; when it chose nothing, no
      // registered pick can follow in TX_IDLE's first cycle whatever
      // fresh_q says, so fresh_q is set as TX_IDLE would set it and does
      // not change in that cycle (the model is at rest after the frame's
      // TLAST handshake). Else it stays low for that cycle, as at 32 bits.
      fresh_q    <= (state_q == TX_IDLE && !fire_idle && !settle &&
                     !(pick_r || pick_i() || pick_raw())) ||
                    (end_now && !rsp_elig && !(local_tx_en && (c_ini_c || c_raw_c)));
      if (eth.tready) o_valid_q <= 1'b0;
      if (eth_done)  eth_seen_q <= 1'b1;

      case (state_q)
        TX_IDLE: begin
          eth_seen_q <= 1'b0;
          code_q     <= ERR_NONE;
          if (pick_raw()) begin
            owner_q    <= OWN_RAW;
            raw_drop_q <= (loc.tdest[DEST_W-1 -: 2] == ROUTE_DROP);
            raw_turn_q <= 1'b0;
            state_q    <= TX_RAW;
          end else if (pick_r || pick_i()) begin
            owner_q <= pick_r ? OWN_RSP : OWN_INI;
            if (pick_i()) raw_turn_q <= 1'b1;
            hidx_q  <= '0;
            if (pick_failed()) begin
              code_q <= pk_v.code;
              if (pk_v.drain) begin
                state_q <= TX_PRE_DRAIN;
              end else begin
                // nothing was streamed: report at once, no frame
                ini_done_q  <= pick_i();
                rsp_done_q  <= pick_r;
                done_sent_q <= 1'b0;
                done_code_q <= pk_v.code;
              end
            end else begin
              // the first payload beat is taken now and held
              held_q         <= in_data_f(loc.tdata, loc.tkeep);
              held_keep_q    <= in_keep_f(loc.tkeep);
              wc_q           <= in_words_f(loc.tkeep);
              in_last_seen_q <= loc.tlast && start_data;
              state_q        <= TX_HEADER;
              // the frame's first word goes out with the pick (a header
              // has four words or more, so it is never the last)
              if (can_load) begin
                o_valid_q <= 1'b1;
                o_last_q  <= 1'b0;
                if (N == 1) begin
                  o_data_q <= pick_ini_sel
                              ? ETH_W'(hdr_word(2'd0, ini_job.dst, ini_job.src, ini_job.cmd))
                              : ETH_W'(hdr_word(2'd0, rsp_job.dst, rsp_job.src, rsp_job.cmd));
                  o_keep_q <= KW'(4'hF);
                  hidx_q   <= 3'd1;
                end else if (N < 8) begin
                  // wider: the first N header words together
                  o_data_q <= pick_ini_sel ? pick_hdr(ini_job.dst, ini_job.src, ini_job.cmd)
                                           : pick_hdr(rsp_job.dst, rsp_job.src, rsp_job.cmd);
                  o_keep_q <= '1;
                  hidx_q   <= 3'(N);
                end else begin
                  // 256 bits: the whole header and the parameters; Data
                  // (or the frame's end) next. wz_q for a first beat that
                  // is the source's last (TX_STATUS reads it next cycle).
                  o_data_q <= pick_ini_sel
                      ? pick_all(ini_job.dst, ini_job.src, ini_job.cmd, ini_job.params,
                                 ini_job.nparams)
                      : pick_all(rsp_job.dst, rsp_job.src, rsp_job.cmd, rsp_pick_params(),
                                 rsp_job.nparams);
                  o_keep_q <= pick_keep(pick_ini_sel ? ini_job.nparams : rsp_job.nparams);
                  o_last_q <= !picked_has_data();
                  wz_q     <= in_words_f(loc.tkeep) == picked_words();
                  state_q  <= !picked_has_data() ? TX_WAIT_END
                            : (loc.tlast && start_data) ? TX_STATUS : TX_DATA;
                end
              end
            end
          end
        end

        TX_PRE_DRAIN: begin
          if (fire_drain && loc.tlast) begin
            ini_done_q  <= (owner_q == OWN_INI);
            rsp_done_q  <= (owner_q == OWN_RSP);
            done_sent_q <= 1'b0;
            done_code_q <= code_q;
            state_q     <= TX_IDLE;
          end
        end

        TX_HEADER: begin
          if (can_load) begin
            o_valid_q <= 1'b1;
            if (N == 1) begin
              o_data_q <= ETH_W'(hword());
              o_keep_q <= KW'(4'hF);
              o_last_q <= hdr_final && !job_q.has_data;
              hidx_q   <= hidx_q + 3'd1;
              if (hdr_final)
                state_q <= !job_q.has_data ? TX_WAIT_END
                         : in_last_seen_q  ? TX_STATUS : TX_DATA;
            end else begin
              // wider: up to N words, the rest of the header in one or two
              // cycles (hidx_q wraps only when the header is done)
              o_data_q <= hdr_lanes();
              o_keep_q <= hdr_keep();
              o_last_q <= hdr_end && !job_q.has_data;
              hidx_q   <= hidx_q + 3'(N);
              if (hdr_end)
                state_q <= !job_q.has_data ? TX_WAIT_END
                         : in_last_seen_q  ? TX_STATUS : TX_DATA;
            end
          end
        end

        TX_DATA: begin
          if (fire_data) begin
            if (in_over(in_words_f(loc.tkeep))) begin
              // more source words than Length: end the frame, drop the rest
              // (at N > 1 the whole beat that passes Length)
              code_q         <= ERR_LOCAL_AXIS;
              in_last_seen_q <= loc.tlast;
              state_q        <= TX_ERROR_FLUSH;
            end else begin
              o_valid_q <= 1'b1;
              o_data_q  <= held_q;
              o_keep_q  <= held_keep_q;
              o_last_q  <= 1'b0;
              held_q    <= in_data_f(loc.tdata, loc.tkeep);
              held_keep_q <= in_keep_f(loc.tkeep);
              wc_q      <= wc_q + in_words_f(loc.tkeep);
              wz_q      <= wc_q + in_words_f(loc.tkeep) == ew_q;
              if (loc.tlast) begin
                in_last_seen_q <= 1'b1;
                state_q        <= TX_STATUS;
              end
            end
          end
        end

        TX_STATUS: begin
          if (cur_stat.valid && can_load) begin
            o_valid_q <= 1'b1;
            o_data_q  <= held_q;
            o_keep_q  <= held_keep_q;
            if (cur_stat.code == ERR_NONE && cur_stat.len == job_q.data_len && wz_q &&
                held_room) begin
              // wider, a lane free: the EndOfData word rides with the beat
              o_data_q <= held_eod();
              o_keep_q <= held_eod_keep();
              o_last_q <= 1'b1;
              state_q  <= TX_WAIT_END;
            end else if (cur_stat.code == ERR_NONE && cur_stat.len == job_q.data_len && wz_q) begin
              o_last_q <= 1'b0;
              state_q  <= TX_EOD;
            end else begin
              o_last_q <= 1'b1;
              code_q   <= (cur_stat.code != ERR_NONE) ? cur_stat.code : ERR_LOCAL_AXIS;
              state_q  <= TX_WAIT_END;
            end
          end
        end

        TX_EOD: begin
          if (can_load) begin
            o_valid_q <= 1'b1;
            o_data_q  <= ETH_W'(EOD);
            o_keep_q  <= KW'(4'hF);
            o_last_q  <= 1'b1;
            state_q   <= TX_WAIT_END;
          end
        end

        TX_ERROR_FLUSH: begin
          // the started frame ends with the held word and no EndOfData
          if (can_load) begin
            o_valid_q <= 1'b1;
            o_data_q  <= held_q;
            o_keep_q  <= held_keep_q;
            o_last_q  <= 1'b1;
            state_q   <= in_last_seen_q ? TX_WAIT_END : TX_DRAIN;
          end
        end

        TX_DRAIN: begin
          if (fire_drain && loc.tlast) state_q <= TX_WAIT_END;
        end

        TX_RAW: begin
          if (fire_raw) begin
            if (!raw_drop_q) begin
              o_valid_q <= 1'b1;
              o_data_q  <= loc.tdata;
              o_keep_q  <= loc.tkeep;
              o_last_q  <= loc.tlast;
            end
            if (loc.tlast) state_q <= raw_drop_q ? TX_IDLE : TX_WAIT_END;
          end
        end

        TX_WAIT_END: begin
          if (eth_done || eth_seen_q) begin
            // (above 32 bits told now, by end_now); eth_seen_q and code_q
            // are left as TX_IDLE sets them
            eth_seen_q  <= 1'b0;
            code_q      <= ERR_NONE;
            ini_done_q  <= N == 1 && owner_q == OWN_INI;
            rsp_done_q  <= N == 1 && owner_q == OWN_RSP;
            done_sent_q <= N == 1;
            done_code_q <= code_q;
            state_q     <= TX_IDLE;
          end
        end

        default: state_q <= TX_IDLE;
      endcase
    end
  end
endmodule
