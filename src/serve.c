// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * serve.c: the metrics endpoint over libmicrohttpd (see serve.h). ptop binds
 * and listens itself, so that a port in use is reported with its errno, then
 * hands the socket to libmicrohttpd's thread pool (epoll), with limits on
 * idle time and per-connection memory (a request line beyond it is refused
 * by the library). The library's idle timeout is restarted by every byte, so
 * ptop bounds the rest itself: it follows each connection (started, header
 * whole, answered, closed) and shuts down one whose request header is not
 * whole SERVE_HEADER_S after its start or its last answer (one reaper
 * thread, asleep while no connection waits for a header), and a new
 * connection past SERVE_MAX_CONNECTIONS shuts down the one waiting longest:
 * slow clients, from any number of addresses, cannot keep a scraper out.
 * Answers GET and HEAD of /metrics and /, nothing else, matched on the
 * request target as sent; touches no /proc file.
 *
 * libmicrohttpd is loaded when the endpoint starts, not linked: with GnuTLS
 * and the libraries under it, its mere loading cost 2.4 MiB of resident
 * memory in every run of ptop, serving or not (as libpfm4, see counters.c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ptop/metrics.h"
#include "ptop/serve.h"
#include "ptop/util.h"

/* The library's soname in Debian 12 (package libmicrohttpd12). */
#define MHD_SONAME "libmicrohttpd.so.12"

static struct {
	int state; /* 0 not tried, 1 loaded, -1 not available */
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
	__typeof__(MHD_get_connection_info) *get_connection_info;
} mhd;

/* Load libmicrohttpd once. 0, or -ELIBACC when it or a function is missing. */
static int mhd_load(void)
{
	const struct dl_sym syms[] = {
	    {"MHD_start_daemon", (void **)&mhd.start_daemon},
	    {"MHD_stop_daemon", (void **)&mhd.stop_daemon},
	    {"MHD_create_response_from_buffer", (void **)&mhd.create_response_from_buffer},
	    {"MHD_add_response_header", (void **)&mhd.add_response_header},
	    {"MHD_queue_response", (void **)&mhd.queue_response},
	    {"MHD_destroy_response", (void **)&mhd.destroy_response},
	    {"MHD_lookup_connection_value", (void **)&mhd.lookup_connection_value},
	    {"MHD_get_connection_info", (void **)&mhd.get_connection_info},
	};

	if (!mhd.state)
		mhd.state =
		    util_dlsyms(MHD_SONAME, 0, syms, sizeof(syms) / sizeof(syms[0])) ? -1 : 1;
	return mhd.state > 0 ? 0 : -ELIBACC;
}

/* Where a connection is: the list it is on, by the time it got there. */
enum conn_state {
	CONN_WAITING, /* for a request header: since accepted, or since its last answer */
	CONN_BUSY,    /* its request is being answered */
	CONN_SHUT,    /* shut down by ptop, on no list: libmicrohttpd closes it */
};

struct conn {
	struct conn *prev, *next;
	int fd;
	enum conn_state state;
	double since; /* s, clock_mono(): when it got to its state */
};

struct conn_list {
	struct conn *head, *tail; /* oldest first */
};

/* Why ptop shut a connection down, as ptop_http_connections_closed_total counts. */
enum conn_why { WHY_HEADER_TIMEOUT, WHY_EVICTED, WHY_N };

struct serve {
	struct MHD_Daemon *d;
	unsigned port;
	pthread_mutex_t lock; /* guards what follows */
	bool have;	      /* a snapshot was published */
	struct sbuf text, om;
	unsigned long scrapes;
	double scrape_s; /* summed duration of the scrapes answered */
	unsigned long scrapes_timed;

	pthread_mutex_t conns_lock; /* guards what follows; never held with lock */
	pthread_cond_t wake;	    /* the reaper's: a connection to watch, or stop */
	struct conn_list waiting, busy;
	unsigned live; /* connections on either list */
	unsigned long shut[WHY_N];
	bool reaper_idle; /* waiting with no deadline: a first waiting connection wakes it */
	bool stopping;
	pthread_t reaper;
	bool reaper_on;
};

static const char index_page[] =
    "<!DOCTYPE html>\n<html><head><title>ptop</title></head><body>\n"
    "<h1>ptop</h1>\n<p><a href=\"/metrics\">Metrics</a></p>\n</body></html>\n";

int serve_parse_addr(const char *s, struct serve_addr *a)
{
	const char *colon = strrchr(s, ':'), *port = colon ? colon + 1 : s;
	unsigned char tmp[sizeof(struct in6_addr)];
	unsigned long v = 0;
	size_t hl;

	if (!*port || strlen(port) > 5)
		return -EINVAL;
	for (const char *p = port; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (v > 65535)
		return -EINVAL;
	a->port = (unsigned)v;
	if (!colon) {
		strcpy(a->host, "127.0.0.1");
		return 0;
	}
	hl = (size_t)(colon - s);
	/* an IPv6 address comes in brackets, as in a URL: "::1:9910" would be ambiguous */
	if (hl >= 2 && s[0] == '[' && s[hl - 1] == ']') {
		s++;
		hl -= 2;
	} else if (memchr(s, ':', hl)) {
		return -EINVAL;
	}
	if (!hl || hl >= sizeof(a->host))
		return -EINVAL;
	memcpy(a->host, s, hl);
	a->host[hl] = '\0';
	if (inet_pton(AF_INET, a->host, tmp) != 1 && inet_pton(AF_INET6, a->host, tmp) != 1)
		return -EINVAL;
	return 0;
}

static int listen_on(const struct serve_addr *a, unsigned *port)
{
	struct sockaddr_storage ss = {0};
	struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
	socklen_t len;
	int fd, one = 1, err;

	if (inet_pton(AF_INET, a->host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)a->port);
		len = sizeof(*v4);
	} else if (inet_pton(AF_INET6, a->host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)a->port);
		len = sizeof(*v6);
	} else {
		return -EINVAL;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 128) ||
	    getsockname(fd, (struct sockaddr *)&ss, &len)) {
		err = -errno;
		close(fd);
		return err;
	}
	*port = ntohs(ss.ss_family == AF_INET ? v4->sin_port : v6->sin6_port);
	return fd;
}

