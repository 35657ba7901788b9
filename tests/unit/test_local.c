/*
 * test_local.c: the local backend on a real libuv loop with the real
 * hpo-trial ($HPOD_BUILD/hpo-trial): jobs run, fail, time out, are
 * cancelled, queue for CPUs, and are adopted again after a "restart".
 */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "result.h"
#include "sched.h"
#include "tap.h"

extern char **environ;

struct ctx {
	uv_loop_t	*loop;
	char		 base[256];
	char		 trial[PATH_MAX];
	char		 host[256];
	int		 seq;		/* events seen so far */
	int		 in_call;	/* inside a sched_* call */
	int		 sync_events;	/* events delivered inside one */
};

struct tjob {
	struct ctx	*c;
	char		 token[64];
	char		 dir[320];
	int		 nsubmitted, nstarted, nend;
	int		 seq_started, seq_end;
	char		 job_id[32];
	char		 host[256];
	int		 nodes, gpus, cpus;
	enum sched_state state;
	int		 exit_code, signal;
	double		 start, end;
	char		 reason[512];
	struct sched_job job;
};

/* Return the monotonic time in seconds. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Record an event in the tjob it belongs to. */
static void
on_event(void *arg, const struct sched_event *ev)
{
	struct tjob *t = arg;
	struct ctx *c = t->c;

	if (c->in_call)
		c->sync_events++;
	c->seq++;
	uv_stop(c->loop);
	switch (ev->type) {
	case SCHED_EV_SUBMITTED:
		t->nsubmitted++;
		if (ev->job_id != NULL)
			snprintf(t->job_id, sizeof(t->job_id), "unexpected");
		break;
	case SCHED_EV_STARTED:
		t->nstarted++;
		t->seq_started = c->seq;
		snprintf(t->job_id, sizeof(t->job_id), "%s",
		    ev->job_id ? ev->job_id : "");
		snprintf(t->host, sizeof(t->host), "%s",
		    ev->host ? ev->host : "");
		t->nodes = ev->nodes;
		t->gpus = ev->gpus;
		t->cpus = ev->cpus;
		break;
	case SCHED_EV_END:
	case SCHED_EV_SUBMIT_FAILED:
		t->nend++;
		t->seq_end = c->seq;
		t->state = ev->type == SCHED_EV_END ? ev->state : SCHED_LOST;
		t->exit_code = ev->exit_code;
		t->signal = ev->signal;
		t->start = ev->start;
		t->end = ev->end;
		snprintf(t->reason, sizeof(t->reason), "%s",
		    ev->reason ? ev->reason : "");
		if (ev->job_id != NULL && t->job_id[0] == '\0')
			snprintf(t->job_id, sizeof(t->job_id), "%s",
			    ev->job_id);
		break;
	case SCHED_EV_OUTPUT:	/* the local backend sends none */
	case SCHED_EV_SUSPENDED:
	case SCHED_EV_PENDING:
		break;
	}
	if (strcmp(ev->token, t->token) != 0)
		snprintf(t->reason, sizeof(t->reason), "wrong token '%s'",
		    ev->token);
}

/* Set the flag a guard timer points at, and stop the loop. */
static void
on_guard(uv_timer_t *h)
{
	*(int *)h->data = 1;
	uv_stop(h->loop);
}

/*
 * Run the loop until *count reaches want or secs pass; 1 if it did.
 * Every event stops the loop, so that the count is looked at in time.
 */
static int
run_until(struct ctx *c, const int *count, int want, double secs)
{
	uv_timer_t guard;
	int expired = 0;

	uv_timer_init(c->loop, &guard);
	guard.data = &expired;
	uv_timer_start(&guard, on_guard, (uint64_t)(secs * 1000), 0);
	while (*count < want && !expired)
		uv_run(c->loop, UV_RUN_DEFAULT);
	uv_close((uv_handle_t *)&guard, NULL);
	uv_run(c->loop, UV_RUN_NOWAIT);
	return *count >= want;
}

