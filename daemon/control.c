/*
 * control.c: the control socket transport (JSON lines over a Unix socket).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "control.h"
#include "json_dup.h"
#include "json_nul.h"
#include "log.h"
#include "paths.h"
#include "report_alloc.h"
#include "testpause.h"
#include "xmalloc.h"

/* A request line may not be longer than this. */
#define CONTROL_LINE_MAX	(16 << 20)
/*
 * Back-pressure: while more reply bytes than this wait for a client that
 * does not read them, its further requests are left unread (in its socket,
 * where they block it).  One reply may be larger; it is still sent whole.
 */
#define CONTROL_OUT_MAX		(1 << 20)
/* Clients served at once; one more is told so and closed. */
#define CONTROL_CONNS_MAX	64

/*
 * A client connection.  Its memory is bounded: at most CONTROL_LINE_MAX
 * (plus one read) of unanswered input, and CONTROL_OUT_MAX plus one reply
 * of output.  Every complete request line gets a reply, in order, and a
 * client that half-closes after its requests still gets them all: the
 * connection closes once its last reply is written.
 */
struct conn {
	uv_pipe_t	 pipe;
	struct control	*ctl;
	struct conn	*next;
	char		*buf;
	size_t		 len, cap;
	size_t		 scanned;	/* leading bytes known to hold no \n */
	size_t		 queued;	/* reply bytes not yet written */
	int		 reading;
	int		 eof;		/* no more requests will be read */
	int		 closing;
	int		 draining;	/* after a request too long */
	size_t		 drained;	/* bytes discarded since */
	struct control_call *call;	/* a reply to come (control_defer) */
	uv_shutdown_t	 shut;
};

/*
 * A request answered later; conn is NULL once its client has gone.  gone,
 * if set, is told when the connection closes first (control_watch).
 */
struct control_call {
	struct conn	*conn;
	void		(*gone)(void *);
	void		*arg;
};

struct control {
	uv_pipe_t	 server;
	char		*path;
	control_handler	 handler;
	void		*arg;
	struct conn	*current;	/* whose request the handler answers */
	struct conn	*conns;
	size_t		 nconns;
	int		 closing;
};

struct reply_write {
	uv_write_t	 req;
	char		*text;
	size_t		 len;
};

static void	conn_pump(struct conn *);
static void	conn_drain(struct conn *);
static void	conn_read(uv_stream_t *, ssize_t, const uv_buf_t *);

/* Free a connection once its handle is closed. */
static void
conn_closed(uv_handle_t *h)
{
	struct conn	*c = h->data;

	if (c->call != NULL)
		c->call->conn = NULL;
	free(c->buf);
	free(c);
}

/*
 * Close a connection (once); writes still queued are dropped.  The owner
 * of a deferred reply that watches it is told, last: it may answer.
 */
static void
conn_close(struct conn *c)
{
	struct conn	**pp;
	void		(*gone)(void *);

	if (c->closing)
		return;
	c->closing = 1;
	for (pp = &c->ctl->conns; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			c->ctl->nconns--;
			break;
		}
	uv_close((uv_handle_t *)&c->pipe, conn_closed);
	if (c->call != NULL && (gone = c->call->gone) != NULL) {
		c->call->gone = NULL;
		gone(c->call->arg);
	}
}

/*
 * Has the client closed its end of the connection, not only shut down
 * its writing side (after its last request, still waiting for replies)?
 */
static int
conn_hungup(struct conn *c)
{
	struct pollfd	 pfd;
	uv_os_fd_t	 fd;

	if (uv_fileno((uv_handle_t *)&c->pipe, &fd) != 0)
		return 0;
	memset(&pfd, 0, sizeof(pfd));
	pfd.fd = fd;
	return poll(&pfd, 1, 0) == 1 &&
	    (pfd.revents & (POLLHUP | POLLERR)) != 0;
}

/* A reply was written (or dropped by a close): take up the requests. */
static void
conn_written(uv_write_t *req, int status)
{
	struct reply_write	*w = (struct reply_write *)req;
	struct conn		*c = req->handle->data;

	c->queued -= w->len;
	cJSON_free(w->text);
	free(w);
	if (c->closing)
		return;
	if (status < 0)
		conn_close(c);
	else
		conn_pump(c);
}

/*
 * The reply to a request during which memory ran out: a fixed line, so
 * that it needs no allocation but the write's.
 */
static const char control_nomem[] =
    "{\"ok\":false,\"error\":\"out of memory\"}\n";

