/*
 * main.c: hpod, the hyperparameter-search orchestration daemon.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <uv.h>

#include "cli.h"
#include "config.h"
#include "control.h"
#include "daemonize.h"
#include "engine.h"
#include "lockfile.h"
#include "log.h"
#include "report.h"
#include "report_alloc.h"
#include "run.h"
#include "shapereq.h"
#include "slowreq.h"
#include "state.h"
#include "testpause.h"
#include "trials_opts.h"
#include "version.h"
#include "xmalloc.h"

/* The daemon's top-level state: the only global state hpod has. */
struct hpod {
	uv_loop_t	*loop;
	const char	*conffile;
	struct config	 cfg;
	struct ledger	*ledger;
	struct sched	*local;
	struct sched	*slurm;		/* made for the first Slurm campaign */
	int		 nsched;	/* backends still open */
	struct control	*control;
	int		 lockfd;	/* the ledger's lock (lockfile.h) */
	struct engine	**engines;
	size_t		 nengines;
	struct engine	*submitted;	/* a submit's, until its record commits */
	struct shapereqs asking;	/* submits waiting for the controller */
	int		 deferred;	/* the request handled now waits for
					   the controller, and commits later */
	uv_signal_t	 sigterm, sigint, sighup;
	uv_timer_t	 retake;	/* hpod_retake(), while lost */
	uint64_t	 retake_ms;	/* its period now */
	int		 lost;		/* campaigns wait to be taken back */
	unsigned	 nlost;		/* failed commits so far */
	int		 stopping;
};

/*
 * Time between tries to take back campaigns a failed commit dropped:
 * doubled after each failed try, up to the maximum.
 */
#define HPOD_RETAKE_MS		2000
#define HPOD_RETAKE_MAX_MS	60000

#define HPOD_USAGE	"hpod [-dnvV] [-f file] [--help] [--version]"

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s\n", HPOD_USAGE);
	exit(CLI_EX_USAGE);
}

/* Relay engine progress to the log. */
static void
hpod_progress(void *arg, struct engine *e, const char *line)
{
	log_info("campaign %s: %s", engine_name(e), line);
}

/* Take an engine out of the running ones and free it. */
static void
hpod_forget(struct hpod *d, struct engine *e)
{
	size_t	 i;

	for (i = 0; i < d->nengines; i++)
		if (d->engines[i] == e) {
			d->engines[i] = d->engines[--d->nengines];
			break;
		}
	engine_free(e);
}

/* A campaign ended: forget its engine. */
static void
hpod_done(void *arg, struct engine *e)
{
	struct hpod	*d = arg;

	log_info("campaign %s (id %lld) %s", engine_name(e),
	    (long long)engine_id(e), campaign_state_name(engine_state(e)));
	hpod_forget(d, e);
}

static void	hpod_engine_lost(void *, struct engine *, const char *);
static void	hpod_retake(uv_timer_t *);

/*
 * The Slurm backend, made for the first Slurm campaign; NULL if it
 * cannot be (a build without libslurm, no Slurm configuration): err says
 * why.
 */
static struct sched *
hpod_slurm(struct hpod *d, char *err, size_t errlen)
{
	if (d->slurm == NULL && (d->slurm = run_backend(d->loop, "slurm",
	    &d->cfg, err, errlen)) != NULL)
		d->nsched++;
	return d->slurm;
}

/* Make an engine for a spec bound to its workload; it takes both. */
static struct engine *
hpod_engine_bound(struct hpod *d, struct campaign_spec *s,
    struct workload *w, char *err, size_t errlen)
{
	struct run_driver	 drv;
	struct engine		*e;

	if (strcmp(s->backend, "replay") == 0) {
		snprintf(err, errlen, "%s: backend: 'replay' runs only in the "
		    "foreground (hpoctl run)", s->path);
		spec_free(s);
		workload_free(w);
		return NULL;
	}
	if (strcmp(s->backend, "slurm") == 0 && hpod_slurm(d, err,
	    errlen) == NULL) {
		spec_free(s);
		workload_free(w);
		return NULL;
	}
	drv.loop = d->loop;
	drv.ledger = d->ledger;
	drv.cfg = &d->cfg;
	drv.name = "daemon";
	drv.progress = hpod_progress;
	drv.done = hpod_done;
	drv.lost = hpod_engine_lost;
	drv.arg = d;
	if ((e = run_engine(&drv, strcmp(s->backend, "slurm") == 0 ?
	    d->slurm : d->local, s, w, err, errlen)) == NULL)
		return NULL;
	d->engines = xreallocarray(d->engines, d->nengines + 1,
	    sizeof(*d->engines));
	d->engines[d->nengines++] = e;
	return e;
}