/* Run the loop for secs seconds. */
static void
run_for(struct ctx *c, double secs)
{
	int never = 0;

	run_until(c, &never, 1, secs);
}

/* Read up to size-1 bytes of dir/name into buf; "" if missing. */
static char *
slurp(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];
	size_t n = 0;
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "r")) != NULL) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* Run the loop until dir/name contains needle, for at most secs. */
static int
wait_file(struct ctx *c, const char *dir, const char *name,
    const char *needle, double secs)
{
	char buf[4096];
	double until = now() + secs;

	while (now() < until) {
		if (strstr(slurp(dir, name, buf, sizeof(buf)), needle) != NULL)
			return 1;
		run_for(c, 0.05);
	}
	return 0;
}

/* Prepare t as a job named name running argv, in a fresh directory. */
static void
tjob_init(struct ctx *c, struct tjob *t, const char *name,
    const char *const *argv, const char *const *env)
{
	memset(t, 0, sizeof(*t));
	t->c = c;
	t->exit_code = -2;
	snprintf(t->token, sizeof(t->token), "tok-%s", name);
	snprintf(t->dir, sizeof(t->dir), "%s/%s", c->base, name);
	if (mkdir(t->dir, 0755) == -1)
		perror(t->dir);
	t->job.token = t->token;
	t->job.name = name;
	t->job.dir = t->dir;
	t->job.argv = argv;
	t->job.env = env;
	t->job.nodes = 1;
	t->job.tasks_per_node = 1;
	t->job.cpus_per_task = 1;
	t->job.cb = on_event;
	t->job.arg = t;
}

/* Submit t, noting events delivered during the call. */
static int
submit(struct sched *s, struct tjob *t)
{
	int rc;

	t->c->in_call = 1;
	rc = sched_submit(s, &t->job);
	t->c->in_call = 0;
	return rc;
}

/* Cancel t, noting events delivered during the call. */
static int
cancel(struct sched *s, struct tjob *t)
{
	int rc;

	t->c->in_call = 1;
	rc = sched_cancel(s, t->token);
	t->c->in_call = 0;
	return rc;
}

/* Adopt t from its directory, noting events delivered during the call. */
static int
adopt(struct sched *s, struct tjob *t, const char *job_id)
{
	int rc;

	t->c->in_call = 1;
	rc = sched_adopt(s, t->token, job_id, t->dir, on_event, t);
	t->c->in_call = 0;
	return rc;
}

/* Start hpo-trial for t outside the backend, in its own session. */
static pid_t
spawn_outside(struct ctx *c, struct tjob *t, const char *seconds)
{
	posix_spawnattr_t attr;
	pid_t pid;
	char *argv[] = { c->trial, "-d", t->dir, "-t", t->token, "--",
	    "/bin/sleep", (char *)seconds, NULL };

	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
	if (posix_spawn(&pid, c->trial, NULL, &attr, argv, environ) != 0)
		pid = -1;
	posix_spawnattr_destroy(&attr);
	return pid;
}

/*
 * Start hpo-trial for t as a daemon killed right after the spawn leaves
 * it: alive, but its result.json not written yet (a shell that waits
 * `delay` seconds, then becomes the wrapper, same pid and arguments).
 */
static pid_t
spawn_slow(struct ctx *c, struct tjob *t, const char *delay)
{
	posix_spawnattr_t attr;
	pid_t pid;
	char script[64];
	char *argv[] = { "/bin/sh", "-c", script, c->trial, "-d", t->dir,
	    "-t", t->token, "--", "/bin/sleep", "1", NULL };

	snprintf(script, sizeof(script), "sleep %s; exec \"$0\" \"$@\"",
	    delay);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
	if (posix_spawn(&pid, "/bin/sh", NULL, &attr, argv, environ) != 0)
		pid = -1;
	posix_spawnattr_destroy(&attr);
	return pid;
}

