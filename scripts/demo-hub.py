#!/usr/bin/env python3
"""Lossy Ethernet hub on loopback UDP for the replication demo.

Each VM runs `-netdev dgram` from its own port to one hub port; the hub
repeats every datagram (one Ethernet frame) to every other VM, dropping each
copy with the given probability, independently per receiver, as a lossy
shared segment would. QEMU has no netdev or filter that drops frames at
random, so this is how the demo injects loss; without loss the demo uses
QEMU's own `-netdev socket,mcast=...` segment and no hub.
"""
import argparse
import random
import select
import signal
import socket
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loss", type=float, default=0.0,
                    help="drop probability per frame copy, 0..1 (default 0)")
    ap.add_argument("--seed", type=int, default=1, help="random seed")
    ap.add_argument("--port", action="append", required=True, metavar="HUB:VM",
                    help="hub port HUB serves the VM sending from port VM "
                         "(repeat for every VM)")
    ap.add_argument("--stats", help="write 'frames N dropped M' here at exit")
    args = ap.parse_args()
    if not 0.0 <= args.loss <= 1.0:
        ap.error("--loss must be within 0..1")
    rng = random.Random(args.seed)
    socks = []
    for spec in args.port:
        try:
            hub, vm = (int(x) for x in spec.split(":"))
        except ValueError:
            ap.error("--port wants HUB:VM, got %r" % spec)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
        s.bind(("127.0.0.1", hub))
        socks.append((s, ("127.0.0.1", vm)))
    frames = dropped = 0
    running = True

    def stop(*_):
        nonlocal running
        running = False
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    by_fd = {s.fileno(): (s, addr) for s, addr in socks}
    while running:
        try:
            ready, _, _ = select.select(list(by_fd), [], [], 0.5)
        except InterruptedError:
            continue
        for fd in ready:
            src, _ = by_fd[fd]
            try:
                data = src.recv(65536)
            except OSError:
                continue
            for s, addr in socks:
                if s is src:
                    continue
                frames += 1
                if rng.random() < args.loss:
                    dropped += 1
                    continue
                try:
                    # Send from the receiver's own hub port: dgram netdevs
                    # accept datagrams from their configured remote only.
                    s.sendto(data, addr)
                except OSError:
                    dropped += 1
    if args.stats:
        with open(args.stats, "w") as f:
            f.write("frames %d dropped %d\n" % (frames, dropped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
