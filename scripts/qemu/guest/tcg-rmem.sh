#!/bin/sh
# Guest script for scripts/qemu/tcg-check.sh (busybox, no driver): two
# openenoc devices in one VM; device A reads and writes B's memory through
# its RMEM window from the vCPU, whose access blocks until B answers. With
# SILENT=1 (tcg-check.sh prepends it), A then reads from a peer that never
# answers (timeout 0): the vCPU blocks for good and the host must still be
# able to stop QEMU. With CONCURRENT=1 (and -smp 2) two processes read the
# window at the same time.
set -e
bars=""
for d in /sys/bus/pci/devices/*; do
    [ "$(cat $d/vendor)" = 0x1234 ] && [ "$(cat $d/device)" = 0x0e0c ] || continue
    bars="$bars $(head -1 $d/resource | cut -d' ' -f1)"
    [ -e $d/driver ] && echo ${d##*/} > $d/driver/unbind
    echo 1 > $d/enable 2>/dev/null || true
done
set -- $bars
A=$(($1)); B=$(($2))
echo "A=$1 B=$2"
# bus mastering on for both
for d in /sys/bus/pci/devices/*; do
    [ "$(cat $d/vendor)" = 0x1234 ] || continue
    printf '\006\000' | dd of=$d/config bs=1 seek=4 count=2 conv=notrunc 2>/dev/null
done
w() { devmem $(printf 0x%x $(($1 + $2))) 32 $3; }
r() { devmem $(printf 0x%x $(($1 + $2))) 32; }
# MACs
w $A 0x820 0x0C000010; w $A 0x824 0x020E
w $B 0x820 0x0C000011; w $B 0x824 0x020E
# A peer0: B, mode 1, remote 0x02000000, size 64, rmem off 0
w $A 0x900 0x0C000011; w $A 0x904 0x020E; w $A 0x908 0; w $A 0x910 0x02000000; w $A 0x914 64; w $A 0x918 1
# B peer0: A, mode 1, local 0x02000000 size 4096
w $B 0x900 0x0C000010; w $B 0x904 0x020E; w $B 0x90C 0x02000000; w $B 0x914 4096; w $B 0x918 1
w $A 0xC08 0xC0FFEE11
echo "window read back: $(r $A 0xC08)"
w $A 0xC0C 0x12345678
echo "window read back: $(r $A 0xC0C)"
echo "peer dma: $(r $A 0x918)"
if [ "${CONCURRENT:-0}" = 1 ]; then
    # two vCPUs take turns on the one pending access the engine allows
    for k in 0 1 2 3 4 5 6 7; do w $A $((0xC00 + 4 * k)) $((0x51000000 + k)); done
    reader() {
        bad=0
        for i in $(seq 1 60); do
            k=$(( (i + $1) % 8 ))
            [ "$(r $A $((0xC00 + 4 * k)))" = "$(printf 0x%08X $((0x51000000 + k)))" ] || bad=$((bad + 1))
        done
        echo "reader $1 mismatches: $bad"
    }
    reader 1 > /tmp/r1 & reader 2 > /tmp/r2 & wait
    cat /tmp/r1 /tmp/r2
fi
if [ "${SILENT:-0}" = 1 ]; then
    w $A 0x91C 0x0C000099; w $A 0x920 0x020E; w $A 0x924 0x100; w $A 0x930 64; w $A 0x934 1
    echo "blocking on a silent peer"
    r $A 0xD00
    echo "not reached"
fi
poweroff -f
