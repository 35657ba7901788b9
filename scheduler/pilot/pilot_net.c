/*
 * pilot_net.c: the pilot backend's listener and its agents' connections:
 * newline-delimited JSON (pilot_proto.h), a hello with the campaign's
 * secret first.  A connection that says anything wrong is closed and
 * logged; the pilot's jobs are not touched by it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pilot_int.h"

struct pwrite {
	uv_write_t	 req;
	char		*line;
};

/* The connection's memory, once its handle is closed. */
static void
pilot_conn_closed(uv_handle_t *h)
{
	struct pconn	*c = h->data;
	struct psched	*ps = c->ps;

	TAILQ_REMOVE(&ps->conns, c, entry);
	free(c->buf);
	free(c);
	pilot_release(ps);
}

/* Close c; its pilot forgets it and the "next"s it asked. */
void
pilot_conn_close(struct pconn *c)
{
	if (c->closing)
		return;
	c->closing = 1;
	if (c->pilot != NULL) {
		c->pilot->conn = NULL;
		c->pilot->asked = 0;
		c->pilot = NULL;
	}
	uv_close((uv_handle_t *)&c->tcp, pilot_conn_closed);
}

static void
pilot_written(uv_write_t *req, int status)
{
	struct pwrite	*w = (struct pwrite *)req;
	struct pconn	*c = req->handle->data;

	if (status != 0 && !c->closing) {
		pilot_warn(c->ps, "pilot %s: write: %s; connection closed",
		    c->pilot ? c->pilot->token : "?", uv_strerror(status));
		pilot_conn_close(c);
	}
	free(w->line);
	free(w);
}

/* Send m to c. */
void
pilot_send(struct pconn *c, const struct pilot_msg *m)
{
	struct pwrite	*w;
	uv_buf_t	 b;

	if (c->closing)
		return;
	if ((w = calloc(1, sizeof(*w))) == NULL ||
	    (w->line = pilot_msg_render(m)) == NULL) {
		free(w);
		pilot_warn(c->ps, "pilot: out of memory; connection closed");
		pilot_conn_close(c);
		return;
	}
	b = uv_buf_init(w->line, (unsigned)strlen(w->line));
	if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, pilot_written)
	    != 0) {
		free(w->line);
		free(w);
		pilot_conn_close(c);
	}
}

/* Compare secrets in time independent of where they differ. */
static int
pilot_secret_eq(const char *a, const char *b)
{
	size_t		 i, n = strlen(a);
	unsigned char	 d = n != strlen(b);

	for (i = 0; i < n && b[i] != '\0'; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

/* The peer's address, for messages. */
static void
pilot_peer(struct pconn *c, char *buf, size_t len)
{
	struct sockaddr_storage	 sa;
	int			 n = sizeof(sa);

	snprintf(buf, len, "?");
	if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&sa, &n) == 0)
		uv_ip_name((struct sockaddr *)&sa, buf, len);
}

/* A hello: check the secret and the pilot, then take the agent. */
static int
pilot_on_hello(struct pconn *c, const struct pilot_msg *m)
{
	struct pilot_msg r;
	struct pjob	*p;
	char		 peer[64];

	pilot_peer(c, peer, sizeof(peer));
	if (!pilot_secret_eq(m->secret, c->ps->addr.secret)) {
		pilot_warn(c->ps, "pilot agent from %s: wrong secret; "
		    "connection closed", peer);
		return -1;
	}
	/*
	 * A pilot this process does not know (ended, or never taken back):
	 * its agent is told to drain, so that it stops calling and exits.
	 */
	if ((p = pilot_find(c->ps, m->pilot)) == NULL ||
	    p->state == PJ_ENDED) {
		pilot_warn(c->ps, "pilot agent from %s: no pilot '%s' is "
		    "running here; told to drain", peer, m->pilot);
		memset(&r, 0, sizeof(r));
		r.op = PILOT_DRAIN;
		pilot_send(c, &r);
		c->stray = 1;
		return 0;
	}
	if (p->conn != NULL)
		pilot_conn_close(p->conn);
	c->pilot = p;
	p->conn = c;
	p->asked = 0;
	pilot_hello(p, m->running, m->running_nodes);
	return 0;
}

/* One message from an agent; -1 closes the connection. */
static int
pilot_on_msg(struct pconn *c, const struct pilot_msg *m)
{
	/* A drained stray agent's reports concern nothing of ours. */
	if (c->stray)
		return 0;
	if (c->pilot == NULL && m->op != PILOT_HELLO) {
		pilot_warn(c->ps, "pilot agent: '%s' before hello; "
		    "connection closed", pilot_op_name(m->op));
		return -1;
	}
	switch (m->op) {
	case PILOT_HELLO:
		if (c->pilot != NULL)
			break;
		return pilot_on_hello(c, m);
	case PILOT_NEXT:
		c->pilot->asked++;
		pilot_dispatch(c->ps);
		return 0;
	case PILOT_STARTED:
		pilot_job_started(c->pilot, m->token, m->host, m->time);
		return 0;
	case PILOT_ENDED:
		pilot_job_ended(c->pilot, m->token, m->ending);
		return 0;
	default:
		break;
	}
	pilot_warn(c->ps, "pilot %s: unexpected '%s'; connection closed",
	    c->pilot->token, pilot_op_name(m->op));
	return -1;
}

