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
#include "state.h"

/*
 * What became of an attempt; each attempt is in exactly one bucket.
 * "retried": followed by a later attempt of the same trial, whatever its
 * end; "failed": failed, timeout, node_fail, preempted or lost, and not
 * retried; "running": not ended yet (submitting, pending or running).
 * "pilot_idle" holds no attempt: it is the idle time of the campaign's
 * pilot allocations ("dispatch": "pilot"), their allocation times their
 * elapsed time less what the attempts they ran were charged.
 */
enum {
	ACCT_OUT_COMPLETED, ACCT_OUT_PRUNED, ACCT_OUT_FAILED, ACCT_OUT_RETRIED,
	ACCT_OUT_CANCELLED, ACCT_OUT_RUNNING, ACCT_OUT_PILOT_IDLE,
	ACCT_NOUTCOMES
};
extern const char *const account_outcome_names[ACCT_NOUTCOMES];

/* The cost of a set of attempts. */
struct account_cost {
	int		 attempts;
	double		 node_seconds;
	double		 gpu_seconds;
	double		 cpu_seconds;
};

/*
 * The cost of a campaign's trials grouped by global batch size and by
 * what they were for (confirm: confirmation runs; else tuning).
 */
struct account_group {
	long		 batch_size;
	int		 confirm;
	int		 trials;
	struct account_cost cost;
};

struct account {
	int		 trials[TRIAL_NSTATES];	/* by enum trial_state */
	int		 trials_total;
	int		 attempts;
	int		 attempts_retried;	/* attempts after the first */
	double		 node_seconds;		/* pilot idle included */
	double		 gpu_seconds;
	double		 cpu_seconds;
	int		 pilots;		/* pilot allocations */
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
	int		 priors;		/* warm-start observations: in
						   none of the figures above */
	char		*prior_source;		/* owned, NULL if none */
	struct account_cost by_outcome[ACCT_NOUTCOMES];
};

/* Fill acct for campaign c at time now; release with account_release(). */
int	 account_campaign(struct ledger *, const struct ledger_campaign *c,
	    double now, struct account *acct);
void	 account_release(struct account *);

/*
 * The campaign's cost by batch size and role at time now, ordered by batch
 * size, tuning first; *out is malloc'ed (free() it), *n its length.
 */
int	 account_groups(struct ledger *, const struct ledger_campaign *c,
	    double now, struct account_group **out, size_t *n);
/*
 * account_campaign() and account_groups() at once for a report that has
 * read the campaign's lists t (ledger_trial_list()) and a
 * (ledger_attempt_list()): the attempts' sums come from the lists, the
 * same to the bit, not from three more passes of SQL over every attempt.
 * Release acct with account_release() and free() *groups.
 */
int	 account_lists(struct ledger *, const struct ledger_campaign *c,
	    double now, const struct ledger_trial *t, size_t nt,
	    const struct ledger_attempt *a, size_t na, struct account *acct,
	    struct account_group **groups, size_t *ngroups);
/* The seconds an attempt is charged for at time now (ACCT_ELAPSED). */
double	 account_attempt_elapsed(const struct ledger_attempt *, double now);
/* Add one attempt's cost at time now to cost, as the SQL above counts it. */
void	 account_attempt_add(const struct ledger_attempt *, double now,
	    struct account_cost *cost);
/* Add b to a. */
void	 account_cost_add(struct account_cost *a, const struct account_cost *b);

#endif