/* Is reply whole: "ok", and its "output" or "error"? */
static int
reply_whole(const cJSON *reply)
{
	const cJSON	*ok = cJSON_GetObjectItemCaseSensitive(reply, "ok");

	return cJSON_IsBool(ok) && cJSON_IsString(
	    cJSON_GetObjectItemCaseSensitive(reply, cJSON_IsTrue(ok) ?
	    "output" : "error"));
}

/*
 * Queue one JSON object as a line; the out-of-memory error instead if
 * it is NULL or not whole, or if it cannot be printed.  If not even that
 * can be queued, the connection is closed.
 */
static void
conn_send(struct conn *c, cJSON *reply)
{
	struct reply_write	*w;
	char			*s = NULL;
	uv_buf_t		 b;
	size_t			 n = 0;

	if ((w = calloc(1, sizeof(*w))) == NULL) {
		log_warnx("control: a reply: out of memory; connection closed");
		conn_close(c);
		return;
	}
	if (reply_whole(reply))
		s = cJSON_PrintUnformatted(reply);
	if (s != NULL) {
		n = strlen(s);
		w->text = cJSON_malloc(n + 2);
	}
	if (w->text != NULL) {
		memcpy(w->text, s, n);
		w->text[n] = '\n';
		w->text[n + 1] = '\0';
		w->len = n + 1;
		b = uv_buf_init(w->text, (unsigned)w->len);
	} else {
		log_warnx("control: a reply: out of memory");
		w->len = sizeof(control_nomem) - 1;
		b = uv_buf_init((char *)control_nomem, (unsigned)w->len);
	}
	cJSON_free(s);
	if (uv_write(&w->req, (uv_stream_t *)&c->pipe, &b, 1,
	    conn_written) != 0) {
		cJSON_free(w->text);
		free(w);
		conn_close(c);
		return;
	}
	c->queued += w->len;
	testpause_at("after-reply");
}

/*
 * A reply: {"ok": true, "output": text} or {"ok": false, "error": text};
 * NULL if memory ran out.
 */
cJSON *
control_reply_new(int ok, const char *text)
{
	cJSON	*reply;

	if ((reply = cJSON_CreateObject()) == NULL)
		return NULL;
	if (cJSON_AddBoolToObject(reply, "ok", ok) == NULL ||
	    cJSON_AddStringToObject(reply, ok ? "output" : "error", text) ==
	    NULL) {
		cJSON_Delete(reply);
		return NULL;
	}
	return reply;
}

/* Queue an error reply. */
static void
conn_error(struct conn *c, const char *msg)
{
	cJSON	*reply = control_reply_new(0, msg);

	conn_send(c, reply);
	cJSON_Delete(reply);
}

/*
 * Answer one request line.  If memory ran out while it was read, or the
 * reply is not whole (a member cJSON had no memory for), the reply is
 * the out-of-memory error.
 */
static void
conn_line(struct conn *c, const char *line, size_t len)
{
	unsigned long	 failed;
	cJSON		*req, *reply;
	char		 dup[512], msg[600];

	report_alloc_arm_control();
	/* cJSON would cut a string at \u0000: refuse it, never truncate. */
	if (memchr(line, '\0', len) != NULL ||
	    json_nul_find(line, len, 0) != len) {
		conn_error(c, "request: a NUL character is not allowed");
		report_alloc_done();
		return;
	}
	failed = report_alloc_failures();
	if ((reply = cJSON_CreateObject()) == NULL) {
		conn_send(c, NULL);
		report_alloc_done();
		return;
	}
	req = cJSON_ParseWithLength(line, len);
	if (req == NULL && report_alloc_failures() != failed) {
		/* Not read for want of memory: not "not a JSON object". */
		cJSON_Delete(reply);
		reply = NULL;
	} else if (!cJSON_IsObject(req)) {
		cJSON_AddFalseToObject(reply, "ok");
		cJSON_AddStringToObject(reply, "error",
		    "request is not a JSON object");
	} else if (json_dup_find(req, dup, sizeof(dup)) == 1) {
		/* cJSON would find the first: {"cmd":"status","cmd":"cancel"} */
		snprintf(msg, sizeof(msg), "request.%s: duplicate key", dup);
		cJSON_AddFalseToObject(reply, "ok");
		cJSON_AddStringToObject(reply, "error", msg);
	} else if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(req,
	    "cmd"))) {
		cJSON_AddFalseToObject(reply, "ok");
		cJSON_AddStringToObject(reply, "error",
		    "request.cmd: expected a string");
	} else {
		c->ctl->current = c;
		c->ctl->handler(c->ctl->arg, req, reply);
		c->ctl->current = NULL;
	}
	cJSON_Delete(req);
	/* A deferred reply is sent by control_answer(). */
	if (c->call == NULL)
		conn_send(c, reply);
	cJSON_Delete(reply);
	report_alloc_done();
}

