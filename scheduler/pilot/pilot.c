/*
 * pilot.c: the pilot backend (sched.h): the engine's jobs wait in a queue
 * until an agent of a pilot allocation asks for one (pilot_net.c); the
 * pilots themselves are jobs of the inner backend, submitted while work
 * is queued, up to opts.count at once (pilot_run.c).  Here: the backend's
 * operations, its jobs' events and ends; taking jobs and pilots back is
 * pilot_adopt.c's.  A pilot that ends takes the jobs it was running with
 * it: each ends as its result.json says if that is final, else NODE_FAIL
 * (TIMEOUT if the pilot ran out of time), which the engine retries.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jobfile.h"
#include "pilot_int.h"
#include "result.h"

static const struct sched_ops pilot_ops;

double
pilot_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether s is a pilot backend (sched_pilot_*() apply to it). */
int
pilot_is(const struct sched *s)
{
	return s->ops == &pilot_ops;
}

/* A warning, through opts.warn or to stderr. */
void
pilot_warn(const struct psched *ps, const char *fmt, ...)
{
	char	 buf[1024];
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ps->opts.warn != NULL)
		ps->opts.warn("%s", buf);
	else
		fprintf(stderr, "hpod: %s\n", buf);
}

_Noreturn void
pilot_nomem(const char *what)
{
	fprintf(stderr, "hpod: pilot: out of memory %s\n", what);
	abort();
}

char *
pilot_strdup(const char *s)
{
	char	*c;

	if (s == NULL)
		return NULL;
	if ((c = strdup(s)) == NULL)
		pilot_nomem("copying a string");
	return c;
}

void
patt_free(struct patt *a)
{
	if (a == NULL)
		return;
	free(a->token);
	free(a->dir);
	free(a->job);
	free(a->job_id);
	free(a->at);
	free(a);
}

struct pjob *
pjob_new(struct psched *ps)
{
	struct pjob	*p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		pilot_nomem("making a pilot");
	p->ps = ps;
	p->nodes = ps->opts.job.nodes;
	p->cpus = ps->opts.job.cpus_per_task;
	p->gpus = ps->opts.job.gpus_per_node;
	if ((p->slots = pslots_new(p->nodes, p->cpus, p->gpus)) == NULL)
		pilot_nomem("making a pilot's slots");
	TAILQ_INIT(&p->jobs);
	return p;
}

void
pjob_free(struct pjob *p)
{
	if (p == NULL)
		return;
	free(p->token);
	free(p->dir);
	free(p->job_id);
	free(p->host);
	pslots_free(p->slots);
	free(p);
}

void
patt_unplace(struct pjob *p, struct patt *a)
{
	if (a->at != NULL)
		pslots_put(p->slots, a->nodes, a->cpus, a->gpus, a->at);
	free(a->at);
	a->at = NULL;
}

/*
 * Job a of pilot p runs on the nodes its agent says (k indices at[]):
 * counted there instead of where it was (a job taken back after a
 * restart: on the first nodes).  Nodes that cannot be its (not as many
 * as it holds, not ascending, beyond the pilot's) are warned about and
 * the count stays.
 */
void
patt_replace(struct pjob *p, struct patt *a, const int *at, int k)
{
	int	 i;

	for (i = 0; i < k && k == a->nodes; i++)
		if (at[i] < 0 || at[i] >= p->nodes || (i > 0 &&
		    at[i] <= at[i - 1]))
			break;
	if (k != a->nodes || i < k) {
		pilot_warn(p->ps, "pilot %s: its agent says job %s runs on "
		    "nodes that cannot be its %d of the pilot's %d; counted "
		    "where it was", p->job_id ? p->job_id : p->token, a->token,
		    a->nodes, p->nodes);
		return;
	}
	if (a->at != NULL && memcmp(a->at, at, (size_t)k * sizeof(*at)) == 0)
		return;
	patt_unplace(p, a);
	if ((a->at = calloc((size_t)k, sizeof(*a->at))) == NULL)
		pilot_nomem("placing a job taken back");
	memcpy(a->at, at, (size_t)k * sizeof(*at));
	pslots_hold(p->slots, k, a->cpus, a->gpus, a->at);
}

