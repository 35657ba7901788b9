/*
 * run.h: what the daemon and `hpoctl run` share to turn a spec into a
 * running engine: the spec is loaded and bound to its workload, the
 * backend chosen, and the ledger opened.
 */
#ifndef HPOD_RUN_H
#define HPOD_RUN_H

#include <stddef.h>

#include <uv.h>

#include "config.h"
#include "engine.h"
#include "ledger.h"
#include "sched.h"
#include "spec.h"
#include "workload.h"

/*
 * Load the workload of a parsed spec and bind them (spec_bind).  Return
 * the workload, or NULL with err naming the file and key.
 */
struct workload	*run_bind(struct campaign_spec *, const struct config *,
		    char *err, size_t errlen);
/*
 * Open the ledger at path, creating its directory (0700) unless readonly.
 * A writer sets the process's umask to 077 first, so that everything it
 * and its trials create is private to its user.
 */
struct ledger	*run_ledger(const char *path, int readonly, char *err,
		    size_t errlen);
/* The path of hpo-trial (malloc'ed), or NULL with err. */
char		*run_wrapper(char *err, size_t errlen);
/* Create the backend a spec asks for ("local" or "slurm"). */
struct sched	*run_backend(uv_loop_t *, const char *name,
		    const struct config *, char *err, size_t errlen);

/*
 * Create the backend a spec runs on: a replay backend of its own over the
 * spec's table, or as run_backend() for the others.
 */
struct sched	*run_spec_backend(uv_loop_t *, const struct campaign_spec *,
		    const struct config *, char *err, size_t errlen);

/* A driver of engines: hpod, or `hpoctl run` with one engine. */
struct run_driver {
	uv_loop_t		*loop;
	struct ledger		*ledger;
	const struct config	*cfg;		/* run_dir, poll_interval,
						   min_free */
	const char		*name;		/* "daemon" or "foreground" */
	/* As engine_env's progress, done, lost and arg. */
	void			(*progress)(void *, struct engine *,
				    const char *);
	void			(*done)(void *, struct engine *);
	void			(*lost)(void *, struct engine *,
				    const char *);
	void			*arg;
};

/*
 * The one way hpod and `hpoctl run` make an engine: for spec and its
 * bound workload (both taken, as engine_new takes them), on backend
 * sched, as driver d runs it.  NULL with err.
 */
struct engine	*run_engine(const struct run_driver *d, struct sched *sched,
		    struct campaign_spec *, struct workload *, char *err,
		    size_t errlen);

#endif
