#!/usr/bin/env python3
"""exchange.py -- the small client/server exchange make_captures.sh records
on the loopback interface. A TCP server on 127.0.0.2:5000 answers each
request after a fixed think time, in segments of at most MSS bytes; two clients (127.0.0.1 and 127.0.0.3)
send requests of known sizes and wait for each reply before pausing and
sending the next; one UDP datagram goes each way between 127.0.0.1 and
127.0.0.2:5001. Sizes and pauses are fixed so the captured gaps are known.
Usage: exchange.py  (needs no privileges; prints nothing on success)."""
import socket
import struct
import threading
import time

THINK = 0.004          # server think time before each reply, s
PAUSE = 0.006          # client pause between a reply and its next request, s
ROUNDS = [(200, 1500), (3000, 100), (64, 12000)]  # (request bytes, reply bytes)
MSS = 1400             # segments of ~1400 bytes, as on Ethernet: large messages span several


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise EOFError("peer closed early")
        buf += chunk
    return buf


def serve(listener, clients):
    for _ in range(clients):
        conn, _ = listener.accept()
        threading.Thread(target=handle, args=(conn,)).start()


def handle(conn):
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for req, rep in ROUNDS:
        head = recv_exact(conn, 8)
        size, reply = struct.unpack("!II", head)
        recv_exact(conn, size - 8)
        time.sleep(THINK)
        conn.sendall(b"r" * reply)
    conn.close()


def client(src):
    s = socket.socket()
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, MSS)
    s.bind((src, 0))
    s.connect(("127.0.0.2", 5000))
    for req, rep in ROUNDS:
        s.sendall(struct.pack("!II", req, rep) + b"q" * (req - 8))
        recv_exact(s, rep)
        time.sleep(PAUSE)
    s.close()


def main():
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, MSS)
    ls.bind(("127.0.0.2", 5000))
    ls.listen(4)
    srv = threading.Thread(target=serve, args=(ls, 2))
    srv.start()
    u_srv = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u_srv.bind(("127.0.0.2", 5001))
    u_cli = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u_cli.bind(("127.0.0.1", 0))
    u_cli.sendto(b"u" * 300, ("127.0.0.2", 5001))
    data, peer = u_srv.recvfrom(2048)
    u_srv.sendto(b"v" * 700, peer)
    u_cli.recvfrom(2048)
    a = threading.Thread(target=client, args=("127.0.0.1",))
    a.start()
    time.sleep(0.002)
    b = threading.Thread(target=client, args=("127.0.0.3",))
    b.start()
    a.join()
    b.join()
    srv.join()
    ls.close()


if __name__ == "__main__":
    main()
