/*
 * slurm_sbatch.c: a submit whose job carries sbatch options hpod does not
 * model (resources.sbatch_extra) goes through the sbatch program, which
 * parses them: libslurm has no sbatch option parser.  The worker thread
 * writes the job's files and its script as for any submit; then, on the
 * loop thread, `sbatch --parsable` runs (uv_spawn) with the options hpod
 * models as arguments and the extra ones after them.  Its stdout is the
 * job id, its stderr the controller's refusal; either way the answer is
 * handed to slurm_submitted() as a libslurm answer would be, and the job
 * is followed like any other (poll, end marker, cancel).  `sbatch
 * --test-only` asks the controller about a job like a campaign's, for
 * hpoctl check and run (on a loop of their own) and for hpod's submit
 * (on hpod's loop, its answer to a callback).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm_errno.h>

#include "slurm_int.h"

#define SBATCH_OUT_MAX	8192	/* bytes kept of stdout and of stderr */

/* One run of sbatch: its output, its end, who is told. */
struct slurm_sbatch {
	uv_process_t	 proc;
	uv_pipe_t	 out, err;
	char		 obuf[SBATCH_OUT_MAX], ebuf[SBATCH_OUT_MAX];
	char		 drop[256];	/* what is read beyond them */
	size_t		 olen, elen;
	int64_t		 status;
	int		 term_signal;
	int		 nopen;
	int		 done;		/* every handle closed */
	void		(*cb)(struct slurm_sbatch *);
	void		*arg;
};

/* Append an argument to a NULL-terminated vector of n entries. */
static void
sbatch_arg(char ***argv, size_t *n, char *arg)
{
	if ((*argv = reallocarray(*argv, *n + 2, sizeof(**argv))) == NULL)
		abort();
	(*argv)[(*n)++] = arg;
	(*argv)[*n] = NULL;
}

/*
 * The argv of sbatch for d, its script at script; with script NULL, the
 * argv of `sbatch --test-only` for a job like d (`--wrap=true`).
 */
char **
slurm_sbatch_argv(const struct slurm_desc *d, const char *script)
{
	const struct sched_slurm_extra *x = &d->extra;
	char	**argv = NULL;
	size_t	  n = 0, i;

#define ARG(...)	sbatch_arg(&argv, &n, slurm_printf(__VA_ARGS__))
	ARG("sbatch");
	ARG("--parsable");
	ARG("--job-name=%s", d->name);
	ARG("--comment=%s", d->comment);
	ARG("--chdir=%s", d->work_dir);
	ARG("--output=%s", d->std_out);
	if (d->std_err != NULL)
		ARG("--error=%s", d->std_err);
	ARG("--nodes=%d", d->nodes);
	ARG("--ntasks-per-node=%d", d->tasks_per_node);
	ARG("--ntasks=%d", d->nodes * d->tasks_per_node);
	/*
	 * sbatch refuses --cpus-per-task beside --cpus-per-gpu (libslurm
	 * takes both): the CPUs follow the GPUs then.
	 */
	if (x->cpus_per_gpu <= 0)
		ARG("--cpus-per-task=%d", d->cpus_per_task);
	if (d->gpus_per_node > 0)
		ARG("--gpus-per-node=%d", d->gpus_per_node);
	if (d->time_limit > 0)
		ARG("--time=%ld", (d->time_limit + 59) / 60);
	if (d->partition != NULL)
		ARG("--partition=%s", d->partition);
	if (d->account != NULL)
		ARG("--account=%s", d->account);
	if (d->qos != NULL)
		ARG("--qos=%s", d->qos);
	if (d->constraint != NULL)
		ARG("--constraint=%s", d->constraint);
	if (x->mem_mb > 0)
		ARG("--mem=%lluM", (unsigned long long)x->mem_mb);
	if (x->mem_per_cpu_mb > 0)
		ARG("--mem-per-cpu=%lluM", (unsigned long long)x->mem_per_cpu_mb);
	if (x->mem_per_gpu_mb > 0)
		ARG("--mem-per-gpu=%lluM", (unsigned long long)x->mem_per_gpu_mb);
	if (x->exclusive)
		ARG("--exclusive");
	if (x->reservation != NULL)
		ARG("--reservation=%s", x->reservation);
	if (x->signal > 0)
		ARG("--signal=%s%d@%d", x->signal_batch ? "B:" : "", x->signal,
		    x->signal_time);
	if (x->gpus_per_task > 0)
		ARG("--gpus-per-task=%d", x->gpus_per_task);
	if (x->cpus_per_gpu > 0)
		ARG("--cpus-per-gpu=%d", x->cpus_per_gpu);
	if (d->array != NULL)
		ARG("--array=%s", d->array);
	if (d->dependency != NULL)
		ARG("--dependency=%s", d->dependency);
	/* Every retry must be an attempt hpod records and costs. */
	ARG("--no-requeue");
	for (i = 0; x->sbatch != NULL && x->sbatch[i] != NULL; i++)
		ARG("%s", x->sbatch[i]);
	if (script != NULL)
		ARG("%s", script);
	else {
		ARG("--test-only");
		ARG("--wrap=true");
	}
#undef ARG
	return argv;
}

