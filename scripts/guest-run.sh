#!/usr/bin/env bash
# Boot one test guest (build/guest) in the project's QEMU with any number of
# openenoc devices and optional emulated NICs. The script ends by exec'ing
# QEMU, so a caller that started it in the background holds QEMU's own pid.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
    cat <<EOF
usage: $0 [options] [-- COMMAND [ARGS...]]
Boot the openenoc test guest under TCG. COMMAND runs as the guest's /init
payload (see guest/rootfs/init); without it the guest runs the fw_cfg script
given by --script, or a shell.

  --enoc MAC[=NETDEV]   add an openenoc device with this MAC; NETDEV is a
                        QEMU -netdev backend without id, e.g.
                        socket,mcast=230.0.0.1:5000,localaddr=127.0.0.1
                        (repeatable: one device per option)
  --enoc-prop K=V       extra property for every openenoc device (repeatable)
  --nic MODEL,MAC=NETDEV  add an emulated NIC (e1000 or virtio-net-pci)
  --netdev SPEC         extra QEMU -netdev (with its id), e.g. a stream
                        server joined to a hub (repeatable)
  --pcap FILE           capture the first openenoc device's traffic (filter-dump)
  --fault PROPS         faults on the first openenoc device's link: a
                        filter-fault with these properties, e.g.
                        drop=20,seed=1,queue=tx (2 % of received frames lost;
                        queue=rx: of the frames the VM sends)
  --script FILE         guest script, run by /init (fw_cfg opt/openenoc/run)
  --file NAME=FILE      extra fw_cfg file, readable as /run/fw_cfg/NAME
  --append WORDS        extra kernel parameters (before "--")
  --mem MiB             guest RAM (default 256)
  --log FILE            serial console to FILE instead of stdout
  --timeout SECONDS     kill QEMU after this long (default 300; 0 = never)
  --interactive         console on this terminal, no timeout
  --qemu PATH           QEMU binary (default build/qemu/qemu-system-x86_64,
                        or \$OPENENOC_QEMU)
EOF
}
die() { echo "guest-run: $*" >&2; exit 2; }

qemu=${OPENENOC_QEMU:-$top/build/qemu/qemu-system-x86_64}
kernel=$top/build/guest/kernel/vmlinux
initrd=$top/build/guest/initramfs.cpio.gz
mem=256 timeout_s=300 log= pcap= fault= script= append= interactive=0
enocs=() nics=() files=() props=() netdevs=()
while [ $# -gt 0 ]; do
    case $1 in
    -h|--help) usage; exit 0 ;;
    --enoc) enocs+=("${2:?--enoc needs MAC[=NETDEV]}"); shift ;;
    --enoc-prop) props+=("${2:?--enoc-prop needs K=V}"); shift ;;
    --nic) nics+=("${2:?--nic needs MODEL,MAC=NETDEV}"); shift ;;
    --netdev) netdevs+=("${2:?--netdev needs a SPEC}"); shift ;;
    --pcap) pcap=${2:?}; shift ;;
    --fault) fault=${2:?--fault needs filter-fault properties}; shift ;;
    --script) script=${2:?}; shift ;;
    --file) files+=("${2:?}"); shift ;;
    --append) append="$append ${2:?}"; shift ;;
    --mem) mem=${2:?}; shift ;;
    --log) log=${2:?}; shift ;;
    --timeout) timeout_s=${2:?}; shift ;;
    --interactive) interactive=1 ;;
    --qemu) qemu=${2:?}; shift ;;
    --) shift; break ;;
    *) usage >&2; die "unknown argument '$1'" ;;
    esac
    shift
done

[ -x "$qemu" ] || die "no QEMU at $qemu: run 'make qemu'"
[ -f "$kernel" ] && [ -f "$initrd" ] || die "no guest image in build/guest: run 'make guest'"
case $mem in ''|*[!0-9]*) die "--mem wants a number of MiB" ;; esac
case $timeout_s in ''|*[!0-9]*) die "--timeout wants seconds" ;; esac

args=(-accel tcg -m "$mem" -nodefaults -no-user-config -nographic -no-reboot
      -L /usr/share/seabios -L /usr/share/qemu
      -kernel "$kernel" -initrd "$initrd")
i=0
prop_str=
for p in ${props[@]+"${props[@]}"}; do prop_str="$prop_str,$p"; done
for e in ${enocs[@]+"${enocs[@]}"}; do
    mac=${e%%=*}
    if [ "$e" != "$mac" ]; then
        args+=(-netdev "${e#*=},id=oe$i" -device "openenoc,netdev=oe$i,mac=$mac$prop_str")
        if [ $i = 0 ] && [ -n "$pcap" ]; then
            args+=(-object "filter-dump,id=dump0,netdev=oe0,file=$pcap")
        fi
        if [ $i = 0 ] && [ -n "$fault" ]; then
            args+=(-object "filter-fault,id=fault0,netdev=oe0,$fault")
        fi
    else
        args+=(-device "openenoc,mac=$mac$prop_str")
    fi
    i=$((i + 1))
done
for n in ${netdevs[@]+"${netdevs[@]}"}; do
    args+=(-netdev "$n")
done
i=0
for n in ${nics[@]+"${nics[@]}"}; do
    model=${n%%,*} rest=${n#*,}
    mac=${rest%%=*}
    [ "$rest" != "$mac" ] || die "--nic wants MODEL,MAC=NETDEV"
    # romfile= : the option ROMs are not needed for a -kernel boot.
    args+=(-netdev "${rest#*=},id=nic$i" -device "$model,netdev=nic$i,mac=$mac,romfile=")
    i=$((i + 1))
done
[ -z "$script" ] || { [ -f "$script" ] || die "no script $script"; args+=(-fw_cfg "name=opt/openenoc/run,file=$script"); }
for f in ${files[@]+"${files[@]}"}; do
    args+=(-fw_cfg "name=opt/openenoc/${f%%=*},file=${f#*=}")
done
# Under TCG the guest's TSC is the host's, and calibrating it fails or comes
# out wrong when the host is busy (a guest clock running at twice real time
# was seen): keep time with the ACPI PM timer, which QEMU derives from its
# virtual clock. no_timer_check: the boot-time IRQ0 check also fails then.
cmdline="console=ttyS0 panic=-1 quiet no_timer_check clocksource=acpi_pm tsc=unstable$append"
if [ $# -gt 0 ]; then
    # The kernel splits at blanks but keeps a double-quoted word whole.
    cmdline="$cmdline --"
    for a in "$@"; do
        case $a in
        *'"'*) die "a guest argument cannot contain a double quote: use --script" ;;
        *[[:space:]]*) cmdline="$cmdline \"$a\"" ;;
        *) cmdline="$cmdline $a" ;;
        esac
    done
fi
args+=(-append "$cmdline")

if [ "$interactive" = 1 ]; then
    exec "$qemu" "${args[@]}" -serial mon:stdio
fi
if [ -n "$log" ]; then args+=(-serial "file:$log" -display none -monitor none)
else args+=(-serial stdio -monitor none); fi
if [ "$timeout_s" != 0 ]; then
    # timeout(1) stays the parent and forwards TERM, so the caller's kill still
    # reaches QEMU; --foreground keeps it in the caller's process group.
    exec timeout --foreground -k 5 "$timeout_s" "$qemu" "${args[@]}"
fi
exec "$qemu" "${args[@]}"
