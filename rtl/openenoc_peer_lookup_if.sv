// Peer-table query (mst = client) and its coherent snapshot response
// (shared/spec/rtl-interfaces.md). Request and response are independent
// valid/ready channels; entry fields are zero on a miss.
interface openenoc_peer_lookup_if #(
  parameter int PEER_IDX_W = 2,
  parameter int ADDR_W     = 32
);
  logic                  req_valid;
  logic                  req_ready;
  logic [1:0]            req_type;        // 0 INDEX, 1 RMEM, 2 MAC
  logic [3:0]            req_mode_mask;
  logic [PEER_IDX_W-1:0] req_peer_idx;
  logic [ADDR_W-1:0]     req_rmem_addr;
  logic [47:0]           req_mac_addr;
  logic                  rsp_valid;
  logic                  rsp_ready;
  logic                  rsp_hit;
  logic [PEER_IDX_W-1:0] rsp_peer_idx;
  logic [47:0]           rsp_mac_addr;
  logic [ADDR_W-1:0]     rsp_rmem_offset;
  logic [ADDR_W-1:0]     rsp_local_addr;
  logic [ADDR_W-1:0]     rsp_remote_addr;
  logic [ADDR_W-1:0]     rsp_size;
  logic [1:0]            rsp_dma_mode;
  logic                  rsp_irq_enable;

  modport mst (
    output req_valid, req_type, req_mode_mask, req_peer_idx, req_rmem_addr, req_mac_addr,
    input  req_ready,
    input  rsp_valid, rsp_hit, rsp_peer_idx, rsp_mac_addr, rsp_rmem_offset, rsp_local_addr,
           rsp_remote_addr, rsp_size, rsp_dma_mode, rsp_irq_enable,
    output rsp_ready
  );
  modport slv (
    input  req_valid, req_type, req_mode_mask, req_peer_idx, req_rmem_addr, req_mac_addr,
    output req_ready,
    output rsp_valid, rsp_hit, rsp_peer_idx, rsp_mac_addr, rsp_rmem_offset, rsp_local_addr,
           rsp_remote_addr, rsp_size, rsp_dma_mode, rsp_irq_enable,
    input  rsp_ready
  );
endinterface
