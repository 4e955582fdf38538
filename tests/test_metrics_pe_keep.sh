#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_metrics_pe_keep.sh: process-exporter's names keep the facts of a
# process that did not run since the last frame, and still follow what
# changes without it running. "pe_share" (one thread) touches 16 MiB and
# forks "pe_sharer", which shares those pages and sleeps; pe_share ignores
# SIGCHLD and sleeps. Each is its own group. The proportional memory of
# pe_share's group is what smaps_rollup says; when pe_sharer is killed,
# pe_share's share of the pages doubles while its resident size, CPU time
# and context switches stay the same: its rollup is read again at the
# recheck (ROLLUP_RECHECK frames, src/frame/export.c), and the group shows
# the new figure. Its wchan (threads_wchan) is kept meanwhile and stays
# its own. PE_SOURCE: ptop's --source (default procfs;
# test_metrics_pe_keep_bpf.sh: bpf).
set -eu

NAME=test_metrics_pe_keep
. "${srcdir:-$(dirname "$0")/..}/tests/metrics-lib.sh"
one_at_a_time

cat >"$tmp/pe.yaml" <<'YAML'
process_names:
  - name: "{{.Comm}}"
    comm:
    - pe_share
    - pe_sharer
YAML

ln -sf "$PYTHON" "$tmp/pe_share"
"$tmp/pe_share" -c '
import ctypes, os, signal, sys, time
mem = bytearray(16 << 20)
for i in range(0, len(mem), 4096):
    mem[i] = 1
kid = os.fork()
if kid == 0:
    ctypes.CDLL(None).prctl(15, b"pe_sharer", 0, 0, 0)
    open(sys.argv[1] + ".kid", "w").write("ready")
    while True:
        time.sleep(3600)
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
while not os.path.exists(sys.argv[1] + ".kid"):
    time.sleep(0.01)
open(sys.argv[1], "w").write(str(kid))
while True:
    time.sleep(3600)
' "$tmp/ready" &
share=$!
kids="$kids $share"
wait_until test -s "$tmp/ready" || die "pe_share did not start"
sharer=$(cat "$tmp/ready")
kids="$kids $sharer"

start_ptop pe -d 0.2 --source="${PE_SOURCE:-procfs}" --metrics-config "$tmp/pe.yaml" \
	--metrics-names=process-exporter
if [ "${PE_SOURCE:-procfs}" = bpf ] && grep -q "using /proc" "$tmp/pe.err"; then
	skip "no BPF source here: $(cat "$tmp/pe.err")"
fi

# pss_b PID: its proportional resident memory in bytes, as smaps_rollup says
pss_b() {
	awk '/^Pss:/ { print $2 * 1024 }' "/proc/$1/smaps_rollup"
}
group_pss() {
	client value "$port" namedprocess_namegroup_memory_bytes groupname=pe_share \
		memtype=proportionalResident
}
# pss_follows: the group's within 256 KiB of what smaps_rollup says now (it
# moves while pe_share sleeps: pages its sharer writes stop being shared)
pss_follows() {
	v=$(group_pss) || return 1
	"$PYTHON" -c "import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 262144)" \
		"$v" "$(pss_b "$share")"
}
# ran PID: its CPU ticks and context switches, one line
ran() {
	echo "$(cut -d' ' -f14,15 "/proc/$1/stat") $(grep ctxt_switches "/proc/$1/status" | tr -d '\n')"
}

before=$(pss_b "$share")
wait_until pss_follows || die "pe_share's proportional memory: $(group_pss), not $(pss_b "$share")"
wchan=$(cat "/proc/$share/wchan")
w=$(client value "$port" namedprocess_namegroup_threads_wchan groupname=pe_share "wchan=$wchan") ||
	fail "no threads_wchan{wchan=\"$wchan\"} for pe_share"
[ "${w%.0}" = 1 ] || fail "threads_wchan{wchan=\"$wchan\"} of pe_share is $w, not 1"

was=$(ran "$share")
rss=$(rss_kb "$share")
kill -KILL "$sharer"
wait_until sh -c "! kill -0 $sharer 2>/dev/null" || die "pe_sharer did not end"
after=$(pss_b "$share")
"$PYTHON" -c "import sys; sys.exit(float(sys.argv[2]) - float(sys.argv[1]) < 4 << 20)" \
	"$before" "$after" || die "pe_share's PSS went from $before to $after only: nothing to see"
wait_until pss_follows ||
	fail "pe_share's proportional memory after its sharer ended: $(group_pss), not $(pss_b "$share") (was $before)"
if [ "$(ran "$share")" = "$was" ] && [ "$(rss_kb "$share")" = "$rss" ]; then
	echo "pe_share did not run and kept its resident size: the recheck read it again"
else
	echo "note: pe_share ran or its resident size moved: $was -> $(ran "$share")"
fi
w=$(client value "$port" namedprocess_namegroup_threads_wchan groupname=pe_share "wchan=$wchan") ||
	fail "pe_share's kept wchan \"$wchan\" is gone"
[ "${w%.0}" = 1 ] || fail "threads_wchan{wchan=\"$wchan\"} of pe_share is $w after keeping, not 1"
finish
