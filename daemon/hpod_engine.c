/*
 * hpod_engine.c: the campaigns this hpod runs, one engine each: made for
 * a spec (on the local backend, or the Slurm one made for the first Slurm
 * campaign), found by name or id, and forgotten when they end.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "hpod.h"
#include "log.h"
#include "run.h"
#include "state.h"
#include "xmalloc.h"

/* Relay engine progress to the log. */
static void
hpod_progress(void *arg, struct engine *e, const char *line)
{
	log_info("campaign %s: %s", engine_name(e), line);
}

/* Take an engine out of the running ones and free it. */
void
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

/*
 * The Slurm backend, made for the first Slurm campaign; NULL if it
 * cannot be (a build without libslurm, no Slurm configuration): err says
 * why.
 */
struct sched *
hpod_slurm(struct hpod *d, char *err, size_t errlen)
{
	if (d->slurm == NULL && (d->slurm = run_backend(d->loop, "slurm",
	    &d->cfg, err, errlen)) != NULL)
		d->nsched++;
	return d->slurm;
}

/* Make an engine for a spec bound to its workload; it takes both. */
struct engine *
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
struct engine *
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

/* Find a running campaign by name or id. */
struct engine *
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
