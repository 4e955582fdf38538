/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reader.h: the reader's state, shared by scan.c (enumeration, slot table)
 * and fdcache.c (descriptors). Not part of the public interface.
 */
#ifndef PTOP_PROC_READER_H
#define PTOP_PROC_READER_H

#include "ptop/proc.h"

#define READER_DENTS_BUF 32768
/* a tail's getdents64 reads: some 80 entries, where a listing's would bring a thousand */
#define READER_TAIL_BUF 2048
/* ns_last_pid values remembered: a listing trusts the newest one PROC_LIST_SETTLE_S old */
#define READER_CURSOR_HIST 16

struct cursor_seen {
	long pid;    /* the namespace's last PID */
	double when; /* clock_mono when this value was first read */
};

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
	 * allocated PID, read through cursor_fd (-1: not available), its last
	 * values with when each was first seen (hist, oldest first), and the
	 * PIDs of the last listing in its order (ascending on a proc).
	 */
	int cursor_fd;
	bool own_ns; /* the root is the proc of ptop's pid namespace */
	bool procfs; /* the root is a proc file system (not a copy: test fixtures) */
	struct cursor_seen hist[READER_CURSOR_HIST];
	unsigned nhist;
	int *listed;
	size_t nlisted, caplisted;
	int *building; /* the listing being made, swapped with listed once complete */
	size_t nbuilding, capbuilding;
	long upto;	   /* listed holds every PID up to this one (-1: no listing to trust) */
	long upto_next;	   /* upto once the listing being made is complete */
	double list_at;	   /* when the last listing from the start was begun (clock_mono) */
	long dir_base;	   /* a proc's directory position of PID p is p + dir_base; -1: unknown */
	bool dir_base_bad; /* positions did not follow that rule: always list from the start */
	int last_dent;	   /* the PID of the last entry of the buffer walked, 0 none */
	int64_t last_dent_off; /* and its d_off, for dir_base */
	enum {
		SCAN_LIST,   /* the root from the start */
		SCAN_REPLAY, /* listed alone: no PID allocated since it was made */
		SCAN_TAIL,   /* listed up to upto, then the root from upto + 1 */
	} mode;
	size_t replay_pos; /* SCAN_REPLAY, SCAN_TAIL: the next PID of listed to walk */
	long tail_from;	   /* SCAN_TAIL: read the root from this PID ... */
	long tail_to;	   /* ... to this one, the last PID when the scan began */
	int phase;	   /* SCAN_TAIL: 0 listed up to upto, 1 the root, 2 listed past tail_to */
	unsigned relisted, reused, tails; /* scans of each mode, for the statistics */
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
