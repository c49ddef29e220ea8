// RX controller: parses every received Ethernet frame once, in stream order.
// The four header words are kept (with keep/last) for classification and for
// replaying a raw frame. oETP requests resolve their source peer and go to
// the responder; responses are matched against the initiating context.
// Bulk Data (DMA_WRITE_REQ, DMA_READ_RSP) streams to m_axis_local through
// one held beat (a word at ETH_W = 32; above, up to N = ETH_W / 32 words a
// cycle from the aligner's data mode), which lets a truncated or aborted
// payload still end with TLAST. A raw frame's words after its header go out
// as they come (N a cycle above 32), cut one byte past the frame ceiling.
// Above 32 bits the header goes in one cycle at 128 (two at 64), the first
// two parameters of a command without Length together, and EndOfData, the
// tail and a dropped frame N words a cycle (the aligner's take-all with
// w_all_max chosen per state). EndOfData and the frame length are checked
// at their fixed positions; the outcome goes to rx_status (incoming write)
// or to the initiator (response), never into the payload.
module openenoc_oetp_rx
  import openenoc_csr_pkg::*;
  import openenoc_oetp_pkg::*;
#(
  // Ethernet width (32, 64, 128 or 256): Data words taken a cycle (N = ETH_W / 32)
  // and the width of loc
  parameter int ETH_W = 32,
  localparam int N    = ETH_W / 32,
  localparam int MW   = $clog2(N + 1)
) (
  input  logic              clk,
  input  logic              rst,
  input  logic [13:0]       max_frame,     // frame ceiling in force (bytes)
  input  logic [13:0]       frag_ceil,     // peer fragment ceiling

  // the timeouts belong to the initiator
  // verilator lint_off UNUSEDSIGNAL
  input  oetp_conf_t        conf,
  // verilator lint_on UNUSEDSIGNAL
  // Ethernet stream (s_axis_eth, after its register slice or, above 32 bits,
  // the word aligner in header mode: one 32-bit word a beat); TID/TDEST/TUSER
  // unused
  openenoc_axis_if.snk      eth,
  // above 32 bits, the aligner's data mode (openenoc_axis_word_align's w_*):
  // RX_DATA (and the states above) take up to w_all_max words a cycle;
  // unused at 32, where eth carries the Data words too
  // verilator lint_off UNUSEDSIGNAL
  input  logic [ETH_W-1:0]  w_data,
  input  logic [ETH_W/8-1:0] w_keep,
  input  logic              w_all_valid,
  input  logic              w_all_last,
  // verilator lint_on UNUSEDSIGNAL
  output logic              w_take_all,
  output logic [MW-1:0]     w_all_max,
  // local stream, ETH_W wide: lane i carries a word when i == 0 or
  // tkeep[4i] (the m_axis_local packer's input)
  openenoc_axis_if.src      loc,
  // peer lookup client
  output logic              lk_req_valid,
  output lookup_req_t       lk_req,
  input  logic              lk_rsp_valid,
  // a source lookup needs only hit and index
  // verilator lint_off UNUSEDSIGNAL
  input  lookup_rsp_t       lk_rsp,
  // verilator lint_on UNUSEDSIGNAL
  // raw descriptor claim (responder_if)
  input  logic              claim_available,
  output logic              claim_valid,
  input  logic              claim_ready,
  // responder
  output logic              admit_valid,
  output rx_admit_t         admit,
  input  logic              rsp_busy,
  input  logic              rsp_accepted,
  output logic              rxs_valid,     // rx_status (responder_if)
  output xfer_status_t      rxs,
  input  logic              rxs_ready,
  // initiator
  input  ini_ctx_t          ctx,
  output logic              ini_done,
  output rsp_result_t       ini_result,
  output logic              ini_busy,
  output logic              ini_ending,    // the matched reply's TLAST is in: verdict due
  output logic [LEN_W-1:0]  ini_len
);
  typedef enum logic [3:0] {
    RX_IDLE, RX_HEADER, RX_CLASSIFY, RX_LOOKUP, RX_META, RX_REQUEST, RX_DATA,
    RX_EOD, RX_TAIL, RX_FINAL, RX_STATUS, RX_DROP, RX_RAW_CLAIM, RX_RAW_REPLAY,
    RX_RAW_STREAM
  } rx_state_e;

  // Kept in its 4-bit encoding (synthesis FSM recoding off): one-hot
  // recoding put the unm_q override below in front of every state's decode
  // and mapped the next-state logic to 10 to 11 LUT levels; each state
  // decodes in one LUT from the four bits and unm_q here.
  (* fsm_encoding = "none" *)
  rx_state_e         state_q;
  // An unmatched reply's Request ID word sets unm_q instead of writing
  // state_q: RX_META moves on as if the reply matched, and st reads as
  // RX_IDLE (the word was the last) or RX_DROP for that one cycle, so the
  // 32-bit Request ID compare feeds a flop and not the next-state logic.
  // A DMA_WRITE_REQ whose Length is refused does the same (state_q moves
  // to RX_REQUEST as for a good Length).
  logic              unm_q, unm_last_q;
  rx_state_e         st;
  assign st = unm_q ? (unm_last_q ? RX_IDLE : RX_DROP) : state_q;
  logic [3:0][DATA_W-1:0] hdr_q;
  logic [3:0][KEEP_W-1:0] hkeep_q;
  logic [2:0]        nhdr_q;        // header words received
  logic [1:0]        ridx_q;        // replay index
  logic [15:0]       fb_q;          // frame bytes so far (saturating)
  logic              last_seen_q;
  logic [3:0][31:0]  p_q;           // parameters
  logic [2:0]        pidx_q;
  logic [PEER_IDX_W-1:0] peer_q;
  // The source lookup of a request starts with header word 3 when that word
  // reads as an oETP request (EtherType, Magic, an even Cmd), or else in
  // RX_CLASSIFY, and runs while the parameters arrive (RX_META takes them
  // meanwhile); RX_FINAL waits for the answer and takes it in the cycle it
  // comes. A DMA_WRITE_REQ still waits in RX_LOOKUP: it is admitted at its
  // Length word. One query is in flight at a time; the answer to one started
  // for a frame that then is no request changes nothing (a lookup only
  // reads the peer table), and a request whose lookup did not start yet
  // waits for that answer in RX_CLASSIFY.
  logic              lk_pend_q;     // a source lookup is in flight
  logic              lk_mine_q;     // the lookup in flight or answered is this frame's
  logic              lk_ok_q;       // the source is known and the responder was free
  logic              matched_q;     // response matched the initiating context
  logic              admitted_q;    // a DMA_WRITE_REQ went to the responder
  logic [LEN_W-1:0]  wc_q, dbytes_q;
  logic [1:0]        dlen_q;        // Length mod 4: the final word's TKEEP
  logic [LEN_W-1:0]  dlast_q;       // data_words(Length) - 1
  logic [15:0]       dframe_q;      // logical frame length with Length's Data
  logic              eod_ok_q, trunc_q;
  logic [1:0]        route_q;
  logic [SEQ_W-1:0]  rseq_q;        // responder-local sequence
  // above 32 bits: Data words left (wl_q, 0 when Length was 0: never
  // final) and min(N, words left) (amax_q, the aligner's w_all_max), kept
  // with the count so no subtraction sits in front of the state decode
  logic [LEN_W-1:0]  wl_q;
  logic [MW-1:0]     amax_q;
  logic              held_valid_q, held_final_q;
  logic [ETH_W-1:0]  held_data_q;
  logic [ETH_W/8-1:0] held_keep_q;
  logic              o_valid_q, o_last_q;
  logic [ETH_W-1:0]  o_data_q;
  logic [ETH_W/8-1:0] o_keep_q;
  logic [SEQ_W-1:0]  o_id_q;
  logic [DEST_W-1:0] o_dest_q;
  logic [USER_W-1:0] o_user_q;
  logic              lk_valid_q, claim_valid_q, admit_valid_q, rxs_valid_q;
  logic              ini_busy_q;
  rx_admit_t         admit_q;
  xfer_status_t      rxs_q;

  assign {loc.tvalid, loc.tdata, loc.tkeep, loc.tlast, loc.tid, loc.tdest, loc.tuser} =
         {o_valid_q, o_data_q, o_keep_q, o_last_q, o_id_q, o_dest_q, o_user_q};
  assign lk_req_valid = lk_valid_q;
  assign claim_valid  = claim_valid_q;
  assign rxs_valid    = rxs_valid_q;
  assign rxs          = rxs_q;
  assign ini_busy     = ini_busy_q;
  assign ini_len      = dbytes_q;

  // header words RX_IDLE takes at once above 32 bits (hdr_take, below)
  localparam int HK = N < 4 ? N : 4;
  logic hdr_take, hdr2_take;

  // ---- header fields ------------------------------------------------------
  wire [47:0] src = {hdr_q[1][23:16], hdr_q[1][31:24], hdr_q[2][7:0], hdr_q[2][15:8],
                     hdr_q[2][23:16], hdr_q[2][31:24]};
  wire        group    = hdr_q[0][0];     // the destination's I/G bit
  // The same fields of the header as it will be after this cycle's edge:
  // at 128 bits RX_IDLE may take all four header words at once (hdr_take)
  // and move straight to RX_CLASSIFY, so the flops made from the header
  // (dst_ok_q, raw_ok_q, hdr_match_q; every cycle but RX_IDLE's without
  // hdr_take) are made from those words in that cycle; else (and always at
  // 32 and 64) from hdr_q.
  logic [2:0][31:0] hdr_nx;
  wire [47:0] dst_nx = {hdr_nx[0][7:0], hdr_nx[0][15:8], hdr_nx[0][23:16], hdr_nx[0][31:24],
                        hdr_nx[1][7:0], hdr_nx[1][15:8]};
  wire [47:0] src_nx = {hdr_nx[1][23:16], hdr_nx[1][31:24], hdr_nx[2][7:0], hdr_nx[2][15:8],
                        hdr_nx[2][23:16], hdr_nx[2][31:24]};
  wire        group_nx = dst_nx[40];
  // What RX_CLASSIFY and the later states need from the header's size and
  // word 3 is registered with the header word that completes it (RX_HEADER
  // writes them at every beat, word 3's decode with word 3), so neither a
  // byte-count compare nor the command decode sits in front of the
  // classification and the parameter and Data stages; RX_IDLE clears them
  // for a frame that ends before word 3. A frame that ends right after Magic
  // is malformed oETP, never raw; its missing Cmd reads as the unassigned 0.
  typedef struct packed {
    logic [7:0] cmd;                // Cmd (0 when the frame has < 16 bytes)
    logic       known;              // cmd_known(cmd)
    logic [2:0] np;                 // cmd_nparams(cmd)
    logic       rsp;                // a response
    logic       rd_req;             // RMEM_READ_REQ or DMA_READ_REQ
    logic       rd_rsp, wr_req;     // DMA_READ_RSP, DMA_WRITE_REQ (Data follow)
  } cmd_dec_t;
  function automatic cmd_dec_t cmd_decode(input logic [7:0] c);
    cmd_decode.cmd    = c;
    cmd_decode.known  = cmd_known(c);
    cmd_decode.np     = cmd_nparams(c);
    cmd_decode.rsp    = cmd_is_response(c);
    cmd_decode.rd_req = c == CMD_RMEM_READ_REQ || c == CMD_DMA_READ_REQ;
    cmd_decode.rd_rsp = c == CMD_DMA_READ_RSP;
    cmd_decode.wr_req = c == CMD_DMA_WRITE_REQ;
  endfunction
  logic       fb14_q, fb15_q;       // the header has 14 / 15 bytes or more
  logic       oetp_hdr_q;           // EtherType 0x88B5 and Magic 0x0E
  cmd_dec_t   cd_q;
  wire  [7:0] cmd      = cd_q.cmd;
  wire        rsp_q    = cd_q.rsp;
  wire        rd_rsp_q = cd_q.rd_rsp;
  wire        wr_req_q = cd_q.wr_req;
  wire        is_oetp  = fb15_q && oetp_hdr_q;
  // dst_ok and raw_ok come from flops (dst_ok_q, raw_ok_q, made every
  // cycle but RX_IDLE's without hdr_take): the destination words are in place two cycles before
  // RX_CLASSIFY for any frame that reaches the checks (14 bytes or more)
  logic       dst_ok_q, raw_ok_q;
  wire        dst_ok   = dst_ok_q;
  wire [2:0]  np       = cd_q.np;
  wire        raw_ok   = raw_ok_q;
  wire        raw_ok_c = conf.receive_mode != 2'd0 &&
                         (conf.receive_mode == 2'd3 || dst_nx == conf.mac_address ||
                          dst_nx == 48'hFFFF_FFFF_FFFF || (conf.receive_mode == 2'd2 && group_nx));

  assign lk_req.kind      = LOOKUP_BY_MAC;
  assign lk_req.mode_mask = ~4'(1 << MODE_DISABLED);
  assign lk_req.peer      = '0;
  assign lk_req.mac       = src;

  // RX_CLASSIFY moves on to RX_META (below) and takes the first parameter
  // beat as RX_META would, in the same cycle: a frame's classification
  // costs no cycle of its stream (a received RMEM request and its response
  // each used to wait one). Every term is a flop.
  wire to_meta = fb14_q && is_oetp && !last_seen_q &&
                 !(!dst_ok || src[40] || !cd_q.known || (!rsp_q && group && cd_q.rd_req)) &&
                 (rsp_q || ((lk_mine_q || !lk_pend_q) && !wr_req_q));

  // ---- stream handshakes --------------------------------------------------
  wire can_load  = !o_valid_q || loc.tready;
  // RX_DATA's and RX_RAW_STREAM's words: eth at 32; above, the aligner's
  // data mode (up to amax_q words a presentation, lane 0 first)
  logic               d_valid, d_last;
  logic [ETH_W-1:0]   d_data;
  logic [ETH_W/8-1:0] d_keep;
  // a final word of the previous payload leaves first
  wire data_room = !held_valid_q || (can_load && !held_final_q);
  // RX_DROP stops once the frame's last word is in: an abort (the
  // initiating context timed out under a matched response) can take that
  // word in the cycle it sends RX_DATA, RX_META, RX_EOD or RX_TAIL here, and
  // the word then on eth is the next frame's first, for RX_IDLE.
  always_comb begin
    case (st)
      RX_IDLE, RX_HEADER, RX_META, RX_EOD, RX_TAIL: eth.tready = 1'b1;
      RX_DROP:       eth.tready = !last_seen_q;
      RX_CLASSIFY:   eth.tready = to_meta;
      RX_DATA:       eth.tready = N == 1 && data_room;
      RX_RAW_STREAM: eth.tready = N == 1 && can_load && !held_valid_q;
      default:       eth.tready = 1'b0;
    endcase
  end
  // Above 32 bits RX_IDLE takes the header's first HK = min(N, 4) words in
  // one cycle when the aligner presents them all and none ends the frame
  // (hdr_take); else the one word as at 32 (a frame of four words or less
  // goes a word a cycle). At 128 that is the whole header: RX_IDLE does
  // what RX_HEADER does with word 3 and moves to RX_CLASSIFY (the header
  // flops from hdr_nx, above); at 64 RX_HEADER takes words 2 and 3.
  assign hdr_take = N > 1 && st == RX_IDLE && w_all_valid && !w_all_last;
  // RX_CLASSIFY, moving on to RX_META, takes the first two parameters at
  // once above 32 bits when both are whole (par_take: the first then does
  // not end the frame) and the command has two or more and no Length
  // (DMA_WRITE_REQ, DMA_READ_RSP take theirs a word a cycle): an RMEM
  // read request's Request ID and address, its reply's Request ID and
  // value. The two words do what two meta_beat()s would.
  // lanes 0 and 1 of the presentation (none at 32)
  logic [7:0]  par_keep;
  logic [31:0] par_data1;
  if (N > 1) begin : g_par
    assign par_keep  = w_keep[7:0];
    assign par_data1 = w_data[63:32];
  end else begin : g_par_none
    assign par_keep  = '0;
    assign par_data1 = '0;
  end
  // lane 3 (header word 3 when HK = 4)
  logic [31:0] hdr_w3;
  if (N >= 4) begin : g_w3
    assign hdr_w3 = w_data[127:96];
    assign hdr_nx = hdr_take ? w_data[95:0] : hdr_q[2:0];
  end else if (N == 2) begin : g_w3_two
    assign hdr_w3 = '0;
    assign hdr_nx = {hdr2_take ? w_data[31:0] : hdr_q[2], hdr_q[1:0]};
  end else begin : g_w3_none
    assign hdr_w3 = '0;
    assign hdr_nx = hdr_q[2:0];
  end
  // At 64 bits RX_HEADER takes words 2 and 3 together (hdr2_take) when both
  // are presented (word 2 then does not end the frame) and does what it
  // does with each; the header flops read word 2 from hdr_nx.
  assign hdr2_take = N == 2 && st == RX_HEADER && nhdr_q == 3'd2 && w_all_valid && par_keep[4];
  wire [4:0] hb2 = {1'b0, fb_q[3:0]} + 5'(keep_bytes(par_keep[3:0])) + 5'(keep_bytes(par_keep[7:4]));
  wire par_take = N > 1 && st == RX_CLASSIFY && to_meta && w_all_valid &&
                  par_keep == 8'hFF && np >= 3'd2 && !rd_rsp_q && !wr_req_q;
  // RX_EOD, RX_TAIL and RX_DROP read no word past EndOfData's (lane 0):
  // above 32 bits they take every presented word (up to N, cut at the
  // frame's last), or the one word when fewer than N are there and none
  // ends the frame. take_last says the frame ended with the take. Nothing
  // once the frame's last word is in (RX_DROP after an abort took it): the
  // words there are the next frame's, and RX_DROP takes none of them (its
  // eth.tready is low then too, above) but moves to RX_IDLE.
  wire drain_st   = st == RX_EOD || st == RX_TAIL || st == RX_DROP;
  wire drain_take = N > 1 && drain_st && w_all_valid && !last_seen_q;
  // above 32 bits RX_DATA and RX_RAW_STREAM take every presented word
  // (w_all_max: amax_q, N from RX_IDLE until a Length sets it)
  assign w_take_all = N > 1 && ((st == RX_DATA && data_room) ||
                                (st == RX_RAW_STREAM && can_load && !held_valid_q) ||
                                hdr_take || hdr2_take || par_take || drain_take);
  assign w_all_max  = (N > 1 && st == RX_IDLE)     ? MW'(HK) :
                      (N > 1 && st == RX_CLASSIFY) ? MW'(2) :
                      (N > 1 && drain_st)          ? MW'(N) : amax_q;
  wire       in_fire = eth.tvalid && eth.tready;
  // The states take their beat on their own ready term (eth.tvalid alone
  // where they are always ready), so the held-word and output-slice terms of
  // RX_DATA and RX_RAW_STREAM sit only in front of those two states' logic.
  wire       fire_data = d_valid && data_room;
  wire       fire_raw  = (N == 1 ? eth.tvalid : d_valid) && can_load && !held_valid_q;
  wire [2:0] kb      = keep_bytes(eth.tkeep);
  // the bytes of this cycle's beat or presentation: above 32 bits the
  // presentation in RX_DATA and RX_RAW_STREAM (up to N words), elsewhere
  // the header-mode word
  logic [15:0] kb_in;
  logic        all_fire, take_last;
  if (N == 1) begin : g_one
    assign {d_valid, d_last, d_data, d_keep} = {eth.tvalid, eth.tlast, eth.tdata, eth.tkeep};
    assign kb_in     = 16'(kb);
    assign all_fire  = 1'b0;
    assign take_last = eth.tlast;
    // verilator lint_off UNUSEDSIGNAL
    wire unused = &{1'b0, w_data, w_keep, w_all_valid, w_all_last, wl_q};
    // verilator lint_on UNUSEDSIGNAL
  end else begin : g_wide
    assign {d_valid, d_last, d_data, d_keep} = {w_all_valid, w_all_last, w_data, w_keep};
    // the presentation's bytes summed only in the states that read them
    // (the model runs the lane loop only in the taken branch)
    always_comb
      if (st == RX_DATA || st == RX_RAW_STREAM || hdr2_take || par_take || drain_take) begin
        kb_in = '0;
        for (int i = 0; i < N; i++) kb_in = kb_in + 16'(keep_bytes(w_keep[4*i +: 4]));
      end else begin
        kb_in = 16'(kb);
      end
    assign all_fire  = w_all_valid && w_take_all;
    assign take_last = all_fire ? w_all_last : eth.tlast;
  end
  // the bytes of RX_IDLE's HK header words (hdr_take)
  logic [15:0] hk_bytes;
  // (read only with hdr_take: summed only then, the loop in the taken branch)
  always_comb begin
    hk_bytes = '0;
    if (hdr_take)
      for (int i = 0; i < HK; i++) hk_bytes = hk_bytes + 16'(keep_bytes(w_keep[4*i +: 4]));
  end
  // saturating below the 16-bit wrap: a take adds up to 4N bytes (every
  // value it stops at is far above any frame ceiling; 0xFFF0 at 32)
  wire [15:0] fb_next = (fb_q > 16'hFFF0 - 16'(4 * (N - 1))) ? fb_q : fb_q + kb_in;
  // the header's byte count after this beat (RX_HEADER: fb_q is at most 12)
  wire [4:0]  hb_next = {1'b0, fb_q[3:0]} + 5'(kb);

  // response matching on the Request ID word itself, which must be whole (a
  // frame cut inside it cannot be associated with the request); the
  // header's part comes from a flop (hdr_match_q), made every cycle but
  // RX_IDLE's without hdr_take and,
  // with header word 3, from that word's Cmd (hdr_cmd): RX_CLASSIFY takes
  // the Request ID word in the next cycle. The source MAC is in place by
  // then, and a context that is waiting had its MAC and command set cycles
  // before.
  logic hdr_match_q;
  wire  [7:0] hdr_cmd = (st == RX_HEADER && eth.tvalid && nhdr_q[1:0] == 2'd3) ?
                        (hb_next[4] ? eth.tdata[31:24] : 8'h00) :
                        (HK == 4 && hdr_take) ? (hk_bytes[4] ? hdr_w3[31:24] : 8'h00) :
                        hdr2_take ? (hb2[4] ? par_data1[31:24] : 8'h00) : cmd;
  wire rsp_match = ctx.waiting && hdr_match_q && eth.tkeep == 4'hF && eth.tdata == ctx.rid;
  // The matched response has finished on the wire (its TLAST handshake is
  // now or was the last edge); the verdict follows, so the timer must not
  // expire in between: a response completed at expiry wins. RX_CLASSIFY
  // matches the reply in the cycle it takes the Request ID (matched_q is
  // still clear), which ends a 20-byte reply (RMEM_WRITE_RSP, DMA_WRITE_RSP,
  // a cut one) at every width, or with the next word two-parameter replies
  // above 32 bits (par_take).
  wire ending /*verilator public_flat_rd*/ = matched_q && ((eth.tvalid && take_last &&
                (st == RX_META || st == RX_EOD || st == RX_TAIL)) ||
                (st == RX_DATA && fire_data && d_last) || st == RX_FINAL) ||
                (st == RX_CLASSIFY && to_meta && eth.tvalid && eth.tlast && rsp_q && rsp_match) ||
                (N > 1 && par_take && w_all_last && rsp_q && rsp_match);
  assign ini_ending = ending;
  // the initiating context timed out under a matched response
  wire aborted   = matched_q && !ctx.waiting;

  // ---- final length / EndOfData verdict ---------------------------------
  // Registered with Length, so no adder chain follows dlen_q: the final
  // word test (dlast_q = data_words - 1) and the logical length of a frame
  // with Data (dframe_q = header, parameters, Data words and EndOfData:
  // 16 + 4 * nparams + 4 * data_words(len) + 4, in one addition).
  function automatic logic [LEN_W-1:0] data_last(input logic [LEN_W-1:0] len);
    data_last = (len >> 2) - LEN_W'(len[1:0] == 2'b00);
  endfunction
  // data_last(len) == 0, without the subtraction: Length 1..4
  function automatic logic one_word(input logic [LEN_W-1:0] len);
    one_word = len[LEN_W-1:3] == '0 && len[2:0] != 3'd0 && len[2:0] <= 3'd4;
  endfunction
  function automatic logic [15:0] data_frame(input logic [15:0] len, input logic [7:0] c);
    data_frame = (len + 16'd23 + {11'd0, cmd_nparams(c), 2'b00}) & 16'hFFFC;
  endfunction
  wire [15:0] logical_frame = (wr_req_q || rd_rsp_q)
                              ? dframe_q : 16'd16 + {11'd0, np, 2'b00};
  // the word completing Length keeps only its meaningful bytes
  // dfinal_q is wc_q == dlast_q, kept beside the word count (it changes
  // only with the count and with Length), so no 32-bit compare sits in front
  // of the byte count of the received Data
  // (above 32 bits: words left <= N, so this presentation ends Data, its
  // final word on lane amax_q - 1)
  logic             dfinal_q;
  wire              dfinal = dfinal_q;
  // dkeep: d_keep with the final word cut to Length; dkb: its bytes.
  // Functions, called in RX_DATA's taking branch only: an always_comb (a
  // loop over the lanes above 32 bits) runs on every cycle in the
  // simulation model, a call only where it is made. At 32 the lane
  // condition is dfinal alone, as before.
  function automatic logic [ETH_W/8-1:0] dkeep();
    for (int i = 0; i < N; i++)
      dkeep[4*i +: 4] = d_keep[4*i +: 4] &
                        ((dfinal && (N == 1 || amax_q == MW'(i + 1))) ? last_keep(dlen_q) : 4'hF);
  endfunction
  function automatic logic [LEN_W-1:0] dkb(input logic [ETH_W/8-1:0] k);
    dkb = '0;
    for (int i = 0; i < N; i++) dkb = dkb + LEN_W'(keep_bytes(k[4*i +: 4]));
  endfunction
  // Data words of a Length (0 for Length 0) and min(N, them): wl_q, amax_q
  function automatic logic [LEN_W-1:0] data_words(input logic [LEN_W-1:0] len);
    data_words = (len >> 2) + LEN_W'(len[1:0] != 2'b00);
  endfunction
  function automatic logic [MW-1:0] data_max(input logic [LEN_W-1:0] len);
    data_max = data_words(len) >= LEN_W'(N) ? MW'(N) : MW'(data_words(len));
  endfunction
  // above 32 bits, dfinal for a Length: 1..N words
  function automatic logic few_words(input logic [LEN_W-1:0] len);
    few_words = data_words(len) != '0 && data_words(len) <= LEN_W'(N);
  endfunction
  function automatic logic len_ok_at(input logic [15:0] fb);
    len_ok_at = (fb == logical_frame ||
                 (logical_frame < 16'(PADDED_FRAME_LEN) && fb == 16'(PADDED_FRAME_LEN))) &&
                fb <= {2'b00, max_frame};
  endfunction
  wire all_params = pidx_q == np;
  // The verdict reads the length check from a flop, so the 16-bit compares
  // do not sit in front of the result selection. len_ok_q is the check of
  // the byte count with this cycle's beat (fb_next; no handshake term in
  // front of it) and holds in RX_FINAL: every state that moves to RX_FINAL
  // takes the frame's last beat in that cycle, so RX_FINAL decides in its
  // first cycle. The exceptions are cut frames (trunc_q), whose verdict
  // trunc_q decides alone: RX_REQUEST after a DMA_WRITE_REQ that ended at
  // Length, and a Length that is the last word (dframe_q changes with it).
  logic len_ok_q;
  wire data_ok    = len_ok_q && eod_ok_q && !trunc_q && all_params;

  // raw ceiling: a frame longer than max_frame is cut one byte past it, so
  // the raw paths see that it is too long and reject it (the metadata of a
  // raw frame stays zero)
  wire [15:0] raw_max  = {2'b00, max_frame} + 16'd1;
  logic               raw_cut;
  logic [ETH_W/8-1:0] raw_keep;
  if (N == 1) begin : g_raw_one
    wire [1:0] raw_room = raw_max[1:0] - fb_q[1:0];   // bytes left in the cut word, mod 4
    assign raw_cut  = (fb_q + 16'(kb) > raw_max) ||
                      (fb_q + 16'(kb) == raw_max && !eth.tlast);
    assign raw_keep = raw_cut ? (eth.tkeep & last_keep(raw_room[1:0])) : eth.tkeep;
  end else begin : g_raw_wide
    // wider the cut and the keep are raw_cut_w() and raw_keep_w(), called
    // where RX_RAW_STREAM takes the presentation: not a loop over the
    // bytes on every cycle, and not logic of the max_frame input (which
    // the model evaluates again in its input region)
    assign raw_cut  = 1'b0;
    assign raw_keep = '0;
  end
  function automatic logic raw_cut_w();
    raw_cut_w = (fb_q + kb_in > raw_max) || (fb_q + kb_in == raw_max && !d_last);
  endfunction
  // the bytes up to the cut (fb_q < raw_max in RX_RAW_STREAM); above 32 bits
  function automatic logic [ETH_W/8-1:0] raw_keep_w();
    for (int k = 0; k < ETH_W / 8; k++) raw_keep_w[k] = d_keep[k] && 16'(k) < raw_max - fb_q;
  endfunction

  // the source peer and verdict, from the lookup answer in the cycle it comes
  wire [PEER_IDX_W-1:0] src_peer = lk_pend_q ? lk_rsp.peer : peer_q;
  wire                  src_ok   = lk_pend_q ? (lk_rsp.hit && !rsp_busy) : lk_ok_q;

  // Above 32 bits an RMEM_READ_REQ of exactly 24 bytes ends with the two
  // parameters RX_CLASSIFY takes together (par_take): adm_q is set with
  // that last beat and read in RX_FINAL's first cycle only (one cycle
  // high). When the source lookup has answered by then, the request goes
  // to the responder in that cycle (adm_now), made from flops alone (the
  // lookup's answer registered, the parameters, the length check), a cycle
  // before admit_valid_q would offer it: a stage of every remote CPU load.
  // Its admission then writes what the registered one would (admit_q,
  // rseq_q). A lookup still running leaves the request to RX_FINAL's
  // registered admission. Requests with more parameters or with Data keep
  // theirs (admitting those at their last parameter made the wide oETP
  // path deeper than its synthesis limit).
  logic adm_q;
  wire  adm_now = adm_q && !lk_pend_q && lk_ok_q && !held_valid_q;
  assign admit_valid = admit_valid_q || adm_now;
  assign admit       = adm_q ? make_admit(peer_q, (len_ok_q && all_params) ? ERR_NONE
                                                                        : ERR_LOCAL_AXIS)
                             : admit_q;

  // The matched response's verdict goes to the initiator in RX_FINAL's
  // decision cycle, not from a register one cycle later: every input of
  // it is a flop (the registered length check, EndOfData, the parameters),
  // and the response's last beat to the initiator's completion is a stage
  // of every CPU load through the RMEM window.
  // Above 32 bits a matched reply that ends with the parameters RX_CLASSIFY
  // takes gets its verdict in that cycle, not in RX_FINAL's one cycle later
  // (a stage of every RMEM access at the wide widths): an RMEM_READ_RSP or
  // ERROR_RSP of exactly 24 bytes whose two parameters come together
  // (par_take, early_two), or an RMEM_WRITE_RSP or DMA_WRITE_RSP of exactly
  // 20 bytes (early_one: its Request ID word ends the frame; a
  // DMA_READ_RSP's Data follow), the header's 16 bytes before them. The
  // frame's length is then the logical one (within any ceiling: max_frame
  // is 36 or more), every parameter is in, and a read's value comes from
  // the take (par_data1). A held payload word still on its way out leaves
  // the verdict to RX_FINAL. Constant false at 32. No compare with
  // max_frame: the port's range is 36..MAX_RAW_FRAME_SIZE (24 bytes always
  // fit), and a term of that top-level input would make the verdict, and
  // the initiator, lookup and TX logic behind it, logic the simulation
  // model evaluates again in its input region on every cycle.
  wire early_two  = par_take && w_all_last && np == 3'd2;
  wire early_one  = st == RX_CLASSIFY && to_meta && eth.tvalid && eth.tlast && np == 3'd1 &&
                    !rd_rsp_q;
  wire early_done = N > 1 && (early_two || early_one) && rsp_q && rsp_match &&
                    fb_q == 16'd16 && !held_valid_q;
  assign ini_done = (st == RX_FINAL && !aborted && !held_valid_q && matched_q) || early_done;
  always_comb begin
    ini_result.len   = dbytes_q;
    ini_result.rdata = (early_done && early_two) ? par_data1 : p_q[1];
    if (early_done)
      ini_result.code = cmd == CMD_ERROR_RSP ? csr_error_from_wire(par_data1) : ERR_NONE;
    else if (rd_rsp_q)
      ini_result.code = data_ok ? ERR_NONE : ERR_REMOTE_AXIS;
    else if (!len_ok_q || !all_params)
      ini_result.code = ERR_REMOTE_AXIS;      // malformed but associated reply
    else if (cmd == CMD_ERROR_RSP)
      ini_result.code = csr_error_from_wire(p_q[1]);
    else
      ini_result.code = ERR_NONE;
  end

  function automatic rx_admit_t make_admit(input logic [PEER_IDX_W-1:0] peer,
                                           input logic [ERR_W-1:0] code);
    make_admit.cmd        = oetp_cmd_e'(cmd);
    make_admit.group      = group;
    make_admit.src_mac    = src;
    make_admit.local_mac  = conf.mac_address;
    make_admit.peer       = peer;
    make_admit.seq        = rseq_q;
    make_admit.rid        = p_q[0];
    make_admit.addr       = p_q[1];
    make_admit.len        = (cmd == CMD_RMEM_READ_REQ || cmd == CMD_RMEM_WRITE_REQ) ? 32'd4 : p_q[2];
    make_admit.biten      = p_q[2];
    make_admit.wdata      = p_q[3];
    make_admit.error_code = code;
  endfunction

  // A parameter beat (RX_META, and RX_CLASSIFY when it moves to RX_META).
  task automatic meta_beat();
    if (aborted) begin
      state_q <= RX_DROP;
    end else if (eth.tvalid && eth.tkeep != 4'hF) begin
      // the frame ends inside a parameter: the parameter is missing
      // (a reply without its whole Request ID is unmatched)
      state_q <= (rsp_q && pidx_q == 3'd0) ? RX_IDLE : RX_FINAL;
    end else if (eth.tvalid) begin
      p_q[pidx_q[1:0]] <= eth.tdata;
      pidx_q           <= pidx_q + 3'd1;
      // Length's registers follow from Length alone, matched reply or
      // not (an unmatched one is dropped and never reads them), so the
      // Request ID compare does not sit in front of them
      if (rd_rsp_q && pidx_q + 3'd1 == np) begin
        dlen_q   <= ctx.len[1:0];
        dlast_q  <= data_last(ctx.len);
        dfinal_q <= N == 1 ? one_word(ctx.len) : few_words(ctx.len);   // wc_q is 0 here
        if (N > 1) begin
          wl_q   <= data_words(ctx.len);
          amax_q <= data_max(ctx.len);
        end
        dframe_q <= data_frame(ctx.len[15:0], CMD_DMA_READ_RSP);
      end
      if (wr_req_q) begin
        // a request (never matched against the context: tested first)
        if (pidx_q + 3'd1 == np) begin
          dlen_q   <= eth.tdata[1:0];
          dlast_q  <= data_last(eth.tdata);
          dfinal_q <= N == 1 ? one_word(eth.tdata) : few_words(eth.tdata);
          if (N > 1) begin
            wl_q   <= data_words(eth.tdata);
            amax_q <= data_max(eth.tdata);
          end
          dframe_q <= data_frame(eth.tdata[15:0], CMD_DMA_WRITE_REQ);
          if (eth.tdata == '0 || eth.tdata > LEN_W'(frag_ceil)) begin
            admit_valid_q <= 1'b1;
            admit_q       <= make_admit(src_peer, ERR_LOCAL_INVALID);
            rseq_q        <= rseq_q + 1;
            // state_q as for a good Length, overridden like an
            // unmatched reply (st reads RX_IDLE after the last word,
            // else RX_DROP): the 32-bit Length compare feeds flops only
            unm_q         <= 1'b1;
            unm_last_q    <= eth.tlast;
            state_q       <= RX_REQUEST;
          end else begin
            admit_valid_q  <= 1'b1;
            admit_q        <= make_admit(src_peer, ERR_NONE);
            admit_q.len    <= eth.tdata;
            admitted_q     <= 1'b1;
            rseq_q         <= rseq_q + 1;
            o_id_q         <= rseq_q;
            o_dest_q       <= {ROUTE_PEER, peer_q};
            o_user_q       <= 2'b11;     // responder role, last
            trunc_q        <= eth.tlast;
            state_q        <= RX_REQUEST;
          end
        end else if (eth.tlast) begin
          state_q <= RX_FINAL;              // truncated inside the parameters
        end
      end else begin
        // the state moves on for a matched reply; unm_q overrides it
        // for an unmatched or late one, which writes nothing else
        if (rsp_q && pidx_q == 3'd0) begin
          // a verdict given now (early_done) leaves nothing matched behind
          matched_q  <= rsp_match && !early_done;
          unm_q      <= !rsp_match;
          unm_last_q <= eth.tlast;
          if (rsp_match && !early_done) ini_busy_q <= 1'b1;
        end
        if (early_done) begin
          state_q <= RX_IDLE;
        end else if (pidx_q + 3'd1 == np) begin
          if (rd_rsp_q) begin
            if (pidx_q != 3'd0 || rsp_match) begin
              o_id_q   <= ctx.seq;
              o_dest_q <= {ROUTE_PEER, ctx.peer};
              o_user_q <= {1'b0, ctx.last};
            end
            trunc_q  <= eth.tlast;
            state_q  <= eth.tlast ? RX_FINAL : RX_DATA;
          end else begin
            state_q <= eth.tlast ? RX_FINAL : RX_TAIL;
          end
        end else if (eth.tlast) begin
          state_q <= RX_FINAL;              // truncated inside the parameters
        end
      end
    end
  endtask

  // par_take's two parameters (pidx_q is 0; neither is Length): the first
  // as meta_beat() takes a whole word that does not end the frame, the
  // second as it takes the next one (aborted reads matched_q, clear until
  // this cycle's edge, so it does not apply)
  task automatic par_beats();
    p_q[0] <= w_data[31:0];
    p_q[1] <= par_data1;
    pidx_q <= 3'd2;
    adm_q  <= !rsp_q && np == 3'd2 && w_all_last && fb_q == 16'd16;
    if (rsp_q) begin
      // a verdict given now (early_done) leaves nothing matched behind
      matched_q  <= rsp_match && !early_done;
      unm_q      <= !rsp_match;
      unm_last_q <= w_all_last;
      if (rsp_match && !early_done) ini_busy_q <= 1'b1;
    end
    if (early_done) state_q <= RX_IDLE;
    else if (np == 3'd2) state_q <= w_all_last ? RX_FINAL : RX_TAIL;
    else if (w_all_last) state_q <= RX_FINAL;   // truncated inside the parameters
  endtask

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q       <= RX_IDLE;
      unm_q         <= 1'b0;
      unm_last_q    <= 1'b0;
      hdr_q         <= '0;
      hkeep_q       <= '0;
      nhdr_q        <= '0;
      ridx_q        <= '0;
      fb_q          <= '0;
      last_seen_q   <= 1'b0;
      p_q           <= '0;
      pidx_q        <= '0;
      peer_q        <= '0;
      lk_pend_q     <= 1'b0;
      lk_mine_q     <= 1'b0;
      lk_ok_q       <= 1'b0;
      matched_q     <= 1'b0;
      admitted_q    <= 1'b0;
      dlen_q        <= '0;
      dlast_q       <= '0;
      dframe_q      <= '0;
      wc_q          <= '0;
      wl_q          <= '0;
      amax_q        <= MW'(1);
      dfinal_q      <= 1'b0;
      dbytes_q      <= '0;
      eod_ok_q      <= 1'b0;
      trunc_q       <= 1'b0;
      route_q       <= ROUTE_DROP;
      rseq_q        <= '0;
      held_valid_q  <= 1'b0;
      held_final_q  <= 1'b0;
      held_data_q   <= '0;
      held_keep_q   <= '0;
      o_valid_q     <= 1'b0;
      o_last_q      <= 1'b0;
      o_data_q      <= '0;
      o_keep_q      <= '0;
      o_id_q        <= '0;
      o_dest_q      <= '0;
      o_user_q      <= '0;
      lk_valid_q    <= 1'b0;
      claim_valid_q <= 1'b0;
      admit_valid_q <= 1'b0;
      adm_q         <= 1'b0;
      rxs_valid_q   <= 1'b0;
      ini_busy_q    <= 1'b0;
      admit_q       <= '0;
      rxs_q         <= '0;
      len_ok_q      <= 1'b0;
      hdr_match_q   <= 1'b0;
      dst_ok_q      <= 1'b0;
      raw_ok_q      <= 1'b0;
      fb14_q        <= 1'b0;
      fb15_q        <= 1'b0;
      oetp_hdr_q    <= 1'b0;
      cd_q          <= cmd_decode(8'h00);
    end else begin
      admit_valid_q <= 1'b0;
      adm_q         <= 1'b0;
      // The flops made from the header and the byte count are read from
      // RX_CLASSIFY on, always made in the cycle before (RX_HEADER's or, at
      // 128, RX_IDLE's taking all four header words, hdr_take) or with the
      // frame's last beat (len_ok_q: never RX_IDLE's, which drops a frame
      // that ends there): RX_IDLE leaves them as the last frame left them,
      // so nothing changes while no frame comes (its clearing of hdr_q and
      // fb_q would change them a cycle after every frame).
      if (st != RX_FINAL && st != RX_IDLE) len_ok_q <= len_ok_at(fb_next);
      if (st != RX_IDLE || hdr_take) begin
        hdr_match_q <= src_nx == ctx.mac && (hdr_cmd == ctx.rsp_cmd || hdr_cmd == CMD_ERROR_RSP);
        dst_ok_q    <= group_nx ? (dst_nx == conf.multicast_address) : (dst_nx == conf.mac_address);
        raw_ok_q    <= raw_ok_c;
      end
      state_q       <= st;
      unm_q         <= 1'b0;
      if (loc.tready) o_valid_q <= 1'b0;
      if (in_fire || all_fire) begin
        fb_q <= fb_next;
        if (take_last) last_seen_q <= 1'b1;
      end
      // a raw frame's words after its header go N a cycle (a Length sets
      // amax_q for Data)
      if (N > 1 && st == RX_IDLE) amax_q <= MW'(N);
      // the source lookup's answer (one query at a time)
      if (lk_rsp_valid) begin
        lk_valid_q <= 1'b0;
        lk_pend_q  <= 1'b0;
        peer_q     <= lk_rsp.peer;
        lk_ok_q    <= lk_rsp.hit && !rsp_busy;
      end

      // the held final word leaves with TLAST as soon as the slice has room
      if (held_valid_q && held_final_q && can_load) begin
        o_valid_q    <= 1'b1;
        o_data_q     <= held_data_q;
        o_keep_q     <= held_keep_q;
        o_last_q     <= 1'b1;
        held_valid_q <= 1'b0;
      end
      // an aborted response releases the initiator once its payload is closed
      if (ini_busy_q && !ctx.waiting && !(held_valid_q && !(held_final_q && can_load)))
        ini_busy_q <= 1'b0;

      case (st)
        RX_IDLE: begin
          nhdr_q      <= '0;
          pidx_q      <= '0;
          matched_q   <= 1'b0;
          admitted_q  <= 1'b0;
          trunc_q     <= 1'b0;
          eod_ok_q    <= 1'b0;
          dbytes_q    <= '0;
          wc_q        <= '0;
          hdr_q       <= '0;
          last_seen_q <= 1'b0;
          fb_q        <= '0;
          fb14_q      <= 1'b0;
          fb15_q      <= 1'b0;
          cd_q        <= cmd_decode(8'h00);
          oetp_hdr_q  <= 1'b0;
          lk_mine_q   <= 1'b0;
          if (hdr_take) begin
            // HK header words at once: what RX_HEADER would write after
            // this word for the other HK - 1 (none ends the frame)
            for (int i = 0; i < HK; i++) begin
              hdr_q[i]   <= w_data[32*i +: 32];
              hkeep_q[i] <= w_keep[4*i +: 4];
            end
            nhdr_q     <= 3'(HK);
            fb_q       <= hk_bytes;
            state_q    <= RX_HEADER;
            if (HK == 4) begin
              // word 3 as RX_HEADER takes it (not the frame's last)
              fb14_q     <= hk_bytes >= 16'd14;
              fb15_q     <= hk_bytes >= 16'd15;
              oetp_hdr_q <= hdr_w3[23:0] == {MAGIC, ETHERTYPE[7:0], ETHERTYPE[15:8]};
              cd_q       <= cmd_decode(hk_bytes[4] ? hdr_w3[31:24] : 8'h00);
              if (!lk_pend_q && !hdr_w3[24] &&
                  hdr_w3[23:0] == {MAGIC, ETHERTYPE[7:0], ETHERTYPE[15:8]}) begin
                lk_valid_q <= 1'b1;
                lk_pend_q  <= 1'b1;
                lk_mine_q  <= 1'b1;
              end
              state_q    <= RX_CLASSIFY;
            end
          end else if (eth.tvalid) begin
            hdr_q[0]   <= eth.tdata;
            hkeep_q[0] <= eth.tkeep;
            nhdr_q     <= 3'd1;
            fb_q       <= 16'(kb);
            // a frame shorter than its Ethernet header is dropped here
            state_q    <= eth.tlast ? RX_IDLE : RX_HEADER;
          end
        end

        RX_HEADER: begin
          if (hdr2_take) begin
            // words 2 and 3 (64 bits), as the two beats below would take them
            hdr_q[2]   <= w_data[31:0];
            hdr_q[3]   <= par_data1;
            hkeep_q[2] <= par_keep[3:0];
            hkeep_q[3] <= par_keep[7:4];
            nhdr_q     <= 3'd4;
            fb14_q     <= hb2 >= 5'd14;
            fb15_q     <= hb2 >= 5'd15;
            oetp_hdr_q <= par_data1[23:0] == {MAGIC, ETHERTYPE[7:0], ETHERTYPE[15:8]};
            cd_q       <= cmd_decode(hb2[4] ? par_data1[31:24] : 8'h00);
            if (!lk_pend_q && !w_all_last && !par_data1[24] &&
                par_data1[23:0] == {MAGIC, ETHERTYPE[7:0], ETHERTYPE[15:8]}) begin
              lk_valid_q <= 1'b1;
              lk_pend_q  <= 1'b1;
              lk_mine_q  <= 1'b1;
            end
            state_q    <= RX_CLASSIFY;
          end else if (eth.tvalid) begin
            hdr_q[nhdr_q[1:0]]   <= eth.tdata;
            hkeep_q[nhdr_q[1:0]] <= eth.tkeep;
            nhdr_q               <= nhdr_q + 3'd1;
            fb14_q               <= hb_next >= 5'd14;
            fb15_q               <= hb_next >= 5'd15;
            if (nhdr_q[1:0] == 2'd3) begin
              oetp_hdr_q <= eth.tdata[23:0] == {MAGIC, ETHERTYPE[7:0], ETHERTYPE[15:8]};
              cd_q       <= cmd_decode(hb_next[4] ? eth.tdata[31:24] : 8'h00);
              // the source MAC is in place: look it up ahead of the
              // classification (parameters follow)
              if (!lk_pend_q && !eth.tlast && !eth.tdata[24] &&
                  eth.tdata[23:0] == {MAGIC, ETHERTYPE[7:0], ETHERTYPE[15:8]}) begin
                lk_valid_q <= 1'b1;
                lk_pend_q  <= 1'b1;
                lk_mine_q  <= 1'b1;
              end
            end
            if (nhdr_q == 3'd3 || eth.tlast) state_q <= RX_CLASSIFY;
          end
        end

        RX_CLASSIFY: begin
          if (!fb14_q) begin
            state_q <= last_seen_q ? RX_IDLE : RX_DROP;
          end else if (is_oetp) begin
            // malformed oETP never falls through to the raw path
            // (a response to the group MAC is matched like any other)
            if (!dst_ok || src[40] || !cd_q.known || (!rsp_q && group && cd_q.rd_req))
              state_q <= last_seen_q ? RX_IDLE : RX_DROP;
            else if (rsp_q)
              state_q <= last_seen_q ? RX_IDLE : RX_META;
            else if (last_seen_q)
              state_q <= RX_IDLE;                 // no Request ID: nothing to answer
            else if (lk_mine_q || !lk_pend_q) begin
              if (!lk_mine_q) begin
                lk_valid_q <= 1'b1;
                lk_pend_q  <= 1'b1;
                lk_mine_q  <= 1'b1;
              end
              state_q <= wr_req_q ? RX_LOOKUP : RX_META;
            end
          end else if (!raw_ok) begin
            state_q <= last_seen_q ? RX_IDLE : RX_DROP;
          end else if (claim_available) begin
            claim_valid_q <= 1'b1;
            state_q       <= RX_RAW_CLAIM;
          end else begin
            route_q <= ROUTE_DIRECT;
            ridx_q  <= '0;
            state_q <= RX_RAW_REPLAY;
          end
          // on to RX_META (set above): its first beat is taken now, or
          // its first two (par_take)
          if (par_take) par_beats();
          else if (to_meta) meta_beat();
        end

        RX_LOOKUP: begin
          // a DMA_WRITE_REQ: unknown sources and requests meeting a busy
          // responder are drained (the answer is taken above)
          if (!lk_pend_q || lk_rsp_valid) state_q <= src_ok ? RX_META : RX_DROP;
        end

        RX_META: meta_beat();

        RX_REQUEST: begin
          // payload waits until the DMA engine holds the write descriptor
          if (rsp_accepted) state_q <= trunc_q ? RX_FINAL : RX_DATA;
        end

        RX_DATA: begin
          if (aborted) begin
            held_final_q <= 1'b1;
            state_q      <= RX_DROP;
          end else if (fire_data) begin
            if (held_valid_q) begin
              o_valid_q <= 1'b1;
              o_data_q  <= held_data_q;
              o_keep_q  <= held_keep_q;
              o_last_q  <= 1'b0;
            end
            held_valid_q <= 1'b1;
            held_data_q  <= d_data;
            held_keep_q  <= dkeep();
            held_final_q <= dfinal || d_last;
            dbytes_q     <= dbytes_q + dkb(dkeep());
            if (N == 1) begin
              wc_q     <= wc_q + 1;
              dfinal_q <= wc_q + 1 == dlast_q;
            end else begin
              // a presentation that does not end Data or the frame is N
              // words (amax_q = N); after the final one nothing reads these
              wl_q     <= wl_q - LEN_W'(N);
              dfinal_q <= wl_q > LEN_W'(N) && wl_q <= LEN_W'(2 * N);
              amax_q   <= wl_q > LEN_W'(N) && wl_q < LEN_W'(2 * N) ? MW'(wl_q - LEN_W'(N)) : MW'(N);
            end
            if (d_last) begin
              trunc_q <= 1'b1;
              state_q <= RX_FINAL;
            end else if (dfinal) begin
              state_q <= RX_EOD;
            end
          end
        end

        RX_EOD: begin
          if (aborted) begin
            state_q <= RX_DROP;
          end else if (eth.tvalid) begin
            eod_ok_q <= (eth.tdata == EOD) && (eth.tkeep == 4'hF);
            state_q  <= take_last ? RX_FINAL : RX_TAIL;
          end
        end

        RX_TAIL: begin
          if (aborted)                 state_q <= RX_DROP;
          else if (eth.tvalid && take_last) state_q <= RX_FINAL;
        end

        RX_FINAL: begin
          if (aborted) begin
            state_q <= RX_IDLE;
          end else if (!held_valid_q) begin
            if (matched_q) begin
              // the verdict goes to the initiator now (ini_done)
              ini_busy_q <= 1'b0;
              state_q    <= RX_IDLE;
            end else if (admitted_q) begin
              rxs_valid_q      <= 1'b1;
              rxs_q.peer       <= peer_q;
              rxs_q.seq        <= o_id_q;
              rxs_q.len        <= dbytes_q;
              rxs_q.error_code <= data_ok ? ERR_NONE : ERR_LOCAL_AXIS;
              state_q          <= RX_STATUS;
            end else if (!lk_pend_q || lk_rsp_valid) begin
              // fixed-layout request: a trustworthy Request ID from a known
              // source gets a reply, if the responder was free (an unknown
              // source or a busy responder: the frame is dropped)
              if (fb_q >= 16'd20 && src_ok) begin
                // (adm_now: offered in this cycle already)
                admit_valid_q <= !adm_now;
                admit_q       <= make_admit(src_peer, (len_ok_q && all_params) ? ERR_NONE : ERR_LOCAL_AXIS);
                rseq_q        <= rseq_q + 1;
              end
              state_q <= RX_IDLE;
            end
          end
        end

        RX_STATUS: begin
          if (rxs_ready) begin
            rxs_valid_q <= 1'b0;
            state_q     <= RX_IDLE;
          end
        end

        RX_DROP: begin
          // last_seen_q: an abort took the frame's last word (nothing is
          // taken now: the word on eth belongs to the next frame)
          if (eth.tvalid && take_last) state_q <= RX_IDLE;
          else if (last_seen_q)        state_q <= RX_IDLE;
        end

        RX_RAW_CLAIM: begin
          if (claim_ready) begin
            claim_valid_q <= 1'b0;
            route_q       <= ROUTE_NON_OETP_DMA;
            ridx_q        <= '0;
            state_q       <= RX_RAW_REPLAY;
          end
        end

        RX_RAW_REPLAY: begin
          // an aborted payload's last word may still be on its way out
          if (can_load && !held_valid_q) begin
            o_valid_q <= 1'b1;
            o_data_q  <= ETH_W'(hdr_q[ridx_q]);
            o_keep_q  <= (ETH_W / 8)'(hkeep_q[ridx_q]);
            o_last_q  <= last_seen_q && (3'(ridx_q) + 3'd1 == nhdr_q);
            o_id_q    <= '0;
            o_dest_q  <= {route_q, {PEER_IDX_W{1'b0}}};
            o_user_q  <= '0;
            ridx_q    <= ridx_q + 2'd1;
            if (3'(ridx_q) + 3'd1 == nhdr_q) state_q <= last_seen_q ? RX_IDLE : RX_RAW_STREAM;
          end
        end

        RX_RAW_STREAM: begin
          // at 32 written on eth's own nets: the same logic through the
          // d_* aliases synthesized the endpoint one LUT level deeper
          // (11, local_out.tready to state_q; 10 this way, 2026-12-02)
          if (N == 1 && fire_raw) begin
            o_valid_q <= 1'b1;
            o_data_q  <= ETH_W'(eth.tdata);
            o_keep_q  <= raw_keep;
            o_last_q  <= eth.tlast || raw_cut;
            if (eth.tlast)    state_q <= RX_IDLE;
            else if (raw_cut) state_q <= RX_DROP;
          end else if (N > 1 && fire_raw) begin
            o_valid_q <= 1'b1;
            o_data_q  <= d_data;
            o_keep_q  <= raw_keep_w();
            o_last_q  <= d_last || raw_cut_w();
            if (d_last)           state_q <= RX_IDLE;
            else if (raw_cut_w()) state_q <= RX_DROP;
          end
        end

        default: state_q <= RX_IDLE;
      endcase
    end
  end
endmodule
