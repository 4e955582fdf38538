#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_dashboard.sh: process-exporter's dashboards work on ptop. One
# Prometheus scrapes, in a job named process-exporter, both the real
# prometheus-process-exporter and ptop --metrics-names=process-exporter with
# the same configuration on this machine; every query of the dashboards kept
# in tests/fixtures/pe-dashboard/queries (their variables set: all groups, a
# minute's range, the one instance) that returns data for process-exporter's
# instance returns data for ptop's. Waits end on what Prometheus answers, 90
# seconds at most. Skips (77) without prometheus or prometheus-process-exporter.
set -eu

NAME=test_metrics_dashboard
. "${srcdir:-$(dirname "$0")/..}/tests/metrics-lib.sh"

need prometheus "to ask the dashboards' queries (Debian package prometheus)"
need prometheus-process-exporter "to compare with (Debian package prometheus-process-exporter)"
DEADLINE=90

cat >"$tmp/pe.yaml" <<'EOF'
process_names:
  - name: "{{.Comm}}"
    cmdline:
    - '.+'
EOF

# process-exporter reads every process's files at each scrape: 0.9 s with
# 2,000 processes on an idle machine here, more beside other tests, where a
# timeout of 1 s left it no scrape at all in 90 s (twice). Scrapes every 3 s
# still give the dashboards' one-minute rates 20 points.

# something in every family: a burner that reads and writes a file, threads
ln -sf "$PYTHON" "$tmp/dashload"
"$tmp/dashload" -c '
import os, sys, threading, time
def work():
    while True:
        with open(sys.argv[1], "wb") as f:
            f.write(os.urandom(1 << 16))
            os.fsync(f.fileno())
        with open(sys.argv[1], "rb") as f:
            f.read()
        time.sleep(0.05)
threading.Thread(target=work, daemon=True).start()
while True:
    time.sleep(1)
' "$tmp/scratch" &
kids="$kids $!"

start_ptop dash -d 1 --metrics-config "$tmp/pe.yaml" --metrics-names=process-exporter
free_port() {
	"$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
pe_port=$(free_port)
prometheus-process-exporter -config.path "$tmp/pe.yaml" \
	-web.listen-address "127.0.0.1:$pe_port" >"$tmp/pe.log" 2>&1 &
kids="$kids $!"
prom_port=$(free_port)
cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 3s
  scrape_timeout: 3s
scrape_configs:
  - job_name: process-exporter
    static_configs:
      - targets: ['127.0.0.1:$pe_port', '127.0.0.1:$port']
EOF
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$tmp/prom.log" 2>&1 &
kids="$kids $!"

# compare: each query with data for process-exporter has data for ptop;
# status 2 while process-exporter's side has not yet answered most of them.
cat >"$tmp/compare.py" <<'EOF'
import json, re, sys, urllib.parse, urllib.request
prom, pe, ptop, queries = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]

def ask(q):
    url = "http://127.0.0.1:%s/api/v1/query?query=%s" % (prom, urllib.parse.quote(q))
    try:
        r = json.load(urllib.request.urlopen(url, timeout=10))
    except Exception as e:
        return None
    if r.get("status") != "success":
        sys.exit("query refused: %s: %s" % (q, r))
    return r["data"]["result"]

def for_instance(q, inst):
    q = q.replace("$processes", ".+").replace("$interval", "1m")
    q = q.replace("$host", inst)  # a dot matching any character matches it too
    # dashboard 249's queries have no instance: each selector gets one
    return re.sub(r"\b(namedprocess_[a-z_]+)\{", r'\1{instance="%s",' % inst,
                  re.sub(r"\b(namedprocess_[a-z_]+)\b(?!\{)", r"\1{}", q))

lines = [l.strip() for l in open(queries) if l.strip() and not l.startswith("#")]
have, missing = 0, []
for q in lines:
    a = ask(for_instance(q, pe))
    if not a:
        continue
    have += 1
    if not ask(for_instance(q, ptop)):
        missing.append(q)
if have < len(lines) * 3 // 4:
    print("process-exporter answers %d of %d queries so far" % (have, len(lines)))
    sys.exit(2)
for q in missing:
    print("no data from ptop: %s" % q)
if not missing:
    print("%d of %d queries have data from process-exporter, and from ptop" % (have, len(lines)))
sys.exit(1 if missing else 0)
EOF
compare() {
	"$PYTHON" "$tmp/compare.py" "$prom_port" "127.0.0.1:$pe_port" "127.0.0.1:$port" \
		"$srcdir/tests/fixtures/pe-dashboard/queries" >"$tmp/result" 2>&1
}
wait_until compare || die "$(cat "$tmp/result")"
echo "$NAME: $(cat "$tmp/result")"
finish