/* Wait until t's result.json says running; 1 if it did in time. */
static int
wait_running(const struct tjob *t)
{
	struct trial_result r;
	char err[PATH_MAX + 128];
	int i;

	for (i = 0; i < 500; i++) {
		if (result_read(t->dir, &r, err, sizeof(err)) == 0 &&
		    r.running)
			return 1;
		usleep(10000);
	}
	return 0;
}

/* Remove one entry of the scratch tree. */
static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

/* Count a finished close. */
static void
on_closed(void *arg)
{
	(*(int *)arg)++;
}

/* A job that succeeds, one that fails, and what they leave behind. */
static void
test_basic(struct ctx *c, struct sched *s)
{
	static const char *const hi[] = { "/bin/sh", "-c", "echo hi; exit 0",
	    NULL };
	static const char *const three[] = { "/bin/sh", "-c", "exit 3", NULL };
	struct tjob a, b;
	struct trial_result r;
	char buf[256], err[PATH_MAX + 128];

	tjob_init(c, &a, "hi", hi, NULL);
	a.job.gpus_per_node = 2;
	a.job.time_limit = 60;
	is_int(submit(s, &a), 0, "submit echo hi");
	is_int(a.nsubmitted + a.nstarted + a.nend, 0,
	    "  no event from inside submit");
	is_int(sched_active(s), 1, "  active 1");
	is_int(submit(s, &a), -1, "  the same token twice is refused");
	ok(run_until(c, &a.nend, 1, 10), "  ends");
	is_int(a.nsubmitted, 1, "  SUBMITTED once");
	is_int(a.nstarted, 1, "  STARTED once");
	is_str(sched_state_name(a.state), "completed", "  completed");
	is_int(a.exit_code, 0, "  exit code 0");
	ok(a.start > 0 && a.end >= a.start, "  start and end from the job");
	ok(a.job_id[0] != '\0' && strspn(a.job_id, "0123456789") ==
	    strlen(a.job_id), "  job id is a pid");
	is_str(a.host, c->host, "  host");
	is_int(a.nodes, 1, "  1 node");
	is_int(a.gpus, 2, "  gpus as requested");
	is_int(a.cpus, 1, "  1 cpu");
	is_str(slurp(a.dir, "stdout", buf, sizeof(buf)), "hi\n",
	    "  stdout file");
	is_int(result_read(a.dir, &r, err, sizeof(err)), 0, "  result.json");
	is_int(r.running, 0, "  result: exited");
	is_int(r.exit_code, 0, "  result: exit_code 0");
	is_str(r.token, a.token, "  result: token");
	is_int(sched_active(s), 0, "  active 0 after END");

	tjob_init(c, &b, "three", three, NULL);
	is_int(submit(s, &b), 0, "submit exit 3");
	ok(run_until(c, &b.nend, 1, 10), "  ends");
	is_str(sched_state_name(b.state), "failed", "  failed");
	is_int(b.exit_code, 3, "  exit code 3");
	is_str(b.reason, "exit 3", "  reason");
}

