/*
 * noslurm.c: the Slurm backend of a build without libslurm (make SLURM=no):
 * it says so, and the local and replay backends are all there is.
 */
#include <stdio.h>

#include "sched.h"

struct sched *
sched_slurm_new(struct uv_loop_s *loop, const char *wrapper_path,
    const struct sched_slurm_opts *opts, char *err, size_t errlen)
{
	snprintf(err, errlen, "the slurm backend is not in this build of hpod "
	    "(built with make SLURM=no: local and replay backends only)");
	return NULL;
}

int
sched_slurm_test(const struct sched_job *job, char *msg, size_t len)
{
	snprintf(msg, len, "built without libslurm (make SLURM=no)");
	return 1;
}

struct sched_slurm_test *
sched_slurm_test_start(struct uv_loop_s *loop, const struct sched_job *job,
    void (*cb)(void *, int, const char *), void *arg, char *msg, size_t len)
{
	snprintf(msg, len, "built without libslurm (make SLURM=no)");
	return NULL;
}

void
sched_slurm_test_stop(struct sched_slurm_test *t)
{
}