/*
 * What sbatch said on stderr, its lines joined with "; ", each without
 * sbatch's "sbatch: error: " prefix (or how it ended, if it said nothing);
 * the caller frees it.
 */
static char *
sbatch_said(struct slurm_sbatch *s)
{
	char	*line, *next;
	size_t	 len = 0, cap = sizeof(s->ebuf) + 64;
	char	*r = slurm_calloc(1, cap);

	for (line = s->ebuf; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (strncmp(line, "sbatch: error: ", 15) == 0)
			line += 15;
		if (*line == '\0' || strncmp(line, "Try \"sbatch --help\"",
		    19) == 0)
			continue;
		len += (size_t)snprintf(r + len, cap - len, "%s%s",
		    len > 0 ? "; " : "", line);
		if (len >= cap)
			break;
	}
	if (len == 0)
		snprintf(r, cap, "exited %lld%s", (long long)s->status,
		    s->term_signal ? " (killed by a signal)" : "");
	return r;
}

/* Every handle closed: the run is over. */
static void
sbatch_closed(uv_handle_t *h)
{
	struct slurm_sbatch	*s = h->data;

	if (--s->nopen > 0)
		return;
	s->obuf[s->olen < sizeof(s->obuf) ? s->olen : sizeof(s->obuf) - 1] =
	    '\0';
	s->ebuf[s->elen < sizeof(s->ebuf) ? s->elen : sizeof(s->ebuf) - 1] =
	    '\0';
	s->done = 1;
	if (s->cb != NULL)
		s->cb(s);
}

static void
sbatch_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
	struct slurm_sbatch	*s = h->data;
	int			 isout = h == (uv_handle_t *)&s->out;
	char			*b = isout ? s->obuf : s->ebuf;
	size_t			 used = isout ? s->olen : s->elen;

	if (used + 1 >= SBATCH_OUT_MAX) {
		/* Keep reading (and dropping) so sbatch never blocks. */
		*buf = uv_buf_init(s->drop, sizeof(s->drop));
		return;
	}
	*buf = uv_buf_init(b + used, (unsigned)(SBATCH_OUT_MAX - 1 - used));
}

static void
sbatch_read(uv_stream_t *st, ssize_t n, const uv_buf_t *buf)
{
	struct slurm_sbatch	*s = st->data;
	size_t			*used = st == (uv_stream_t *)&s->out ?
				    &s->olen : &s->elen;
	const char		*base = st == (uv_stream_t *)&s->out ?
				    s->obuf : s->ebuf;

	if (n > 0 && buf->base >= base && buf->base < base + SBATCH_OUT_MAX)
		*used += (size_t)n;
	if (n < 0)
		uv_close((uv_handle_t *)st, sbatch_closed);
}

static void
sbatch_exited(uv_process_t *p, int64_t status, int term_signal)
{
	struct slurm_sbatch	*s = p->data;

	s->status = status;
	s->term_signal = term_signal;
	uv_close((uv_handle_t *)p, sbatch_closed);
}

/* Start argv (argv[0] "sbatch") on loop; s->cb follows its end. */
static void
sbatch_spawn(uv_loop_t *loop, char **argv, char **env,
    struct slurm_sbatch *s)
{
	uv_process_options_t	 po;
	uv_stdio_container_t	 io[3];
	int			 rc;

