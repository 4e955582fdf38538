#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_pe.sh: ptop as a drop-in for prometheus-process-exporter.
# One YAML configuration (a cmdline rule with a named group in its name, a
# comm rule, an exe rule with .ExeBase and .Username) given to both: ptop
# --metrics-config FILE --metrics-names=process-exporter and the real
# exporter on the same machine serve the same group names, and for the
# stable processes (idle shells and their unmatched children, counted in
# their parent's group as -children does) the same num_procs, num_threads,
# states (all Sleeping, summing to num_threads), threads by wchan, virtual
# memory, open descriptors and worst descriptor ratio, and resident memory
# within 512 KiB a process (ptop's is statm's, process-exporter's stat's,
# which lags); for a program of named threads, its threads by name; a CPU
# burner started after both shows in both, with CPU time. ptop's OpenMetrics parses strictly and
# promtool lints its text. A configuration process-exporter would refuse
# ends ptop with status 1 and the file's line; a missing one too.
# Skips (77) without prometheus-process-exporter, after what needs only ptop.
# PE_SOURCE: ptop's --source (default procfs; test_metrics_pe_bpf.sh: bpf,
# whose descriptors, limits and threads' states and counts come from the walk).
set -eu

NAME=test_metrics_pe
. "${srcdir:-$(dirname "$0")/..}/tests/metrics-lib.sh"
one_at_a_time

cat >"$tmp/pe.yaml" <<'EOF'
process_names:
  - name: "pe-{{.Matches.word}}"
    cmdline:
    - 'pe_idle_(?P<word>[a-z]+)'
  - name: "{{.Comm}}"
    comm:
    - pe_burn
  - name: "{{.ExeBase}}:{{.Username}}"
    exe:
    - pe_parent
  - name: "{{.Comm}}"
    comm:
    - pe_thr
EOF
user=$(id -un)

# An idle shell whose command line names its group, with an unmatched child;
# a shell run as pe_parent with two unmatched children.
sh -c 'sleep 1000; :' pe_idle_alpha &
kids="$kids $!"
idle_pid=$!
ln -sf "$(command -v sh)" "$tmp/pe_parent"
"$tmp/pe_parent" -c 'sleep 1000 & sleep 1000 & wait' &
kids="$kids $!"
parent_pid=$!
children() {
	[ "$(pgrep -P "$1" | wc -l)" -ge "$2" ]
}
# a program of four threads, two of them named alpha, one beta
ln -sf "$PYTHON" "$tmp/pe_thr"
"$tmp/pe_thr" -c '
import ctypes, sys, threading, time
libc = ctypes.CDLL(None)
def named(n):
    libc.prctl(15, n.encode(), 0, 0, 0)  # PR_SET_NAME
    time.sleep(3600)
for n in ("alpha", "alpha", "beta"):
    threading.Thread(target=named, args=(n,), daemon=True).start()
time.sleep(1)
open(sys.argv[1], "w").write("ready")
time.sleep(3600)' "$tmp/thr.ready" &
kids="$kids $!"
wait_until test -s "$tmp/thr.ready" || die "pe_thr did not start"
wait_until children "$idle_pid" 1 || die "the idle shell has no child"
wait_until children "$parent_pid" 2 || die "pe_parent has not its two children"
# the children too, so that the cleanup leaves no sleep behind
kids="$kids $(pgrep -P "$idle_pid" | tr '\n' ' ') $(pgrep -P "$parent_pid" | tr '\n' ' ')"

start_ptop pe --metrics-config "$tmp/pe.yaml" --metrics-names=process-exporter -d 0.5 \
	--source="${PE_SOURCE:-procfs}"
if [ "${PE_SOURCE:-procfs}" = bpf ] && grep -q "using /proc" "$tmp/pe.err"; then
	skip "no BPF source here: $(cat "$tmp/pe.err")"
fi

# fetch PORT FILE: the text format of PORT's /metrics into FILE.
fetch() {
	BODY=$2 client get "$1" /metrics >/dev/null
}

