# SPDX-License-Identifier: GPL-2.0-or-later
"""metrics_load.py: load and hostile clients against ptop's endpoint, on
loopback; prints what it measured and exits 1 on the first broken promise.

  load PORT PID SECONDS THREADS   THREADS scrapers (one keep-alive connection
                                  each) for SECONDS: every answer 200 and whole;
                                  ptop's RSS (VmRSS of PID) after the first
                                  quarter and at the end
  idle PORT N                     N idle connections from 127.0.0.2, then a
                                  scrape from 127.0.0.1
  slowloris PORT N                N requests from 127.0.0.3 sending one header
                                  byte a second, then a scrape from 127.0.0.1
  longline PORT                   a 1 MB request line from 127.0.0.4: its status,
                                  then a scrape from 127.0.0.1
  slowheader PORT LIMIT           one request from 127.0.0.5 sending a header byte
                                  every 0.5 s: ptop closes it within LIMIT seconds
  swarm PORT SECONDS LIMIT        500 slow requests from 500 addresses across
                                  127.0.0.0/8 and 100 from 127.0.0.1, each sending
                                  a header byte a second and opened again once
                                  closed, for SECONDS; meanwhile a scrape from
                                  127.0.0.1 each second, every one answered 200
                                  within LIMIT seconds; exits 77 when RLIMIT_NOFILE
                                  cannot hold the connections
"""
import errno
import http.client
import resource
import socket
import sys
import threading
import time

from metrics_client import request


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def scrape_ok(port, why, timeout=10):
    t = time.monotonic()
    status, _, _, body = request(port, "/metrics", timeout=timeout)
    took = time.monotonic() - t
    if status != 200 or b"ptop_scrapes_total" not in body:
        sys.exit("a scrape during %s: status %d, %d bytes" % (why, status, len(body)))
    print("scrape during %s: 200 in %.3f s" % (why, took))


def load(port, pid, seconds, threads):
    errors, counts, stop = [], [0] * threads, time.monotonic() + seconds

    def run(i):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while time.monotonic() < stop and not errors:
            try:
                c.request("GET", "/metrics")
                r = c.getresponse()
                body = r.read()
                last = body.rstrip().rsplit(b"\n", 1)[-1]
                if r.status != 200 or not last.startswith(b"ptop_scrape_duration_seconds_count "):
                    errors.append("status %d, %d bytes" % (r.status, len(body)))
                counts[i] += 1
            except Exception as e:  # a refused or reset connection is an error here
                errors.append(repr(e))
        c.close()

    ts = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    time.sleep(seconds / 4)
    early = rss_kb(pid)
    for t in ts:
        t.join()
    late = rss_kb(pid)
    print("scrapes %d errors %d rss_kb %d %d" % (sum(counts), len(errors), early, late))
    if errors:
        sys.exit("errors under load: %s" % errors[:3])


def connect_from(src, port, blocking=True):
    s = socket.socket()
    s.bind((src, 0))
    s.setblocking(blocking)
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    return s


def idle(port, n):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    n = min(n, hard - 100)
    held = [connect_from("127.0.0.2", port, False) for _ in range(n)]
    print("idle connections opened: %d" % len(held))
    scrape_ok(port, "%d idle connections" % n)
    for s in held:
        s.close()


def slowloris(port, n):
    held = []
    for _ in range(n):
        try:
            s = connect_from("127.0.0.3", port)
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
            held.append(s)
        except OSError:
            pass  # closed at once, to make room for a newer one
    stop = time.monotonic() + 3
    while time.monotonic() < stop:
        for s in held:
            try:
                s.send(b"X")
            except OSError:
                pass
        time.sleep(1)
    scrape_ok(port, "%d slow requests" % len(held))
    for s in held:
        s.close()


