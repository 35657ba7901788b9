/*
 * hpod_submit.c: the "submit" request: a campaign spec is validated,
 * bound to its workload and, a Slurm one once the controller has said it
 * would take its job (shapereq.c), recorded and started.
 */
#include <string.h>

#include "engine.h"
#include "hpod.h"
#include "log.h"
#include "run.h"
#include "testpause.h"

/* Record and start a submitted campaign; it takes s and w. */
static void
hpod_submit_start(struct hpod *d, struct campaign_spec *s,
    struct workload *w, cJSON *reply)
{
	struct engine	*e;
	char		 err[1024], out[256];

	if ((e = hpod_engine_bound(d, s, w, err, sizeof(err))) == NULL) {
		hpod_reply_error(reply, err);
		return;
	}
	if (engine_start(e, err, sizeof(err)) == -1) {
		/* Never started: no "campaign NAME (id 0) running" line. */
		log_warnx("submitted campaign '%s' refused: %s",
		    engine_name(e), err);
		hpod_forget(d, e);
		hpod_reply_error(reply, err);
		return;
	}
	d->submitted = e;
	snprintf(out, sizeof(out), "campaign '%s' submitted as id %lld\n",
	    engine_name(e), (long long)engine_id(e));
	hpod_reply_output(reply, out);
	cJSON_AddNumberToObject(reply, "id", (double)engine_id(e));
	cJSON_AddStringToObject(reply, "name", engine_name(e));
}

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
			hpod_reply_error(reply, refused != NULL ? refused :
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
void
hpod_submit(struct hpod *d, const cJSON *req, cJSON *reply)
{
	const cJSON		*spec = cJSON_GetObjectItem(req, "spec");
	const cJSON		*path = cJSON_GetObjectItem(req, "path");
	struct campaign_spec	*s;
	struct workload		*w;
	char			 err[1024], *text;

	if (!cJSON_IsObject(spec)) {
		hpod_reply_error(reply, "request.spec: expected an object");
		return;
	}
	if (path != NULL && !cJSON_IsString(path)) {
		hpod_reply_error(reply, "request.path: expected a string");
		return;
	}
	if ((text = cJSON_PrintUnformatted(spec)) == NULL) {
		hpod_reply_error(reply, "out of memory");
		return;
	}
	s = spec_parse(text, strlen(text), path ? path->valuestring :
	    "(submitted spec)", err, sizeof(err));
	cJSON_free(text);
	if (s == NULL || (w = run_bind(s, &d->cfg, err, sizeof(err))) ==
	    NULL) {
		spec_free(s);
		hpod_reply_error(reply, err);
		return;
	}
	/* No Slurm here: refused as such, not first "not checked". */
	if (strcmp(s->backend, "slurm") == 0 && hpod_slurm(d, err,
	    sizeof(err)) == NULL) {
		log_warnx("submitted campaign '%s' refused: %s", s->name, err);
		spec_free(s);
		workload_free(w);
		hpod_reply_error(reply, err);
		return;
	}
	if (shapereq_start(d->loop, d->control, &d->asking, s, w,
	    hpod_submit_asked, d) == 0) {
		d->deferred = 1;
		return;
	}
	hpod_submit_start(d, s, w, reply);
}