/* Make an engine for a parsed spec; it takes the spec. */
static struct engine *
hpod_engine(struct hpod *d, struct campaign_spec *s, char *err,
    size_t errlen)
{
	struct workload		*w;

	if ((w = run_bind(s, &d->cfg, err, errlen)) == NULL) {
		spec_free(s);
		return NULL;
	}
	return hpod_engine_bound(d, s, w, err, errlen);
}

/*
 * A commit of the ledger failed (a full disk, an I/O error): SQLite
 * rolled the batch back, and with it what every engine wrote in it (they
 * share the batch).  For the campaigns that is a crash at this point, and
 * they are recovered as after one: each engine is dropped, its jobs left
 * running (engine_drop, as at hpod's exit), and hpod_retake() takes the
 * campaigns back from the ledger, as a start does, once it can be
 * written (pilots too: sched_pilot_release; hpod_engine refuses the
 * replay backend, which cannot hand jobs over).  Said once per spell.
 */
static void
hpod_lost(struct hpod *d, const char *why)
{
	struct engine	*e;
	size_t		 i;

	d->nlost++;
	for (i = 0; i < d->nengines; i++) {
		e = d->engines[i];
		engine_drop(e);
		if (!d->lost)
			log_warnx("campaign '%s': %s; taken back from the "
			    "ledger when it can be written", engine_name(e),
			    why);
		engine_free(e);
	}
	d->nengines = 0;
	if (!d->lost && i == 0)
		log_warnx("control: %s", why);
	if (!d->lost && !d->stopping) {
		d->retake_ms = HPOD_RETAKE_MS;
		uv_timer_start(&d->retake, hpod_retake, d->retake_ms, 0);
	}
	d->lost = 1;
}

/* An engine's commit failed: see hpod_lost(). */
static void
hpod_engine_lost(void *arg, struct engine *e, const char *why)
{
	hpod_lost(arg, why);
}

/* Find a running campaign by name or id. */
static struct engine *
hpod_find(struct hpod *d, const char *name)
{
	char	 id[32];
	size_t	 i;

	for (i = d->nengines; i-- > 0;) {
		snprintf(id, sizeof(id), "%lld",
		    (long long)engine_id(d->engines[i]));
		if (strcmp(id, name) == 0 ||
		    strcmp(engine_name(d->engines[i]), name) == 0)
			return d->engines[i];
	}
	return NULL;
}

/* Set a reply's error. */
static void
reply_error(cJSON *reply, const char *msg)
{
	cJSON_AddFalseToObject(reply, "ok");
	cJSON_AddStringToObject(reply, "error", msg);
}

/* Set a reply's output. */
static void
reply_output(cJSON *reply, const char *out)
{
	cJSON_AddTrueToObject(reply, "ok");
	cJSON_AddStringToObject(reply, "output", out);
}

/* Record and start a submitted campaign; it takes s and w. */
static void
hpod_submit_start(struct hpod *d, struct campaign_spec *s,
    struct workload *w, cJSON *reply)
{
	struct engine	*e;
	char		 err[1024], out[256];

	if ((e = hpod_engine_bound(d, s, w, err, sizeof(err))) == NULL) {
		reply_error(reply, err);
		return;
	}
	if (engine_start(e, err, sizeof(err)) == -1) {
		/* Never started: no "campaign NAME (id 0) running" line. */
		log_warnx("submitted campaign '%s' refused: %s",
		    engine_name(e), err);
		hpod_forget(d, e);
		reply_error(reply, err);
		return;
	}
	d->submitted = e;
	snprintf(out, sizeof(out), "campaign '%s' submitted as id %lld\n",
	    engine_name(e), (long long)engine_id(e));
	reply_output(reply, out);
	cJSON_AddNumberToObject(reply, "id", (double)engine_id(e));
	cJSON_AddStringToObject(reply, "name", engine_name(e));
}

