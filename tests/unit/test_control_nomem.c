/*
 * test_control_nomem.c: memory running out while hpod's control socket
 * reads a request or builds its reply (control.c, and the replies its
 * handlers fill with cJSON as hpod_request.c and slowreq.c do) is that
 * request's error, {"ok":false,"error":"out of memory"}, never an abort
 * of the daemon, nor a reply with members missing, nor a wrong error.
 *
 * A real control socket on a libuv loop; a client thread (which makes
 * no cJSON allocation) sends one request, half-closes and reads until
 * the connection closes.  The Nth cJSON allocation of the request's
 * handling on the loop fails (HPOD_TEST_FAIL_ALLOC=control:N,
 * report_alloc.h, hpod's hooks), for every N until a run fails none:
 * each reply must be the whole reply or the error, and the socket must
 * answer the next request.  Requests: an answer on the spot ("ping"),
 * an error, a deferred answer ("slow": control_defer, control_answer),
 * requests control.c refuses itself (not JSON, a NUL); and ASan's leak
 * check at exit.  The daemon's own requests (a submit) are swept on a
 * real hpod by tests/t/control_oom.sh.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <uv.h>

#include "control.h"
#include "report_alloc.h"
#include "tap.h"

static void	answer(uv_timer_t *);

struct fixture {
	uv_loop_t		 loop;
	uv_async_t		 wake;
	uv_timer_t		 later;
	struct control		*ctl;
	struct control_call	*call;
	char			 path[96];
	const char		*line;
	char			 got[4096];
	atomic_int		 done;
};

/* The handler: what hpod's requests do with their replies. */
static void
handle(void *arg, const cJSON *req, cJSON *reply)
{
	struct fixture	*f = arg;
	const char	*cmd = cJSON_GetObjectItem(req, "cmd")->valuestring;

	if (strcmp(cmd, "ping") == 0) {
		cJSON_AddTrueToObject(reply, "ok");
		cJSON_AddStringToObject(reply, "output", "pong\n");
	} else if (strcmp(cmd, "slow") == 0) {
		f->call = control_defer(f->ctl);
		uv_timer_start(&f->later, answer, 0, 0);
	} else {
		cJSON_AddFalseToObject(reply, "ok");
		cJSON_AddStringToObject(reply, "error", "no such request");
	}
}


/*
 * The deferred reply of "slow", built as slowreq.c builds it; its
 * allocations are counted afresh ("control:N").
 */
static void
answer(uv_timer_t *t)
{
	struct fixture	*f = t->data;
	cJSON		*reply;

	report_alloc_arm_control();
	reply = control_reply_new(1, "later\n");
	control_answer(f->call, reply);
	cJSON_Delete(reply);
	report_alloc_done();
	f->call = NULL;
}

/* The client: send the line, half-close, read to the end. */
static void *
client(void *arg)
{
	struct fixture		*f = arg;
	struct sockaddr_un	 sun;
	size_t			 n = 0;
	ssize_t			 r;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", f->path);
	f->got[0] = '\0';
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) != -1 &&
	    connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0 &&
	    write(fd, f->line, strlen(f->line)) == (ssize_t)strlen(f->line)) {
		shutdown(fd, SHUT_WR);
		while (n < sizeof(f->got) - 1 &&
		    (r = read(fd, f->got + n, sizeof(f->got) - 1 - n)) > 0)
			n += (size_t)r;
		f->got[n] = '\0';
	}
	if (fd != -1)
		close(fd);
	atomic_store(&f->done, 1);
	uv_async_send(&f->wake);
	return NULL;
}

static void
woken(uv_async_t *a)
{
}

/*
 * One request with the Nth cJSON allocation of its handling on the loop
 * failing (0: none); 1 if one failed.
 */
static int
ask(struct fixture *f, const char *line, long n)
{
	pthread_t	 th;
	unsigned long	 failed = report_alloc_failures();
	char		 v[64];

	f->line = line;
	atomic_store(&f->done, 0);
	snprintf(v, sizeof(v), "control:%ld", n);
	if (n > 0)
		setenv("HPOD_TEST_FAIL_ALLOC", v, 1);
	pthread_create(&th, NULL, client, f);
	while (!atomic_load(&f->done))
		uv_run(&f->loop, UV_RUN_ONCE);
	pthread_join(th, NULL);
	unsetenv("HPOD_TEST_FAIL_ALLOC");
	return report_alloc_failures() != failed;
}

/*
 * Every N for request line: the whole reply want, or the error; then
 * the socket answers a ping.
 */
static void
sweep(struct fixture *f, const char *name, const char *line,
    const char *want)
{
	const char	*nomem = "{\"ok\":false,\"error\":\"out of memory\"}\n";
	long		 n;
	int		 bad = 0, errors = 0;

	for (n = 1; n < 1000; n++) {
		if (!ask(f, line, n))
			break;
		if (strcmp(f->got, want) != 0 && strcmp(f->got, nomem) != 0) {
			if (bad++ == 0)
				printf("# %s, allocation %ld failed: got "
				    "'%s'\n", name, n, f->got);
		} else
			errors += strcmp(f->got, nomem) == 0;
		ask(f, "{\"cmd\":\"ping\"}\n", 0);
		if (strcmp(f->got, "{\"ok\":true,\"output\":\"pong\\n\"}\n") !=
		    0 && bad++ == 0)
			printf("# %s: the ping after allocation %ld failed: "
			    "'%s'\n", name, n, f->got);
	}
	ok(n > 1 && n < 1000 && bad == 0, "%s: each of its %ld allocations "
	    "failed gives the whole reply or the out-of-memory error "
	    "(%d times), and the socket answers on", name, n - 1, errors);
	ask(f, line, 0);
	is_str(f->got, want, name);
}

int
main(void)
{
	struct fixture	 f;
	char		 dir[] = "/tmp/hpod-control.XXXXXX", err[512];

	report_alloc_init();
	memset(&f, 0, sizeof(f));
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(f.path, sizeof(f.path), "%s/s/hpod.sock", dir);
	uv_loop_init(&f.loop);
	uv_async_init(&f.loop, &f.wake, woken);
	uv_timer_init(&f.loop, &f.later);
	f.later.data = &f;
	f.ctl = control_open(&f.loop, f.path, handle, &f, err, sizeof(err));
	if (!ok(f.ctl != NULL, "control_open: %s", f.ctl ? "ok" : err))
		return 1;

	sweep(&f, "ping", "{\"cmd\":\"ping\"}\n",
	    "{\"ok\":true,\"output\":\"pong\\n\"}\n");
	sweep(&f, "an error reply", "{\"cmd\":\"nosuch\"}\n",
	    "{\"ok\":false,\"error\":\"no such request\"}\n");
	sweep(&f, "a deferred reply", "{\"cmd\":\"slow\"}\n",
	    "{\"ok\":true,\"output\":\"later\\n\"}\n");
	sweep(&f, "not JSON", "nope\n",
	    "{\"ok\":false,\"error\":\"request is not a JSON object\"}\n");
	sweep(&f, "a NUL", "{\"cmd\":\"a\\u0000\"}\n",
	    "{\"ok\":false,\"error\":\"request: a NUL character is not "
	    "allowed\"}\n");

	control_close(f.ctl);
	uv_close((uv_handle_t *)&f.wake, NULL);
	uv_close((uv_handle_t *)&f.later, NULL);
	uv_run(&f.loop, UV_RUN_DEFAULT);
	ok(uv_loop_close(&f.loop) == 0, "every handle closed");
	snprintf(err, sizeof(err), "%s/s", dir);
	rmdir(err);
	rmdir(dir);
	return tap_done();
}
