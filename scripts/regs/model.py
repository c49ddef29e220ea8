"""Front end of scripts/gen-regs.py: reads the endpoint's SystemRDL once and
gives every back end the same model (registers, their fields, the RMEM
window and the encoded enums)."""
import sys

from systemrdl import RDLCompiler, RDLCompileError
from systemrdl.node import AddrmapNode, MemNode, RegNode

TOP_MAP = "openenoc_endpoint_full"

# Path prefixes renamed in C names, so that common names stay short.
C_RENAMES = [
    ("endpoint.peers.entry", "peer"),
    ("switch_if.forwarding_table.entry", "switch_fwd"),
    ("switch_if", "switch"),
    ("endpoint", ""),
]

# Name stem of each RDL enum in the generated code: OE_<stem>_<member> in C,
# ENOC_<stem>_<member> in the Linux uapi, <stem>_<member> in SystemVerilog.
ENUM_STEMS = {
    "irq_source": "SRC",
    "peer_mode": "MODE",
    "error_code": "ERR",
}
# Enums the guest driver's uapi header carries (struct enoc_event.source).
UAPI_ENUMS = ("irq_source",)


def c_name(path):
    """RDL path below the top (array brackets removed) -> C macro stem."""
    for old, new in C_RENAMES:
        if path == old or path.startswith(old + "."):
            path = new + path[len(old):]
            break
    return "OE_" + path.strip(".").replace(".", "_").upper()


def rel_path(node, array_suffix=""):
    return node.get_path(empty_array_suffix=array_suffix).split(".", 1)[1]


class Enum:
    """An RDL enum used as the encoding of one or more fields."""

    def __init__(self, cls):
        self.type_name = cls.type_name
        if self.type_name not in ENUM_STEMS:
            sys.exit("gen-regs: enum %s has no name stem in scripts/regs/model.py ENUM_STEMS"
                     % self.type_name)
        self.stem = ENUM_STEMS[self.type_name]
        # (identifier, value, display name, description), in value order
        self.members = sorted(((m.name.upper(), m.value, m.rdl_name or m.name.upper(),
                                (m.rdl_desc or "").replace("\n", " ")) for m in cls),
                              key=lambda m: m[1])
        self.fields = []          # Field objects encoded with it

    def width(self):
        return max(f.width for f in self.fields)

    def users(self):
        """The fields it encodes, as RDL paths below the endpoint."""
        seen = []
        for f in self.fields:
            path = "%s.%s" % (f.reg.indexed_path.replace("[]", "[n]"), f.name)
            if path.startswith("endpoint."):
                path = path[len("endpoint."):]
            if path not in seen:
                seen.append(path)
        return ", ".join(seen)


class Field:
    """One field of a register, possibly inside an array of register files."""

    def __init__(self, reg, node):
        self.reg = reg
        self.node = node
        self.name = node.inst_name
        path = node.get_path(empty_array_suffix="").split(".", 1)[1]
        if path.startswith("endpoint."):
            path = path[len("endpoint."):]
        self.member = path.replace(".", "_")      # SV signal name
        self.count, self.stride = reg.count, reg.stride
        self.width = node.width
        self.low = node.low           # bit in the (possibly 64-bit) register
        self.high = node.high
        self.reset = node.get_property("reset") or 0
        self.sw_write = node.get_property("sw").name == "rw"
        self.cmd = bool(node.get_property("hwclr"))
        self.desc = (node.get_property("desc") or "").replace("\n", " ")
        self.encode = None            # Enum, filled in by load()

    def access(self):
        if self.cmd:
            return "rw/hwclr"
        return "rw" if self.sw_write else "r"


class Reg:
    """One register (possibly 64-bit, possibly inside an array)."""

    def __init__(self, node):
        self.node = node
        self.path = rel_path(node)
        self.indexed_path = rel_path(node, "[]")
        self.name = c_name(self.path)
        self.addr = node.raw_absolute_address
        self.width = node.get_property("regwidth")
        self.array = None             # (count, stride) of the enclosing array
        parent = node.parent
        while parent is not None and not isinstance(parent, AddrmapNode):
            if parent.is_array:
                self.array = (parent.array_dimensions[0], parent.array_stride)
            parent = parent.parent
        self.count, self.stride = self.array if self.array else (1, 0)
        self.fields = [Field(self, f) for f in node.fields()]

    def words(self):
        """Every 32-bit word of it: (array element, half (1 = bits 63:32), byte address)."""
        for i in range(self.count):
            for half in range(self.width // 32):
                yield i, half, self.addr + self.stride * i + 4 * half

    def reset(self):
        value = 0
        for f in self.fields:
            value |= f.reset << f.low
        return value

    def mask(self, pred):
        value = 0
        for f in self.fields:
            if pred(f):
                value |= ((1 << f.width) - 1) << f.low
        return value


class Model:
    def __init__(self, regs, mems, arrays, enums):
        self.regs = regs
        self.mems = mems              # external mems (the RMEM window)
        self.arrays = arrays          # C stem -> (base, count, stride)
        self.enums = enums            # in first-use order

    def fields(self):
        return [f for r in self.regs for f in r.fields]


def load(rdl_path):
    rdlc = RDLCompiler()
    try:
        rdlc.compile_file(rdl_path)
        top = rdlc.elaborate(top_def_name=TOP_MAP).top
    except RDLCompileError:
        sys.exit(2)
    regs, mems, arrays, enums = [], [], {}, {}
    for node in top.descendants(unroll=False):
        if isinstance(node, RegNode):
            r = Reg(node)
            regs.append(r)
            if r.array:
                stem = c_name(rel_path(node.parent))
                arrays.setdefault(stem, (node.parent.raw_absolute_address,) + r.array)
            for f in r.fields:
                cls = f.node.get_property("encode")
                if cls is not None:
                    f.encode = enums.setdefault(cls.type_name, Enum(cls))
                    f.encode.fields.append(f)
        elif isinstance(node, MemNode):
            mems.append(node)
    if len(mems) != 1:
        sys.exit("gen-regs: expected exactly one external mem (the RMEM window)")
    return Model(regs, mems, arrays, list(enums.values()))