static void	hpod_begin(struct hpod *);
static void	hpod_commit(struct hpod *, cJSON *, int);

/*
 * The controller's word on a submitted Slurm campaign (shapereq.c): a
 * refusal is the reply; else the campaign is recorded and started in a
 * transaction of its own, as a request that writes is (hpod_request).
 */
static void
hpod_submit_asked(void *arg, struct control_call *call,
    struct campaign_spec *s, struct workload *w, const char *refused)
{
	struct hpod	*d = arg;
	cJSON		*reply;

	if ((reply = cJSON_CreateObject()) == NULL || refused != NULL ||
	    d->stopping) {
		if (reply != NULL)
			reply_error(reply, refused != NULL ? refused :
			    "hpod is shutting down");
		spec_free(s);
		workload_free(w);
	} else {
		hpod_begin(d);
		hpod_submit_start(d, s, w, reply);
		testpause_at("before-commit");
		hpod_commit(d, reply, 1);
	}
	control_answer(call, reply);
	cJSON_Delete(reply);
}

/*
 * The "submit" request: validate, record and start a campaign; a Slurm
 * campaign once the controller has said it would take its job.
 */
static void
hpod_submit(struct hpod *d, const cJSON *req, cJSON *reply)
{
	const cJSON		*spec = cJSON_GetObjectItem(req, "spec");
	const cJSON		*path = cJSON_GetObjectItem(req, "path");
	struct campaign_spec	*s;
	struct workload		*w;
	char			 err[1024], *text;

	if (!cJSON_IsObject(spec)) {
		reply_error(reply, "request.spec: expected an object");
		return;
	}
	if (path != NULL && !cJSON_IsString(path)) {
		reply_error(reply, "request.path: expected a string");
		return;
	}
	if ((text = cJSON_PrintUnformatted(spec)) == NULL) {
		reply_error(reply, "out of memory");
		return;
	}
	s = spec_parse(text, strlen(text), path ? path->valuestring :
	    "(submitted spec)", err, sizeof(err));
	cJSON_free(text);
	if (s == NULL || (w = run_bind(s, &d->cfg, err, sizeof(err))) ==
	    NULL) {
		spec_free(s);
		reply_error(reply, err);
		return;
	}
	/* No Slurm here: refused as such, not first "not checked". */
	if (strcmp(s->backend, "slurm") == 0 && hpod_slurm(d, err,
	    sizeof(err)) == NULL) {
		log_warnx("submitted campaign '%s' refused: %s", s->name, err);
		spec_free(s);
		workload_free(w);
		reply_error(reply, err);
		return;
	}
	if (shapereq_start(d->loop, d->control, &d->asking, s, w,
	    hpod_submit_asked, d) == 0) {
		d->deferred = 1;
		return;
	}
	hpod_submit_start(d, s, w, reply);
}

/*
 * Why no campaign of that name or id runs here, from the ledger: none is
 * recorded, it ended (finished, cancelled), or `hpoctl run` runs it.
 */
static void
hpod_missing_why(struct hpod *d, const char *campaign, char *msg,
    size_t len)
{
	struct ledger_campaign	 c;
	int			 rc;

	memset(&c, 0, sizeof(c));
	rc = ledger_campaign_find(d->ledger, campaign, &c);
	if (rc == 1)
		snprintf(msg, len, "no running campaign '%s': the ledger has "
		    "none of that name or id", campaign);
	else if (rc == 0 && campaign_state_parse(c.state) !=
	    CAMPAIGN_RUNNING)
		snprintf(msg, len, "no running campaign '%s': campaign '%s' "
		    "(id %lld) is %s", campaign, c.name, (long long)c.id,
		    c.state);
	else if (rc == 0 && c.driver != NULL &&
	    strcmp(c.driver, "foreground") == 0)
		snprintf(msg, len, "no running campaign '%s': campaign '%s' "
		    "(id %lld) is run by hpoctl run, not by this hpod",
		    campaign, c.name, (long long)c.id);
	else
		snprintf(msg, len, "no running campaign '%s'", campaign);
	if (rc == 0)
		ledger_campaign_release(&c);
}