def longline(port):
    s = connect_from("127.0.0.4", port)
    s.settimeout(30)
    status = b""
    try:
        s.sendall(b"GET /" + b"a" * (1 << 20) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    except OSError:
        pass  # the server may close before it has all of it
    try:
        status = s.recv(64).split(b"\r\n")[0]
    except OSError:
        pass
    s.close()
    print("1 MB request line: %r" % status.decode(errors="replace"))
    if status and not any(c in status for c in (b" 400 ", b" 413 ", b" 414 ", b" 431 ")):
        sys.exit("1 MB request line answered %r" % status)
    scrape_ok(port, "a 1 MB request line")


def slowheader(port, limit):
    s = connect_from("127.0.0.5", port)
    s.settimeout(0.5)
    t0 = time.monotonic()
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    closed = None
    while closed is None and time.monotonic() - t0 < limit:
        try:
            if s.recv(1024) == b"":
                closed = time.monotonic() - t0
        except socket.timeout:
            pass
        except OSError:
            closed = time.monotonic() - t0
        try:
            s.send(b"a")
        except OSError:
            closed = time.monotonic() - t0
    s.close()
    if closed is None:
        sys.exit("a header sent a byte every 0.5 s still open after %.1f s" % limit)
    print("a header sent a byte every 0.5 s: closed after %.3f s" % closed)


SWARM_OTHERS, SWARM_LOCAL = 500, 100


def swarm_addr(i):
    """The source of slow connection i: 127.0.0.1 for the last SWARM_LOCAL,
    else one of 500 addresses spread over 127.0.0.0/8."""
    if i >= SWARM_OTHERS:
        return "127.0.0.1"
    return "127.%d.%d.%d" % (1 + i % 250, i // 250, 1 + i % 7)


def swarm(port, seconds, limit):
    n = SWARM_OTHERS + SWARM_LOCAL
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = n + 200
    if soft < want:
        if hard != resource.RLIM_INFINITY and hard < want:
            print("RLIMIT_NOFILE %d is below the %d descriptors needed" % (hard, want))
            return 77
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    head = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: "
    socks, sent = [None] * n, [False] * n
    stats = {"opened": 0, "closed": 0}
    stop = threading.Event()

    def open_one(i):
        socks[i] = connect_from(swarm_addr(i), port, False)
        sent[i] = False
        stats["opened"] += 1

    def reopen(i):
        socks[i].close()
        stats["closed"] += 1
        open_one(i)

    def tick(i):
        """One more byte on connection i; open it again if ptop closed it."""
        s = socks[i]
        try:
            s.recv(1)  # an answer (a 4xx) or the end: ptop is done with it
            return reopen(i)
        except BlockingIOError:
            pass  # nothing from ptop: still open, or still connecting
        except OSError:
            return reopen(i)
        try:
            s.send(b"a" if sent[i] else head)
            sent[i] = True
        except (BlockingIOError, InterruptedError):
            pass
        except OSError as e:
            if e.errno != errno.ENOTCONN:  # still connecting: the next tick
                reopen(i)

    def trickle():
        while not stop.is_set():
            for i in range(n):
                tick(i)
            stop.wait(1)

    for i in range(n):
        open_one(i)
    t = threading.Thread(target=trickle)
    t.start()
    bad, took = [], []
    end = time.monotonic() + seconds
    try:
        time.sleep(1)
        while time.monotonic() < end:
            t0 = time.monotonic()
            try:
                status, _, _, body = request(port, "/metrics", timeout=limit + 5)
                ok = status == 200 and b"ptop_scrapes_total" in body
                what = "status %d, %d bytes" % (status, len(body))
            except OSError as e:
                ok, what = False, repr(e)
            dt = time.monotonic() - t0
            took.append(dt)
            if not ok or dt > limit:
                bad.append("%s in %.3f s" % (what, dt))
            time.sleep(max(0.0, 1 - dt))
    finally:
        stop.set()
        t.join()
        for s in socks:
            s.close()
    print("swarm of %d slow connections (%d opened, %d closed by ptop): scrapes %s" %
          (n, stats["opened"], stats["closed"], " ".join("%.3f" % x for x in took)))
    if bad or not took:
        sys.exit("scrapes during the swarm not answered within %.1f s: %s" % (limit, bad))
    return 0


def main(argv):
    mode, port = argv[1], int(argv[2])
    if mode == "load":
        load(port, int(argv[3]), float(argv[4]), int(argv[5]))
    elif mode == "idle":
        idle(port, int(argv[3]))
    elif mode == "slowloris":
        slowloris(port, int(argv[3]))
    elif mode == "longline":
        longline(port)
    elif mode == "slowheader":
        slowheader(port, float(argv[3]))
    elif mode == "swarm":
        return swarm(port, float(argv[3]), float(argv[4]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
