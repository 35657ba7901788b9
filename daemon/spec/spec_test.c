/*
 * spec_test.c: what `sbatch --test-only` is asked about a Slurm campaign's
 * jobs (every distinct shape it submits: each batch size's trials, its
 * pilots), and its answer told in words naming the spec file, the
 * campaign, the key to blame and the shape: `hpoctl check`, `hpoctl run`
 * and hpod's submit ask the same questions and say the same thing.
 */
#include <stdio.h>
#include <string.h>

#include "invoke.h"
#include "sched.h"
#include "spec.h"

/* Trials' jobs: one per batch size when the batch size sizes them. */
static size_t
spec_test_ntrials(const struct campaign_spec *s)
{
	return s->scaling.nbatch > 0 && s->scaling.local_batch > 0 ?
	    s->scaling.nbatch : 1;
}

/* spec_test_njobs(): see spec.h. */
size_t
spec_test_njobs(const struct campaign_spec *s)
{
	return spec_test_ntrials(s) + (s->pilot.count > 0);
}

/* Job i, and the key that sets its shape. */
static void
spec_test_make(const struct campaign_spec *s, size_t i, struct sched_job *job,
    struct spec_test_what *what)
{
	struct spec_resources	 r;
	char			 err[256];
	long			 b;

	memset(job, 0, sizeof(*job));
	memset(what, 0, sizeof(*what));
	job->name = s->name;
	invoke_job_resources(s, NULL, job);
	if (i == spec_test_ntrials(s)) {
		invoke_pilot_job(s, job);
		snprintf(what->key, sizeof(what->key), "pilot");
		snprintf(what->shape, sizeof(what->shape), "needs %d node%s x "
		    "%d CPU%s and %d GPU%s", job->nodes, job->nodes == 1 ? "" :
		    "s", job->cpus_per_task, job->cpus_per_task == 1 ? "" :
		    "s", job->gpus_per_node, job->gpus_per_node == 1 ? "" :
		    "s");
		return;
	}
	if (spec_test_ntrials(s) == 1) {
		snprintf(what->key, sizeof(what->key), "%s",
		    s->res.slurm.sbatch != NULL ? "resources.sbatch_extra" :
		    "resources");
		return;
	}
	/* spec_parse() checked every batch size's resources. */
	b = s->scaling.batch_sizes[i];
	if (spec_resources_for(s, b, &r, err, sizeof(err)) == -1)
		r = s->res;
	job->nodes = r.nodes;
	job->gpus_per_node = r.gpus_per_node;
	job->tasks_per_node = r.tasks_per_node;
	snprintf(what->key, sizeof(what->key), "batch_sizes[%zu] = %ld",
	    s->scaling.batch_pos[i], b);
	if (r.gpus_per_node > 0)
		snprintf(what->shape, sizeof(what->shape), "needs %d node%s "
		    "x %d GPU%s", r.nodes, r.nodes == 1 ? "" : "s",
		    r.gpus_per_node, r.gpus_per_node == 1 ? "" : "s");
	else
		snprintf(what->shape, sizeof(what->shape), "needs %d node%s "
		    "x %d task%s", r.nodes, r.nodes == 1 ? "" : "s",
		    r.tasks_per_node, r.tasks_per_node == 1 ? "" : "s");
}

/* Whether two jobs ask the controller for the same thing. */
static int
spec_test_same(const struct sched_job *a, const struct sched_job *b)
{
	return a->nodes == b->nodes && a->gpus_per_node == b->gpus_per_node &&
	    a->cpus_per_task == b->cpus_per_task &&
	    a->tasks_per_node == b->tasks_per_node &&
	    a->time_limit == b->time_limit;
}

/* spec_test_job(): see spec.h. */
int
spec_test_job(const struct campaign_spec *s, size_t i, struct sched_job *job,
    struct spec_test_what *what)
{
	struct sched_job	 prev;
	struct spec_test_what	 pw;
	size_t			 j;

	spec_test_make(s, i, job, what);
	for (j = 0; j < i; j++) {
		spec_test_make(s, j, &prev, &pw);
		if (spec_test_same(&prev, job))
			return -1;
	}
	return 0;
}

/* spec_test_say(): see spec.h. */
void
spec_test_say(const struct campaign_spec *s, const char *path,
    const struct spec_test_what *what, size_t asked, int rc,
    const char *said, char *out, size_t len)
{
	const char	*key = what->key;
	const char	*sep = *what->shape != '\0' ? ": " : "";

	if (rc == -1)
		snprintf(out, len, "%s: campaign '%s': %s%s%s%ssbatch "
		    "--test-only refuses the job: %s", path, s->name, key, sep,
		    what->shape, *sep != '\0' ? "; " : ": ", said);
	else if (rc == 0 && asked <= 1)
		snprintf(out, len, "%s: sbatch --test-only: %s", path, said);
	else if (rc == 0)
		snprintf(out, len, "%s: sbatch --test-only takes the "
		    "campaign's %zu job shapes; the last, %s%s%s: %s", path,
		    asked, key, sep, what->shape, said);
	else
		snprintf(out, len, "%s: %s not checked with the controller: "
		    "%s", path, strcmp(key, "resources.sbatch_extra") == 0 ?
		    "sbatch_extra" : key, said);
}