/* Give libuv a buffer: the free end of the connection's line buffer. */
static void
conn_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	struct conn	*c = h->data;

	if (c->cap - c->len < 65536) {
		c->cap = c->cap ? c->cap * 2 : 65536 * 2;
		c->buf = xreallocarray(c->buf, c->cap, 1);
	}
	*buf = uv_buf_init(c->buf + c->len, (unsigned)(c->cap - c->len));
}

/* Drop the first n bytes of the input buffer. */
static void
conn_consume(struct conn *c, size_t n)
{
	memmove(c->buf, c->buf + n, c->len - n);
	c->len -= n;
	c->scanned = 0;
}

/*
 * The end of the first complete request line, or NULL.  What was searched
 * is not searched again: a long line arriving in pieces costs linear time.
 */
static char *
conn_eol(struct conn *c)
{
	char	*nl;

	if (c->len == c->scanned)
		return NULL;
	if ((nl = memchr(c->buf + c->scanned, '\n', c->len - c->scanned)) ==
	    NULL)
		c->scanned = c->len;
	return nl;
}

/* Read from the client again, unless reading already; close on error. */
static void
conn_read_on(struct conn *c)
{
	if (c->reading)
		return;
	if (uv_read_start((uv_stream_t *)&c->pipe, conn_alloc, conn_read) !=
	    0)
		conn_close(c);
	else
		c->reading = 1;
}

/*
 * Answer the complete request lines in the buffer while the client takes
 * its replies; then read more, stop reading (back-pressure), or close.
 */
static void
conn_pump(struct conn *c)
{
	char	*nl;
	size_t	 n;

	if (c->draining)
		return;
	/* Replies go in the order of the requests: wait for a deferred one. */
	while (!c->closing && c->call == NULL && c->queued < CONTROL_OUT_MAX &&
	    (nl = conn_eol(c)) != NULL) {
		n = (size_t)(nl - c->buf);
		conn_line(c, c->buf, n);
		conn_consume(c, n + 1);
	}
	if (c->closing)
		return;
	if (c->call == NULL && c->len > CONTROL_LINE_MAX &&
	    conn_eol(c) == NULL) {
		conn_error(c, "request too long");
		conn_drain(c);
		return;
	}
	/* A last request without its newline, after the client's EOF. */
	if (c->eof && c->len > 0 && c->call == NULL &&
	    c->queued < CONTROL_OUT_MAX && conn_eol(c) == NULL) {
		conn_line(c, c->buf, c->len);
		c->len = c->scanned = 0;
	}
	if (c->closing)
		return;
	/*
	 * While a reply is deferred, reading goes on until a next request is
	 * whole (or too long), so that a client leaving is seen.
	 */
	if (c->eof || c->queued >= CONTROL_OUT_MAX || (c->call != NULL &&
	    (c->len > CONTROL_LINE_MAX || conn_eol(c) != NULL))) {
		if (c->reading) {
			uv_read_stop((uv_stream_t *)&c->pipe);
			c->reading = 0;
		}
		if (c->eof && c->len == 0 && c->queued == 0 && c->call == NULL)
			conn_close(c);
	} else
		conn_read_on(c);
}

/* The write side is shut down (or the shutdown was cancelled by a close). */
static void
conn_shut(uv_shutdown_t *req, int status)
{
	struct conn	*c = req->handle->data;

	if (status < 0 && !c->closing)
		conn_close(c);
}

/*
 * After a request too long: answer nothing more, shut the write side once
 * the error is written, and discard what the client still sends until its
 * EOF (or as much again as a request may hold), so that closing does not
 * reset a connection whose client has not read the error yet.
 */
static void
conn_drain(struct conn *c)
{
	c->len = c->scanned = 0;
	c->draining = 1;
	c->eof = 1;
	if (uv_shutdown(&c->shut, (uv_stream_t *)&c->pipe, conn_shut) != 0) {
		conn_close(c);
		return;
	}
	conn_read_on(c);
}

/* Bytes arrived, or the client half-closed. */
static void
conn_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	struct conn	*c = s->data;

	if (c->draining) {
		if (n < 0 || (c->drained += (size_t)n) > CONTROL_LINE_MAX)
			conn_close(c);
		c->len = 0;
		return;
	}
	if (n == UV_EOF) {
		c->eof = 1;
		/* Gone before its deferred reply: nobody will read it. */
		if (c->call != NULL && conn_hungup(c)) {
			conn_close(c);
			return;
		}
	} else if (n < 0) {
		conn_close(c);
		return;
	} else
		c->len += (size_t)n;
	conn_pump(c);
}