static void conn_unlink(struct conn_list *l, struct conn *c)
{
	*(c->prev ? &c->prev->next : &l->head) = c->next;
	*(c->next ? &c->next->prev : &l->tail) = c->prev;
	c->prev = c->next = NULL;
}

static void conn_append(struct conn_list *l, struct conn *c)
{
	c->prev = l->tail;
	c->next = NULL;
	*(l->tail ? &l->tail->next : &l->head) = c;
	l->tail = c;
}

static struct conn_list *conn_list_of(struct serve *s, struct conn *c)
{
	return c->state == CONN_WAITING ? &s->waiting : &s->busy;
}

/*
 * A connection starts to wait for its header: the reaper must know if it
 * sleeps without a deadline (one waiting already sets a sooner one). Only
 * then, so a busy endpoint does not wake it for every request. Under conns_lock.
 */
static void reaper_wake(struct serve *s)
{
	if (s->reaper_idle) {
		s->reaper_idle = false;
		pthread_cond_signal(&s->wake);
	}
}

/* Move c to state now. Under conns_lock. */
static void conn_move(struct serve *s, struct conn *c, enum conn_state to)
{
	if (c->state == to || c->state == CONN_SHUT)
		return;
	conn_unlink(conn_list_of(s, c), c);
	c->state = to;
	c->since = clock_mono();
	if (to == CONN_WAITING)
		reaper_wake(s);
	conn_append(conn_list_of(s, c), c);
}

/*
 * Shut c's socket down: its thread sees the end on its next wait and closes
 * the connection (and its descriptor, after the CLOSED notice, which takes
 * conns_lock: so the descriptor here is still c's). Under conns_lock.
 */
static void conn_shut(struct serve *s, struct conn *c, enum conn_why why)
{
	conn_unlink(conn_list_of(s, c), c);
	c->state = CONN_SHUT;
	s->live--;
	s->shut[why]++;
	shutdown(c->fd, SHUT_RDWR);
}

