# SPDX-License-Identifier: GPL-2.0-or-later
"""metrics_client.py: what the metrics tests ask of ptop's endpoint, over
HTTP on loopback (http.client from the standard library).

  get PORT PATH [METHOD [ACCEPT]]   print "STATUS CONTENT-TYPE ALLOW BYTES", body to
                                    the file in $BODY when set
  value PORT NAME [LABEL=VALUE...]  print the sample's value (text format); status 1
                                    when there is no such sample
  series PORT NAME                  print each sample of NAME: its labels, one a line
  pair PORT PATH                    GET PATH as OpenMetrics, then as text, back to back in
                                    one process (most often one frame): print the first's
                                    "STATUS CONTENT-TYPE ALLOW BYTES", the bodies to
                                    $BODY.om and $BODY.text
  raw PORT TARGET                   GET TARGET as sent on a socket (Python escapes such
                                    as \\x00 decoded, nothing else): print the status
"""
import http.client
import os
import re
import socket
import sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
OM = "application/openmetrics-text; version=1.0.0"


def request(port, path, method="GET", accept=None, host="127.0.0.1", timeout=30):
    c = http.client.HTTPConnection(host, port, timeout=timeout)
    headers = {"Accept": accept} if accept else {}
    c.request(method, path, headers=headers)
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, r.getheader("Content-Type", ""), r.getheader("Allow", ""), body


def samples(body):
    """(name, {label: value}, value) of each sample line."""
    out = []
    for line in body.decode("utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            raise ValueError("not a sample line: %r" % line)
        labels = {k: v for k, v in LABEL.findall(m.group(3) or "")}
        out.append((m.group(1), labels, float(m.group(4))))
    return out


def raw(port, target):
    """The status of GET target, the bytes sent as they are."""
    t = target.encode("latin-1").decode("unicode_escape").encode("latin-1")
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        head = b""
        while b"\r\n" not in head:
            got = s.recv(4096)
            if not got:
                break
            head += got
    line = head.split(b"\r\n")[0].split()
    return line[1].decode() if len(line) > 1 else "none"


def main(argv):
    cmd, port = argv[1], int(argv[2])
    if cmd == "raw":
        print(raw(port, argv[3]))
        return 0
    if cmd == "get":
        method = argv[4] if len(argv) > 4 else "GET"
        accept = (OM if argv[5] == "om" else argv[5]) if len(argv) > 5 else None
        status, ctype, allow, body = request(port, argv[3], method, accept)
        if os.environ.get("BODY"):
            with open(os.environ["BODY"], "wb") as f:
                f.write(body)
        print(status, ctype.replace(" ", ""), allow.replace(" ", "") or "-", len(body))
        return 0
    if cmd == "pair":
        lines = []
        for accept, suffix in ((OM, ".om"), (None, ".text")):
            status, ctype, allow, body = request(port, argv[3], "GET", accept)
            with open(os.environ["BODY"] + suffix, "wb") as f:
                f.write(body)
            lines.append("%s %s %s %d" % (status, ctype.replace(" ", ""),
                                          allow.replace(" ", "") or "-", len(body)))
        print(lines[0])
        return 0
    status, _, _, body = request(port, "/metrics")
    if status != 200:
        print("status", status, file=sys.stderr)
        return 1
    name = argv[3]
    want = dict(a.split("=", 1) for a in argv[4:])
    found = False
    for n, labels, v in samples(body):
        if n != name:
            continue
        if cmd == "series":
            print(" ".join("%s=%s" % kv for kv in sorted(labels.items())))
            found = True
        elif all(labels.get(k) == val for k, val in want.items()):
            print(repr(v))
            return 0
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