/*
 * Answer the request being handled later: the handler leaves its reply
 * empty, and the connection reads no further request until
 * control_answer() sends the reply.  Only inside a handler.
 */
struct control_call *
control_defer(struct control *ctl)
{
	struct control_call	*call;

	if (ctl->current == NULL || ctl->current->call != NULL)
		fatalx("control_defer: outside a request handler, or twice");
	call = xcalloc(1, sizeof(*call));
	call->conn = ctl->current;
	ctl->current->call = call;
	return call;
}

/* control_watch(): see control.h. */
void
control_watch(struct control_call *call, void (*gone)(void *), void *arg)
{
	call->gone = gone;
	call->arg = arg;
}

/*
 * Send the reply of a deferred request (dropped if its client has gone),
 * go on with the connection's next requests, and free the call.
 */
void
control_answer(struct control_call *call, cJSON *reply)
{
	struct conn	*c = call->conn;

	free(call);
	if (c == NULL || c->closing) {
		if (c != NULL)
			c->call = NULL;
		return;
	}
	c->call = NULL;
	conn_send(c, reply);
	if (!c->closing)
		conn_pump(c);
}

/* A client connected. */
static void
control_accept(uv_stream_t *server, int status)
{
	struct control	*ctl = server->data;
	struct conn	*c;

	if (status < 0) {
		log_warnx("control: accept: %s", uv_strerror(status));
		return;
	}
	c = xcalloc(1, sizeof(*c));
	c->ctl = ctl;
	uv_pipe_init(server->loop, &c->pipe, 0);
	c->pipe.data = c;
	if (uv_accept(server, (uv_stream_t *)&c->pipe) != 0) {
		uv_close((uv_handle_t *)&c->pipe, conn_closed);
		return;
	}
	c->next = ctl->conns;
	ctl->conns = c;
	if (ctl->nconns++ >= CONTROL_CONNS_MAX) {
		/* Told why, then closed once that is written. */
		log_warnx("control: more than %d clients; one refused",
		    CONTROL_CONNS_MAX);
		conn_error(c, "too many clients; try again later");
		c->eof = 1;
	}
	conn_pump(c);
}

/* Is a daemon answering on path? */
static int
control_live(const char *path)
{
	struct sockaddr_un	 sun;
	int			 fd, live;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return 0;
	live = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	close(fd);
	return live;
}

/* The listening handle is closed: free the control block. */
static void
control_closed(uv_handle_t *h)
{
	struct control	*ctl = h->data;

	free(ctl->path);
	free(ctl);
}

/* Open the control socket. */
struct control *
control_open(uv_loop_t *loop, const char *path, control_handler handler,
    void *arg, char *err, size_t errlen)
{
	struct control	*ctl;
	struct stat	 st;
	char		*dir;
	mode_t		 old;
	int		 rc;

	if (strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		snprintf(err, errlen, "socket path '%s' is too long", path);
		return NULL;
	}
	/* The socket's directory is its access control: it must be ours. */
	dir = paths_dirname(path);
	if (paths_mkdir(dir, 0700) == -1 || stat(dir, &st) == -1) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	if (st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
		snprintf(err, errlen, "%s: the socket's directory must belong "
		    "to this user with mode 0700 (it has %03o); give the socket "
		    "a directory of its own", dir, (unsigned)(st.st_mode & 0777));
		free(dir);
		return NULL;
	}
	free(dir);
	if (control_live(path)) {
		snprintf(err, errlen, "%s: another hpod is listening", path);
		return NULL;
	}
	unlink(path);
	ctl = xcalloc(1, sizeof(*ctl));
	ctl->path = xstrdup(path);
	ctl->handler = handler;
	ctl->arg = arg;
	uv_pipe_init(loop, &ctl->server, 0);
	ctl->server.data = ctl;
	old = umask(0077);
	rc = uv_pipe_bind(&ctl->server, path);
	umask(old);
	if (rc == 0)
		rc = uv_listen((uv_stream_t *)&ctl->server, 64,
		    control_accept);
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", path, uv_strerror(rc));
		uv_close((uv_handle_t *)&ctl->server, control_closed);
		return NULL;
	}
	return ctl;
}

/* Close the control socket and its connections. */
void
control_close(struct control *ctl)
{
	if (ctl == NULL)
		return;
	while (ctl->conns != NULL)
		conn_close(ctl->conns);
	unlink(ctl->path);
	uv_close((uv_handle_t *)&ctl->server, control_closed);
}
