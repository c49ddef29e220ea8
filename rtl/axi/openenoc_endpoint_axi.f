axi/openenoc_axi_if.sv
axi/openenoc_axil_csr.sv
axi/openenoc_axi_beat_slice.sv
axi/openenoc_axi_mem_rd.sv
axi/openenoc_axi_mem_wr.sv
axi/openenoc_axi_mem.sv
axi/openenoc_endpoint_axi.sv
