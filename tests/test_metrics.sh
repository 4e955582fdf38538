#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics.sh: the metrics endpoint (ptop --listen) as a scraper and its
# operator meet it, on loopback: both formats pass promtool (the Prometheus
# text format clean; OpenMetrics also through prometheus_client's strict
# parser where installed), a busy child's group counts its CPU time and
# keeps counting after one of its processes ends, a writer's group counts
# its bytes, rows are counted by how they were read, --group-by, --max-groups,
# --top-pids and --expose-cmdline shape the series, names that differ only
# in control bytes, a bidirectional control or a backslash stay one series
# each (parsed, and read back to the names), HTTP answers other paths (also
# ones cut short by %00 or a NUL byte) and methods with their status codes,
# -b still writes frames, and bad options end with status 2, a port in use
# with 1. Skips (77) without promtool, after running everything else.
set -eu

NAME=test_metrics
. "${srcdir:-$(dirname "$0")/..}/tests/metrics-lib.sh"

have_promtool=yes
command -v promtool >/dev/null 2>&1 || have_promtool=

b1=ptm$$a
busy "$b1"
c1=$busy_pid
busy "$b1"
c2=$busy_pid
start_ptop main -d 0.3 --top-pids 3

# Formats: the text format lints clean; OpenMetrics parses (promtool lints by the
# text format's names, where a counter's family has _total: that is all it may say).
client get "$port" /metrics GET >"$tmp/h.text"
# both formats of one frame (ptop_scans_total says which): the groups, and
# so the series, may change from one frame to the next
scans() {
	sed -n 's/^ptop_scans_total \([0-9.e+]*\)$/\1/p' "$1"
}
i=0
while :; do
	# one client for both: two starting under load take longer than a frame
	BODY="$tmp/pair" client pair "$port" /metrics >"$tmp/h.om"
	mv "$tmp/pair.om" "$tmp/om"
	mv "$tmp/pair.text" "$tmp/text"
	[ -n "$(scans "$tmp/om")" ] && [ "$(scans "$tmp/om")" = "$(scans "$tmp/text")" ] && break
	i=$((i + 1))
	[ "$i" -lt 50 ] || fail "no two scrapes of one frame in 50 tries"
done
grep -q '^200 text/plain;version=0.0.4;charset=utf-8 ' "$tmp/h.text" ||
	fail "text format headers: $(cat "$tmp/h.text")"
grep -q '^200 application/openmetrics-text;version=1.0.0;charset=utf-8 ' "$tmp/h.om" ||
	fail "OpenMetrics headers: $(cat "$tmp/h.om")"
[ "$(tail -n 1 "$tmp/om")" = "# EOF" ] || fail "OpenMetrics does not end with # EOF"
grep -q '^# UNIT ptop_group_cpu_seconds seconds$' "$tmp/om" || fail "no # UNIT in OpenMetrics"
grep -q '^# EOF' "$tmp/text" && fail "the text format has OpenMetrics' # EOF"
if [ "$have_promtool" ]; then
	promtool check metrics <"$tmp/text" >"$tmp/lint" 2>&1 ||
		fail "promtool on the text format: $(cat "$tmp/lint")"
	promtool check metrics <"$tmp/om" >"$tmp/lint.om" 2>&1 || :
	grep -v '_total no help text$' "$tmp/lint.om" | grep . &&
		fail "promtool on OpenMetrics: $(cat "$tmp/lint.om")"
	for n in $(sed -n 's/^\([a-z_]*\)_total no help text$/\1/p' "$tmp/lint.om"); do
		grep -q "^# TYPE $n counter$" "$tmp/om" || fail "promtool: $n is no counter family"
	done
fi
for py in "$PYTHON" /usr/bin/python3; do
	if "$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
		"$py" -c '
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
from prometheus_client.parser import text_string_to_metric_families as text
n = sum(len(f.samples) for f in om(open(sys.argv[1]).read()))
m = sum(len(f.samples) for f in text(open(sys.argv[2]).read()))
assert n == m and n > 10, (n, m)
' "$tmp/om" "$tmp/text" || fail "prometheus_client cannot parse the output"
		break
	fi
done

# The busy children's group: its CPU time grows, and does not go down when one ends.
cpu() { client value "$port" ptop_group_cpu_seconds_total "comm=$b1"; }
grows_past() { v=$(cpu) && "$PYTHON" -c "import sys; sys.exit(not $v > $1)"; }
wait_until grows_past 0.5 || fail "the group of $b1 has no CPU time: $(cpu || :)"
[ "$(client value "$port" ptop_group_processes "comm=$b1")" = 2.0 ] ||
	fail "the group of $b1 should have 2 processes"