/* Environment and argv reach the program exactly. */
static void
test_argv_env(struct ctx *c, struct sched *s)
{
	static const char *const env[] = { "HPO_LR=0.01", "HOME=/nowhere",
	    NULL };
	static const char *const show[] = { "/bin/sh", "-c",
	    "echo \"$HPO_LR $HOME\"", NULL };
	static const char *const args[] = { "/bin/sh", "-c",
	    "printf '[%s]\\n' \"$@\"", "sh", "a b", "it's \"quoted\"",
	    "x; rm -rf /nonexistent", "$(echo no)", "", NULL };
	static const char *const missing[] = { "/nonexistent/prog", NULL };
	struct tjob a, b, m, o;
	char buf[PATH_MAX];

	tjob_init(c, &a, "env", show, env);
	is_int(submit(s, &a), 0, "submit env job");
	ok(run_until(c, &a.nend, 1, 10), "  ends");
	is_str(slurp(a.dir, "stdout", buf, sizeof(buf)), "0.01 /nowhere\n",
	    "  job env reaches it and overrides ours");

	tjob_init(c, &b, "argv", args, NULL);
	is_int(submit(s, &b), 0, "submit argv job");
	ok(run_until(c, &b.nend, 1, 10), "  ends");
	is_str(slurp(b.dir, "stdout", buf, sizeof(buf)),
	    "[a b]\n[it's \"quoted\"]\n[x; rm -rf /nonexistent]\n"
	    "[$(echo no)]\n[]\n", "  argv arrives verbatim");

	tjob_init(c, &o, "noout", missing, NULL);
	snprintf(buf, sizeof(buf), "%s/stdout", o.dir);
	mkdir(buf, 0755);
	is_int(submit(s, &o), 0, "submit a job whose stdout cannot be opened");
	ok(run_until(c, &o.nend, 1, 10), "  ends");
	is_int(o.nstarted, 0, "  never started");
	is_str(sched_state_name(o.state), "lost", "  lost");
	like(o.reason, "cannot open", "  reason");

	tjob_init(c, &m, "missing", missing, NULL);
	is_int(submit(s, &m), 0, "submit a missing program");
	ok(run_until(c, &m.nend, 1, 10), "  ends");
	is_str(sched_state_name(m.state), "failed", "  failed");
	is_int(m.exit_code, 127, "  exit code 127");
	like(slurp(m.dir, "stderr", buf, sizeof(buf)),
	    "hpo-trial: cannot run '/nonexistent/prog': No such file or "
	    "directory", "  stderr says why");
}

/* Cancellation, the time limit and signal forwarding. */
static void
test_stop(struct ctx *c, struct sched *s)
{
	static const char *const sleep30[] = { "/bin/sleep", "30", NULL };
	static const char *const trap[] = { "/bin/sh", "-c",
	    "trap 'echo got; exit 5' USR1; echo ready; "
	    "while :; do sleep 0.1; done", NULL };
	struct tjob a, b, d;
	double t0;

	tjob_init(c, &a, "cancel", sleep30, NULL);
	is_int(submit(s, &a), 0, "submit sleep 30");
	ok(run_until(c, &a.nstarted, 1, 10), "  started");
	t0 = now();
	is_int(cancel(s, &a), 0, "  cancel");
	is_int(cancel(s, &a), 0, "  cancel again is harmless");
	ok(run_until(c, &a.nend, 1, 10), "  ends");
	ok(now() - t0 < 3, "  quickly (%.2f s)", now() - t0);
	is_str(sched_state_name(a.state), "cancelled", "  cancelled");
	is_int(a.signal, SIGTERM, "  by SIGTERM");

	tjob_init(c, &b, "limit", sleep30, NULL);
	b.job.time_limit = 1;
	t0 = now();
	is_int(submit(s, &b), 0, "submit sleep 30 with a 1 s limit");
	ok(run_until(c, &b.nend, 1, 10), "  ends");
	ok(now() - t0 < 4, "  in time (%.2f s)", now() - t0);
	is_str(sched_state_name(b.state), "timeout", "  timeout");

	tjob_init(c, &d, "usr1", trap, NULL);
	is_int(submit(s, &d), 0, "submit a job that traps SIGUSR1");
	ok(run_until(c, &d.nstarted, 1, 10), "  started");
	ok(wait_file(c, d.dir, "stdout", "ready", 10), "  ready");
	kill((pid_t)atol(d.job_id), SIGUSR1);
	ok(run_until(c, &d.nend, 1, 10), "  ends");
	is_int(d.exit_code, 5, "  the workload got SIGUSR1 from hpo-trial");
}

