/*
 * account.h: what a campaign cost and what it found, computed by SQL over
 * every attempt of the campaign.
 *
 * Cost of an attempt = elapsed (end - start, or now - start while it runs)
 * times its allocation; every attempt counts whatever its end.
 */
#ifndef HPOD_ACCOUNT_H
#define HPOD_ACCOUNT_H

#include <stdint.h>

#include "ledger.h"

/* Trial states as counted by account_campaign(). */
enum {
	ACCT_PENDING, ACCT_RUNNING, ACCT_COMPLETED, ACCT_FAILED, ACCT_PRUNED,
	ACCT_CANCELLED, ACCT_NSTATES
};
extern const char *const account_state_names[ACCT_NSTATES];

struct account {
	int		 trials[ACCT_NSTATES];
	int		 trials_total;
	int		 attempts;
	int		 attempts_retried;	/* attempts after the first */
	double		 node_seconds;
	double		 gpu_seconds;
	double		 cpu_seconds;
	double		 queue_seconds;		/* submit -> start, summed */
	int		 pruned_attempts;	/* stopped early by the search */
	double		 pruned_node_seconds;	/* their part of the cost */
	double		 pruned_gpu_seconds;
	double		 pruned_cpu_seconds;
	double		 elapsed_seconds;	/* run time, summed */
	int		 reached;		/* trials that met the target */
	int		 has_tts;
	double		 tts_seconds;		/* campaign start -> first reach */
	int		 tts_trial;
	int		 has_best;
	int		 best_trial;		/* trial number */
	double		 best_value;
	int		 best_reached;
	char		*best_params_json;	/* owned */
	double		 wall_seconds;		/* campaign start -> end/now */
};

/* Fill acct for campaign c at time now; release with account_release(). */
int	 account_campaign(struct ledger *, const struct ledger_campaign *c,
	    double now, struct account *acct);
void	 account_release(struct account *);

#endif
