/*
 * fold_campaign.h: the campaign that test_search_tpe_fold and
 * test_search_mtpe_fold play out event by event to compare what tpe and
 * mtpe keep of the history between suggestions with a rebuild.  Trials
 * of space_kinds_new()'s space start at points with many ties, up to
 * FOLD_PAR run at once and finish in random order, a few of them much
 * later than the others (completed, often on tied values; failed;
 * pruned), and now and then an old finished trial changes (a later best
 * value, a retry that runs and finishes again, a completed trial marked
 * failed, one that jumps into the best 25, the newest good one failing),
 * half of them among the newest trials.  Every trial that changes is
 * noted in the log, as the engine notes it for the fold.
 */
#ifndef FOLD_CAMPAIGN_H
#define FOLD_CAMPAIGN_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"
#include "search.h"
#include "tpe_int.h"

#define FOLD_DIM	5	/* parameters of space_kinds_new() */
#define FOLD_PAR	8	/* trials running at once */
#define FOLD_STEPS	4	/* points of a learning curve at most */
#define FOLD_CHECK	40	/* events between comparisons */
#define FOLD_NDENSE	1200	/* trials before which every event is */

/* Which trials report a learning curve. */
enum fold_curves {
	/* Only a pruned trial: two points, at step 1 and step 2 or 3. */
	FOLD_CURVES_PRUNED,
	/*
	 * Every trial that ends but a failed one: 1 to 3 points, the last
	 * a completed trial's value; now and then a running trial reports
	 * its first epoch.
	 */
	FOLD_CURVES_ALL
};

struct fold_campaign {
	struct observation	*obs;		/* obs[cap] */
	double			*xs;		/* xs[cap * FOLD_DIM] */
	double			(*steps)[FOLD_STEPS];	/* steps[cap] */
	double			(*vals)[FOLD_STEPS];	/* vals[cap] */
	size_t			 cap;
	size_t			 ntrials;	/* trials the events start */
	size_t			 n;		/* trials started */
	size_t			 run[FOLD_PAR + 2];	/* running trials */
	size_t			 nrun;
	size_t			*log;		/* log[logcap] */
	size_t			 nlog;
	size_t			 logcap;
	size_t			 nchanged;	/* old trials changed */
	size_t			 nevents;	/* events played */
	enum fold_curves	 curves;
	struct rng		 r;
};

/*
 * Set c up for a campaign whose events start ntrials trials, with room
 * for cap trials in all and logcap entries of the log, its random
 * numbers from seed; 0, or -1 when out of memory.
 * fold_campaign_release() frees what it holds.
 */
int	fold_campaign_init(struct fold_campaign *c, size_t ntrials,
	    size_t cap, size_t logcap, enum fold_curves curves,
	    uint64_t seed);
/* Free what c holds. */
void	fold_campaign_release(struct fold_campaign *c);
/*
 * Play one event: a trial starts, one finishes or (c->curves
 * FOLD_CURVES_ALL) reports its first epoch, or now and then an old
 * trial changes; then fold_campaign_view().  1 when the folds are due
 * for a comparison (after every event up to FOLD_NDENSE trials, after
 * every change and every FOLD_CHECK events beyond), else 0.
 */
int	fold_campaign_step(struct fold_campaign *c, struct history *h,
	    struct history_log *log);
/* Point h at c's trials and log at c's log, as they are now. */
void	fold_campaign_view(const struct fold_campaign *c, struct history *h,
	    struct history_log *log);
/* Trial c->n runs at x (FOLD_DIM coordinates) and finishes at once. */
void	fold_campaign_add(struct fold_campaign *c, const double *x);
/* Change an old finished trial, as a late record or a retry would. */
void	fold_campaign_change(struct fold_campaign *c);
/* 1 if two estimators have the same components, bit for bit. */
int	fold_parzen_same(const struct parzen *a, const struct parzen *b);

#endif
