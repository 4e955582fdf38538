/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * control.h: acting on a process a person chose (signal, renice, CPU
 * affinity, the process a watch is armed on), and on no other. A target is
 * fixed once, from the row the person saw: the /proc/TGID directory the row
 * came from is opened and kept (the kernel takes it as a pidfd: it names
 * that process for good, in whichever pid namespace that /proc belongs to),
 * then the task's start time is read through it and compared with the row's.
 * Signals go through that descriptor. Calls that have no pidfd form take a
 * PID, which means the row's process only when /proc is ptop's own pid
 * namespace's: elsewhere they are refused; at home the start time is checked
 * right before the call and the process is seen alive right after it. No
 * curses, no messages but control_strerror(): the viewer and tests use it.
 */
#ifndef PTOP_CONTROL_H
#define PTOP_CONTROL_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptop/proc.h"

/* The process a signal or call is aimed at. */
struct proc_target {
	int pid;	      /* the row's task: a process, or a thread in the threads view */
	int tgid;	      /* its process: what a signal reaches */
	uint64_t start_ticks; /* the task's start, clock ticks after boot */
	int pidfd;	      /* /proc/TGID as a directory (a pidfd), or -1 */
	char name[PROC_COMM_MAX + 1]; /* comm, printable, for messages */
	bool set;		      /* fixed, and the start time matched */
	bool own_pids; /* the proc root is ptop's own pid namespace's: PIDs mean the row's */
	int err;       /* a caller's note: why it could not be fixed (-ESRCH gone), else 0 */
};

/* Returned when the process ended during a call that takes a PID: the PID may
 * have reached another process, which nothing can tell any more. */
#define CONTROL_RACED (-ESTALE)

/*
 * Fix t on a row's task: pid (the task), tgid (its process, 0: pid),
 * start_ticks and comm (comm_len bytes) as the row had them, under the proc
 * root (NULL: /proc; another root, a copy of /proc, is only looked at: any
 * action on it is -EPERM). 0 with t->set, or -ESRCH (gone, or its PID
 * already another process's), -EACCES, ... (-errno); t holds no descriptor
 * then. t->pidfd must be -1 or open before (it is closed first).
 */
int control_open(struct proc_target *t, const char *root, int pid, int tgid, uint64_t start_ticks,
		 const char *comm, size_t comm_len);
/* Let t go (its descriptor closed); safe on a target never fixed, with pidfd -1. */
void control_close(struct proc_target *t);
/* Still the process that was chosen: 0, or -ESRCH when it is gone or its PID reused. */
int control_check(const struct proc_target *t);
/*
 * Send sig to t's process through its descriptor. 0; -ESRCH when it is
 * gone; -EXDEV when it is outside ptop's pid namespace (a /proc of a parent
 * namespace shows it, the kernel will not signal it); -EPERM on a root other
 * than /proc; or -errno.
 */
int control_signal(const struct proc_target *t, int sig);
/*
 * Set t's nice to value, or (relative) to what the kernel has now plus
 * value, clamped to -20..19; *set_to is what was set. 0; -ESRCH when gone;
 * -EXDEV when /proc is not ptop's own pid namespace's; CONTROL_RACED when it
 * ended during the call; -EPERM on a root other than /proc; or -errno.
 */
int control_renice(const struct proc_target *t, bool relative, int value, int *set_to);
/* Set the CPU affinity of t's task to cpus: returns as control_renice. */
int control_affinity(const struct proc_target *t, const cpu_set_t *cpus);
/*
 * Before a call of another module that takes t's PID (arming a watch):
 * control_check, and -EXDEV or -EPERM as control_renice says. After it,
 * control_after() says CONTROL_RACED if the process ended meanwhile.
 */
int control_before(const struct proc_target *t);
int control_after(const struct proc_target *t);
/* Whether root is /proc (NULL or "/proc") and ptop's own pid namespace's (proc_own_pid_ns). */
bool control_own_proc(const char *root);
/* A translated sentence for an error of these functions. */
const char *control_strerror(int err);

#endif
