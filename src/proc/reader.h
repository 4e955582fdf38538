/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reader.h: the reader's state, shared by scan.c (enumeration, slot table)
 * and fdcache.c (descriptors). Not part of the public interface.
 */
#ifndef PTOP_PROC_READER_H
#define PTOP_PROC_READER_H

#include "ptop/proc.h"

#define READER_DENTS_BUF 32768

/* Open addressing over pointers, linear probing, no tombstones. */
struct slot_tab {
	struct proc_slot **tab;
	size_t cap; /* power of two */
	size_t n;
};

struct proc_reader {
	int root_fd; /* the proc root directory */
	/* PID enumeration: getdents64 into dents, walked with dents_pos */
	char *dents;
	size_t dents_len, dents_pos;
	bool dents_eof;
	unsigned gen; /* scan counter, stamped on every slot seen */
	/*
	 * Listing reuse (see proc_reader_begin): the pid namespace's last
	 * allocated PID, read through cursor_fd (-1: not available), when it was
	 * first seen, and the PIDs of the last listing in its order.
	 */
	int cursor_fd;
	bool own_ns; /* the root is the proc of ptop's pid namespace */
	bool procfs; /* the root is a proc file system (not a copy: test fixtures) */
	long cursor;
	double cursor_seen;
	int *listed;
	size_t nlisted, caplisted;
	double list_at;	 /* when the listing was begun (clock_mono) */
	bool list_trust; /* the listing being made may be reused once complete */
	bool list_ok;	 /* the last listing is complete and may be reused */
	bool replay;	 /* this scan walks listed instead of the root */
	size_t replay_pos;
	unsigned relisted, reused; /* scans of each kind, for the statistics */
	/* slot tables of processes and of threads (keyed by TID) */
	struct slot_tab procs, tasks;
	struct proc_slot *free_slots; /* recycled slots, through next_free */
	unsigned nids;		      /* slots ever allocated: the next id */
	/* descriptors */
	unsigned fd_budget, fds_held, fallback;
};

void fdcache_init(struct proc_reader *r);
void fdcache_close_slot(struct proc_reader *r, struct proc_slot *s);

#endif