/*
 * Reply that no campaign of that name or id runs; if a failed commit
 * dropped the campaigns (hpod_lost), say so, and when they are taken
 * back.
 */
static void
hpod_missing(struct hpod *d, const char *campaign, cJSON *reply)
{
	char	 msg[1024];

	if (d->lost)
		snprintf(msg, sizeof(msg), "no running campaign '%s' followed "
		    "now: ledger '%s' cannot be written; the campaigns it "
		    "holds as running are taken back once it can", campaign,
		    d->cfg.ledger);
	else
		hpod_missing_why(d, campaign, msg, sizeof(msg));
	reply_error(reply, msg);
}

/* budget and cancel --trial: a running campaign's request to its engine. */
static void
hpod_engine_request(struct hpod *d, const char *campaign,
    enum report_format fmt, const cJSON *req, cJSON *reply)
{
	struct engine	*e;
	char		 msg[512];

	if ((e = hpod_find(d, campaign)) == NULL)
		hpod_missing(d, campaign, reply);
	else if (engine_request(e, req, msg, sizeof(msg)) == -1)
		reply_error(reply, msg);
	else
		reply_output(reply, msg);
}

/* The "ping" request: who answers, and how busy it is. */
static void
hpod_ping(struct hpod *d, const char *campaign, enum report_format fmt,
    const cJSON *req, cJSON *reply)
{
	char	 out[1024];

	snprintf(out, sizeof(out), "hpod %s, pid %ld, %zu campaigns "
	    "running, ledger %s%s\n", HPOD_VERSION, (long)getpid(),
	    d->nengines, d->cfg.ledger, d->lost ? " (cannot be "
	    "written now: the campaigns it holds as running are taken back "
	    "once it can)" : "");
	reply_output(reply, out);
	/* hpoctl export reads the ledger of the daemon it talks to. */
	cJSON_AddStringToObject(reply, "ledger", d->cfg.ledger);
}

/* The "submit" request, refused while the daemon stops. */
static void
hpod_submit_request(struct hpod *d, const char *campaign,
    enum report_format fmt, const cJSON *req, cJSON *reply)
{
	if (d->stopping)
		reply_error(reply, "hpod is shutting down");
	else
		hpod_submit(d, req, reply);
}

/* The "cancel" request: a whole campaign, or one trial ("trial"). */
static void
hpod_cancel(struct hpod *d, const char *campaign, enum report_format fmt,
    const cJSON *req, cJSON *reply)
{
	struct engine	*e;
	char		 msg[512];

	if (cJSON_GetObjectItem(req, "trial") != NULL) {
		hpod_engine_request(d, campaign, fmt, req, reply);
		return;
	}
	if ((e = hpod_find(d, campaign)) == NULL) {
		hpod_missing(d, campaign, reply);
		return;
	}
	snprintf(msg, sizeof(msg), "campaign '%s' (id %lld): cancelling\n",
	    engine_name(e), (long long)engine_id(e));
	engine_cancel(e);
	reply_output(reply, msg);
}

/*
 * Reply with a read command's output, or its error (rc != 0); one of
 * hpod's side (-1: the ledger, memory run out) is logged too, as
 * slowreq.c does; one of the request's options (-2) is marked "usage",
 * for which hpoctl exits 64.
 */
static void
hpod_reply(cJSON *reply, int rc, char *out, const char *err)
{
	if (rc == -1)
		log_warnx("%s", err);
	if (rc != 0)
		reply_error(reply, err);
	else
		reply_output(reply, out);
	if (rc == -2)	/* the request's options, not the ledger */
		cJSON_AddTrueToObject(reply, "usage");
	free(out);
}

/* The "trials" request: the trial list, as its options ask. */
static void
hpod_trials(struct hpod *d, const char *campaign, enum report_format fmt,
    const cJSON *req, cJSON *reply)
{
	char	 err[1024], *out = NULL;
	int	 rc;

	rc = trials_request(d->ledger, campaign, fmt, req, &out, err,
	    sizeof(err));
	hpod_reply(reply, rc, out, err);
}

