/*
 * hpod_resume.c: taking back the campaigns the ledger holds as running,
 * at start (hpod_resume) and, after a failed commit dropped them
 * (hpod_lost), once the ledger can be written again (hpod_retake).
 */
#include <string.h>

#include "engine.h"
#include "hpod.h"
#include "log.h"
#include "state.h"

/*
 * Time between tries to take back campaigns a failed commit dropped:
 * doubled after each failed try, up to the maximum.
 */
#define HPOD_RETAKE_MS		2000
#define HPOD_RETAKE_MAX_MS	60000

static void	hpod_retake(uv_timer_t *);

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
void
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
void
hpod_engine_lost(void *arg, struct engine *e, const char *why)
{
	hpod_lost(arg, why);
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
void
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