	uv_pipe_init(loop, &s->out, 0);
	uv_pipe_init(loop, &s->err, 0);
	s->proc.data = s->out.data = s->err.data = s;
	s->nopen = 3;
	memset(&po, 0, sizeof(po));
	memset(io, 0, sizeof(io));
	io[0].flags = UV_IGNORE;
	io[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	io[1].data.stream = (uv_stream_t *)&s->out;
	io[2].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	io[2].data.stream = (uv_stream_t *)&s->err;
	po.file = argv[0];
	po.args = argv;
	po.env = env;
	po.stdio = io;
	po.stdio_count = 3;
	po.exit_cb = sbatch_exited;
	if ((rc = uv_spawn(loop, &s->proc, &po)) != 0) {
		/* The process handle still needs closing (libuv docs). */
		s->status = 127;
		s->elen = (size_t)snprintf(s->ebuf, sizeof(s->ebuf),
		    "cannot run sbatch: %s", uv_strerror(rc));
		uv_close((uv_handle_t *)&s->proc, sbatch_closed);
		uv_close((uv_handle_t *)&s->out, sbatch_closed);
		uv_close((uv_handle_t *)&s->err, sbatch_closed);
		return;
	}
	uv_read_start((uv_stream_t *)&s->out, sbatch_alloc, sbatch_read);
	uv_read_start((uv_stream_t *)&s->err, sbatch_alloc, sbatch_read);
}

/* A submit's sbatch ended: hand the answer over as a libslurm one. */
static void
sbatch_submitted(struct slurm_sbatch *s)
{
	struct slurm_work	*w = s->arg;
	unsigned long		 id;
	char			*end;

	id = strtoul(s->obuf, &end, 10);
	if (s->status == 0 && s->term_signal == 0 && end != s->obuf &&
	    id > 0 && id < UINT32_MAX && (*end == '\n' || *end == ';' ||
	    *end == '\0')) {
		w->rc = 0;
		w->job_id = (uint32_t)id;
	} else {
		w->rc = SLURM_ERROR;
		w->sbatch_msg = sbatch_said(s);
	}
	free(s);
	slurm_work_done(w);
}

/*
 * Run sbatch for the submit w, whose files the worker wrote; the answer
 * goes to slurm_work_done() when sbatch has ended and its output is read.
 */
void
slurm_sbatch_start(struct slurm *b, struct slurm_work *w)
{
	struct slurm_sbatch	*s = slurm_calloc(1, sizeof(*s));
	char			**argv;

	s->cb = sbatch_submitted;
	s->arg = w;
	argv = slurm_sbatch_argv(&w->desc, w->desc.script_path);
	sbatch_spawn(b->loop, argv, w->desc.env, s);
	slurm_strv_free(argv);
}

/*
 * A question to the controller (sched_slurm_test_start): sbatch's, then,
 * if it took the job, its partition's limits (slurm_part.c).
 */
struct sched_slurm_test {
	struct slurm_sbatch	 s;
	void			(*cb)(void *, int, const char *);
	void			*arg;
	struct slurm_part_ask	 ask;		/* what the job asks */
	char			*parts;		/* the job's partitions, or
						   NULL: the default */
	uv_work_t		 req;		/* the partitions' check */
	char			 part[128];	/* the one sbatch chose */
	char			 why[512];	/* the check's refusal */
	int			 part_rc;
	int			 loading;	/* req is queued or running */
	int			 stopped;	/* withdrawn meanwhile */
	char			*said;		/* sbatch's yes */
};

/* Free a question and what it owns. */
static void
sbatch_test_free(struct sched_slurm_test *t)
{
	free(t->said);
	free(t->parts);
	free(t);
}

/* On a worker thread: the partitions' limits against the job. */
static void
sbatch_part_check(uv_work_t *req)
{
	struct sched_slurm_test	*t = req->data;

	t->part_rc = slurm_part_check(t->parts != NULL ? t->parts : t->part,
	    &t->ask, t->why, sizeof(t->why));
}

/* The partitions are checked: the answer, to the asker. */
static void
sbatch_part_checked(uv_work_t *req, int status)
{
	struct sched_slurm_test	*t = req->data;

	slurm_rpc_release();
	if (t->stopped || status != 0)
		t->cb(t->arg, 1, "the question was withdrawn");
	else if (t->part_rc == -1)
		t->cb(t->arg, -1, t->why);
	else
		t->cb(t->arg, 0, t->said);
	sbatch_test_free(t);
}

/* sbatch --test-only ended: its answer, classified, to the asker. */
static void
sbatch_tested(struct slurm_sbatch *s)
{
	struct sched_slurm_test	*t = s->arg;
	char			*said;
	int			 rc;

	said = sbatch_said(s);
	if (s->status == 0 && s->term_signal == 0)
		rc = 0;
	else if (s->term_signal != 0 ||
	    strstr(said, "cannot run sbatch") != NULL ||
	    strstr(said, "Unable to contact slurm controller") != NULL ||
	    strstr(said, "Socket timed out") != NULL ||
	    strstr(said, "Zero Bytes were transmitted") != NULL)
		rc = 1;		/* no answer: not a refusal */
	else
		rc = -1;
	if (rc == 0 && slurm_part_named(said, t->part,
	    sizeof(t->part)) == 0) {
		slurm_rpc_init();
		t->req.data = t;
		t->said = said;
		slurm_rpc_hold();
		if (uv_queue_work(s->proc.loop, &t->req, sbatch_part_check,
		    sbatch_part_checked) == 0) {
			t->loading = 1;
			return;
		}
		slurm_rpc_release();
		t->said = NULL;
	}
	t->cb(t->arg, rc, said);
	free(said);
	sbatch_test_free(t);
}

/* sched_slurm_test_start(): see sched.h. */
struct sched_slurm_test *
sched_slurm_test_start(struct uv_loop_s *loop, const struct sched_job *job,
    void (*cb)(void *, int, const char *), void *arg, char *msg, size_t len)
{
	struct sched_slurm_test	*t;
	struct slurm_desc	 d;
	char			**argv;

	if (slurm_rpc_check(msg, len) == -1)
		return NULL;
	memset(&d, 0, sizeof(d));
	d.name = (char *)(job->name != NULL ? job->name : "hpoctl-check");
	d.comment = (char *)"hpoctl check";
	d.work_dir = (char *)"/";
	d.std_out = (char *)"/dev/null";
	d.nodes = job->nodes;
	d.tasks_per_node = job->tasks_per_node;
	d.cpus_per_task = job->cpus_per_task;
	d.gpus_per_node = job->gpus_per_node;
	d.time_limit = job->time_limit;
	d.partition = (char *)job->partition;
	d.account = (char *)job->account;
	d.qos = (char *)job->qos;
	d.constraint = (char *)job->constraint;
	d.extra = job->extra;
	argv = slurm_sbatch_argv(&d, NULL);
	t = slurm_calloc(1, sizeof(*t));
	t->cb = cb;
	t->arg = arg;
	slurm_part_ask_init(&t->ask, job);
	t->parts = job->partition != NULL ? slurm_strdup(job->partition) :
	    NULL;
	t->s.cb = sbatch_tested;
	t->s.arg = t;
	sbatch_spawn(loop, argv, NULL, &t->s);
	slurm_strv_free(argv);
	return t;
}

/* sched_slurm_test_stop(): see sched.h. */
void
sched_slurm_test_stop(struct sched_slurm_test *t)
{
	if (t->loading)
		t->stopped = 1;
	else if (!uv_is_closing((uv_handle_t *)&t->s.proc))
		uv_process_kill(&t->s.proc, SIGKILL);
}

/* The blocking question of sched_slurm_test(): its answer. */
struct slurm_test_answer {
	int	 rc;
	char	*msg;
	size_t	 len;
};

static void
slurm_test_answered(void *arg, int rc, const char *said)
{
	struct slurm_test_answer *a = arg;

	a->rc = rc;
	snprintf(a->msg, a->len, "%s", said);
}

/* sched_slurm_test(): see sched.h. */
int
sched_slurm_test(const struct sched_job *job, char *msg, size_t len)
{
	struct slurm_test_answer a = { 1, msg, len };
	uv_loop_t		 loop;

	if (uv_loop_init(&loop) != 0)
		abort();
	if (sched_slurm_test_start(&loop, job, slurm_test_answered, &a, msg,
	    len) == NULL) {
		uv_loop_close(&loop);
		return 1;
	}
	uv_run(&loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&loop) != 0)
		abort();	/* a handle left open: a bug here */
	return a.rc;
}