/* With one CPU, jobs queue first come, first served. */
static void
test_queue(struct ctx *c, struct sched *s1)
{
	static const char *const nap[] = { "/bin/sleep", "0.3", NULL };
	struct tjob a, b, q, big;

	tjob_init(c, &a, "first", nap, NULL);
	tjob_init(c, &b, "second", nap, NULL);
	tjob_init(c, &q, "queued", nap, NULL);
	tjob_init(c, &big, "big", nap, NULL);
	big.job.cpus_per_task = 2;
	is_int(submit(s1, &big), -1, "a job needing 2 of 1 CPUs is refused");
	big.job.cpus_per_task = 1;
	big.job.nodes = 2;
	is_int(submit(s1, &big), -1, "  also as 2 nodes of 1 CPU");
	is_int(submit(s1, &a), 0, "submit first");
	is_int(submit(s1, &b), 0, "submit second");
	is_int(submit(s1, &q), 0, "submit third");
	is_int(cancel(s1, &q), 0, "cancel the third while queued");
	is_int(sched_active(s1), 3, "  active 3 until END is delivered");
	ok(run_until(c, &b.nend, 1, 10), "  second ends");
	is_int(a.state, SCHED_COMPLETED, "  first completed");
	is_int(b.state, SCHED_COMPLETED, "  second completed");
	ok(b.seq_started > a.seq_end, "  second started after first ended");
	is_int(q.nend, 1, "  third ended");
	is_int(q.nstarted, 0, "  without starting");
	is_str(sched_state_name(q.state), "cancelled", "  cancelled");
	is_int(sched_active(s1), 0, "  active 0");
}