/* Take the complete lines of c's buffer. */
static void
pilot_lines(struct pconn *c)
{
	struct pilot_msg m;
	char		*nl, err[512];
	size_t		 off = 0, n;
	int		 rc;

	while (!c->closing && (nl = memchr(c->buf + off, '\n', c->len - off))
	    != NULL) {
		n = (size_t)(nl - (c->buf + off));
		if (pilot_msg_parse(c->buf + off, n, &m, err, sizeof(err)) ==
		    -1) {
			pilot_warn(c->ps, "pilot %s: %s; connection closed",
			    c->pilot ? c->pilot->token : "agent", err);
			pilot_conn_close(c);
			return;
		}
		rc = pilot_on_msg(c, &m);
		pilot_msg_release(&m);
		if (rc == -1) {
			pilot_conn_close(c);
			return;
		}
		off += n + 1;
	}
	memmove(c->buf, c->buf + off, c->len - off);
	c->len -= off;
	if (c->len > PILOT_LINE_MAX) {
		pilot_warn(c->ps, "pilot %s: a line over %d bytes; connection "
		    "closed", c->pilot ? c->pilot->token : "agent",
		    PILOT_LINE_MAX);
		pilot_conn_close(c);
	}
}

static void
pilot_alloc(uv_handle_t *h, size_t hint, uv_buf_t *b)
{
	struct pconn	*c = h->data;
	size_t		 cap = c->cap ? c->cap : 4096;
	char		*p;

	while (cap - c->len < 4096)
		cap *= 2;
	if (cap != c->cap) {
		if ((p = realloc(c->buf, cap)) == NULL) {
			*b = uv_buf_init(NULL, 0);
			return;
		}
		c->buf = p;
		c->cap = cap;
	}
	*b = uv_buf_init(c->buf + c->len, (unsigned)(c->cap - c->len));
}

static void
pilot_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct pconn	*c = s->data;

	if (n < 0) {
		if (n != UV_EOF)
			pilot_warn(c->ps, "pilot %s: read: %s",
			    c->pilot ? c->pilot->token : "agent",
			    uv_strerror((int)n));
		pilot_conn_close(c);
		return;
	}
	c->len += (size_t)n;
	pilot_lines(c);
}

static void
pilot_accept(uv_stream_t *server, int status)
{
	struct psched	*ps = server->data;
	struct pconn	*c;

	if (status != 0 || (c = calloc(1, sizeof(*c))) == NULL)
		return;
	c->ps = ps;
	uv_tcp_init(ps->loop, &c->tcp);
	c->tcp.data = c;
	ps->nopen++;
	TAILQ_INSERT_TAIL(&ps->conns, c, entry);
	if (uv_accept(server, (uv_stream_t *)&c->tcp) != 0 ||
	    uv_read_start((uv_stream_t *)&c->tcp, pilot_alloc, pilot_read) !=
	    0)
		pilot_conn_close(c);
}

/*
 * This host's IPv4 interface addresses but loopback, for nodes that cannot
 * resolve its name (the listener takes IPv4 only).
 */
static void
pilot_addrs_fill(struct pilot_addr *pa)
{
	uv_interface_address_t	*ifs;
	int			 i, n;

	pa->naddrs = 0;
	if (uv_interface_addresses(&ifs, &n) != 0)
		return;
	for (i = 0; i < n && pa->naddrs < PILOT_MAX_ADDRS; i++)
		if (!ifs[i].is_internal &&
		    ifs[i].address.address4.sin_family == AF_INET &&
		    uv_ip4_name(&ifs[i].address.address4,
		    pa->addrs[pa->naddrs], sizeof(pa->addrs[0])) == 0)
			pa->naddrs++;
	uv_free_interface_addresses(ifs, n);
}

/* Listen on every address at a port of the kernel's choice. */
int
pilot_listen(struct psched *ps, char *err, size_t errlen)
{
	struct sockaddr_storage	 sa;
	struct sockaddr_in	 any;
	int			 n = sizeof(sa), rc;

	uv_tcp_init(ps->loop, &ps->listener);
	ps->listener.data = ps;
	ps->nopen++;
	uv_ip4_addr("0.0.0.0", 0, &any);
	if ((rc = uv_tcp_bind(&ps->listener, (struct sockaddr *)&any, 0)) !=
	    0 || (rc = uv_listen((uv_stream_t *)&ps->listener, 128,
	    pilot_accept)) != 0 || (rc = uv_tcp_getsockname(&ps->listener,
	    (struct sockaddr *)&sa, &n)) != 0) {
		snprintf(err, errlen, "pilot listener: %s", uv_strerror(rc));
		return -1;
	}
	ps->addr.port = ntohs(((struct sockaddr_in *)&sa)->sin_port);
	if (gethostname(ps->addr.host, sizeof(ps->addr.host) - 1) == -1)
		snprintf(ps->addr.host, sizeof(ps->addr.host), "127.0.0.1");
	pilot_addrs_fill(&ps->addr);
	return 0;
}
