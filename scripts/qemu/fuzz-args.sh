# Sourced by fuzz-run.sh and fuzz-reproduce.sh: the machine QEMU's
# generic-fuzz builds around the device (two devices on hub 0) and the
# objects whose memory regions it fuzzes. The firmware folders are given
# with -L because the fuzz build is configured without make qemu's
# --firmwarepath. x-wait-limit-ms: an RMEM window access with rmem_timeout
# 0 and a silent peer waits forever (the spec's rule); generic-fuzz found
# that and cannot stop the VM, so waits end after 100 ms of host time.
# shellcheck shell=bash
QEMU_FUZZ_ARGS="-M pc -nodefaults -L /usr/share/seabios -L /usr/share/qemu \
-netdev hubport,id=n0,hubid=0 -netdev hubport,id=n1,hubid=0 \
-device openenoc,netdev=n0,addr=0x4,mac=02:0e:0c:00:00:0a,x-wait-limit-ms=100 \
-device openenoc,netdev=n1,addr=0x5,mac=02:0e:0c:00:00:0b,x-wait-limit-ms=100"
QEMU_FUZZ_OBJECTS="openenoc"
