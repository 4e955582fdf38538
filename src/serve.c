// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * serve.c: the metrics endpoint over libmicrohttpd (see serve.h). ptop binds
 * and listens itself, so that a port in use is reported with its errno, then
 * hands the socket to libmicrohttpd's thread pool (epoll), with limits on
 * connections in all and per address, idle time and per-connection memory:
 * a slow or idle client holds one bounded slot until the timeout, and a
 * request line beyond the memory limit is refused by the library. Answers
 * GET and HEAD of /metrics and /, nothing else, matched on the request
 * target as sent; touches no /proc file.
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
#include <sys/socket.h>
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
	};

	if (!mhd.state)
		mhd.state =
		    util_dlsyms(MHD_SONAME, 0, syms, sizeof(syms) / sizeof(syms[0])) ? -1 : 1;
	return mhd.state > 0 ? 0 : -ELIBACC;
}

struct serve {
	struct MHD_Daemon *d;
	unsigned port;
	pthread_mutex_t lock; /* guards what follows */
	bool have;	      /* a snapshot was published */
	struct sbuf text, om;
	unsigned long scrapes;
	double scrape_s; /* summed duration of the scrapes answered */
	unsigned long scrapes_timed;
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
static void add_own(struct sbuf *b, bool om, unsigned long scrapes, double scrape_s,
		    unsigned long timed)
{
	struct rusage ru;
	double cpu = 0;

	if (!getrusage(RUSAGE_SELF, &ru))
		cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		      (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	metrics_family(b, om, "ptop_cpu_seconds", METRICS_COUNTER, "seconds",
		       "CPU time ptop used (user and system, all threads).");
	metrics_sample(b, "ptop_cpu_seconds", "_total", "", cpu);
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
	add_own(&b, om, n, scrape_s, timed);
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

	if (!route || *route == ROUTE_NONE || target_cut(url, version))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8",
			     "Not found: ptop serves /metrics.\n");
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
			     "Method not allowed: ptop answers GET and HEAD.\n");
	if (*route == ROUTE_INDEX)
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", index_page);
	return scrape(cls, c);
}

int serve_start(const struct serve_addr *a, struct serve **out)
{
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
	/* the frame loop's thread takes the signals that stop it, not the server's */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	s->d = mhd.start_daemon(
	    MHD_USE_EPOLL_INTERNAL_THREAD, 0, NULL, NULL, answer, s, MHD_OPTION_LISTEN_SOCKET, fd,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned)SERVE_THREADS, MHD_OPTION_CONNECTION_LIMIT,
	    (unsigned)SERVE_MAX_CONNECTIONS, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
	    (unsigned)SERVE_MAX_PER_IP, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_TIMEOUT_S,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_CONNECTION_MEMORY,
	    MHD_OPTION_URI_LOG_CALLBACK, route_of, s, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!s->d) {
		close(fd);
		pthread_mutex_destroy(&s->lock);
		free(s);
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
	mhd.stop_daemon(s->d);
	pthread_mutex_destroy(&s->lock);
	sbuf_free(&s->text);
	sbuf_free(&s->om);
	free(s);
}
