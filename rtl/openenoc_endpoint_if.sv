// CSR boundary of the endpoint (shared/spec/rtl-interfaces.md). The register
// block generated from the SystemRDL in rtl/csr/ will own the full
// csr_to_core/core_to_csr types; until it lands, this interface carries the
// configuration fields the oETP engine reads (endpoint.md section 2, config)
// so the engine's port already has its final shape.
interface openenoc_endpoint_if;
  import openenoc_oetp_pkg::*;

  typedef struct packed {
    oetp_conf_t conf;
  } csr_to_core_t;

  // The oETP engine owns no CSR field; the DMA engine will add its own.
  typedef struct packed {
    logic unused;
  } core_to_csr_t;

  csr_to_core_t csr_to_core;
  core_to_csr_t core_to_csr;

  modport csr  (output csr_to_core, input  core_to_csr);
  modport core (input  csr_to_core, output core_to_csr);
endinterface