static void *conn_of(struct MHD_Connection *mc)
{
	const union MHD_ConnectionInfo *i =
	    mhd.get_connection_info(mc, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return i ? i->socket_context : NULL;
}

/* Whether c's client sent bytes that its thread has not read yet. */
static bool has_unread(const struct conn *c)
{
	int n = 0;

	return ioctl(c->fd, FIONREAD, &n) == 0 && n > 0;
}

/*
 * The connection to close for a new one: the one waiting longest for its
 * header, passing over those whose client has sent bytes not read yet (a
 * scraper's request, queued behind a burst of accepts: it is answered in
 * milliseconds, and closing it would fail the scrape); or, when all are
 * being answered, the oldest of those. Never c. Under conns_lock.
 */
static struct conn *victim(struct serve *s, const struct conn *c)
{
	struct conn *first = NULL;
	int looked = 0;

	for (struct conn *v = s->waiting.head; v && looked < SERVE_EVICT_LOOK; v = v->next) {
		if (v == c)
			continue;
		if (!first)
			first = v;
		looked++;
		if (!has_unread(v))
			return v;
	}
	return first ? first : s->busy.head;
}

/* libmicrohttpd's notice of a connection accepted, or closed. */
static void on_connection(void *cls, struct MHD_Connection *mc, void **ctx,
			  enum MHD_ConnectionNotificationCode code)
{
	const union MHD_ConnectionInfo *i;
	struct serve *s = cls;
	struct conn *c = *ctx;

	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (!c)
			return;
		pthread_mutex_lock(&s->conns_lock);
		if (c->state != CONN_SHUT) {
			conn_unlink(conn_list_of(s, c), c);
			s->live--;
		}
		pthread_mutex_unlock(&s->conns_lock);
		free(c);
		*ctx = NULL;
		return;
	}
	if (code != MHD_CONNECTION_NOTIFY_STARTED)
		return;
	i = mhd.get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!i)
		return;
	c = xcalloc(1, sizeof(*c));
	c->fd = i->connect_fd;
	c->state = CONN_WAITING;
	c->since = clock_mono();
	pthread_mutex_lock(&s->conns_lock);
	reaper_wake(s);
	conn_append(&s->waiting, c);
	s->live++;
	/* Room for this one (see victim()): the new one is never refused. */
	while (s->live > SERVE_MAX_CONNECTIONS) {
		struct conn *v = victim(s, c);

		if (!v)
			break;
		conn_shut(s, v, WHY_EVICTED);
	}
	pthread_mutex_unlock(&s->conns_lock);
	*ctx = c;
}

/* libmicrohttpd's notice that a request was answered (or given up): the next header's clock. */
static void on_completed(void *cls, struct MHD_Connection *mc, void **req,
			 enum MHD_RequestTerminationCode code)
{
	struct serve *s = cls;
	struct conn *c = conn_of(mc);

	(void)req;
	(void)code;
	if (!c)
		return;
	pthread_mutex_lock(&s->conns_lock);
	conn_move(s, c, CONN_WAITING);
	pthread_mutex_unlock(&s->conns_lock);
}

/* Shut down the connections whose header is late, oldest first, until stopped. */
static void *reaper(void *arg)
{
	struct serve *s = arg;

	pthread_mutex_lock(&s->conns_lock);
	while (!s->stopping) {
		struct conn *c = s->waiting.head;
		double due, now = clock_mono();
		struct timespec ts;

		if (!c) {
			s->reaper_idle = true;
			pthread_cond_wait(&s->wake, &s->conns_lock);
			s->reaper_idle = false;
			continue;
		}
		due = c->since + SERVE_HEADER_S;
		if (due <= now) {
			conn_shut(s, c, WHY_HEADER_TIMEOUT);
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		due -= now;
		ts.tv_sec += (time_t)due;
		ts.tv_nsec += (long)((due - (double)(time_t)due) * 1e9) + 1000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&s->wake, &s->conns_lock, &ts);
	}
	pthread_mutex_unlock(&s->conns_lock);
	return NULL;
}

/* What a request asks for, from its request target as sent. */
enum route { ROUTE_NONE, ROUTE_INDEX, ROUTE_METRICS };
static const enum route routes[] = {ROUTE_NONE, ROUTE_INDEX, ROUTE_METRICS};

/*
 * The target as sent, before libmicrohttpd unescapes it ("/metrics%00x"
 * unescaped is "/metrics" to a C string): one of ptop's paths byte for byte,
 * without a query, or nothing. The answer sees it as its request context.
 */