static void
pev_free(struct pev *e)
{
	free(e->token);
	free(e->job_id);
	free(e->host);
	free(e->reason);
	free(e);
}

/* Deliver the queued events, in order. */
static void
pilot_deliver(uv_timer_t *t)
{
	struct psched	*ps = t->data;
	struct pev	*e;

	while (!ps->closing && (e = TAILQ_FIRST(&ps->events)) != NULL) {
		TAILQ_REMOVE(&ps->events, e, entry);
		e->cb(e->arg, &e->ev);
		pev_free(e);
	}
}

/* Queue event ev of job a (its strings copied); an END forgets a. */
void
pilot_emit(struct psched *ps, struct patt *a, struct sched_event *ev)
{
	struct pev	*e;

	if ((e = calloc(1, sizeof(*e))) == NULL)
		pilot_nomem("queueing an event");
	e->ev = *ev;
	e->ev.token = e->token = pilot_strdup(a->token);
	e->ev.job_id = e->job_id = pilot_strdup(ev->job_id);
	e->ev.host = e->host = pilot_strdup(ev->host);
	e->ev.reason = e->reason = pilot_strdup(ev->reason);
	if (e->ev.time == 0)
		e->ev.time = pilot_now();
	e->cb = a->cb;
	e->arg = a->arg;
	TAILQ_INSERT_TAIL(&ps->events, e, entry);
	uv_timer_start(&ps->defer, pilot_deliver, 0, 0);
	if (ev->type == SCHED_EV_END || ev->type == SCHED_EV_SUBMIT_FAILED)
		ps->nactive--;
}

/*
 * The nodes of pilot p that its job a is charged while it runs: on each
 * of its nodes, its GPUs over the node's when both have GPUs (what a GPU
 * node's hours are for), else its CPUs over the node's; times its nodes.
 * Jobs run side by side only while they fit on each node, and a
 * campaign's jobs all ask for the same, so the shares of those running
 * never add up to more than the pilot's nodes; the rest is the pilot's
 * idle time.
 */
double
pilot_share(const struct pjob *p, const struct patt *a)
{
	if (p->gpus > 0 && a->gpus > 0)
		return (double)a->gpus / p->gpus * a->nodes;
	return p->cpus > 0 ? (double)a->cpus / p->cpus * a->nodes : a->nodes;
}

/* End job a (in pilot p, or queued when p is NULL) and forget it. */
void
patt_end(struct psched *ps, struct patt *a, struct sched_event *ev)
{
	struct pjob	*p = a->pilot;
	double		 el;

	if (p != NULL) {
		TAILQ_REMOVE(&p->jobs, a, entry);
		patt_unplace(p, a);
		if (a->started && a->t_started > 0 && (p->first_start == 0 ||
		    a->t_started < p->first_start))
			p->first_start = a->t_started;
		if (ev->end > p->last_end)
			p->last_end = ev->end;
		/* Its share, should its start not have been told. */
		ev->node_share = pilot_share(p, a);
		/* Its pilot suspended at its end (killed so): to its end. */
		if (a->suspended_at > 0 && ev->end > a->suspended_at)
			a->suspended += ev->end - a->suspended_at;
		ev->suspended = a->suspended;
		if (a->started && a->t_started > 0 &&
		    ev->end - a->suspended > a->t_started) {
			el = ev->end - a->t_started - a->suspended;
			p->busy_node_s += el * pilot_share(p, a);
			p->busy_gpu_s += el * a->gpus * a->nodes;
		}
	} else
		TAILQ_REMOVE(&ps->queue, a, entry);
	ev->type = SCHED_EV_END;
	ev->job_id = a->job_id;
	pilot_emit(ps, a, ev);
	patt_free(a);
}

/*
 * End job a of a pilot from its result.json when that is final; else as
 * its pilot's end says (st), or -1: not yet.
 */
