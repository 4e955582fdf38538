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
"""
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
            pass  # refused over the per-address limit: that is the point
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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
