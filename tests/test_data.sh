#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_data.sh: ptop's figures against top's. A sleeping process's RES in
# ptop's text, JSON and CSV output is statm's resident pages times the page
# size, read before and after, and top -b agrees; SHR never exceeds RES.
# With -H, a process left with one thread after another one burned CPU and
# ended shows that thread's own TIME+, as top -b -H does. Run by `make
# check` with PTOP set to the binary; skips without top.
set -eu

NAME=test_data
. "${srcdir:-.}/tests/lib.sh"
need top "as the oracle (procps)"

sleep 600 &
pid=$!
kids=$pid
wait_state "$pid" S

page_kb=$(($(getconf PAGESIZE) / 1024))
statm_res() { awk -v k="$page_kb" '{ print $2 * k }' "/proc/$pid/statm"; }

# A fresh HOME: no toprc of the user's changes top's columns or units.
mkdir "$tmp/home"
before=$(statm_res)
HOME=$tmp/home "$PTOP" -b -n 1 -p "$pid" >"$tmp/text"
HOME=$tmp/home "$PTOP" -b -n 1 -p "$pid" -o json >"$tmp/json"
HOME=$tmp/home "$PTOP" -b -n 1 -p "$pid" -o csv >"$tmp/csv"
HOME=$tmp/home top -b -n 1 -p "$pid" >"$tmp/top"
after=$(statm_res)
[ "$before" = "$after" ] || fail "statm moved under a sleeping process: $before, $after KiB"

# PID USER PR NI VIRT RES SHR ...: RES is the 6th column in both.
text_res=$(awk -v p="$pid" '$1 == p { print $6 }' "$tmp/text")
text_shr=$(awk -v p="$pid" '$1 == p { print $7 }' "$tmp/text")
top_res=$(awk -v p="$pid" '$1 == p { print $6 }' "$tmp/top")
json_res=$(sed -n 's/.*"rss_kb":\([0-9]*\).*/\1/p' "$tmp/json")
json_shr=$(sed -n 's/.*"shared_kb":\([0-9]*\).*/\1/p' "$tmp/json")
csv_res=$(awk -F, -v p="$pid" '$2 == p { print $11 }' "$tmp/csv")
csv_shr=$(awk -F, -v p="$pid" '$2 == p { print $12 }' "$tmp/csv")

[ "$text_res" = "$after" ] || fail "text RES $text_res, statm $after KiB"
[ "$json_res" = "$after" ] || fail "JSON rss_kb $json_res, statm $after KiB"
[ "$csv_res" = "$after" ] || fail "CSV rss_kb $csv_res, statm $after KiB"
[ "$top_res" = "$text_res" ] || fail "top RES $top_res, ptop RES $text_res KiB"
for shr in "$text_shr:$text_res" "$json_shr:$json_res" "$csv_shr:$csv_res"; do
	[ "${shr%:*}" -le "${shr#*:}" ] 2>/dev/null || fail "SHR above RES (SHR:RES $shr)"
done

# -H: each thread's own TIME+. top -H agrees for every thread but the main
# one, for which procps shows the process's totals (/proc/PID/stat, which keep
# the time of threads that ended); that one is checked against its own
# /proc/PID/task/PID/stat.
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import threading, time, sys
def burn():
	t = time.thread_time()
	while time.thread_time() - t < 0.5:
		pass
th = threading.Thread(target=burn)
th.start()
th.join()
threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
open(sys.argv[1], "w").write("ready")
time.sleep(600)
' "$tmp/ready" &
	thr_pid=$!
	kids="$kids $thr_pid"
	tries=0
	until [ -s "$tmp/ready" ]; do
		tries=$((tries + 1))
		[ $tries -lt 300 ] || { echo "FAIL: the threaded python never got ready" >&2; exit 1; }
		sleep 0.1
	done
	wait_state "$thr_pid" S
	HOME=$tmp/home "$PTOP" -b -H -n 1 -p "$thr_pid" >"$tmp/text_h"
	HOME=$tmp/home top -b -H -n 1 -p "$thr_pid" >"$tmp/top_h"
	# PID (a thread ID here) ... TIME+: the 1st and 11th columns in both.
	awk -v p="$thr_pid" '$1 ~ /^[0-9]+$/ && $1 != p { print $1, $11 }' "$tmp/text_h" |
		sort >"$tmp/times_ptop"
	awk -v p="$thr_pid" '$1 ~ /^[0-9]+$/ && $1 != p { print $1, $11 }' "$tmp/top_h" |
		sort >"$tmp/times_top"
	[ "$(wc -l <"$tmp/times_top")" -eq 1 ] || fail "-H: top does not show the second thread"
	cmp -s "$tmp/times_ptop" "$tmp/times_top" ||
		fail "-H: thread TIME+ differ: ptop $(cat "$tmp/times_ptop"), top $(cat "$tmp/times_top")"
	hz=$(getconf CLK_TCK)
	own=$(awk -v hz="$hz" '{ sub(/.*\) /, ""); split($0, f, " "); cs = int((f[12] + f[13]) * 100 / hz);
		printf "%d:%02d.%02d\n", cs / 6000, cs / 100 % 60, cs % 100 }' \
		"/proc/$thr_pid/task/$thr_pid/stat")
	main_time=$(awk -v p="$thr_pid" '$1 == p { print $11 }' "$tmp/text_h")
	[ "$main_time" = "$own" ] || fail "-H: main thread TIME+ $main_time, its own stat $own"
else
	echo "note: python3 missing, the -H comparison with top was not run"
fi

if [ $failures -ne 0 ]; then
	echo "--- ptop:" >&2
	cat "$tmp/text" >&2
	echo "--- top:" >&2
	cat "$tmp/top" >&2
	cat "$tmp/text_h" "$tmp/top_h" >&2 2>/dev/null || :
	exit 1
fi
echo "ok: RES $text_res KiB in text, JSON and CSV = statm = top; -H TIME+ as top and own stat"