int
patt_end_result(struct psched *ps, struct patt *a, int st, const char *why)
{
	struct trial_result	 r;
	struct sched_event	 ev;
	char			 err[512];
	int			 final;

	memset(&ev, 0, sizeof(ev));
	ev.exit_code = -1;
	final = result_read(a->dir, &r, err, sizeof(err)) == 0 &&
	    !r.running && strcmp(r.token, a->token) == 0;
	if (!final && st == -1)
		return -1;
	if (final) {
		ev.state = a->cancelled ? SCHED_CANCELLED : r.timed_out ?
		    SCHED_TIMEOUT : r.exit_code == 0 && r.signal == 0 ?
		    SCHED_COMPLETED : SCHED_FAILED;
		ev.exit_code = r.exit_code;
		ev.signal = r.signal;
		ev.start = r.start;
		ev.end = r.end;
		ev.host = r.host;
		if (!a->started) {
			a->started = 1;
			a->t_started = r.start;
		}
	} else {
		ev.start = a->t_started;
		ev.end = pilot_now();
	}
	/* Stopped with its pilot, or never finished: its pilot's end. */
	if (!final || (a->dying && st != -1)) {
		ev.state = (enum sched_state)st;
		ev.reason = why;
	}
	patt_end(ps, a, &ev);
	return 0;
}

struct pjob *
pilot_find(struct psched *ps, const char *token)
{
	struct pjob	*p;

	TAILQ_FOREACH(p, &ps->pilots, entry)
		if (strcmp(p->token, token) == 0)
			return p;
	return NULL;
}

struct patt *
pilot_job_find(struct pjob *p, const char *token)
{
	struct patt	*a;

	TAILQ_FOREACH(a, &p->jobs, entry)
		if (strcmp(a->token, token) == 0)
			return a;
	return NULL;
}

int
pilot_live_count(const struct psched *ps)
{
	const struct pjob	*p;
	int			 n = 0;

	TAILQ_FOREACH(p, &ps->pilots, entry)
		n += p->state != PJ_ENDED;
	return n;
}

/* Take a job: queue it for the pilots. */
static int
pilot_submit(struct sched *s, const struct sched_job *job)
{
	struct psched	*ps = (struct psched *)s;
	struct jobfile	 jf;
	struct patt	*a;
	int		 cpus = job->cpus_per_task * job->tasks_per_node;
	const char	*prog;

	if (ps->closing || job->nodes < 1 || job->nodes > ps->opts.job.nodes ||
	    cpus > ps->opts.job.cpus_per_task ||
	    job->gpus_per_node > ps->opts.job.gpus_per_node)
		return -1;
	if ((a = calloc(1, sizeof(*a))) == NULL)
		return -1;
	memset(&jf, 0, sizeof(jf));
	jf.token = (char *)job->token;
	jf.dir = (char *)job->dir;
	jf.argv = (char **)job->argv;
	jf.env = (char **)job->env;
	jf.limit = job->time_limit;
	jf.nodes = job->nodes;
	jf.gpus = job->gpus_per_node * job->nodes;
	jf.cpus = cpus * job->nodes;
	a->token = pilot_strdup(job->token);
	a->dir = pilot_strdup(job->dir);
	if ((a->job = jobfile_render(&jf)) == NULL) {
		patt_free(a);
		return -1;
	}
	a->nodes = job->nodes;
	a->gpus = job->gpus_per_node;
	a->cpus = cpus;
	prog = job->argv[0] != NULL ? strrchr(job->argv[0], '/') : NULL;
	prog = prog != NULL ? prog + 1 : job->argv[0];
	a->srun = prog != NULL && strcmp(prog, "srun") == 0;
	a->limit = job->time_limit;
	a->cb = job->cb;
	a->arg = job->arg;
	a->submitted = pilot_now();
	TAILQ_INSERT_TAIL(&ps->queue, a, entry);
	ps->nactive++;
	pilot_grow(ps);
	pilot_dispatch(ps);
	return 0;
}

