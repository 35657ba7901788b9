/*
 * scaling.h: the plan of a batch-size scaling campaign (hpod-campaign(5),
 * "Scaling campaigns").
 *
 * Each global batch size is a lane.  A lane is tuned by its own search
 * over the other parameters (scaling.trials_per_batch trials); the first
 * trial of every lane but the smallest is carried over from the nearest
 * smaller batch size that has a result, its learning rate moved by the
 * declared rule.  A lane opens once the one below has created all its
 * tuning trials and has a result, so the machine stays full.  When a
 * lane's tuning has ended, its best candidate configuration (ranked by
 * expected epochs to target over estimated success probability, from its
 * runs and its neighbours', see scaling_lane.c) is run again with
 * scaling.seeds fresh seeds.  A candidate that can no longer have
 * scaling.min_successes of them reach the target is abandoned and the
 * next one confirmed, while the lane's trials fit its share of the budget
 * (budget.max_trials / number of batch sizes).  Confirmation runs go
 * first.
 *
 * Decisions are a pure function of the spec, the ledger's trials and
 * their curves, so a restarted daemon takes the same ones.
 */
#ifndef HPOD_SCALING_H
#define HPOD_SCALING_H

#include <stddef.h>

#include "curves.h"
#include "ledger.h"
#include "spec.h"

enum scaling_role { ROLE_SEARCH, ROLE_TRANSFER, ROLE_CONFIRM };

enum scaling_verdict {
	SCALING_NEW,		/* create the trial planned */
	SCALING_WAIT,		/* nothing until running trials end */
	SCALING_DONE		/* every batch size tuned and confirmed */
};

struct scaling_plan {
	int		 lane;
	long		 batch;
	enum scaling_role role;
	int		 from_trial;	/* transfer, confirm: the source, or -1 */
	double		*x;		/* the point (spec->space->n values),
					   allocated by the caller */
	char		 why[256];	/* for the progress log */
};

struct scaling;

/* A plan for a bound spec (scaling.nbatch > 0); NULL with err. */
struct scaling	*scaling_new(const struct campaign_spec *, char *err,
		    size_t errlen);
void		 scaling_free(struct scaling *);

/* The ledger's name of a role, and back (-1 if unknown). */
const char	*scaling_role_name(enum scaling_role);
int		 scaling_role_parse(const char *);
/* The lane of a batch size, or -1. */
int		 scaling_lane(const struct scaling *, long batch);

/* Remember trial `number`'s lane and role (when created or resumed). */
void		 scaling_note(struct scaling *, int number, int lane,
		    enum scaling_role);
/* What was noted of trial `number`: its lane (-1 if none) and role. */
int		 scaling_lane_of(const struct scaling *, int number);
enum scaling_role scaling_role_of(const struct scaling *, int number);

/*
 * Decide the next trial from the campaign's trials (by number, from the
 * ledger) and their curves.
 */
enum scaling_verdict scaling_next(struct scaling *,
		    const struct ledger_trial *, size_t n,
		    const struct curves *, struct scaling_plan *);

/*
 * The step at which a curve first meets the spec's target; 0 if it never
 * does (or there is no target).
 */
int		 scaling_reached_step(const struct campaign_spec *,
		    const struct observation *, double *step);

#endif