static void *route_of(void *cls, const char *uri, struct MHD_Connection *mc)
{
	(void)cls;
	(void)mc;
	if (!strcmp(uri, "/"))
		return (void *)&routes[ROUTE_INDEX];
	if (!strcmp(uri, "/metrics"))
		return (void *)&routes[ROUTE_METRICS];
	return (void *)&routes[ROUTE_NONE];
}

/*
 * Whether the target went on past a NUL byte sent in it: libmicrohttpd 0.9.75
 * takes that byte as the target's end ("/metrics<NUL>x" reads "/metrics");
 * later versions refuse such a request. Both keep the target and the version
 * in the request's buffer, with one byte between them (the space, made the
 * target's NUL): more there is a part of the target the strings do not show.
 * Only the addresses are compared; a version elsewhere ("" for none) is not
 * a cut target.
 */
static bool target_cut(const char *url, const char *version)
{
	uintptr_t end = (uintptr_t)url + strlen(url), v = (uintptr_t)version;

	return v > end + 1 && v - end <= SERVE_CONNECTION_MEMORY;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
			     const char *body)
{
	struct MHD_Response *r =
	    mhd.create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = mhd.queue_response(c, status, r);
	mhd.destroy_response(r);
	return ret;
}

/* What ptop counts at scrape time, after the frame's metrics. */
static void add_own(struct serve *s, struct sbuf *b, bool om, unsigned long scrapes,
		    double scrape_s, unsigned long timed)
{
	unsigned long shut[WHY_N];
	struct rusage ru;
	double cpu = 0;

	pthread_mutex_lock(&s->conns_lock);
	memcpy(shut, s->shut, sizeof(shut));
	pthread_mutex_unlock(&s->conns_lock);
	if (!getrusage(RUSAGE_SELF, &ru))
		cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		      (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	metrics_family(b, om, "ptop_cpu_seconds", METRICS_COUNTER, "seconds",
		       "CPU time ptop used (user and system, all threads).");
	metrics_sample(b, "ptop_cpu_seconds", "_total", "", cpu);
	metrics_family(b, om, "ptop_http_connections_closed", METRICS_COUNTER, NULL,
		       "Connections ptop closed: a request header late, or the oldest waiting "
		       "for one when a new connection came past the limit.");
	metrics_sample(b, "ptop_http_connections_closed", "_total", "{reason=\"header_timeout\"}",
		       (double)shut[WHY_HEADER_TIMEOUT]);
	metrics_sample(b, "ptop_http_connections_closed", "_total", "{reason=\"evicted\"}",
		       (double)shut[WHY_EVICTED]);
	metrics_family(b, om, "ptop_scrapes", METRICS_COUNTER, NULL,
		       "Scrapes of /metrics answered, this one included.");
	metrics_sample(b, "ptop_scrapes", "_total", "", (double)scrapes);
	metrics_family(b, om, "ptop_scrape_duration_seconds", METRICS_SUMMARY, "seconds",
		       "Time taken to answer the scrapes before this one.");
	metrics_sample(b, "ptop_scrape_duration_seconds", "_sum", "", scrape_s);
	metrics_sample(b, "ptop_scrape_duration_seconds", "_count", "", (double)timed);
	if (om)
		sbuf_adds(b, "# EOF\n");
}

static enum MHD_Result scrape(struct serve *s, struct MHD_Connection *c)
{
	const char *accept = mhd.lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
	bool om = accept && strstr(accept, "application/openmetrics-text");
	double t0 = clock_mono(), scrape_s;
	struct MHD_Response *r;
	struct sbuf b = {0};
	unsigned long n, timed;
	enum MHD_Result ret;

	pthread_mutex_lock(&s->lock);
	if (!s->have) {
		pthread_mutex_unlock(&s->lock);
		return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain; charset=utf-8",
			     "No frame yet.\n");
	}
	sbuf_reserve(&b, (om ? s->om.len : s->text.len) + 2048);
	sbuf_add(&b, om ? s->om.p : s->text.p, om ? s->om.len : s->text.len);
	n = ++s->scrapes;
	scrape_s = s->scrape_s;
	timed = s->scrapes_timed;
	pthread_mutex_unlock(&s->lock);
	add_own(s, &b, om, n, scrape_s, timed);
	r = mhd.create_response_from_buffer(b.len, b.p, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		sbuf_free(&b);
		return MHD_NO;
	}
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				om ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
				   : "text/plain; version=0.0.4; charset=utf-8");
	ret = mhd.queue_response(c, MHD_HTTP_OK, r);
	mhd.destroy_response(r);
	pthread_mutex_lock(&s->lock);
	s->scrape_s += clock_mono() - t0;
	s->scrapes_timed++;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **con_cls)
{
	const enum route *route = *con_cls;
	struct serve *s = cls;
	struct conn *conn = conn_of(c);

	if (conn) {
		/* the header is whole: its deadline no longer applies */
		pthread_mutex_lock(&s->conns_lock);
		conn_move(s, conn, CONN_BUSY);
		pthread_mutex_unlock(&s->conns_lock);
	}
	if (!route || *route == ROUTE_NONE || target_cut(url, version))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8",
			     "Not found: ptop serves /metrics.\n");
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
			     "Method not allowed: ptop answers GET and HEAD.\n");
	if (*route == ROUTE_INDEX)
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", index_page);
	return scrape(s, c);
}