/* Adoption of finished, missing, foreign, vanished and running jobs. */
static void
test_adopt(struct ctx *c, struct sched *s)
{
	struct tjob done, none, far, gone, run, stop, slow;
	struct trial_result r;
	pid_t pid, pid2;
	double t0;
	int st = -1, st2 = -1;

	tjob_init(c, &done, "adopt-done", NULL, NULL);
	memset(&r, 0, sizeof(r));
	snprintf(r.token, sizeof(r.token), "%s", done.token);
	snprintf(r.host, sizeof(r.host), "%s", c->host);
	r.pid = 1;
	r.start = 1000;
	r.end = 1010;
	result_write(done.dir, &r);
	is_int(adopt(s, &done, "4242"), 0, "adopt a finished job");
	is_int(done.nend, 0, "  no event from inside adopt");
	ok(run_until(c, &done.nend, 1, 5), "  ends");
	is_str(sched_state_name(done.state), "completed", "  completed");
	is_near(done.end - done.start, 10, 1e-9, "  times from result.json");
	is_str(done.job_id, "4242", "  job id as given");

	tjob_init(c, &none, "adopt-none", NULL, NULL);
	is_int(adopt(s, &none, "1"), 0, "adopt a job without result.json");
	ok(run_until(c, &none.nend, 1, 5), "  ends");
	is_str(sched_state_name(none.state), "lost", "  lost");
	like(none.reason, "result.json", "  reason");

	tjob_init(c, &far, "adopt-far", NULL, NULL);
	snprintf(r.token, sizeof(r.token), "%s", far.token);
	snprintf(r.host, sizeof(r.host), "elsewhere.invalid");
	r.running = 1;
	r.pid = (long)getpid();
	result_write(far.dir, &r);
	is_int(adopt(s, &far, "1"), 0, "adopt a job of another host");
	ok(run_until(c, &far.nend, 1, 5), "  ends");
	is_str(sched_state_name(far.state), "lost", "  lost");

	tjob_init(c, &gone, "adopt-gone", NULL, NULL);
	if ((pid = fork()) == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	snprintf(r.token, sizeof(r.token), "%s", gone.token);
	snprintf(r.host, sizeof(r.host), "%s", c->host);
	r.pid = (long)pid;
	result_write(gone.dir, &r);
	is_int(adopt(s, &gone, "1"), 0, "adopt a job whose pid is gone");
	ok(run_until(c, &gone.nend, 1, 5), "  ends");
	is_str(sched_state_name(gone.state), "lost", "  lost");
	is_str(gone.reason, "job vanished", "  vanished");

	tjob_init(c, &run, "adopt-run", NULL, NULL);
	tjob_init(c, &stop, "adopt-stop", NULL, NULL);
	pid = spawn_outside(c, &run, "2");
	pid2 = spawn_outside(c, &stop, "30");
	ok(pid > 0 && wait_running(&run), "a job started outside runs");
	ok(pid2 > 0 && wait_running(&stop), "another one runs");
	t0 = now();
	is_int(adopt(s, &run, "x"), 0, "adopt the first");
	is_int(adopt(s, &stop, "y"), 0, "adopt the second");
	is_int(adopt(s, &stop, "y"), -1, "  adopting it twice is refused");
	is_int(sched_active(s), 2, "  active 2");
	is_int(cancel(s, &stop), 0, "cancel the second");
	ok(run_until(c, &stop.nend, 1, 10), "  ends");
	is_str(sched_state_name(stop.state), "cancelled", "  cancelled");
	ok(run_until(c, &run.nend, 1, 10), "the first ends");
	is_str(sched_state_name(run.state), "completed", "  completed");
	ok(now() - t0 > 1, "  after it finished (%.2f s)", now() - t0);
	if (pid > 0)
		waitpid(pid, &st, 0);
	if (pid2 > 0)
		waitpid(pid2, &st2, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "  hpo-trial exit 0");
	ok(WIFEXITED(st2) && WEXITSTATUS(st2) == 128 + SIGTERM,
	    "  the cancelled one exit 128+SIGTERM");

	/* Spawned, then the daemon died: no job id, no result.json yet. */
	tjob_init(c, &slow, "adopt-slow", NULL, NULL);
	pid = spawn_slow(c, &slow, "1.5");
	usleep(300000);		/* a restart takes longer than the spawn */
	is_int(adopt(s, &slow, NULL), 0, "adopt a wrapper yet to write "
	    "result.json");
	ok(run_until(c, &slow.nend, 1, 15), "  ends (%s)", slow.reason);
	is_str(sched_state_name(slow.state), "completed", "  completed, "
	    "not lost beside it");
	ok(slow.start > 0 && slow.end - slow.start > 0.9,
	    "  its times from result.json (%.2f s)", slow.end - slow.start);
	if (pid > 0)
		waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "  hpo-trial exit 0");
}

/*
 * A released job (sched_release: its engine dropped after a failed
 * commit) runs on, its events held, and a later adopt() of its token
 * gets them all, whether the job ended meanwhile or still runs.
 */
static void
test_release(struct ctx *c, struct sched *s)
{
	static const char *const sleep1[] = { "/bin/sleep", "1", NULL };
	static const char *const sleep30[] = { "/bin/sleep", "30", NULL };
	struct tjob a, a2, b, b2;

	tjob_init(c, &a, "released", sleep1, NULL);
	is_int(submit(s, &a), 0, "submit sleep 1");
	is_int(sched_release(s, a.token), 0, "  release it at once");
	run_for(c, 2.5);
	is_int(a.nsubmitted + a.nstarted + a.nend, 0,
	    "  its first owner gets no event");
	a2 = a;
	a2.nsubmitted = a2.nstarted = a2.nend = 0;
	is_int(adopt(s, &a2, NULL), 0, "  adopt it again");
	ok(run_until(c, &a2.nend, 1, 10), "  the new owner gets its end");
	is_int(a2.nsubmitted, 1, "  and its SUBMITTED");
	is_int(a2.nstarted, 1, "  and its STARTED");
	is_int((int)a2.state, SCHED_COMPLETED, "  completed");
	ok(a2.start > 0 && a2.end >= a2.start, "  its start and end");
	is_int(sched_active(s), 0, "  active 0 after END");

	tjob_init(c, &b, "released-running", sleep30, NULL);
	is_int(submit(s, &b), 0, "submit sleep 30");
	ok(run_until(c, &b.nstarted, 1, 10), "  started");
	is_int(sched_release(s, b.token), 0, "  release it");
	b2 = b;
	b2.nsubmitted = b2.nstarted = b2.nend = 0;
	is_int(adopt(s, &b2, NULL), 0, "  adopt it again while it runs");
	is_int(cancel(s, &b2), 0, "  cancel it");
	ok(run_until(c, &b2.nend, 1, 10), "  the new owner gets its end");
	is_int((int)b2.state, SCHED_CANCELLED, "  cancelled");
	is_int(b.nend, 0, "  the first owner got none");
}

