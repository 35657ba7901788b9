/*
 * train.h: the training loop every proxy trainer runs: epochs of shuffled
 * minibatches, an optimizer step per batch, an evaluation per epoch, the
 * MLLOG events around them and the end of a run that diverges.  The model,
 * its loss, its optimizer and its evaluation are the trainer's callbacks.
 */
#ifndef HPOD_PROXY_TRAIN_H
#define HPOD_PROXY_TRAIN_H

#include "opts.h"

/* What proxy_model.evaluate returns besides an exit status. */
#define PROXY_GO_ON	0	/* train another epoch */
#define PROXY_REACHED	(-1)	/* the target is reached: stop, success */

struct proxy_model {
	void	*net;
	double	 diverged;	/* a mean batch loss above this diverged */
	int	 meta_step;	/* epoch_start/stop carry step_num */
	/* Add the loss of training sample i to *loss, its gradient to net. */
	void	(*sample)(void *net, int i, double *loss);
	/*
	 * One optimizer step on the gradient summed over n samples, at step
	 * (from 0) of steps per epoch, in epoch (from 0).
	 */
	void	(*step)(void *net, int n, long step, int steps, int epoch);
	/*
	 * After epoch (from 1) trained to step with mean loss: log it,
	 * evaluate and close the epoch's events; return PROXY_GO_ON,
	 * PROXY_REACHED or an exit status (diverged()).
	 */
	int	(*evaluate)(void *net, int epoch, long step, double loss);
};

/*
 * Once the trainer has its data and model: end init, start the run and
 * train m for the epochs of o over o->ntrain samples, shuffled each
 * epoch; stop at the target or when the loss diverges.  Return the exit
 * status.
 */
int	 proxy_run(const struct proxy_opts *o, const struct proxy_model *m);

/* Say on stderr that memory ran out; return the exit status, 1. */
int	 proxy_out_of_memory(void);

#endif
