// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * taskstats.c: a task's delay totals from the kernel's taskstats, over a
 * generic netlink socket (NETLINK_GENERIC): the family "TASKSTATS" is looked
 * up once (CTRL_CMD_GETFAMILY), then each task is one TASKSTATS_CMD_GET
 * request with TASKSTATS_CMD_ATTR_PID and one reply, whose nested
 * TASKSTATS_TYPE_STATS attribute is the kernel's struct taskstats. The
 * kernel answers only a caller with CAP_NET_ADMIN. The parsers read bytes
 * only, so they are fuzzed (tests/fuzz/fuzz_taskstats.c).
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "ptop/proc.h"

/* A reply holds one struct taskstats (a few hundred bytes) and its headers. */
#define TASKSTATS_BUF 8192
/* A kernel that does not answer within this is taken as one that will not. */
#define TASKSTATS_TIMEOUT_S 2

struct proc_taskstats_conn {
	int fd;
	uint16_t family;
	uint32_t seq;
	union {
		struct nlmsghdr align;
		unsigned char b[TASKSTATS_BUF];
	} buf;
};

/*
 * The next attribute in [*p, end): 1 with its type (flags masked off) and
 * payload, 0 at the end, -EINVAL where its length runs past end.
 */
static int attr_next(const unsigned char **p, const unsigned char *end, unsigned *type,
		     const unsigned char **data, size_t *n)
{
	size_t left = (size_t)(end - *p), step;
	struct nlattr a;

	if (!left)
		return 0;
	if (left < NLA_HDRLEN)
		return -EINVAL;
	memcpy(&a, *p, sizeof(a));
	if (a.nla_len < NLA_HDRLEN || a.nla_len > left)
		return -EINVAL;
	*type = a.nla_type & NLA_TYPE_MASK;
	*data = *p + NLA_HDRLEN;
	*n = a.nla_len - NLA_HDRLEN;
	/* the last attribute's padding may be left out of the message */
	step = NLA_ALIGN(a.nla_len);
	*p += step < left ? step : left;
	return 1;
}

/*
 * The attributes of the first message in buf when it is of type want with
 * command cmd; the kernel's error (-errno) when it is an NLMSG_ERROR;
 * -EINVAL where it is malformed or something else.
 */
static int msg_attrs(const unsigned char *buf, size_t len, uint16_t want, uint8_t cmd,
		     const unsigned char **attrs, const unsigned char **end)
{
	struct genlmsghdr g;
	struct nlmsghdr h;

	if (len < NLMSG_HDRLEN)
		return -EINVAL;
	memcpy(&h, buf, sizeof(h));
	if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len)
		return -EINVAL;
	if (h.nlmsg_type == NLMSG_ERROR) {
		int e;

		if (h.nlmsg_len < NLMSG_HDRLEN + sizeof(e))
			return -EINVAL;
		memcpy(&e, buf + NLMSG_HDRLEN, sizeof(e));
		/* 0 is an acknowledgement, which brings no data */
		return e < 0 && e > -4096 ? e : -EINVAL;
	}
	if (h.nlmsg_type != want || h.nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EINVAL;
	memcpy(&g, buf + NLMSG_HDRLEN, sizeof(g));
	if (g.cmd != cmd)
		return -EINVAL;
	*attrs = buf + NLMSG_HDRLEN + GENL_HDRLEN;
	*end = buf + h.nlmsg_len;
	return 0;
}

int proc_taskstats_parse_family(const void *buf, size_t len, uint16_t *id)
{
	const unsigned char *p, *end, *data;
	unsigned type;
	size_t n;
	int err = msg_attrs(buf, len, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, &p, &end);

	if (err)
		return err;
	while ((err = attr_next(&p, end, &type, &data, &n)) == 1) {
		if (type == CTRL_ATTR_FAMILY_ID && n >= sizeof(*id)) {
			memcpy(id, data, sizeof(*id));
			/* the ids the kernel hands out start after the control family's */
			return *id > GENL_ID_CTRL ? 0 : -EINVAL;
		}
	}
	return -EINVAL;
}

/* The stats and the task's id inside an AGGR_PID or AGGR_TGID attribute. */
static int parse_aggr(const unsigned char *p, const unsigned char *end, struct proc_taskstats *out)
{
	const unsigned char *data;
	bool have_pid = false, have_stats = false;
	unsigned type;
	size_t n;
	int err;

	while ((err = attr_next(&p, end, &type, &data, &n)) == 1) {
		if ((type == TASKSTATS_TYPE_PID || type == TASKSTATS_TYPE_TGID) &&
		    n >= sizeof(out->pid)) {
			memcpy(&out->pid, data, sizeof(out->pid));
			have_pid = true;
		} else if (type == TASKSTATS_TYPE_STATS) {
			/* an older kernel's struct is shorter, a newer one's longer: each
			 * field is where version 1 put it */
			if (n < offsetof(struct taskstats, swapin_delay_total) + sizeof(uint64_t))
				return -EINVAL;
			memcpy(&out->version, data + offsetof(struct taskstats, version),
			       sizeof(out->version));
			memcpy(&out->cpu_delay_ns,
			       data + offsetof(struct taskstats, cpu_delay_total),
			       sizeof(out->cpu_delay_ns));
			memcpy(&out->blkio_delay_ns,
			       data + offsetof(struct taskstats, blkio_delay_total),
			       sizeof(out->blkio_delay_ns));
			memcpy(&out->swapin_delay_ns,
			       data + offsetof(struct taskstats, swapin_delay_total),
			       sizeof(out->swapin_delay_ns));
			have_stats = true;
		}
	}
	if (err)
		return err;
	return have_pid && have_stats ? 0 : -EINVAL;
}