/* The other read requests (status, report, table, watch): report.c's. */
static void
hpod_read(struct hpod *d, const char *campaign, enum report_format fmt,
    const cJSON *req, cJSON *reply)
{
	const char	*cmd = cJSON_GetObjectItem(req, "cmd")->valuestring;
	char		 err[1024], *out = NULL;
	int		 rc;

	rc = report_command(d->ledger, cmd, campaign, fmt, &out, err,
	    sizeof(err));
	hpod_reply(reply, rc, out, err);
}

/*
 * The requests of the control protocol, whether each needs "campaign",
 * whether it is answered off the loop when it can be (reading the
 * ledger may take long: slowreq.c), and whether it writes to the ledger.
 * The last entry takes every other command: report_command() renders it
 * or says it is unknown.
 */
static const struct hpod_req {
	const char	*cmd;
	int		 campaign;
	int		 offloop;
	int		 writes;
	void		(*fn)(struct hpod *, const char *, enum report_format,
			    const cJSON *, cJSON *);
} hpod_reqs[] = {
	{ "ping", 0, 0, 0, hpod_ping },
	{ "submit", 0, 0, 1, hpod_submit_request },
	{ "status", 0, 1, 0, hpod_read },
	{ "budget", 1, 0, 1, hpod_engine_request },
	{ "cancel", 1, 0, 1, hpod_cancel },
	{ "trials", 1, 1, 0, hpod_trials },
	{ "report", 1, 1, 0, hpod_read },
	{ NULL, 1, 0, 0, hpod_read }
};

/*
 * A request that writes does so in a transaction of its own, so that its
 * reply can say whether its writes are in the ledger: what the engines
 * left open in this loop iteration is committed first (a failure there
 * is theirs, logged as engine_flush() does), then a batch is opened that
 * the request's writes join (its ledger_begin()s become savepoints).
 */
static void
hpod_begin(struct hpod *d)
{
	if (ledger_batch_flush(d->ledger) == -1)
		hpod_lost(d, ledger_error(d->ledger));
	if (ledger_batch_open(d->ledger) == -1)
		log_warnx("control: %s", ledger_error(d->ledger));
}

/*
 * What a reply reports must be in the ledger before the client reads it:
 * the open batch (the request's, or one an engine opened earlier in this
 * loop iteration, which a read request answered on the loop may have
 * read) is committed here, before control.c queues the reply.  If that
 * commit fails (a full disk, an I/O error: SQLite then rolls the whole
 * transaction back), the reply is that error and nothing else, never
 * the success (an "id", a "submitted as id N") the request had written
 * into it: a client told "done" would trust it after a crash.  A
 * campaign the request submitted is stopped too: its record is gone, and
 * its engine would write under an id the ledger gives the next campaign.
 * What the request changed in a running campaign (a budget, a cancel,
 * which the engine sends only at its next tick) is undone as the crash
 * it is: the campaigns are dropped and taken back from the ledger as it
 * has them (hpod_lost), so that they run as the reply says and as they
 * would after a restart.  The batch of a request that does not write is
 * the engines': its failure is theirs (hpod_lost) too.
 */
static void
hpod_commit(struct hpod *d, cJSON *reply, int writes)
{
	struct engine	*e = d->submitted;
	char		 msg[1024], why[512];

	d->submitted = NULL;
	if (ledger_batch_flush(d->ledger) == 0)
		return;
	snprintf(why, sizeof(why), "%s", ledger_error(d->ledger));
	if (!writes) {
		hpod_lost(d, why);
		return;
	}
	if (e != NULL) {
		snprintf(msg, sizeof(msg), "campaign '%s' not submitted: %s; "
		    "nothing of it is recorded and it does not run",
		    engine_name(e), why);
		hpod_forget(d, e);
	} else
		snprintf(msg, sizeof(msg), "%s; what this request did is not "
		    "recorded and not done: the campaigns run on as the "
		    "ledger has them (see hpoctl status)", why);
	log_warnx("control: %s", msg);
	while (reply->child != NULL)
		cJSON_Delete(cJSON_DetachItemViaPointer(reply, reply->child));
	reply_error(reply, msg);
	hpod_lost(d, why);
}

