/*
 * slowreq.c: the requests that read the ledger (status, report, trials)
 * are answered off the event loop.  The handler hands the request to a
 * worker thread (uv_queue_work), which opens the ledger read-only on a
 * connection of its own, computes the reply and closes it; the reply is
 * sent from the loop thread when the work is done.  A report of 10^5
 * trials so never stalls the polls, the engines or the other clients of
 * the control socket.  The worker sees what the engines have committed;
 * they commit before the loop waits (engine_flush.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"
#include "log.h"
#include "report.h"
#include "slowreq.h"
#include "trials_opts.h"

struct slowreq {
	uv_work_t		 work;
	struct control_call	*call;
	char			*ledger;	/* its path */
	cJSON			*req;		/* a copy the worker owns */
	enum report_format	 fmt;
	int			 rc;
	char			*out;
	char			 err[1024];
};

/* The worker: open the ledger read-only and compute the reply. */
static void
slowreq_run(uv_work_t *w)
{
	struct slowreq	*r = w->data;
	struct ledger	*l;
	const char	*cmd, *campaign;
	const cJSON	*c;

	cmd = cJSON_GetObjectItem(r->req, "cmd")->valuestring;
	c = cJSON_GetObjectItem(r->req, "campaign");
	campaign = cJSON_IsString(c) ? c->valuestring : NULL;
	if ((l = ledger_open(r->ledger, LEDGER_READONLY, r->err,
	    sizeof(r->err))) == NULL) {
		r->rc = -1;
		return;
	}
	if (strcmp(cmd, "trials") == 0)
		r->rc = trials_request(l, campaign, r->fmt, r->req, &r->out,
		    r->err, sizeof(r->err));
	else
		r->rc = report_command(l, cmd, campaign, r->fmt, &r->out,
		    r->err, sizeof(r->err));
	ledger_close(l);
}

/*
 * Back on the loop thread: send the reply, free the request.  A failure
 * of the daemon's side (the ledger, memory run out) is logged too; the
 * daemon goes on.
 */
static void
slowreq_done(uv_work_t *w, int status)
{
	struct slowreq	*r = w->data;
	cJSON		*reply;

	if (status == 0 && r->rc == -1)
		log_warnx("%s", r->err);
	/* NULL if memory ran out: answered "out of memory". */
	if (status != 0 || r->rc != 0)
		reply = control_reply_new(0, status != 0 ?
		    "request cancelled" : r->err);
	else
		reply = control_reply_new(1, r->out ? r->out : "");
	if (reply != NULL && status == 0 && r->rc == -2)
		cJSON_AddTrueToObject(reply, "usage");
	control_answer(r->call, reply);
	cJSON_Delete(reply);
	cJSON_Delete(r->req);
	free(r->ledger);
	free(r->out);
	free(r);
}

/* Answer a status, report or trials request on a worker thread. */
int
slowreq_start(uv_loop_t *loop, struct control *ctl, const char *ledger,
    const cJSON *req, enum report_format fmt)
{
	struct slowreq	*r;

	/* Out of memory: answered on the loop thread as it is by the caller. */
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return -1;
	if ((r->ledger = strdup(ledger)) == NULL ||
	    (r->req = cJSON_Duplicate(req, 1)) == NULL) {
		free(r->ledger);
		free(r);
		return -1;
	}
	r->fmt = fmt;
	r->work.data = r;
	if (uv_queue_work(loop, &r->work, slowreq_run, slowreq_done) != 0) {
		cJSON_Delete(r->req);
		free(r->ledger);
		free(r);
		return -1;
	}
	r->call = control_defer(ctl);
	return 0;
}
