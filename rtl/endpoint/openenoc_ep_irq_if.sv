// One event producer of the IRQ controller (endpoint.md section 6): it
// reserves a credit before its operation starts (rsv_req until the one-cycle
// rsv_gnt) and commits its claim when the operation ends (cmt_valid until
// cmt_ready), naming the claim's source and peer.
interface openenoc_ep_irq_if;
  logic        rsv_req;
  logic        rsv_gnt;
  logic        cmt_valid;
  logic        cmt_ready;
  logic [3:0]  cmt_source;   // irq.claim.source
  logic [10:0] cmt_peer;     // irq.claim.peer_idx

  modport producer   (output rsv_req, cmt_valid, cmt_source, cmt_peer, input rsv_gnt, cmt_ready);
  modport controller (input rsv_req, cmt_valid, cmt_source, cmt_peer, output rsv_gnt, cmt_ready);
endinterface
