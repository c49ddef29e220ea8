-- Wireshark/tshark dissector for oETP, the openENOC Ethernet transport
-- (EtherType 0x88B5, Magic 0x0E). Install with `make wireshark`, or load
-- it for one run: tshark -X lua_script:tools/wireshark/oetp.lua -r FILE
--
-- The wire format is include/openenoc/oetp.h: after the Ethernet header
-- come Magic, Cmd and 32-bit little-endian parameters. DMA_WRITE_REQ and
-- DMA_READ_RSP carry a Data array padded to whole words and the EndOfData
-- trailer 0xE0D0E0D0. Frames whose logical length is under 60 bytes may be
-- padded to 60 by an Ethernet MAC. make check-wireshark checks that the
-- command codes and causes below equal those of oetp.h.
--
-- SPDX-License-Identifier: GPL-2.0-or-later

local MAGIC = 0x0E
local EOD = 0xE0D0E0D0
local PADDED_FRAME = 60         -- minimum Ethernet frame without FCS
local ETH_HDR = 14
local FRAG_CEILING = 8160       -- largest DMA fragment

-- Cmd -> name and fixed parameters after Request ID ("data" = a Data
-- array sized by Length or by the request's Length, then EndOfData).
local CMDS = {
    [0x10] = { name = "RMEM_READ_REQ",  params = { "address" } },
    [0x11] = { name = "RMEM_READ_RSP",  params = { "rmem_data" } },
    [0x20] = { name = "RMEM_WRITE_REQ", params = { "address", "bit_enable",
                                                   "rmem_data" } },
    [0x21] = { name = "RMEM_WRITE_RSP", params = {} },
    [0x30] = { name = "DMA_READ_REQ",   params = { "address", "length" } },
    [0x31] = { name = "DMA_READ_RSP",   params = {}, data = true },
    [0x40] = { name = "DMA_WRITE_REQ",  params = { "address", "length" },
               data = true },
    [0x41] = { name = "DMA_WRITE_RSP",  params = {} },
    [0xFF] = { name = "ERROR_RSP",      params = { "error_code" } },
}
local REQUESTS = { [0x10] = true, [0x20] = true, [0x30] = true, [0x40] = true }
local WRITES = { [0x20] = true, [0x40] = true }

-- Wire causes of ERROR_RSP; the initiator records 8 + cause.
local CAUSES = {
    [1] = "INVALID", [2] = "AXIS", [3] = "OVERFLOW", [4] = "RD_SLVERR",
    [5] = "RD_DECERR", [6] = "WR_SLVERR", [7] = "WR_DECERR",
}

local cmd_names = {}
for code, c in pairs(CMDS) do cmd_names[code] = c.name end

local oetp = Proto("oetp", "openENOC Transport Protocol")
local F = {
    magic = ProtoField.uint8("oetp.magic", "Magic", base.HEX),
    cmd = ProtoField.uint8("oetp.cmd", "Cmd", base.HEX, cmd_names),
    request_id = ProtoField.uint32("oetp.request_id", "Request ID", base.DEC),
    address = ProtoField.uint32("oetp.address", "Address", base.HEX),
    length = ProtoField.uint32("oetp.length", "Length", base.DEC),
    bit_enable = ProtoField.uint32("oetp.bit_enable", "BitEnable", base.HEX),
    rmem_data = ProtoField.uint32("oetp.rmem_data", "Data", base.HEX),
    error_code = ProtoField.uint32("oetp.error_code", "Error Code", base.DEC,
                                   CAUSES),
    data = ProtoField.bytes("oetp.data", "Data"),
    data_len = ProtoField.uint32("oetp.data_len", "Data length", base.DEC),
    word_padding = ProtoField.bytes("oetp.word_padding", "Word padding"),
    eod = ProtoField.uint32("oetp.eod", "EndOfData", base.HEX),
    eth_padding = ProtoField.bytes("oetp.eth_padding", "Ethernet padding"),
    trailing = ProtoField.bytes("oetp.trailing", "Bytes after the PDU"),
    payload = ProtoField.bytes("oetp.payload", "Payload of an unknown Cmd"),
    multicast = ProtoField.bool("oetp.multicast",
                                "Multicast write (no response)"),
    response_in = ProtoField.framenum("oetp.response_in", "Response in",
                                      base.NONE, frametype.RESPONSE),
    request_in = ProtoField.framenum("oetp.request_in", "Request in",
                                     base.NONE, frametype.REQUEST),
    time = ProtoField.relative_time("oetp.time", "Response time"),
}
oetp.fields = {}
for _, f in pairs(F) do table.insert(oetp.fields, f) end

local E = {
    eod_bad = ProtoExpert.new("oetp.eod.bad", "EndOfData is not 0xE0D0E0D0",
                              expert.group.MALFORMED, expert.severity.ERROR),
    eod_missing = ProtoExpert.new("oetp.eod.missing", "EndOfData missing",
                                  expert.group.MALFORMED, expert.severity.ERROR),
    bad_length = ProtoExpert.new("oetp.length.bad", "Bad length",
                                 expert.group.MALFORMED, expert.severity.ERROR),
    unknown_cmd = ProtoExpert.new("oetp.cmd.unknown", "Unknown Cmd",
                                  expert.group.PROTOCOL, expert.severity.ERROR),
    bad_cause = ProtoExpert.new("oetp.error_code.bad",
                                "Error Code outside the wire causes 1..7",
                                expert.group.PROTOCOL, expert.severity.WARN),
    error_rsp = ProtoExpert.new("oetp.error_rsp", "Request failed",
                                expert.group.RESPONSE_CODE,
                                expert.severity.NOTE),
    multicast = ProtoExpert.new("oetp.multicast.write", "Multicast write",
                                expert.group.SEQUENCE, expert.severity.CHAT),
}
oetp.experts = {}
for _, e in pairs(E) do table.insert(oetp.experts, e) end

-- Request/response pairing. open: the unanswered request per (requester,
-- responder, Request ID); by_frame: the exchange a frame belongs to. Built
-- on the first pass; later passes (tshark -2, the GUI) only read them.
local open, by_frame = {}, {}
function oetp.init()
    open, by_frame = {}, {}
end

-- An Ethernet address as "02:0e:0c:00:00:10". pinfo's data-link addresses,
-- not field extractors: those are empty on tshark's first pass, which is
-- the pass that pairs.
local function mac(addr)
    return tostring(addr):lower()
end

local function is_group(mac)
    -- the I/G bit: bit 0 of the first octet
    local first = tonumber(mac:sub(1, 2), 16)
    return first ~= nil and first % 2 == 1
end

local function nstime(seconds)
    local s = math.floor(seconds)
    return NSTime.new(s, math.floor((seconds - s) * 1e9 + 0.5))
end

-- Pair this frame on the first pass; return its exchange (or nil).
local function pair(pinfo, cmd, rid, src, dst, group, length)
    if pinfo.visited then return by_frame[pinfo.number] end
    if REQUESTS[cmd] then
        if group then return nil end
        local x = { req = pinfo.number, req_ts = pinfo.abs_ts, cmd = cmd,
                    length = length }
        open[src .. dst .. rid] = x
        by_frame[pinfo.number] = x
        return x
    end
    local key = dst .. src .. rid
    local x = open[key]
    if x and (cmd == x.cmd + 1 or cmd == 0xFF) then
        open[key] = nil
        x.rsp, x.rsp_ts = pinfo.number, pinfo.abs_ts
        by_frame[pinfo.number] = x
        return x
    end
    return nil
end

local function words(n) return math.floor((n + 3) / 4) end

-- Data array of n meaningful bytes at off, then EndOfData (note: text
-- for the generated length). Returns the offset after the trailer, or nil
-- when the frame ends before it.
local function add_data(tvb, tree, off, n, note)
    local avail = math.max(tvb:len() - off, 0)
    local padded = 4 * words(n)
    local li = tree:add(F.data_len, n):set_generated()
    if note then li:append_text(note) end
    if math.min(n, avail) > 0 then
        tree:add(F.data, tvb(off, math.min(n, avail)))
    end
    if avail > n and padded > n then
        tree:add(F.word_padding, tvb(off + n, math.min(avail, padded) - n))
    end
    if avail < padded + 4 then
        tree:add_proto_expert_info(E.eod_missing, string.format(
            "EndOfData missing: the frame ends after %d of %d data bytes",
            math.min(avail, n), n))
        return nil
    end
    local r = tvb(off + padded, 4)
    local item = tree:add_le(F.eod, r)
    if r:le_uint() ~= EOD then
        item:add_proto_expert_info(E.eod_bad, string.format(
            "EndOfData is 0x%08X, expected 0x%08X", r:le_uint(), EOD))
    end
    return off + padded + 4
end

-- A DMA_READ_RSP whose request is not in the capture: the data length is
-- what the frame holds (before Ethernet padding, when the trailer shows
-- where the padding starts).
local function guess_read_len(tvb)
    local len = tvb:len()
    if len + ETH_HDR == PADDED_FRAME then
        for off = len - 4, 6, -4 do
            if tvb(off, 4):le_uint() == EOD then return off - 6 end
        end
    end
    return math.max(len - 10, 0)
end

function oetp.dissector(tvb, pinfo, root)
    local len = tvb:len()
    if len < 1 or tvb(0, 1):uint() ~= MAGIC then return 0 end
    pinfo.cols.protocol = "oETP"
    local tree = root:add(oetp, tvb())
    tree:add(F.magic, tvb(0, 1))
    if len < 2 then
        tree:add_proto_expert_info(E.bad_length, "Frame ends before Cmd")
        pinfo.cols.info = "oETP (truncated)"
        return len
    end
    local cmd = tvb(1, 1):uint()
    local c = CMDS[cmd]
    local cmd_item = tree:add(F.cmd, tvb(1, 1))
    if not c then
        cmd_item:add_proto_expert_info(E.unknown_cmd,
            string.format("Unknown Cmd 0x%02X (reserved)", cmd))
        if len > 2 then tree:add(F.payload, tvb(2)) end
        pinfo.cols.info = string.format("Unknown Cmd 0x%02X", cmd)
        return len
    end
    local info = { c.name }
    -- Request ID and the fixed parameters
    local nfixed = 1 + #c.params
    if len < 2 + 4 * nfixed then
        tree:add_proto_expert_info(E.bad_length, string.format(
            "%s needs %d bytes of parameters, the frame has %d", c.name,
            4 * nfixed, len - 2))
    end
    local vals = {}
    local names = { "request_id" }
    for _, p in ipairs(c.params) do table.insert(names, p) end
    for i, p in ipairs(names) do
        local off = 2 + 4 * (i - 1)
        if off + 4 > len then break end
        local item = tree:add_le(F[p], tvb(off, 4))
        vals[p] = tvb(off, 4):le_uint()
        if p == "length" and (vals[p] == 0 or vals[p] > FRAG_CEILING) then
            item:add_proto_expert_info(E.bad_length, string.format(
                "Length %d is outside 1..%d", vals[p], FRAG_CEILING))
        end
        if p == "error_code" then
            if CAUSES[vals[p]] then
                item:add_proto_expert_info(E.error_rsp, string.format(
                    "Request failed: cause %d (%s)", vals[p], CAUSES[vals[p]]))
            else
                item:add_proto_expert_info(E.bad_cause, string.format(
                    "Error Code %d is outside the wire causes 1..7", vals[p]))
            end
        end
    end
    local rid = vals.request_id
    if rid then table.insert(info, "id=" .. rid) end
    if vals.address then table.insert(info, string.format("addr=0x%08X", vals.address)) end
    if vals.length then table.insert(info, "len=" .. vals.length) end
    if vals.bit_enable then table.insert(info, string.format("biten=0x%08X", vals.bit_enable)) end
    if vals.rmem_data then table.insert(info, string.format("data=0x%08X", vals.rmem_data)) end
    if vals.error_code then
        table.insert(info, "cause=" .. vals.error_code ..
                     (CAUSES[vals.error_code] and " " .. CAUSES[vals.error_code] or ""))
    end

    local src, dst = mac(pinfo.dl_src), mac(pinfo.dl_dst)
    local group = is_group(dst)
    if WRITES[cmd] and group then
        local m = tree:add(F.multicast, true):set_generated()
        m:add_proto_expert_info(E.multicast)
        table.insert(info, "[multicast]")
    end
    local x = rid and pair(pinfo, cmd, rid, src, dst, group, vals.length)

    -- Data array and EndOfData
    local off = 2 + 4 * nfixed
    local logical_end = off         -- end of the PDU as the layout defines it
    if c.data and off <= len then
        local n, note = vals.length, nil
        if cmd == 0x31 then
            if x and x.length then
                n = x.length
            else
                n = guess_read_len(tvb)
                note = " (inferred: the request is not in the capture)"
            end
        end
        if n then
            logical_end = add_data(tvb, tree, off, n, note) or len
        end
    end
    -- What follows the PDU: Ethernet padding up to 60 bytes, or an error
    if logical_end < len then
        local rest = tvb(logical_end)
        if logical_end + ETH_HDR < PADDED_FRAME and len + ETH_HDR == PADDED_FRAME then
            tree:add(F.eth_padding, rest)
        else
            tree:add(F.trailing, rest):add_proto_expert_info(E.bad_length,
                string.format("%d bytes after the %d-byte PDU", rest:len(),
                              logical_end))
        end
    end

    if x then
        if x.req == pinfo.number then
            if x.rsp then
                tree:add(F.response_in, x.rsp):set_generated()
            end
        else
            tree:add(F.request_in, x.req):set_generated()
            tree:add(F.time, nstime(x.rsp_ts - x.req_ts)):set_generated()
        end
    end
    pinfo.cols.info = table.concat(info, " ")
    return len
end

DissectorTable.get("ethertype"):add(0x88B5, oetp)