cat >"$tmp/pe.py" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from metrics_client import samples
def load(path):
    out = {}
    for name, labels, v in samples(open(path, "rb").read()):
        if name.startswith("namedprocess_namegroup_"):
            key = (name, labels.get("groupname"),
                   tuple(sorted((k, x) for k, x in labels.items() if k != "groupname")))
            out[key] = v
    return out
def value(d, name, group, **labels):
    return d.get((name, group, tuple(sorted(labels.items()))))
cmd = sys.argv[2]
if cmd == "has":  # has FILE GROUP PROCS: the group has PROCS processes
    d = load(sys.argv[3])
    v = value(d, "namedprocess_namegroup_num_procs", sys.argv[4])
    sys.exit(0 if v == float(sys.argv[5]) else 1)
if cmd == "burns":  # burns FILE GROUP: one process, some CPU time
    d = load(sys.argv[3])
    cpu = sum(value(d, "namedprocess_namegroup_cpu_seconds_total", sys.argv[4], mode=m) or 0
              for m in ("user", "system"))
    n = value(d, "namedprocess_namegroup_num_procs", sys.argv[4])
    sys.exit(0 if n == 1 and cpu > 0 else 1)
# same PTOP PE GROUP...: the stable groups agree, and both list the same groups
p, e = load(sys.argv[3]), load(sys.argv[4])
bad = []
for g in sys.argv[5:]:
    for name, labels in (("num_procs", {}), ("num_threads", {}), ("open_filedesc", {}),
                         ("worst_fd_ratio", {}), ("memory_bytes", {"memtype": "virtual"}),
                         ("states", {"state": "Sleeping"}), ("states", {"state": "Running"}),
                         ("states", {"state": "Zombie"})):
        full = "namedprocess_namegroup_" + name
        a, b = value(p, full, g, **labels), value(e, full, g, **labels)
        if a is None or a != b:
            bad.append("%s %s %s: ptop %s, process-exporter %s" % (g, name, labels, a, b))
    wchans = lambda d: {lab: v for (n, grp, lab), v in d.items()
                        if n == "namedprocess_namegroup_threads_wchan" and grp == g}
    if not wchans(p) or wchans(p) != wchans(e):
        bad.append("%s threads_wchan: ptop %s, process-exporter %s" % (g, wchans(p), wchans(e)))
    states = sum(v for (n, grp, _), v in p.items()
                 if n == "namedprocess_namegroup_states" and grp == g)
    if states != value(p, "namedprocess_namegroup_num_threads", g):
        bad.append("%s: states sum to %s, not num_threads" % (g, states))
    rss = (value(p, "namedprocess_namegroup_memory_bytes", g, memtype="resident"),
           value(e, "namedprocess_namegroup_memory_bytes", g, memtype="resident"))
    # statm's exact figure in ptop; stat's in process-exporter, which lags
    # (per-CPU counters not yet summed): within 512 KiB a process
    procs = value(e, "namedprocess_namegroup_num_procs", g) or 1
    if None in rss or abs(rss[0] - rss[1]) > 512 * 1024 * procs:
        bad.append("%s resident: ptop %s, process-exporter %s" % (g, rss[0], rss[1]))
# the threads by name, for the program of named threads
tc = lambda d: {lab: v for (n, grp, lab), v in d.items()
                if n == "namedprocess_namegroup_thread_count" and grp == "pe_thr"}
if tc(p) != tc(e) or not tc(p):
    bad.append("pe_thr thread_count: ptop %s, process-exporter %s" % (tc(p), tc(e)))
groups = lambda d: {grp for (_, grp, _) in d}
if groups(p) != groups(e):
    bad.append("groups: ptop %s, process-exporter %s" % (sorted(groups(p)), sorted(groups(e))))
if bad:
    print("\n".join(bad))
    sys.exit(1)
EOF
pe() {
	"$PYTHON" "$tmp/pe.py" "$srcdir/tests" "$@"
}

ptop_has() {
	fetch "$port" "$tmp/ptop.txt" && pe has "$tmp/ptop.txt" "$1" "$2"
}
wait_until ptop_has pe-alpha 2 || die "ptop: no group pe-alpha of 2 processes: $(grep pe-alpha "$tmp/ptop.txt")"
wait_until ptop_has "pe_parent:$user" 3 || die "ptop: no group pe_parent:$user of 3: $(grep pe_parent "$tmp/ptop.txt")"