int proc_taskstats_parse_reply(const void *buf, size_t len, uint16_t family,
			       struct proc_taskstats *out)
{
	const unsigned char *p, *end, *data;
	unsigned type;
	size_t n;
	int err = msg_attrs(buf, len, family, TASKSTATS_CMD_NEW, &p, &end);

	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	while ((err = attr_next(&p, end, &type, &data, &n)) == 1) {
		if (type == TASKSTATS_TYPE_AGGR_PID || type == TASKSTATS_TYPE_AGGR_TGID)
			return parse_aggr(data, data + n, out);
	}
	return -EINVAL;
}

/* A request: one generic netlink message with one attribute. */
static int request(struct proc_taskstats_conn *c, uint16_t type, uint8_t cmd, uint8_t version,
		   uint16_t attr, const void *val, size_t vlen)
{
	union {
		struct nlmsghdr align;
		unsigned char b[NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN + 32];
	} m;
	struct nlmsghdr h = {0};
	struct genlmsghdr g = {0};
	struct nlattr a = {0};
	struct sockaddr_nl to = {.nl_family = AF_NETLINK};
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN + NLA_ALIGN(vlen);

	if (len > sizeof(m.b))
		return -EINVAL;
	memset(&m, 0, sizeof(m));
	h.nlmsg_len = (uint32_t)len;
	h.nlmsg_type = type;
	h.nlmsg_flags = NLM_F_REQUEST;
	h.nlmsg_seq = ++c->seq;
	g.cmd = cmd;
	g.version = version;
	a.nla_len = (uint16_t)(NLA_HDRLEN + vlen);
	a.nla_type = attr;
	memcpy(m.b, &h, sizeof(h));
	memcpy(m.b + NLMSG_HDRLEN, &g, sizeof(g));
	memcpy(m.b + NLMSG_HDRLEN + GENL_HDRLEN, &a, sizeof(a));
	memcpy(m.b + NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN, val, vlen);
	for (;;) {
		ssize_t n = sendto(c->fd, m.b, len, 0, (struct sockaddr *)&to, sizeof(to));

		if (n == (ssize_t)len)
			return 0;
		if (n >= 0)
			return -EIO;
		if (errno != EINTR)
			return -errno;
	}
}

/* The reply to the last request into c's buffer: its length, or -errno. */
static ssize_t reply(struct proc_taskstats_conn *c)
{
	for (;;) {
		ssize_t n = recv(c->fd, c->buf.b, sizeof(c->buf.b), MSG_TRUNC);
		struct nlmsghdr h;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* the timeout: nothing came */
			return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
		}
		if ((size_t)n > sizeof(c->buf.b))
			return -EMSGSIZE;
		if ((size_t)n < NLMSG_HDRLEN)
			return -EINVAL;
		memcpy(&h, c->buf.b, sizeof(h));
		/* a late reply to a request that timed out is not this one's */
		if (h.nlmsg_seq == c->seq)
			return n;
	}
}

int proc_taskstats_open(struct proc_taskstats_conn **out)
{
	static const char name[] = TASKSTATS_GENL_NAME;
	struct timeval tv = {.tv_sec = TASKSTATS_TIMEOUT_S};
	struct proc_taskstats_conn *c;
	ssize_t n;
	int err;

	*out = NULL;
	c = xcalloc(1, sizeof(*c));
	c->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (c->fd < 0) {
		err = errno == EPROTONOSUPPORT || errno == EAFNOSUPPORT ? -EOPNOTSUPP : -errno;
		goto out_free;
	}
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	err = request(c, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, CTRL_ATTR_FAMILY_NAME, name,
		      sizeof(name));
	if (err)
		goto out_close;
	n = reply(c);
	if (n < 0) {
		err = (int)n;
		goto out_close;
	}
	err = proc_taskstats_parse_family(c->buf.b, (size_t)n, &c->family);
	if (err)
		goto out_close;
	*out = c;
	return 0;
out_close:
	close(c->fd);
out_free:
	free(c);
	return err;
}

int proc_taskstats_get(struct proc_taskstats_conn *c, int pid, struct proc_taskstats *out)
{
	uint32_t id = (uint32_t)pid;
	ssize_t n;
	int err;

	if (pid <= 0)
		return -ESRCH;
	err = request(c, c->family, TASKSTATS_CMD_GET, TASKSTATS_GENL_VERSION,
		      TASKSTATS_CMD_ATTR_PID, &id, sizeof(id));
	if (err)
		return err;
	n = reply(c);
	if (n < 0)
		return (int)n;
	err = proc_taskstats_parse_reply(c->buf.b, (size_t)n, c->family, out);
	if (!err && out->pid != id)
		return -EINVAL;
	return err;
}

void proc_taskstats_close(struct proc_taskstats_conn *c)
{
	if (!c)
		return;
	close(c->fd);
	free(c);
}