/* Cancel a job: a queued one ends at once, a running one by its agent. */
static int
pilot_cancel(struct sched *s, const char *token)
{
	struct psched		*ps = (struct psched *)s;
	struct sched_event	 ev;
	struct patt		*a;
	struct pjob		*p;

	TAILQ_FOREACH(a, &ps->queue, entry)
		if (strcmp(a->token, token) == 0) {
			memset(&ev, 0, sizeof(ev));
			ev.state = SCHED_CANCELLED;
			ev.exit_code = -1;
			ev.reason = "cancelled before a pilot took it";
			patt_end(ps, a, &ev);
			return 0;
		}
	TAILQ_FOREACH(p, &ps->pilots, entry)
		if ((a = pilot_job_find(p, token)) != NULL) {
			a->cancelled = 1;
			/* Its agent away: its hello is answered with it. */
			if (p->conn != NULL)
				pilot_send_cancel(p, a);
			return 0;
		}
	return -1;
}

/* Tell job a's agent (pilot p's, connected) to cancel it. */
void
pilot_send_cancel(struct pjob *p, struct patt *a)
{
	struct pilot_msg	 m;

	memset(&m, 0, sizeof(m));
	m.op = PILOT_CANCEL;
	m.token = a->token;
	pilot_send(p->conn, &m);
}

static int
pilot_active(const struct sched *s)
{
	return ((const struct psched *)s)->nactive;
}

static void
pilot_free(struct psched *ps)
{
	free(ps->dir);
	free(ps->file);
	free(ps->wrapper);
	free(ps->name);
	free(ps);
}

/* A handle of ps is closed; after the last, ps goes and done runs. */
void
pilot_release(struct psched *ps)
{
	void		(*done)(void *) = ps->done;
	void		*arg = ps->done_arg;

	if (--ps->nopen > 0)
		return;
	pilot_free(ps);
	if (done != NULL)
		done(arg);
}

static void
pilot_handle_closed(uv_handle_t *h)
{
	pilot_release(h->data);
}

/*
 * Close: connections and listener closed, queued and running jobs
 * forgotten.  Pilots still alive are left to run (their jobs outlive us,
 * as a backend's jobs do); their memory goes with their END.
 */
static void
pilot_close(struct sched *s, void (*done)(void *), void *arg)
{
	struct psched	*ps = (struct psched *)s;
	struct pconn	*c;
	struct pjob	*p;
	struct patt	*a;
	struct pev	*e;

	if (ps->closing)
		return;
	ps->closing = 1;
	ps->done = done;
	ps->done_arg = arg;
	while ((e = TAILQ_FIRST(&ps->events)) != NULL) {
		TAILQ_REMOVE(&ps->events, e, entry);
		pev_free(e);
	}
	while ((a = TAILQ_FIRST(&ps->queue)) != NULL) {
		TAILQ_REMOVE(&ps->queue, a, entry);
		patt_free(a);
	}
	TAILQ_FOREACH(c, &ps->conns, entry)
		pilot_conn_close(c);
	while ((p = TAILQ_FIRST(&ps->pilots)) != NULL) {
		TAILQ_REMOVE(&ps->pilots, p, entry);
		while ((a = TAILQ_FIRST(&p->jobs)) != NULL) {
			TAILQ_REMOVE(&p->jobs, a, entry);
			patt_free(a);
		}
		if (p->state != PJ_ENDED && !ps->inner_gone) {
			p->ps = NULL;
			continue;
		}
		pjob_free(p);
	}
	uv_close((uv_handle_t *)&ps->listener, pilot_handle_closed);
	uv_close((uv_handle_t *)&ps->defer, pilot_handle_closed);
}

static const struct sched_ops pilot_ops = {
	.name = "pilot",
	.submit = pilot_submit,
	.cancel = pilot_cancel,
	.adopt = pilot_adopt,
	.active = pilot_active,
	.close = pilot_close
};

