/*
 * obsbook.h: the search history of a running campaign, kept in memory.
 *
 * One observation per trial, indexed by trial number: its point as the
 * ledger keeps it (parsed back from the recorded params_json), its state,
 * its best value and its learning curve (borrowed from struct curves).
 * The engine appends a trial when it records it and updates it beside
 * every ledger write that changes what a search reads; obsbook_load()
 * rebuilds the same content from the ledger at a resume, so that a
 * suggestion does not depend on whether the daemon was restarted.  A new
 * trial then costs the same at the 100,000th trial as at the first: no
 * read of every earlier trial and no parse of its parameters.
 *
 * A warm-started campaign's priors (the ledger's priors table) come first,
 * before trial 0, and only from obsbook_load(): the engine loads the book
 * right after recording them, as a resume does.
 */
#ifndef HPOD_OBSBOOK_H
#define HPOD_OBSBOOK_H

#include <stddef.h>
#include <stdint.h>

#include "curves.h"
#include "ledger.h"
#include "search.h"
#include "space.h"
#include "state.h"

struct obsbook;

/* An empty book over space (borrowed; must outlive the book). */
struct obsbook	*obsbook_new(const struct space *);
void		 obsbook_free(struct obsbook *);

/*
 * Replace the content with the campaign's priors and trials in the
 * ledger, the trials' curves taken from cv.  0, or -1 (ledger error,
 * see ledger_error()).
 * A trial whose parameters do not parse is kept at the origin, with a
 * warning naming the campaign and the trial.
 */
int	 obsbook_load(struct obsbook *, struct ledger *, int64_t campaign_id,
	    const struct curves *cv, const char *name);
/*
 * Append trial `number` (the next one), running, at the point that
 * params_json gives; a point that does not parse is kept at the origin,
 * with a warning naming the campaign.
 */
void	 obsbook_add(struct obsbook *, int number, const char *params_json,
	    const char *name);
/* Set a trial's state from the ledger's name for it. */
void	 obsbook_state(struct obsbook *, int number, enum trial_state);
/* Set a trial's best value (as ledger_trial_set_best() records it). */
void	 obsbook_best(struct obsbook *, int number, double best);
/* Point a trial's curve at its points in cv again (after a change). */
void	 obsbook_curve(struct obsbook *, const struct curves *cv,
	    int number);
/*
 * The trials' observations (priors left out), trial number i at index i,
 * and their count; valid until the next obsbook_add() or obsbook_load().
 * The caller may set other_bracket in them.
 */
struct observation *obsbook_obs(struct obsbook *, size_t *n);
/*
 * The whole history the search reads: the priors, then the trials (trial
 * i at index npriors + i); valid as long as obsbook_obs()'s.
 */
struct observation *obsbook_history(struct obsbook *, size_t *n);
/*
 * What changed in obsbook_history() since the last load, for a search
 * that keeps a model between suggestions (search_suggest_logged()):
 * every appended or changed index, borrowed like obsbook_obs()'s.  A
 * caller that marks other_bracket in the observations must not pass it.
 */
void	 obsbook_log(const struct obsbook *, struct history_log *);

#endif