before=$(cpu)
kill "$c1"
wait "$c1" 2>/dev/null || :
one_left() { [ "$(client value "$port" ptop_group_processes "comm=$b1")" = 1.0 ]; }
wait_until one_left || fail "the group of $b1 should have 1 process after a kill"
after=$(cpu)
"$PYTHON" -c "import sys; sys.exit(not $after >= $before)" ||
	fail "the group's CPU seconds went down from $before to $after when a process ended"

# --top-pids 3: three series with pid and comm, the busy child among them; no command lines.
[ "$(client series "$port" ptop_top_cpu_seconds_total | wc -l)" = 3 ] ||
	fail "--top-pids 3 should give 3 series"
grep -q cmdline "$tmp/text" && fail "command lines exposed without --expose-cmdline"
wait_until grep -q "# TYPE ptop_scrapes_total counter" "$tmp/text" || fail "no scrape count"

# HTTP: the index page, unknown paths, other methods, HEAD.
BODY="$tmp/index" client get "$port" / >"$tmp/h"
grep -q '^200 text/html' "$tmp/h" && grep -q 'href="/metrics"' "$tmp/index" ||
	fail "/ should link to /metrics: $(cat "$tmp/h")"
for path in /nope /metrics/x /metricsx; do
	client get "$port" "$path" >"$tmp/h"
	grep -q '^404 ' "$tmp/h" || fail "GET $path: $(cat "$tmp/h"), not 404"
done
for m in POST PUT DELETE PATCH OPTIONS; do
	client get "$port" /metrics "$m" >"$tmp/h"
	grep -q '^405 .* GET,HEAD ' "$tmp/h" || fail "$m /metrics: $(cat "$tmp/h"), not 405 with Allow"
done
client get "$port" /metrics HEAD >"$tmp/h"
grep -q '^200 text/plain.* 0$' "$tmp/h" || fail "HEAD /metrics: $(cat "$tmp/h")"
# Request targets as sent: only "/metrics" and "/", byte for byte (\x00 is a NUL byte).
for target in '/metrics%00x' '/metrics%00' '/%00' '/metrics\x00x' '/metrics\x00' '/\x00/metrics' \
	'/%6detrics' '/metrics?x=1' '/metrics/'; do
	st=$(client raw "$port" "$target") || st=none
	[ "$st" = 404 ] || fail "GET $target answered $st, not 404"
done
[ "$(client raw "$port" /metrics)" = 200 ] || fail "GET /metrics on a raw socket is not 200"

# A child that writes 1 MiB to a file on disk (not tmpfs, which counts no
# storage writes) with fsync, then stays: its group's write bytes reach that.
# The sh that runs dd is credited dd's bytes when it reaps it, as the kernel does.
# Idle groups beyond --max-groups are "other": room for every name here.
start_ptop io -d 0.3 --max-groups 10000
if [ -r /proc/self/io ] && [ "$(stat -f -c %T "$tmp")" != tmpfs ]; then
	w1=ptm$$w
	ln -sf "$(command -v sh)" "$tmp/$w1"
	"$tmp/$w1" -c 'dd if=/dev/zero of="$1" bs=64k count=16 conv=fsync 2>/dev/null; while :; do sleep 1; done' \
		"$w1" "$tmp/written" &
	kids="$kids $!"
	wb() { client value "$port" ptop_group_io_write_bytes_total "comm=$w1"; }
	wrote() { v=$(wb) && "$PYTHON" -c "import sys; sys.exit(not $v >= 1048576)"; }
	wait_until wrote || fail "the group of $w1 wrote $(wb || echo no) bytes, not 1 MiB"
	client value "$port" ptop_group_io_read_bytes_total "comm=$w1" >/dev/null ||
		fail "no read bytes of the group of $w1"
else
	echo "I/O bytes not checked: no /proc/self/io or a tmpfs here"
fi
BODY="$tmp/om" client get "$port" /metrics GET om >/dev/null
grep -q '^# UNIT ptop_group_io_write_bytes bytes$' "$tmp/om" || fail "no # UNIT of the write bytes"
for how in full kept bpf; do
	grep -q "^ptop_frame_rows{how=\"$how\",source=\"\(procfs\|bpf\|bpf-delta\)\"} " "$tmp/om" ||
		fail "no ptop_frame_rows of how=$how"
	grep -q "^ptop_rows_read_total{how=\"$how\"} " "$tmp/om" || fail "no ptop_rows_read_total of how=$how"