# OpenMetrics, strictly; the text format, through promtool
BODY=$tmp/ptop.om client get "$port" /metrics GET om >/dev/null
if "$PYTHON" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
	"$PYTHON" -c '
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
fams = {f.name for f in om(open(sys.argv[1]).read())}
assert "namedprocess_namegroup_num_procs" in fams, fams
' "$tmp/ptop.om" || die "ptop's OpenMetrics with process-exporter's names does not parse"
fi
if command -v promtool >/dev/null 2>&1; then
	# process-exporter's own names that promtool's lint dislikes: its scrape
	# error counters without _total, its gauge thread_count
	promtool check metrics <"$tmp/ptop.txt" >"$tmp/lint" 2>&1 || :
	if grep -v -e '^namedprocess_scrape_[a-z_]*errors counter metrics should have "_total" suffix$' \
		-e '^namedprocess_namegroup_thread_count non-histogram and non-summary metrics should not have "_count" suffix$' \
		"$tmp/lint" | grep -q .; then
		die "promtool: $(cat "$tmp/lint")"
	fi
fi

# What process-exporter would refuse, ptop refuses, saying where.
printf 'process_names:\n  - name: "{{.Nope}}"\n    comm: [x]\n' >"$tmp/bad.yaml"
status=0
"$PTOP" --listen 127.0.0.1:0 --metrics-config "$tmp/bad.yaml" -b -n 1 >/dev/null 2>"$tmp/bad.err" || status=$?
[ "$status" = 1 ] || die "a bad configuration: status $status, not 1"
grep -q "bad.yaml:2" "$tmp/bad.err" || die "a bad configuration: no file:line in: $(cat "$tmp/bad.err")"
status=0
"$PTOP" --listen 127.0.0.1:0 --metrics-config "$tmp/none.yaml" -b -n 1 >/dev/null 2>"$tmp/none.err" || status=$?
[ "$status" = 1 ] || die "a missing configuration: status $status, not 1"
grep -q "none.yaml" "$tmp/none.err" || die "a missing configuration: $(cat "$tmp/none.err")"
status=0
"$PTOP" --listen 127.0.0.1:0 --metrics-names=pe -b -n 1 >/dev/null 2>"$tmp/names.err" || status=$?
[ "$status" = 2 ] || die "--metrics-names=pe: status $status, not 2"

command -v prometheus-process-exporter >/dev/null 2>&1 ||
	skip "prometheus-process-exporter is not installed"

pe_port=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
prometheus-process-exporter -config.path "$tmp/pe.yaml" \
	-web.listen-address "127.0.0.1:$pe_port" >"$tmp/pe.log" 2>&1 &
kids="$kids $!"
pe_serving() {
	fetch "$pe_port" "$tmp/pe.txt" 2>/dev/null && pe has "$tmp/pe.txt" pe-alpha 2
}
# its first scrapes read every process's smaps: slow beside other loads (once over 30 s)
deadline=$DEADLINE
DEADLINE=90
wait_until pe_serving ||
	die "process-exporter shows no group pe-alpha of 2 processes: $(grep -s 'pe-alpha' "$tmp/pe.txt" | head -3) $(cat "$tmp/pe.log")"
DEADLINE=$deadline

agree() {
	fetch "$port" "$tmp/ptop.txt" && fetch "$pe_port" "$tmp/pe.txt" &&
		pe same "$tmp/ptop.txt" "$tmp/pe.txt" pe-alpha "pe_parent:$user" >"$tmp/diff"
}
wait_until agree || die "ptop and process-exporter disagree: $(cat "$tmp/diff")"

# a burner started after both shows in both, with its CPU time
busy pe_burn
burns() {
	fetch "$1" "$tmp/b.txt" && pe burns "$tmp/b.txt" pe_burn
}
wait_until burns "$pe_port" || die "process-exporter never showed pe_burn"
wait_until burns "$port" || die "ptop never showed pe_burn: $(grep pe_burn "$tmp/b.txt")"
stop "$busy_pid"
wait_until agree || die "ptop and process-exporter disagree after the burner: $(cat "$tmp/diff")"
finish
