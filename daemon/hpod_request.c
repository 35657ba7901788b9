/*
 * hpod_request.c: the requests of the control protocol: their table
 * (hpod_reqs), its handlers, and the transaction around a request that
 * writes, so that its reply says only what the ledger holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "hpod.h"
#include "log.h"
#include "report.h"
#include "report_alloc.h"
#include "slowreq.h"
#include "state.h"
#include "testpause.h"
#include "trials_opts.h"
#include "version.h"

/* Set a reply's error. */
void
hpod_reply_error(cJSON *reply, const char *msg)
{
	cJSON_AddFalseToObject(reply, "ok");
	cJSON_AddStringToObject(reply, "error", msg);
}

/* Set a reply's output. */
void
hpod_reply_output(cJSON *reply, const char *out)
{
	cJSON_AddTrueToObject(reply, "ok");
	cJSON_AddStringToObject(reply, "output", out);
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
	hpod_reply_error(reply, msg);
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
		hpod_reply_error(reply, msg);
	else
		hpod_reply_output(reply, msg);
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
	hpod_reply_output(reply, out);
	/* hpoctl export reads the ledger of the daemon it talks to. */
	cJSON_AddStringToObject(reply, "ledger", d->cfg.ledger);
}

/* The "submit" request, refused while the daemon stops. */
static void
hpod_submit_request(struct hpod *d, const char *campaign,
    enum report_format fmt, const cJSON *req, cJSON *reply)
{
	if (d->stopping)
		hpod_reply_error(reply, "hpod is shutting down");
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
	hpod_reply_output(reply, msg);
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
		hpod_reply_error(reply, err);
	else
		hpod_reply_output(reply, out);
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
void
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
void
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
	hpod_reply_error(reply, msg);
	hpod_lost(d, why);
}

/* A request from the control socket (control.c checked "cmd"). */
void
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
		hpod_reply_error(reply, "request.campaign: expected a string");
		return;
	}
	if (f != NULL && (!cJSON_IsString(f) ||
	    report_format_parse(f->valuestring, &fmt) == -1)) {
		hpod_reply_error(reply, "request.format: expected \"text\", "
		    "\"json\", \"csv\", \"markdown\", \"rcp\" or \"html\"");
		return;
	}
	for (r = hpod_reqs; r->cmd != NULL; r++)
		if (strcmp(r->cmd, cmd) == 0)
			break;
	if (r->campaign && c == NULL) {
		hpod_reply_error(reply, "request.campaign: required");
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
		hpod_reply_error(reply, "out of memory");
	}
	/* A deferred submit pauses before its own commit. */
	if (r->writes && !d->deferred)
		testpause_at("before-commit");
	d->deferred = 0;
	hpod_commit(d, reply, r->writes);
}
