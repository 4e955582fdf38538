#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_slow.sh: slow clients do not keep a scraper out of the metrics
# endpoint, on loopback: a request header sent a byte every 0.5 s is closed
# within SLOW_HEADER_S (6 s: ptop allows 2 s; libmicrohttpd's own timeout
# counts only idle time, so such a header never ends it); while 500 requests
# from addresses across 127.0.0.0/8 and 100 from 127.0.0.1 (the scraper's
# own address) each send a header byte a second, and open again whenever
# ptop closes them, a scrape from 127.0.0.1 each second is answered within
# SLOW_SCRAPE_S (3 s: locked out, it would wait until the client gives up;
# the first scrape, queued behind the swarm's 600 accepts, took 1.04 s on a
# CI machine), for SLOW_SECONDS (8 s); ptop counts the connections it
# closed, for a late header and to make room for a new one. Skips (77) when
# RLIMIT_NOFILE cannot hold 800 descriptors.
set -eu

NAME=test_metrics_slow
. "${srcdir:-$(dirname "$0")/..}/tests/metrics-lib.sh"

SLOW_SCRAPE_S=${SLOW_SCRAPE_S:-3}
SLOW_SECONDS=${SLOW_SECONDS:-8}
SLOW_HEADER_S=${SLOW_HEADER_S:-6}

load() {
	PYTHONPATH="$srcdir/tests" "$PYTHON" "$srcdir/tests/metrics_load.py" "$@"
}

start_ptop main -d 0.5
load slowheader "$port" "$SLOW_HEADER_S" >"$tmp/header" 2>&1 || fail "$(cat "$tmp/header")"
cat "$tmp/header"

st=0
load swarm "$port" "$SLOW_SECONDS" "$SLOW_SCRAPE_S" >"$tmp/swarm" 2>&1 || st=$?
cat "$tmp/swarm"
[ "$st" = 77 ] && skip "$(cat "$tmp/swarm")"
[ "$st" = 0 ] || fail "slow clients: $(cat "$tmp/swarm")"
kill -0 "$ptop_pid" || die "ptop died: $(cat "$tmp/main.err")"
for why in header_timeout evicted; do
	v=$(client value "$port" ptop_http_connections_closed_total "reason=$why") || v=0
	"$PYTHON" -c "import sys; sys.exit(not $v > 0)" ||
		fail "ptop_http_connections_closed_total{reason=\"$why\"} is $v after the slow clients"
done

finish