done

# Names that an escape to '?' would merge, or that would show other text than
# their bytes (C0, C1, a bidirectional override, ptop's own escape written
# out): one series each, parsed by promtool and prometheus_client's
# OpenMetrics parser, and read back to the names through ptop's \\ and \xNN.
h=ptm$$h
set -- "$h$(printf '\001')" "$h$(printf '\002')" "$h?" "$h\\x01" \
	"$h$(printf '\342\200\256')" "$h$(printf '\302\205')"
for n in "$@"; do
	ln -sf "$(command -v sh)" "$tmp/$n"
	"$tmp/$n" -c 'while :; do sleep 1; done' &
	kids="$kids $!"
done
start_ptop names -d 0.3 --max-groups 10000
named() { [ "$(client series "$port" ptop_group_processes | grep -c "^comm=$h")" -ge $# ]; }
wait_until named "$@" ||
	fail "not one group per name: $(client series "$port" ptop_group_processes | grep "^comm=$h")"
BODY="$tmp/names.om" client get "$port" /metrics GET om >/dev/null
BODY="$tmp/names.text" client get "$port" /metrics >/dev/null
if [ "$have_promtool" ]; then
	promtool check metrics <"$tmp/names.text" >"$tmp/lint" 2>&1 ||
		fail "promtool on hostile names: $(cat "$tmp/lint")"
fi
cat >"$tmp/names.py" <<'EOF'
import re, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
want = {n.encode("utf-8", "surrogateescape") for n in sys.argv[3:]}
esc = re.compile(rb"\\(\\|x([0-9a-f]{2}))")
got = []
for f in om(open(sys.argv[1], encoding="utf-8").read()):
    for s in f.samples:
        v = s.labels.get("comm", "")
        if f.name == "ptop_group_processes" and v.startswith(sys.argv[2]):
            got.append(esc.sub(lambda m: bytes([int(m.group(2), 16)]) if m.group(2) else b"\\",
                               v.encode("utf-8")))
assert len(got) == len(set(got)) == len(want) and set(got) == want, (sorted(got), sorted(want))
EOF
for py in "$PYTHON" /usr/bin/python3; do
	if "$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
		"$py" "$tmp/names.py" "$tmp/names.om" "$h" "$@" >"$tmp/names.err" 2>&1 ||
			fail "hostile names: $(cat "$tmp/names.err")"
		break
	fi
done

# --group-by user, --max-groups 1 (one group and "other"), --expose-cmdline.
start_ptop user -d 0.3 --group-by user --max-groups 1 --top-pids 50 --expose-cmdline
[ "$(client series "$port" ptop_group_cpu_seconds_total | wc -l)" = 2 ] ||
	fail "--max-groups 1 should give one group and other: $(client series "$port" ptop_group_cpu_seconds_total)"
client series "$port" ptop_group_cpu_seconds_total | grep -q '^user=other$' ||
	fail "no user=other group"
client series "$port" ptop_group_resident_memory_bytes | grep -qv '^user=' &&
	fail "--group-by user should label groups by user"
# (the busy child among the 50 busiest: other programs may be busier than it)
in_top() { client series "$port" ptop_top_cpu_seconds_total | grep -q "comm=$b1 pid=$c2"; }
wait_until in_top || fail "the busy child $c2 is not among the top processes"
has_cmd() { client series "$port" ptop_top_cmdline | grep -q "cmdline=$tmp/$b1 -c while"; }
wait_until has_cmd || fail "--expose-cmdline: no command line of $c2"

# --counters: the attached process's events per group, raw counts that grow;
# --watch: a breakpoint's hits. Each where this machine's kernel gives them.
if "$PTOP" -b -n 1 -p "$c2" --counters=task-clock >/dev/null 2>"$tmp/ctr.err" &&
	! grep -q 'counters unavailable' "$tmp/ctr.err"; then
	start_ptop ctr -d 0.3 -p "$c2" --counters=task-clock
	ev() {
		v=$(client value "$port" ptop_group_perf_events_total "comm=$b1" event=task-clock) &&
			"$PYTHON" -c "import sys; sys.exit(not $v > 1e8)"
	}
	wait_until ev || fail "--counters: no task-clock of $b1 served: $(client series "$port" ptop_group_perf_events_total)"
	[ "$(client value "$port" ptop_counters_attached)" = 1.0 ] || fail "--counters: attached is not 1"
else
	echo "counters not checked: the kernel refuses them here: $(cat "$tmp/ctr.err")"
fi
stack=$(awk '$6 == "[stack]" { split($1, a, "-"); print a[1]; exit }' "/proc/$c2/maps")
if "$PTOP" -b -n 1 -p "$c2" --watch "$c2:[stack]+0x40" >/dev/null 2>"$tmp/bp.err"; then
	start_ptop bp -d 0.3 -p "$c2" --watch "$c2:[stack]+0x40"
	addr=$("$PYTHON" -c "print(hex(0x$stack + 0x40))")
	client value "$port" ptop_breakpoint_hits_total "pid=$c2" "addr=$addr" len=4 type=w >/dev/null ||
		fail "--watch: no hits series for $c2 at $addr: $(client series "$port" ptop_breakpoint_hits_total)"
else
	echo "breakpoints not checked: the kernel refuses them here: $(cat "$tmp/bp.err")"
fi

# Batch mode serves too, and still writes its frames.
start_ptop batch -b -d 0.3 -n 100000
wait_until grep -q '^ *PID USER' "$tmp/batch.out" || fail "-b --listen writes no frames"

# A port in use is a runtime error (1); bad options are usage errors (2).
st=0
"$PTOP" --listen "127.0.0.1:$port" -n 1 2>"$tmp/err" || st=$?
[ "$st" = 1 ] && grep -q "^ptop: cannot listen on 127.0.0.1:$port: " "$tmp/err" ||
	fail "a port in use: status $st, $(cat "$tmp/err")"
for args in "--listen x" "--listen 127.0.0.1:70000" "--listen 300.1.1.1:9100" "--listen ::1:9910" "--listen []:9910" \
	"--listen 9910 --group-by pid" "--top-pids 3" \
	"--expose-cmdline" "--viewer" "--listen 9910 --viewer -b" "--listen 9910 --max-groups 0" "--listen 9910 --top-pids x"; do
	st=0
	# shellcheck disable=SC2086
	"$PTOP" $args -n 1 >/dev/null 2>"$tmp/err" || st=$?
	[ "$st" = 2 ] && grep -q '^ptop: ' "$tmp/err" || fail "ptop $args: status $st, $(cat "$tmp/err")"
done

# --group-by cgroup: groups named by the container or unit (else the path)
# that the CGROUP and CONTAINER columns show; the busy child's is its own.
start_ptop cgroup -d 0.3 --group-by cgroup
want=$("$PTOP" -b -n 1 -p "$c2" -o json --fields pid,cgroup,container | "$PYTHON" -c '
import json, sys
p = json.loads(sys.stdin.readline())["processes"][0]
print(p["container"] or p["cgroup"])')
[ -n "$want" ] || fail "no cgroup for the busy child $c2"
in_group() { client series "$port" ptop_group_cpu_seconds_total | grep -qxF "cgroup=$want"; }
wait_until in_group || fail "--group-by cgroup: no group $want in: $(client series "$port" ptop_group_cpu_seconds_total)"
client series "$port" ptop_group_resident_memory_bytes | grep -qv '^cgroup=' &&
	fail "--group-by cgroup should label groups by cgroup"

# The example systemd unit's command line runs (on a free port, for one frame).
args=$(sed -n 's|^ExecStart=[^ ]*/ptop ||p' "$builddir/doc/ptop-exporter.service" |
	sed 's/--listen [^ ]*/--listen 127.0.0.1:0/')
st=0
# shellcheck disable=SC2086
"$PTOP" $args -n 1 >"$tmp/unit.out" 2>"$tmp/unit.err" || st=$?
[ "$st" = 0 ] && [ ! -s "$tmp/unit.out" ] && grep -q 'serving metrics' "$tmp/unit.err" ||
	fail "the systemd unit's ptop $args: status $st, $(cat "$tmp/unit.err")"

# SIGTERM ends the daemon-style run by that signal.
kill -TERM "$ptop_pid"
st=0
wait "$ptop_pid" || st=$?
[ "$st" = 143 ] || fail "SIGTERM: status $st, not 143"

[ "$failures" = 0 ] || exit 1
[ -n "$have_promtool" ] || skip "promtool (Debian package prometheus) is missing: formats not linted"
finish