static void stop_reaper(struct serve *s)
{
	if (!s->reaper_on)
		return;
	pthread_mutex_lock(&s->conns_lock);
	s->stopping = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->conns_lock);
	pthread_join(s->reaper, NULL);
	s->reaper_on = false;
}

static void serve_free(struct serve *s)
{
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->conns_lock);
	pthread_mutex_destroy(&s->lock);
	sbuf_free(&s->text);
	sbuf_free(&s->om);
	free(s);
}

int serve_start(const struct serve_addr *a, struct serve **out)
{
	pthread_condattr_t ca;
	struct serve *s;
	sigset_t block, old;
	int fd;

	*out = NULL;
	if (mhd_load())
		return -ELIBACC;
	s = xcalloc(1, sizeof(*s));
	fd = listen_on(a, &s->port);
	if (fd < 0) {
		free(s);
		return fd;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->conns_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_condattr_destroy(&ca);
	/* the frame loop's thread takes the signals that stop it, not the server's */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	s->reaper_on = !pthread_create(&s->reaper, NULL, reaper, s);
	/*
	 * No per-address limit: behind a proxy, or beside other clients on the
	 * scraper's host, every connection has the scraper's address. The
	 * library's own limit (split between its threads) is a backstop above
	 * ptop's, which on_connection keeps by closing old ones: reached, the
	 * library would stop accepting, new connections then wait in the backlog.
	 */
	s->d = s->reaper_on
		   ? mhd.start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD, 0, NULL, NULL, answer, s,
				      MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_THREAD_POOL_SIZE,
				      (unsigned)SERVE_THREADS, MHD_OPTION_CONNECTION_LIMIT,
				      (unsigned)(SERVE_MAX_CONNECTIONS + SERVE_MAX_CONNECTIONS / 4),
				      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_TIMEOUT_S,
				      MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				      (size_t)SERVE_CONNECTION_MEMORY, MHD_OPTION_NOTIFY_CONNECTION,
				      on_connection, s, MHD_OPTION_NOTIFY_COMPLETED, on_completed,
				      s, MHD_OPTION_URI_LOG_CALLBACK, route_of, s, MHD_OPTION_END)
		   : NULL;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!s->d) {
		close(fd);
		stop_reaper(s);
		serve_free(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

unsigned serve_port(const struct serve *s)
{
	return s->port;
}

void serve_publish(struct serve *s, const char *text, size_t text_len, const char *om,
		   size_t om_len)
{
	pthread_mutex_lock(&s->lock);
	sbuf_reset(&s->text);
	sbuf_add(&s->text, text, text_len);
	sbuf_reset(&s->om);
	sbuf_add(&s->om, om, om_len);
	s->have = true;
	pthread_mutex_unlock(&s->lock);
}

void serve_stop(struct serve *s)
{
	if (!s)
		return;
	/* first the reaper: the library's CLOSED notices then free every connection */
	stop_reaper(s);
	mhd.stop_daemon(s->d);
	serve_free(s);
}