/* Create the pilot backend (sched.h). */
struct sched *
sched_pilot_new(uv_loop_t *loop, struct sched *inner,
    const struct sched_pilot_opts *o, char *err, size_t errlen)
{
	struct psched	*ps;
	char		*pdir;

	if (o->count < 1 || o->job.cpus_per_task < 1 ||
	    o->job.gpus_per_node < 0) {
		snprintf(err, errlen, "pilot: count and cpus must be >= 1");
		return NULL;
	}
	if ((ps = calloc(1, sizeof(*ps))) == NULL) {
		snprintf(err, errlen, "pilot: out of memory");
		return NULL;
	}
	ps->sched.ops = &pilot_ops;
	ps->loop = loop;
	ps->inner = inner;
	ps->opts = *o;
	if (ps->opts.job.nodes < 1)
		ps->opts.job.nodes = 1;
	ps->dir = pilot_strdup(o->dir);
	ps->wrapper = pilot_strdup(o->wrapper);
	ps->name = pilot_strdup(o->name);
	if (asprintf(&ps->file, "%s/pilot.json", o->dir) == -1)
		ps->file = NULL;
	if (asprintf(&pdir, "%s/pilots", o->dir) == -1)
		pdir = NULL;
	if (ps->file == NULL || pdir == NULL) {
		snprintf(err, errlen, "pilot: out of memory");
		free(pdir);
		free(ps->file);
		free(ps->dir);
		free(ps->wrapper);
		free(ps->name);
		free(ps);
		return NULL;
	}
	TAILQ_INIT(&ps->queue);
	TAILQ_INIT(&ps->pilots);
	TAILQ_INIT(&ps->conns);
	TAILQ_INIT(&ps->events);
	uv_timer_init(loop, &ps->defer);
	ps->defer.data = ps;
	ps->nopen = 1;
	if (mkdir(pdir, 0700) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "pilot: mkdir %s: %s", pdir,
		    strerror(errno));
		free(pdir);
		uv_close((uv_handle_t *)&ps->defer, pilot_handle_closed);
		return NULL;
	}
	free(pdir);
	if (pilot_listen(ps, err, errlen) == -1 ||
	    pilot_file_write(ps, err, errlen) == -1) {
		ps->closing = 1;
		uv_close((uv_handle_t *)&ps->listener, pilot_handle_closed);
		uv_close((uv_handle_t *)&ps->defer, pilot_handle_closed);
		return NULL;
	}
	return &ps->sched;
}

void
sched_pilot_forget(struct sched *s)
{
	if (s->ops == &pilot_ops)
		((struct psched *)s)->inner_gone = 1;
}

int
sched_pilot_release(struct sched *s)
{
	struct psched	*ps = (struct psched *)s;
	struct pjob	*p;
	int		 rc = 0;

	if (s->ops != &pilot_ops)
		return -1;
	TAILQ_FOREACH(p, &ps->pilots, entry)
		if (p->state != PJ_ENDED &&
		    sched_release(ps->inner, p->token) == -1)
			rc = -1;
	if (rc == 0)
		ps->inner_gone = 1;
	return rc;
}

int
sched_pilot_live(const struct sched *s)
{
	if (s->ops != &pilot_ops)
		return 0;
	return pilot_live_count((const struct psched *)s);
}

/* No more jobs are coming (sched.h). */
void
sched_pilot_drain(struct sched *s)
{
	struct psched	*ps = (struct psched *)s;
	struct pjob	*p;

	if (s->ops != &pilot_ops || ps->draining)
		return;
	ps->draining = 1;
	/*
	 * Those not started, and those started whose agent has not called
	 * and that hold no job: nothing will reach them but a drain, and an
	 * agent that cannot call would sit idle, billed, to its time limit.
	 */
	TAILQ_FOREACH(p, &ps->pilots, entry)
		if (p->state == PJ_SUBMITTED || (p->state == PJ_RUNNING &&
		    !p->called && TAILQ_EMPTY(&p->jobs)))
			sched_cancel(ps->inner, p->token);
	pilot_dispatch(ps);
}