/* A request from the control socket (control.c checked "cmd"). */
static void
hpod_request(void *arg, const cJSON *req, cJSON *reply)
{
	struct hpod		*d = arg;
	const char		*cmd = cJSON_GetObjectItem(req, "cmd")->valuestring;
	const cJSON		*c = cJSON_GetObjectItem(req, "campaign");
	const cJSON		*f = cJSON_GetObjectItem(req, "format");
	const struct hpod_req	*r;
	enum report_format	 fmt = REPORT_TEXT;
	unsigned long		 failed;

	if (c != NULL && !cJSON_IsString(c)) {
		reply_error(reply, "request.campaign: expected a string");
		return;
	}
	if (f != NULL && (!cJSON_IsString(f) ||
	    report_format_parse(f->valuestring, &fmt) == -1)) {
		reply_error(reply, "request.format: expected \"text\", "
		    "\"json\", \"csv\", \"markdown\", \"rcp\" or \"html\"");
		return;
	}
	for (r = hpod_reqs; r->cmd != NULL; r++)
		if (strcmp(r->cmd, cmd) == 0)
			break;
	if (r->campaign && c == NULL) {
		reply_error(reply, "request.campaign: required");
		return;
	}
	if (r->offloop && slowreq_start(d->loop, d->control,
	    ledger_path(d->ledger), req, fmt) == 0)
		return;
	if (r->writes)
		hpod_begin(d);
	failed = report_alloc_failures();
	r->fn(d, c != NULL ? c->valuestring : NULL, fmt, req, reply);
	/*
	 * A request refused after memory ran out (a spec or workload file
	 * cJSON could not read is not "not valid JSON") says so.
	 */
	if (report_alloc_failures() != failed && cJSON_IsFalse(
	    cJSON_GetObjectItem(reply, "ok"))) {
		while (reply->child != NULL)
			cJSON_Delete(cJSON_DetachItemViaPointer(reply,
			    reply->child));
		reply_error(reply, "out of memory");
	}
	/* A deferred submit pauses before its own commit. */
	if (r->writes && !d->deferred)
		testpause_at("before-commit");
	d->deferred = 0;
	hpod_commit(d, reply, r->writes);
}

/*
 * A running campaign that cannot be taken back (its recorded spec does
 * not parse, its workload or backend is gone): say so, with what is left
 * to nobody.
 */
static void
hpod_unfollowed(struct hpod *d, const struct ledger_campaign *c,
    const char *why)
{
	struct ledger_attempt	*at = NULL;
	size_t			 na = 0;

	if (ledger_attempt_list(d->ledger, c->id, 1, &at, &na) == -1) {
		log_warnx("campaign %s (id %lld) not resumed: %s; its "
		    "unfinished attempts are not followed", c->name,
		    (long long)c->id, why);
		return;
	}
	ledger_attempt_list_free(at, na);
	log_warnx("campaign %s (id %lld) not resumed: %s; its %zu unfinished "
	    "attempt%s not followed (their ends are not recorded)",
	    c->name, (long long)c->id, why, na, na == 1 ? " is" : "s are");
}

/* Resume every campaign the ledger says is running. */
static void
hpod_resume(struct hpod *d)
{
	struct ledger_campaign	*cs = NULL;
	struct campaign_spec	*s;
	struct engine		*e;
	size_t			 n = 0, i, j;
	char			 err[1024];

	if (ledger_campaign_list(d->ledger,
	    campaign_state_name(CAMPAIGN_RUNNING), &cs, &n) == -1) {
		log_warnx("resume: %s", ledger_error(d->ledger));
		return;
	}
	for (i = 0; i < n; i++) {
		/* A foreground run is its own master, even if it died. */
		if (cs[i].driver != NULL && strcmp(cs[i].driver, "daemon") != 0)
			continue;
		/* Taking back after a failed commit: those still followed. */
		for (j = 0; j < d->nengines; j++)
			if (engine_id(d->engines[j]) == cs[i].id)
				break;
		if (j < d->nengines)
			continue;
		s = spec_parse_recorded(cs[i].spec_json,
		    strlen(cs[i].spec_json), cs[i].spec_path ?
		    cs[i].spec_path : cs[i].name, err, sizeof(err));
		if (s == NULL || (e = hpod_engine(d, s, err, sizeof(err))) ==
		    NULL || engine_resume(e, cs[i].id, err, sizeof(err)) == -1) {
			hpod_unfollowed(d, &cs[i], err);
			continue;
		}
		if (engine_held(e) != NULL)
			log_warnx("campaign %s (id %lld) resumed held: %s; "
			    "its running attempts are followed to their end "
			    "and billed, no trial is started (hpoctl cancel "
			    "ends it)", cs[i].name, (long long)cs[i].id,
			    engine_held(e));
		else
			log_info("campaign %s (id %lld) resumed", cs[i].name,
			    (long long)cs[i].id);
	}
	ledger_campaign_list_free(cs, n);
}

