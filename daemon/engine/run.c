/*
 * run.c: set-up shared by the daemon and the foreground engine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"
#include "paths.h"
#include "run.h"
#include "xmalloc.h"

/* Prefix err with "PATH: KEY: ", the spec file and key at fault. */
static void
run_prefix(const char *path, const char *key, char *err, size_t errlen)
{
	char	*msg;

	msg = xstrdup(err);
	snprintf(err, errlen, "%s: %s: %s", path, key, msg);
	free(msg);
}

/* Find the spec's workload and bind the two. */
struct workload *
run_bind(struct campaign_spec *s, const struct config *cfg, char *err,
    size_t errlen)
{
	char		**dirs, **prog;
	struct workload	*w;

	dirs = paths_workdirs(cfg->workload_path);
	prog = paths_progdirs();
	w = workload_find(s->workload, s->path, (const char *const *)dirs,
	    (const char *const *)prog, err, errlen);
	workload_strv_free(dirs);
	workload_strv_free(prog);
	if (w == NULL) {
		run_prefix(s->path, "workload", err, errlen);
		return NULL;
	}
	if (spec_bind(s, w, err, errlen) == -1) {
		workload_free(w);
		return NULL;
	}
	return w;
}

/*
 * Open a ledger, creating its directory when writing.  A writer (hpod or
 * `hpoctl run`) first sets umask 077: the ledger, the run directories and
 * the trials' output it creates are its user's alone.
 */
struct ledger *
run_ledger(const char *path, int readonly, char *err, size_t errlen)
{
	char	*dir;

	if (!readonly) {
		umask(077);
		dir = paths_dirname(path);
		if (paths_mkdir(dir, 0700) == -1) {
			snprintf(err, errlen, "%s: %s", dir, strerror(errno));
			free(dir);
			return NULL;
		}
		free(dir);
	}
	return ledger_open(path, readonly ? LEDGER_READONLY : 0, err, errlen);
}

/* The path of hpo-trial (malloc'ed), or NULL with err. */
char *
run_wrapper(char *err, size_t errlen)
{
	char	**prog, *wrapper;

	prog = paths_progdirs();
	wrapper = workload_which("hpo-trial", (const char *const *)prog);
	workload_strv_free(prog);
	if (wrapper == NULL)
		snprintf(err, errlen, "hpo-trial not found beside the "
		    "executable, in " HPOD_LIBEXECDIR " or in $PATH");
	return wrapper;
}

/* Create a backend by name: "local" or "slurm". */
struct sched *
run_backend(uv_loop_t *loop, const char *name, const struct config *cfg,
    char *err, size_t errlen)
{
	struct sched_slurm_opts	 so;
	char			*wrapper;
	struct sched		*s;

	if (strcmp(name, "local") != 0 && strcmp(name, "slurm") != 0) {
		snprintf(err, errlen, "unknown backend '%s'", name);
		return NULL;
	}
	if ((wrapper = run_wrapper(err, errlen)) == NULL)
		return NULL;
	if (strcmp(name, "slurm") == 0) {
		so.poll_min = (uint64_t)cfg->slurm_poll_min;
		so.poll_max = (uint64_t)(cfg->slurm_poll_max <
		    cfg->slurm_poll_min ? cfg->slurm_poll_min :
		    cfg->slurm_poll_max);
		so.kick = (uint64_t)cfg->slurm_poll_kick;
		so.array_min = (int)cfg->slurm_array_min;
		so.warn = log_warnx;
		s = sched_slurm_new(loop, wrapper, &so, err, errlen);
	} else
		s = sched_local_new(loop, wrapper, (int)cfg->local_cpus, err,
		    errlen);
	free(wrapper);
	return s;
}

/* Create the backend of a spec. */
struct sched *
run_spec_backend(uv_loop_t *loop, const struct campaign_spec *s,
    const struct config *cfg, char *err, size_t errlen)
{
	if (strcmp(s->backend, "replay") == 0)
		return sched_replay_new(loop, s->replay_table, err, errlen);
	return run_backend(loop, s->backend, cfg, err, errlen);
}

/* Make an engine as driver d runs it (see run.h). */
struct engine *
run_engine(const struct run_driver *d, struct sched *sched,
    struct campaign_spec *s, struct workload *w, char *err, size_t errlen)
{
	struct engine_env	 env;

	memset(&env, 0, sizeof(env));
	env.loop = d->loop;
	env.ledger = d->ledger;
	env.sched = sched;
	env.run_dir = d->cfg->run_dir;
	env.poll_interval = d->cfg->poll_interval;
	env.driver = d->name;
	env.min_free = d->cfg->min_free;
	env.progress = d->progress;
	env.done = d->done;
	env.lost = d->lost;
	env.arg = d->arg;
	return engine_new(&env, s, w, err, errlen);
}
