/*
 * stop.h: early stopping of trials on the fidelity the workload reports
 * (epochs or steps): asynchronous successive halving (asha), Hyperband
 * brackets over it (hyperband), the median stopping rule (median) and the
 * target-aware stopper (target: stops a trial only when it is unlikely to
 * reach the campaign's target by its last step, or when it is far slower
 * than the campaign's leader).
 *
 * A stopper is asked after every new point of a trial's learning curve
 * whether the trial should go on.  Its verdict is a pure function of its
 * parameters and the history, so any search algorithm combines with any
 * stopper and a restarted daemon decides as the first one would have.
 *
 * Pure code: no I/O, no libuv, no SQLite.
 */
#ifndef HPOD_STOP_H
#define HPOD_STOP_H

#include <stddef.h>
#include <stdint.h>

#include "search.h"

enum stop_verdict { STOP_CONTINUE, STOP_PRUNE };

/* Parameters; stop_defaults() fills every one. */
struct stop_params {
	double		 min_resource;	/* first rung (asha), 1 */
	double		 max_resource;	/* last step a trial runs, 0 = none */
	int		 eta;		/* reduction factor, 3 */
	int		 warmup_trials;	/* median: completed trials needed;
					   target: trials on target before
					   their curves are a reference; 5 */
	double		 warmup_steps;	/* median, target: first step it may
					   stop (the grace period), 0 */
	double		 slack;		/* target: safety margin, >= 0, 0 */
	double		 leader;	/* target: a trial stops when its best
					   so far is worse than the best any
					   other trial had by step / leader;
					   0 = off (default), else >= 1 */
	double		 leader_steps;	/* target: first step the leader
					   rule may stop, 0 */
	double		 leader_running; /* target: the leader rule's K for
					   the other trials still running
					   (leader for the ended ones);
					   0 = leader (default), else >= 1 */
	int		 power_law;	/* target: 1 also extrapolates by the
					   most hopeful power law fitted to
					   the curve (powerlaw.c), 0 (default)
					   by the straight line alone */
	int		 has_target;	/* target: the campaign's target */
	double		 target;
	uint64_t	 seed;		/* hyperband: bracket of each trial */
};

struct stopper;

/* 1 if name is a known stopper ("none" included). */
int	 stop_known(const char *name);
/*
 * The known names, NULL-terminated: "none", "asha", "hyperband", "median",
 * "target".
 */
const char *const *stop_algorithms(void);
/*
 * The keys of search.stopper besides "algorithm" that the stopper called
 * name reads, NULL-terminated (none for "none"); NULL for an unknown name.
 * A key another stopper reads is refused for this one.
 */
const char *const *stop_keys(const char *name);
/* Fill the default parameters. */
void	 stop_defaults(struct stop_params *);

/*
 * Create a stopper (one that never stops for "none").  Return NULL with a
 * message in err for an unknown name or bad parameters.  Free it with
 * stop_free().
 */
struct stopper	*stop_new(const char *name, const struct stop_params *,
		    char *err, size_t errlen);
void		 stop_free(struct stopper *);
const char	*stop_name(const struct stopper *);

/*
 * Decide about trial number `trial` (its index in the history), which has
 * just reported value at step.  The history holds that point already;
 * stoppers read only the states and the learning curves (steps ascending)
 * of the observations, not their coordinates.  When memory runs out, the
 * trial continues.
 */
enum stop_verdict stop_decide(const struct stopper *, const struct history *,
		    size_t trial, double step, double value);
/*
 * As stop_decide(); when it stops the trial, *rule (not NULL) names the
 * rule that did, for a stopper of several ("extrapolation", "reference
 * curves" or "leader" for "target"), else "".  Static.
 */
enum stop_verdict stop_decide_why(const struct stopper *,
		    const struct history *, size_t trial, double step,
		    double value, const char **rule);

/*
 * Rung arithmetic, for messages and tests: the bracket of a trial (0 but
 * for hyperband), and the step of rung k of a bracket, min_resource *
 * eta^(bracket + k), or -1 if that rung is at or past max_resource.
 */
int	 stop_bracket(const struct stopper *, size_t trial);
double	 stop_rung(const struct stopper *, int bracket, int k);
/*
 * Set other_bracket in the n observations obs: 1 for those of another
 * bracket than trial's (hyperband), 0 for the others, so that a model
 * learns only from the bracket the trial will run in, as Optuna's
 * TPESampler does under its HyperbandPruner.  A NULL stopper clears them.
 */
void	 stop_mark_brackets(const struct stopper *, struct observation *obs,
	    size_t n, size_t trial);

/* Number of hyperband brackets (1 for the others). */
int	 stop_nbrackets(const struct stopper *);

#endif
