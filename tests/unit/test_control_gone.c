/*
 * test_control_gone.c: the owner of a deferred reply is told when its
 * client leaves first (control_watch): a client that closes its
 * connection, or leaves a next request unfinished and closes, is seen
 * gone while the reply is still deferred; one that only shuts down its
 * writing side is not, and gets its reply.  A real control socket on a libuv loop; the client, a plain
 * socket of the test's, has written and closed (or half-closed) before
 * the loop runs.  ASan checks that nothing is written to, or left of, a
 * freed connection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <uv.h>

#include "control.h"
#include "tap.h"

struct fixture {
	uv_loop_t		 loop;
	uv_timer_t		 guard;
	struct control		*ctl;
	struct control_call	*call;
	char			 path[96];
	int			 deferred;	/* "slow" requests */
	int			 gone;		/* gone() runs */
	int			 stuck;		/* the guard fired */
};

/* The client of the deferred request left. */
static void
gone(void *arg)
{
	struct fixture	*f = arg;

	f->gone++;
	control_answer(f->call, NULL);
	f->call = NULL;
}

/* "slow" is deferred and watched; anything else is answered at once. */
static void
handle(void *arg, const cJSON *req, cJSON *reply)
{
	struct fixture	*f = arg;
	const char	*cmd = cJSON_GetObjectItem(req, "cmd")->valuestring;

	if (strcmp(cmd, "slow") == 0) {
		f->deferred++;
		f->call = control_defer(f->ctl);
		control_watch(f->call, gone, f);
	} else {
		cJSON_AddTrueToObject(reply, "ok");
		cJSON_AddStringToObject(reply, "output", "pong\n");
	}
}

static void
guarded(uv_timer_t *t)
{
	struct fixture	*f = t->data;

	f->stuck = 1;
}

/* Run the loop until *what is set, or (a hang) for 10 s at most. */
static void
run_until(struct fixture *f, int *what)
{
	f->stuck = 0;
	uv_timer_start(&f->guard, guarded, 10000, 0);
	while (!*what && !f->stuck)
		uv_run(&f->loop, UV_RUN_ONCE);
	uv_timer_stop(&f->guard);
}

/* A client that has sent text; how: 'c' closed, 'h' half-closed. */
static int
client(struct fixture *f, const char *text, int how)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", f->path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	if (how == 'h')
		shutdown(fd, SHUT_WR);
	else {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* A client sends text and closes: its deferred request's owner is told. */
static void
closed(struct fixture *f, const char *name, const char *text)
{
	f->gone = f->deferred = 0;
	client(f, text, 'c');
	run_until(f, &f->gone);
	ok(f->deferred == 1 && f->gone == 1 && f->call == NULL, "%s: the "
	    "owner of the deferred reply is told once that the client left",
	    name);
}

int
main(void)
{
	struct fixture	 f;
	char		 dir[] = "/tmp/hpod-control.XXXXXX", err[512];
	char		 got[256];
	size_t		 n = 0;
	ssize_t		 r;
	cJSON		*reply;
	int		 fd;

	memset(&f, 0, sizeof(f));
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(f.path, sizeof(f.path), "%s/s/hpod.sock", dir);
	uv_loop_init(&f.loop);
	uv_timer_init(&f.loop, &f.guard);
	f.guard.data = &f;
	f.ctl = control_open(&f.loop, f.path, handle, &f, err, sizeof(err));
	if (!ok(f.ctl != NULL, "control_open: %s", f.ctl ? "ok" : err))
		return 1;

	closed(&f, "closed", "{\"cmd\":\"slow\"}\n");
	closed(&f, "closed in a next request",
	    "{\"cmd\":\"slow\"}\n{\"cmd\":\"pi");

	/* Half-closed: not gone; its reply. */
	f.gone = f.deferred = 0;
	fd = client(&f, "{\"cmd\":\"slow\"}\n", 'h');
	run_until(&f, &f.deferred);
	/* Its EOF, in the socket before the loop ran, is read now. */
	for (n = 0; n < 3; n++)
		uv_run(&f.loop, UV_RUN_NOWAIT);
	ok(f.deferred == 1 && f.call != NULL && f.gone == 0,
	    "half-closed: the client is not gone");
	n = 0;
	reply = control_reply_new(1, "later\n");
	control_answer(f.call, reply);
	cJSON_Delete(reply);
	f.call = NULL;
	while (n < sizeof(got) - 1) {
		uv_run(&f.loop, UV_RUN_NOWAIT);
		if ((r = recv(fd, got + n, sizeof(got) - 1 - n,
		    MSG_DONTWAIT)) == 0)
			break;
		if (r > 0)
			n += (size_t)r;
	}
	got[n] = '\0';
	close(fd);
	is_str(got, "{\"ok\":true,\"output\":\"later\\n\"}\n",
	    "half-closed: the deferred reply");
	ok(f.gone == 0, "half-closed: never told gone");

	control_close(f.ctl);
	uv_close((uv_handle_t *)&f.guard, NULL);
	uv_run(&f.loop, UV_RUN_DEFAULT);
	ok(uv_loop_close(&f.loop) == 0, "every handle closed");
	snprintf(err, sizeof(err), "%s/s", dir);
	rmdir(err);
	rmdir(dir);
	return tap_done();
}