/* hpo-trial refuses a bad command line with exit status 64. */
static void
test_usage(struct ctx *c)
{
	char *argv[] = { c->trial, "-d", c->base, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st = 0;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawn(&pid, c->trial, &fa, NULL, argv, environ) == 0)
		waitpid(pid, &st, 0);
	posix_spawn_file_actions_destroy(&fa);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 64, "hpo-trial usage: exit 64");
}

/* Run every test of the local backend, then close it cleanly. */
int
main(void)
{
	static const char *const sleep30[] = { "/bin/sleep", "30", NULL };
	struct ctx c;
	struct sched *s, *s1;
	struct tjob left;
	const char *build;
	char err[PATH_MAX + 128];
	int closed = 0;
	pid_t pid;

	memset(&c, 0, sizeof(c));
	if ((build = getenv("HPOD_BUILD")) == NULL || *build == '\0')
		build = "build";
	snprintf(c.trial, sizeof(c.trial), "%s/hpo-trial", build);
	snprintf(c.base, sizeof(c.base), "/tmp/hpod-test-local.XXXXXX");
	if (mkdtemp(c.base) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	gethostname(c.host, sizeof(c.host) - 1);
	c.loop = calloc(1, sizeof(*c.loop));
	uv_loop_init(c.loop);

	ok(sched_local_new(c.loop, "/nonexistent/hpo-trial", 4, err,
	    sizeof(err)) == NULL, "a missing wrapper is refused");
	like(err, "/nonexistent/hpo-trial", "  the message names it");
	ok(sched_local_new(c.loop, c.trial, 0, err, sizeof(err)) == NULL,
	    "0 CPUs are refused");
	s = sched_local_new(c.loop, c.trial, 4, err, sizeof(err));
	s1 = sched_local_new(c.loop, c.trial, 1, err, sizeof(err));
	if (!ok(s != NULL && s1 != NULL, "local backends with 4 and 1 CPUs")) {
		printf("# %s\n", err);
		return tap_done();
	}
	is_int(sched_cancel(s, "nobody"), -1, "cancel of an unknown token");

	test_basic(&c, s);
	test_argv_env(&c, s);
	test_stop(&c, s);
	test_queue(&c, s1);
	test_adopt(&c, s);
	test_release(&c, s);
	test_usage(&c);
	is_int(c.sync_events, 0, "no event was delivered inside a call");

	tjob_init(&c, &left, "left", sleep30, NULL);
	is_int(submit(s, &left), 0, "submit a job and leave it running");
	ok(run_until(&c, &left.nstarted, 1, 10), "  started");
	sched_close(s, on_closed, &closed);
	sched_close(s1, on_closed, &closed);
	uv_run(c.loop, UV_RUN_DEFAULT);
	is_int(closed, 2, "both backends closed");
	is_int(uv_loop_close(c.loop), 0, "uv_loop_close() == 0");
	free(c.loop);
	pid = (pid_t)atol(left.job_id);
	ok(pid > 0 && kill(pid, 0) == 0, "the job survives the close");
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}

	nftw(c.base, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
