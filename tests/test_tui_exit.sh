#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_tui_exit.sh: every way the viewer ends, ends cleanly. ptop runs on a
# pseudo-terminal of its own (python3's pty), in a session of its own so that
# no SIGHUP reaches it:
# - the terminal goes away (the pty's other side closes): ptop ends with a
#   non-zero status instead of spinning for ever;
# - SIGTERM, SIGINT and SIGHUP: the terminal is restored, then ptop dies of
#   the signal, as a shell expects (status 128 + signal);
# - --watch given to the viewer is armed: on a gone process it ends it, saying why;
# - out of memory (tests/failalloc.c, preloaded, fails every allocation once
#   a file exists): the message comes after the terminal is restored, where
#   the user can read it, and the status is 1.
# make check sets PTOP and srcdir.

NAME=test_tui_exit
. "${srcdir:-.}/tests/lib.sh"
need python3 "to give ptop a terminal of its own"

# The shim, where this machine can build it and it takes effect: a sanitizer
# build has its own malloc in the binary, which a preloaded one cannot replace.
shim=
if ${CC:-cc} -shared -fPIC -O1 -o "$tmp/failalloc.so" "${srcdir:-.}/tests/failalloc.c" 2>"$tmp/cc.log" &&
	! LD_PRELOAD=$tmp/failalloc.so FAILALLOC_FILE=$tmp "$PTOP" -b -n 1 >/dev/null 2>"$tmp/probe" &&
	grep -q 'out of memory' "$tmp/probe"; then
	shim=$tmp/failalloc.so
else
	echo "$NAME: a preloaded allocator does not take effect here (a sanitizer build?): not testing out of memory"
fi

PTOP=$PTOP SHIM=$shim TMPD=$tmp python3 - <<'EOF'
import fcntl, os, pty, select, signal, struct, subprocess, sys, termios, time

NAME = "test_tui_exit"
PTOP = os.environ["PTOP"]
RMCUP = b"\x1b[?1049l"  # xterm's "leave the alternate screen": endwin() ran


def fail(msg, out=b""):
    print(f"{NAME}: FAIL: {msg}")
    if out:
        print("---- output (tail) ----")
        print(out[-600:])
    sys.exit(1)


def start(args=None, extra_env=None):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 48, 160, 0, 0))
    env = dict(os.environ, TERM="xterm", LANG="C.UTF-8", HOME=os.environ["TMPD"],
               XDG_CONFIG_HOME=os.environ["TMPD"] + "/config")
    env.pop("NO_COLOR", None)
    env.update(extra_env or {})
    # a session of its own, without a controlling terminal: no SIGHUP ever
    p = subprocess.Popen([PTOP, "-d", "0.5"] + (args or []), stdin=slave, stdout=slave, stderr=slave,
                         env=env, start_new_session=True)
    os.close(slave)
    return p, master


def read_until(master, p, pattern, deadline=30.0):
    out = b""
    end = time.monotonic() + deadline
    while pattern not in out:
        if time.monotonic() > end:
            p.kill()
            fail(f"no {pattern!r} within {deadline:.0f} s", out)
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            out += chunk
    return out


def drain(master, p, deadline=30.0):
    """Everything ptop writes until it exits; its status (None: still running)."""
    out = b""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                chunk = b""
            out += chunk
            if not chunk and p.poll() is not None:
                break
        elif p.poll() is not None:
            break
    try:
        return out, p.wait(timeout=max(0.1, end - time.monotonic()))
    except subprocess.TimeoutExpired:
        return out, None


# 1. The terminal goes away without a hangup signal: ptop ends, non-zero.
p, master = start()
read_until(master, p, b"Command")
os.close(master)
try:
    st = p.wait(timeout=30)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
    fail("ptop is still running 30 s after its terminal went away")
if st == 0:
    fail("ptop exited with status 0 after its terminal went away")
print(f"{NAME}: terminal gone: status {st}")

# 2. Signals: terminal restored, then death by the signal itself.
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    p, master = start()
    read_until(master, p, b"Command")
    p.send_signal(sig)
    out, st = drain(master, p)
    os.close(master)
    if st is None:
        p.kill()
        p.wait()
        fail(f"ptop is still running after {sig.name}", out)
    if st != -sig:
        fail(f"after {sig.name} ptop ended with {st}, not by the signal ({-sig})", out)
    if RMCUP not in out:
        fail(f"after {sig.name} the terminal was not restored", out)
    print(f"{NAME}: {sig.name}: killed by it, terminal restored")

# 3. --watch reaches the viewer: a watch that cannot be armed (its process is
# gone) ends it with status 1 and says why, as in batch mode.
gone = os.fork()
if gone == 0:
    os._exit(0)
os.waitpid(gone, 0)
p, master = start(["--watch", f"{gone}:0x1000:4:w"])
out, st = drain(master, p)
os.close(master)
if st is None:
    p.kill()
    p.wait()
    fail("--watch on a gone process: the viewer is still running", out)
if st != 1 or b"cannot watch" not in out:
    fail(f"--watch on a gone process: status {st}, not 1 with 'cannot watch'", out)
print(f"{NAME}: --watch: the viewer arms it (a gone process: status 1, said why)")

# 4. Out of memory: the message after the restored terminal, status 1.
shim = os.environ.get("SHIM")
if shim:
    trigger = os.environ["TMPD"] + "/fail-now"
    p, master = start(extra_env={"LD_PRELOAD": shim, "FAILALLOC_FILE": trigger})
    read_until(master, p, b"Command")
    open(trigger, "w").close()
    os.write(master, b"W")  # writing the settings allocates their path
    out, st = drain(master, p)
    os.close(master)
    if st is None:
        p.kill()
        p.wait()
        fail("ptop is still running with no memory left", out)
    if st != 1:
        fail(f"out of memory ended ptop with {st}, not 1", out)
    at = out.rfind(b"out of memory")
    if at < 0:
        fail("no 'out of memory' message", out)
    if at < out.rfind(RMCUP):
        fail("the 'out of memory' message came before the terminal was restored", out)
    print(f"{NAME}: out of memory: message after the restored screen, status 1")
print(f"{NAME}: PASS")
EOF
