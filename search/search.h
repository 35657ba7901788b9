/*
 * search.h: the interface every search algorithm shares.
 *
 * A search proposes points of a space given the history of the campaign.
 * Suggestions are a pure function of (algorithm, space, seed, history):
 * the same seed and the same history give the same suggestion, so the
 * daemon rebuilds the search state from the ledger after a restart.
 *
 * Pure code: no I/O, no libuv, no SQLite.
 */
#ifndef HPOD_SEARCH_H
#define HPOD_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "space.h"

enum obs_state {
	OBS_RUNNING,		/* not finished yet */
	OBS_COMPLETE,		/* finished normally */
	OBS_PRUNED,		/* stopped early by the search */
	OBS_FAILED		/* failed, diverged, timed out, cancelled */
};

/* One trial of the history, in creation order. */
struct observation {
	const double	*x;		/* space->n coordinates */
	enum obs_state	 state;
	int		 has_value;
	double		 value;		/* best objective value seen */
	size_t		 npoints;	/* learning curve, may be 0 */
	const double	*steps;		/* fidelity (epoch) of each point */
	const double	*values;	/* metric at each point */
	double		 step_s;	/* seconds per step of its curve so
					   far, 0: unknown (cmtpe's cost) */
	int		 other_bracket;	/* 1: of another Hyperband bracket
					   than the trial to suggest (tpe
					   skips it), 0 otherwise */
};

struct history {
	size_t		 n;
	const struct observation *obs;
	int		 maximize;	/* 1: larger values are better */
};

/*
 * What changed in a history since its source began it (an obsbook at its
 * load): the index of every observation appended or changed, oldest
 * first, repeats allowed.  A search that keeps a model between
 * suggestions (tpe) folds in what is new since its last call instead of
 * reading the whole history; a new id (a reload, a log cut short) makes
 * it start over.  Only for a history whose observations change nowhere
 * else (no other_bracket set per suggestion).
 */
struct history_log {
	uint64_t	 id;
	const size_t	*changed;
	size_t		 n;
};

struct search;

/* 1 if algorithm names a known search algorithm. */
int	 search_known(const char *algorithm);

/* The names of the known algorithms, NULL-terminated. */
const char *const *search_algorithms(void);

/*
 * Create a search over space (borrowed; must outlive the search).
 * Return NULL and write a message to err on a bad algorithm or a space the
 * algorithm cannot handle.  Free with search_free().
 */
struct search	*search_new(const char *algorithm, const struct space *,
		    uint64_t seed, char *err, size_t errlen);
void		 search_free(struct search *);

/*
 * Propose the next point given the history; write space->n coordinates to x.
 * Return 0, or 1 when the algorithm has nothing more to propose (a grid
 * that is exhausted).  When memory runs out, a model (tpe, mtpe, auto's
 * delegate) proposes random search's point instead, and a ranking by time
 * to target ranks by value.
 */
int	 search_suggest(struct search *, const struct history *, double *x);
/*
 * As search_suggest(), log (NULL: unknown) saying what changed in h since
 * the previous call; the suggestion is the same as without it.
 */
int	 search_suggest_logged(struct search *, const struct history *,
	    const struct history_log *log, double *x);

/*
 * Tell the search how many trials the campaign may run (0: unknown), before
 * its first suggestion; mtpe ties its start-up count to it and auto its
 * choice.
 */
void	 search_set_budget(struct search *, size_t budget);

/*
 * The algorithm that runs: the name given, or what auto chose, with why
 * in *reason ("" for a named algorithm).  Both borrowed from the search.
 */
const char *search_chosen(const struct search *, const char **reason);

/*
 * How trials are ranked: by their best value (the default), or by time to
 * target: trials whose curve met target rank ahead of all others, fewer
 * steps to it first, the others by their best value behind them.
 */
enum search_rank { SEARCH_RANK_VALUE, SEARCH_RANK_TIME_TO_TARGET };

/* Rank the history as rank says before each suggestion (target: its goal). */
void	 search_set_objective(struct search *, enum search_rank, double target);

/*
 * The history h ranked by time to target, written to out (h->n
 * observations, borrowing h's arrays): a trial whose curve met target at
 * step r becomes complete with a value ahead of any reachable value by
 * 1e12, less r; the others are copied as they are.
 */
void	 search_time_to_target(const struct history *h, double target,
	    struct observation *out);

/* Number of distinct points the algorithm can propose, 0 if unbounded. */
size_t	 search_size(const struct search *);

#endif