/*
 * Take back the campaigns that a failed commit dropped (hpod_lost), as
 * a start does, in one batch: if that cannot be committed either, they
 * are dropped again and tried again later, after twice as long.
 */
static void
hpod_retake(uv_timer_t *t)
{
	struct hpod	*d = t->data;
	unsigned	 nlost = d->nlost;

	if (d->stopping)
		return;
	if (ledger_batch_open(d->ledger) != -1) {
		hpod_resume(d);
		if (ledger_batch_flush(d->ledger) == -1)
			hpod_lost(d, ledger_error(d->ledger));
	} else
		d->nlost++;
	if (d->nlost != nlost) {
		if (!d->stopping) {
			d->retake_ms = d->retake_ms * 2 > HPOD_RETAKE_MAX_MS ?
			    HPOD_RETAKE_MAX_MS : d->retake_ms * 2;
			uv_timer_start(t, hpod_retake, d->retake_ms, 0);
		}
		return;
	}
	d->lost = 0;
	log_info("ledger %s can be written again: campaigns taken back",
	    d->cfg.ledger);
}

/* A backend is closed; after the last, free the engines and signals. */
static void
hpod_sched_closed(void *arg)
{
	struct hpod	*d = arg;
	size_t		 i;

	if (--d->nsched > 0)
		return;
	for (i = 0; i < d->nengines; i++)
		engine_free(d->engines[i]);
	d->nengines = 0;
	uv_close((uv_handle_t *)&d->sigterm, NULL);
	uv_close((uv_handle_t *)&d->sigint, NULL);
	uv_close((uv_handle_t *)&d->sighup, NULL);
	uv_close((uv_handle_t *)&d->retake, NULL);
}

/* SIGTERM/SIGINT: stop taking requests, leave jobs running, exit. */
static void
hpod_stop(struct hpod *d)
{
	size_t	 i;

	if (d->stopping)
		return;
	d->stopping = 1;
	uv_timer_stop(&d->retake);
	log_info("shutting down; running trials are left to run and will be "
	    "re-adopted at the next start");
	/* Submits waiting for the controller are told, before the close. */
	shapereq_stop(&d->asking);
	control_close(d->control);
	d->control = NULL;
	for (i = 0; i < d->nengines; i++)
		engine_detach(d->engines[i]);
	sched_close(d->local, hpod_sched_closed, d);
	if (d->slurm != NULL)
		sched_close(d->slurm, hpod_sched_closed, d);
}

/* SIGHUP: reload the configuration; keep the old one if it is bad. */
static void
hpod_reload(struct hpod *d)
{
	struct config	 cfg;
	char		 err[1024];

	memset(&cfg, 0, sizeof(cfg));
	if (config_load(d->conffile, &cfg, err, sizeof(err)) == -1) {
		log_warnx("reload: %s; keeping the running configuration",
		    err);
		return;
	}
	if (strcmp(cfg.socket, d->cfg.socket) != 0 ||
	    strcmp(cfg.ledger, d->cfg.ledger) != 0 ||
	    strcmp(cfg.run_dir, d->cfg.run_dir) != 0 ||
	    cfg.local_cpus != d->cfg.local_cpus)
		log_warnx("reload: socket, ledger, run_dir and local_cpus "
		    "change only at restart");
	d->cfg.poll_interval = cfg.poll_interval;
	free(d->cfg.workload_path);
	d->cfg.workload_path = cfg.workload_path;
	cfg.workload_path = NULL;
	config_release(&cfg);
	log_info("configuration reloaded");
}

