#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_prometheus.sh: a real Prometheus server scrapes ptop every
# second on loopback, and its HTTP API is asked what it stored: up{job="ptop"}
# is 1, a busy child's group (a name of its own) has a CPU-seconds series
# that grows across scrapes, and the metadata Prometheus kept carries the
# unit, which only OpenMetrics sends (so it negotiated OpenMetrics); the
# example configuration doc/prometheus.yml passes promtool, and the example
# alerts doc/ptop-alerts.yml pass promtool's check and their unit test. Waits
# end on what Prometheus answers, 60 seconds at most. Skips (77) without the
# prometheus binary (Debian package prometheus).
set -eu

NAME=test_metrics_prometheus
. "${srcdir:-$(dirname "$0")/..}/tests/metrics-lib.sh"

need prometheus "to scrape ptop (Debian package prometheus)"
DEADLINE=60

promtool check config "$srcdir/doc/prometheus.yml" >"$tmp/config" 2>&1 ||
	fail "doc/prometheus.yml: $(cat "$tmp/config")"
# the example alerts: valid, and firing as their unit test says on made-up series
promtool check rules "$srcdir/doc/ptop-alerts.yml" >"$tmp/rules" 2>&1 ||
	fail "doc/ptop-alerts.yml: $(cat "$tmp/rules")"
cp "$srcdir/doc/ptop-alerts.yml" "$srcdir/tests/fixtures/alerts/ptop-alerts-test.yml" "$tmp/"
promtool test rules "$tmp/ptop-alerts-test.yml" >"$tmp/rules" 2>&1 ||
	fail "doc/ptop-alerts.yml's unit test: $(cat "$tmp/rules")"

b=ptp$$b
busy "$b"
start_ptop main -d 1

prom_port=$("$PYTHON" -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: ptop
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$tmp/prom.log" 2>&1 &
kids="$kids $!"

# query PROMQL: the value of the query's first result, or status 1.
query() {
	"$PYTHON" - "$prom_port" "$1" <<'EOF'
import json, sys, urllib.parse, urllib.request
url = "http://127.0.0.1:%s/api/v1/query?query=%s" % (sys.argv[1], urllib.parse.quote(sys.argv[2]))
try:
    r = json.load(urllib.request.urlopen(url, timeout=10))
except Exception:
    sys.exit(1)
res = r.get("data", {}).get("result", [])
if r.get("status") != "success" or not res:
    sys.exit(1)
print(res[0]["value"][1])
EOF
}

up() { [ "$(query 'up{job="ptop"}')" = 1 ]; }
wait_until up || {
	cat "$tmp/prom.log" >&2
	fail 'up{job="ptop"} never became 1'
}
series="ptop_group_cpu_seconds_total{job=\"ptop\",comm=\"$b\"}"
first=
have_first() { first=$(query "$series"); }
wait_until have_first || fail "Prometheus has no series $series"
grows() {
	v=$(query "$series") && "$PYTHON" -c "import sys; sys.exit(not $v > ${first:-0})"
}
wait_until grows || fail "$series did not grow past $first"
two_scrapes() {
	n=$(query "count_over_time(${series}[5m])") && [ "$n" -ge 2 ]
}
wait_until two_scrapes || fail "fewer than two scrapes of $series"

unit() {
	"$PYTHON" - "$prom_port" <<'EOF'
import json, sys, urllib.request
url = "http://127.0.0.1:%s/api/v1/metadata?metric=ptop_group_cpu_seconds" % sys.argv[1]
r = json.load(urllib.request.urlopen(url, timeout=10))
m = r["data"].get("ptop_group_cpu_seconds", [])
sys.exit(not any(x.get("unit") == "seconds" and x.get("type") == "counter" for x in m))
EOF
}
wait_until unit || fail "Prometheus kept no unit for ptop_group_cpu_seconds: not OpenMetrics?"

finish
