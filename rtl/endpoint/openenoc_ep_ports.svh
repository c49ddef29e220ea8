// The endpoint's flat port lists, for the modules that show them as flat
// ports: openenoc_endpoint (bound directly by an SoC wrapper or a Verilator
// host), the AXI top openenoc_endpoint_axi (vendor-style names s_axis_eth_*,
// m_axis_eth_*) and the bench tb_axi_mem (a Verilator top, which cannot have
// interface ports). P is the name prefix, M the direction of the signals the
// source (the stream's transmitter, the memory port's client) drives, S of
// those the sink drives.
`ifndef OPENENOC_EP_PORTS_SVH
`define OPENENOC_EP_PORTS_SVH

// one AXI-Stream Ethernet link of W data bits (ETH_W: 32, 64, 128 or 256; beats
// packed, tkeep contiguous from byte 0), no FCS; also the width converters'
// stream side (rtl/openenoc_axis_word_align.sv, openenoc_axis_word_pack.sv)
`define OPENENOC_EP_ETH_PORTS(P, M, S, W) \
  M logic [(W)-1:0]   P``tdata, \
  M logic [(W)/8-1:0] P``tkeep, \
  M logic             P``tlast, \
  M logic             P``tvalid, \
  S logic             P``tready

// the word side of the Ethernet width converters (openenoc_axis_word_buf,
// openenoc_axis_word_align): W/32 lanes of 32-bit frame words, lane 0 the
// next one, and the consumer's takes and its bound on a take_all (M: the
// converter's outputs, S: the consumer's)
`define OPENENOC_AXIS_WORD_PORTS(P, M, S, W) \
  M logic [(W)-1:0]   P``data, \
  M logic [(W)/8-1:0] P``keep, \
  M logic             P``one_valid, \
  M logic             P``one_last, \
  M logic             P``all_valid, \
  M logic             P``all_last, \
  S logic             P``take_one, \
  S logic             P``take_all, \
  S logic [$clog2((W)/32+1)-1:0] P``all_max

// the memory port (openenoc_ep_mem_if's signals, openenoc_ep_pkg's transfer
// protocol): request, write beats and response, read beats of W bits with a
// response per 4-byte word
`define OPENENOC_EP_MEM_PORTS(P, M, S, W) \
  M logic        P``req_valid, \
  S logic        P``req_ready, \
  M logic        P``req_write, \
  M logic [31:0] P``req_addr, \
  M logic [15:0] P``req_len, \
  M logic        P``w_valid, \
  S logic        P``w_ready, \
  M logic [(W)-1:0] P``w_data, \
  M logic [(W)/8-1:0] P``w_keep, \
  M logic        P``w_last, \
  S logic        P``r_valid, \
  M logic        P``r_ready, \
  S logic [(W)-1:0] P``r_data, \
  S logic [(W)/8-1:0] P``r_keep, \
  S logic        P``r_last, \
  S logic [2*((W)/32)-1:0] P``r_resp, \
  S logic        P``b_valid, \
  M logic        P``b_ready, \
  S logic [1:0]  P``b_resp, \
  S logic [15:0] P``b_bytes

`endif
