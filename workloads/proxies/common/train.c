/*
 * train.c: the training loop of the proxy trainers, around the model's
 * callbacks: each epoch shuffles the training samples, trains on them in
 * minibatches and hands the epoch to the model's evaluation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "proxy.h"
#include "train.h"

/*
 * Train for one epoch (from 0) in the order perm, starting at *step;
 * return the mean training loss, or a non-finite or huge value as soon as
 * a batch diverges.
 */
static double
proxy_epoch(const struct proxy_opts *o, const struct proxy_model *m,
    const int *perm, long *step, int epoch)
{
	int	 n = o->ntrain, steps = (n + o->batch - 1) / o->batch;
	int	 b, i, k;
	double	 total = 0;

	for (b = 0; b < n; b += o->batch, (*step)++) {
		double	 loss = 0;

		k = n - b < o->batch ? n - b : o->batch;
		for (i = b; i < b + k; i++)
			m->sample(m->net, perm[i], &loss);
		if (!isfinite(loss) || loss / k > m->diverged)
			return loss / k;
		total += loss;
		m->step(m->net, k, *step, steps, epoch);
	}
	return total / n;
}

/*
 * Train m for the epochs of o, shuffling perm (the identity at first) each
 * epoch; return the exit status.
 */
static int
proxy_train(const struct proxy_opts *o, const struct proxy_model *m,
    int *perm)
{
	uint64_t	 shuf = rng_stream(o->seed, 2);
	long		 step = 0;
	double		 loss;
	char		 meta[64];
	int		 epoch, rc;

	for (epoch = 1; epoch <= o->epochs; epoch++) {
		if (m->meta_step)
			snprintf(meta, sizeof(meta), "\"epoch_num\": %d, "
			    "\"step_num\": %ld", epoch, step);
		else
			snprintf(meta, sizeof(meta), "\"epoch_num\": %d",
			    epoch);
		MLLOG_START("epoch_start", meta);
		shuffle(perm, o->ntrain, &shuf);
		loss = proxy_epoch(o, m, perm, &step, epoch - 1);
		if (!isfinite(loss) || loss > m->diverged) {
			MLLOG_END("epoch_stop", meta);
			return diverged(epoch, "loss", loss, __LINE__);
		}
		rc = m->evaluate(m->net, epoch, step, loss);
		if (rc == PROXY_REACHED) {
			MLLOG_END("run_stop", "\"status\": \"success\"");
			return 0;
		}
		if (rc != PROXY_GO_ON)
			return rc;
	}
	MLLOG_END("run_stop", "\"status\": \"aborted\"");
	return 0;
}

/* Say on stderr that memory ran out; return the exit status, 1. */
int
proxy_out_of_memory(void)
{
	fprintf(stderr, "%s: out of memory\n", proxy_prog());
	return 1;
}

/* End init, start the run and train m; return the exit status. */
int
proxy_run(const struct proxy_opts *o, const struct proxy_model *m)
{
	int	*perm, i, status;

	if ((perm = malloc(sizeof(*perm) * o->ntrain)) == NULL)
		return proxy_out_of_memory();
	for (i = 0; i < o->ntrain; i++)
		perm[i] = i;
	MLLOG_END("init_stop", "");
	MLLOG_START("run_start", "");
	status = proxy_train(o, m, perm);
	free(perm);
	return status;
}
