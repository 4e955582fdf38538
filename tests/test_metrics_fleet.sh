#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_fleet.sh: one Prometheus server scraping 20 ptop endpoints
# on 127.0.0.1, each its own instance, as a fleet's would. Each endpoint
# watches one program, "hog", that holds its own amount of memory (host N
# holds N times 2 MiB more than host 0): topk(3) across the fleet names the
# three hosts that hold most, with their sizes in order. One more endpoint
# watches a machine whose processes churn (a new program name every tenth
# of a second, each living 1.5 s) with --max-groups 5: at no scrape does it
# serve more than 6 group series (5 and other), and other counts the rest.
# Waits end on what Prometheus answers, 90 seconds at most. Skips (77)
# without the prometheus binary (Debian package prometheus).
set -eu

NAME=test_metrics_fleet
. "${srcdir:-$(dirname "$0")/..}/tests/metrics-lib.sh"

need prometheus "to scrape ptop (Debian package prometheus)"
DEADLINE=90
HOSTS=20

# hogs: host N's program holds (N + 1) * 2 MiB, touched so that it is resident
ln -sf "$PYTHON" "$tmp/hog"
hog_pids=
for n in $(seq 0 $((HOSTS - 1))); do
	"$tmp/hog" -c '
import sys, time
x = bytearray((int(sys.argv[1]) + 1) * 2 << 20)
for i in range(0, len(x), 4096):
    x[i] = 1
open(sys.argv[2], "w").write("ready")
time.sleep(3600)' "$n" "$tmp/hog$n.ready" &
	kids="$kids $!"
	hog_pids="$hog_pids $!"
done
ready() {
	for n in $(seq 0 $((HOSTS - 1))); do
		[ -s "$tmp/hog$n.ready" ] || return 1
	done
}
wait_until ready || die "the hogs did not start"

# the fleet: an endpoint per hog, each scraped as its own instance
targets=
n=0
for p in $hog_pids; do
	start_ptop "host$n" -d 1 -p "$p"
	eval "port_$n=$port"
	targets="$targets'127.0.0.1:$port', "
	n=$((n + 1))
done

# and a churning machine: a program of a new name every 0.1 s, each living 1.5 s
ln -sf "$(command -v sleep)" "$tmp/sleep"
(
	i=0
	while :; do
		i=$((i + 1))
		ln -sf "$tmp/sleep" "$tmp/ch$i"
		"$tmp/ch$i" 1.5 &
		sleep 0.1
	done
) &
churn=$!
kids="$kids $churn"
start_ptop churn -d 0.5 --max-groups 5 -u "$(id -un)"
churn_port=$port

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
  - job_name: fleet
    static_configs:
      - targets: [${targets%, }]
  - job_name: churn
    static_configs:
      - targets: ['127.0.0.1:$churn_port']
EOF
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$tmp/prom.log" 2>&1 &
kids="$kids $!"

# query PROMQL: each result as "instance value", one a line; status 1 when none.
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
for x in res:
    print(x["metric"].get("instance", "-"), x["value"][1])
EOF
}

all_up() {
	[ "$(query 'sum(up{job="fleet"})' | cut -d' ' -f2)" = "$HOSTS" ]
}
wait_until all_up || {
	cat "$tmp/prom.log" >&2
	die "not all $HOSTS endpoints are up"
}

# topk across the fleet: hosts 19, 18 and 17, in that order, each above the next
eval "want=\"127.0.0.1:\$port_$((HOSTS - 1)) 127.0.0.1:\$port_$((HOSTS - 2)) 127.0.0.1:\$port_$((HOSTS - 3))\""
top3() {
	query 'sort_desc(topk(3, ptop_group_resident_memory_bytes{job="fleet",comm="hog"}))' \
		>"$tmp/top3" || return 1
	[ "$(cut -d' ' -f1 "$tmp/top3" | tr '\n' ' ')" = "$want " ]
}
wait_until top3 || die "topk(3) across the fleet: $(cat "$tmp/top3"), not $want"
"$PYTHON" - "$tmp/top3" <<'EOF' || die "topk(3): sizes not 2 MiB apart: $(cat "$tmp/top3")"
import sys
v = [float(l.split()[1]) for l in open(sys.argv[1])]
assert all(1.5 * 2**20 < a - b < 2.5 * 2**20 for a, b in zip(v, v[1:])), v
EOF

# the churning machine: 30 s of it (60 frames, some 300 names), never more
# than 5 groups and other at a scrape, and other counting the newcomers
churned() {
	n=$(query 'ptop_scans_total{job="churn"}' | cut -d' ' -f2) && [ "${n%.*}" -ge 60 ]
}
wait_until churned || die "the churn endpoint took fewer than 60 frames in $DEADLINE s"
most=$(query 'max_over_time(count(ptop_group_processes{job="churn"})[5m:1s])' | cut -d' ' -f2)
[ -n "$most" ] && [ "${most%.*}" -le 6 ] || die "the churning machine served $most group series at once (--max-groups 5)"
others=$(query 'max_over_time(ptop_group_processes{job="churn",comm="other"}[5m])' | cut -d' ' -f2)
[ -n "$others" ] && [ "${others%.*}" -ge 10 ] || die "other never counted the churn's processes: $others"
finish
