/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * serve.h: the metrics endpoint (ptop --listen). An HTTP server
 * (libmicrohttpd, its own threads) serves GET /metrics from the last snapshot
 * the frame loop published: scrapes never read /proc and never wait for a
 * frame, and run in parallel under one mutex held only to copy the snapshot.
 * Connections, the time a request header may take, idle time and memory are
 * bounded (SERVE_*), in all and not per address: a scraper shares its
 * address with whatever else runs on its host, or a reverse proxy's.
 */
#ifndef PTOP_SERVE_H
#define PTOP_SERVE_H

#include <stdbool.h>
#include <stddef.h>

/* Limits; the man page lists them. */
#define SERVE_THREADS 2 /* threads answering requests */
/*
 * Open at once: a new one closes the one waiting longest for a request
 * header, so this bounds memory and descriptors (about 12 KiB of resident
 * memory each), not who gets in.
 */
#define SERVE_MAX_CONNECTIONS 128
/* s: a request header must come whole within this of the connection's start or last answer */
#define SERVE_HEADER_S 2
/* connections an eviction looks at for one that sent nothing unread */
#define SERVE_EVICT_LOOK 32
#define SERVE_TIMEOUT_S 10	      /* s: an answer whose reader is idle this long is dropped */
#define SERVE_CONNECTION_MEMORY 32768 /* bytes per connection: request line and headers */

struct serve_addr {
	char host[64]; /* numeric IPv4 or IPv6 address */
	unsigned port; /* 0: any free port (serve_port() tells which) */
};

/*
 * Parse "[ADDR:]PORT" ("9910", "0.0.0.0:9910", "[::1]:9910"); ADDR defaults
 * to 127.0.0.1. Returns 0, or -EINVAL.
 */
int serve_parse_addr(const char *s, struct serve_addr *a);

struct serve;

/*
 * Listen on a and serve from now on: until the first snapshot is published,
 * /metrics answers 503. Returns 0, or -errno of socket(), bind() or listen()
 * (-EADDRINUSE, -EACCES, -EADDRNOTAVAIL), or -ENOMEM when the server could
 * not start. *out is NULL on error.
 */
int serve_start(const struct serve_addr *a, struct serve **out);
/* The port listened on. */
unsigned serve_port(const struct serve *s);

/*
 * Replace the snapshot with text (the Prometheus text format) and om
 * (OpenMetrics without "# EOF"); both are copied. Never waits for a scrape
 * longer than its copy of the previous snapshot.
 */
void serve_publish(struct serve *s, const char *text, size_t text_len, const char *om,
		   size_t om_len);

/* Stop serving: close the socket and every connection, join the threads, free s. */
void serve_stop(struct serve *s);

#endif
