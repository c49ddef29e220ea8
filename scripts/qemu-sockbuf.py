#!/usr/bin/env python3
"""Give a running QEMU's UDP socket netdev a receive buffer of a chosen size.

QEMU's socket and dgram netdevs create their multicast sockets themselves
(a passed multicast fd is cloned into a fresh socket), so they always start
with the host's default receive buffer (net.core.rmem_default, 208 KiB:
about 12 full-size frames). This takes a duplicate of the socket from the
process (pidfd_getfd, Linux 5.6+, needs ptrace rights over it: root or the
same user) and sets SO_RCVBUFFORCE (or SO_RCVBUF up to net.core.rmem_max
without CAP_NET_ADMIN) on it; the setting belongs to the socket, so QEMU's
own descriptor sees it. scripts/demo.sh runs it for every VM.
"""
import argparse
import ctypes
import os
import socket
import sys
import time

SYS_PIDFD_GETFD = 438       # x86_64 and the generic table
SO_RCVBUFFORCE = 33


def descendants(pid):
    """pid and every process below it (ip netns exec / timeout wrap QEMU)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return out


def udp_sockets(pid, port, libc):
    """Duplicates of pid's UDP sockets bound to port, as socket objects."""
    found = []
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
        pidfd = os.pidfd_open(pid)
    except OSError:
        return found
    try:
        for fd in fds:
            try:
                if not os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                    continue
            except OSError:
                continue
            dup = libc.syscall(SYS_PIDFD_GETFD, pidfd, int(fd), 0)
            if dup < 0:
                err = ctypes.get_errno()
                sys.exit(f"qemu-sockbuf: pidfd_getfd on pid {pid}: {os.strerror(err)}")
            s = socket.socket(fileno=dup)
            try:
                ok = (s.family == socket.AF_INET and s.type == socket.SOCK_DGRAM and
                      s.getsockname()[1] == port)
            except OSError:
                ok = False
            if ok:
                found.append(s)
            else:
                s.close()
    finally:
        os.close(pidfd)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pid", type=int, required=True,
                    help="QEMU, or a process that runs it (searched downwards)")
    ap.add_argument("--port", type=int, required=True,
                    help="the UDP port of the netdev's socket")
    ap.add_argument("--bytes", type=int, required=True,
                    help="receive buffer to ask for (the kernel doubles it)")
    ap.add_argument("--wait", type=float, default=30,
                    help="seconds to wait for the socket to appear (default 30)")
    a = ap.parse_args()
    libc = ctypes.CDLL(None, use_errno=True)
    end = time.monotonic() + a.wait
    while True:
        socks = [s for p in descendants(a.pid) for s in udp_sockets(p, a.port, libc)]
        if socks:
            break
        if time.monotonic() > end or not os.path.exists(f"/proc/{a.pid}"):
            sys.exit(f"qemu-sockbuf: no UDP socket on port {a.port} under pid {a.pid}")
        time.sleep(0.1)
    for s in socks:
        try:
            s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, a.bytes)
        except PermissionError:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, a.bytes)
        got = s.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
        print(f"qemu-sockbuf: pid {a.pid} port {a.port}: receive buffer {got} bytes")
        s.close()


if __name__ == "__main__":
    main()