/* Signals only set state; the work happens here on the loop. */
static void
hpod_signal(uv_signal_t *h, int sig)
{
	struct hpod	*d = h->data;

	if (sig == SIGHUP)
		hpod_reload(d);
	else
		hpod_stop(d);
}

/*
 * Open what the daemon runs on: the ledger (locked), the local backend,
 * the control socket and the signals; take back the campaigns left
 * running.  A failure is fatal: this is start-up.
 */
static void
hpod_start(struct hpod *d)
{
	char	 err[1024];

	d->loop = uv_default_loop();
	LIST_INIT(&d->asking);
	if ((d->ledger = run_ledger(d->cfg.ledger, 0, err, sizeof(err))) ==
	    NULL)
		fatalx("%s", err);
	if ((d->lockfd = lockfile_take(d->cfg.ledger, err, sizeof(err))) ==
	    -1)
		fatalx("%s", err);
	if ((d->local = run_backend(d->loop, "local", &d->cfg, err,
	    sizeof(err))) == NULL)
		fatalx("%s", err);
	d->nsched = 1;
	if ((d->control = control_open(d->loop, d->cfg.socket, hpod_request, d,
	    err, sizeof(err))) == NULL)
		fatalx("%s", err);
	uv_signal_init(d->loop, &d->sigterm);
	uv_signal_init(d->loop, &d->sigint);
	uv_signal_init(d->loop, &d->sighup);
	d->sigterm.data = d->sigint.data = d->sighup.data = d;
	uv_signal_start(&d->sigterm, hpod_signal, SIGTERM);
	uv_signal_start(&d->sigint, hpod_signal, SIGINT);
	uv_signal_start(&d->sighup, hpod_signal, SIGHUP);
	uv_timer_init(d->loop, &d->retake);
	d->retake.data = d;
	signal(SIGPIPE, SIG_IGN);
	hpod_resume(d);
}

int
main(int argc, char *argv[])
{
	struct hpod	 d;
	char		 err[1024];
	int		 ch, foreground = 0, check = 0, verbose = 0;
	int		 ready = -1;

	memset(&d, 0, sizeof(d));
	log_init("hpod", 1, 0);
	report_alloc_init();	/* a report out of memory is its error */
	cli_help_version(argc, argv, "hpod", HPOD_USAGE);
	while ((ch = getopt(argc, argv, "df:nvV")) != -1) {
		switch (ch) {
		case 'd':
			foreground = 1;
			break;
		case 'f':
			d.conffile = optarg;
			break;
		case 'n':
			check = 1;
			break;
		case 'v':
			verbose++;
			break;
		case 'V':
			cli_version("hpod");
			return 0;
		default:
			usage();
		}
	}
	if (optind != argc) {
		fprintf(stderr, "hpod: unexpected argument '%s'\n",
		    argv[optind]);
		usage();
	}
	log_setverbose(verbose);

	/* The whole configuration is read before anything starts. */
	if (config_load(d.conffile, &d.cfg, err, sizeof(err)) == -1)
		fatalx("%s", err);
	if (check) {
		if (verbose)
			config_print(&d.cfg, stdout);
		fprintf(stderr, "configuration OK\n");
		config_release(&d.cfg);
		return 0;
	}
	/* In the background, but a start-up failure still exits 1. */
	if (!foreground && (ready = daemonize_begin(err, sizeof(err))) == -1)
		fatalx("%s", err);

	hpod_start(&d);
	log_info("hpod %s listening on %s, ledger %s", HPOD_VERSION,
	    d.cfg.socket, d.cfg.ledger);
	if (ready != -1) {
		if (daemonize_ready(ready, err, sizeof(err)) == -1)
			fatalx("%s", err);
		log_init("hpod", 0, verbose);
	}

	uv_run(d.loop, UV_RUN_DEFAULT);

	if (uv_loop_close(d.loop) != 0)
		log_warnx("event loop closed with handles still open");
	ledger_close(d.ledger);
	close(d.lockfd);
	free(d.engines);
	config_release(&d.cfg);
	log_info("stopped");
	return 0;
}
