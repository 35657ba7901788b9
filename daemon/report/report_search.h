/*
 * report_search.h: what a campaign's search and stopper were, for its
 * report: the algorithm and stopper of its spec and, for "auto", what it
 * chose and why, as the campaign's output said it (its progress events).
 */
#ifndef HPOD_REPORT_SEARCH_H
#define HPOD_REPORT_SEARCH_H

#include <cjson/cJSON.h>

#include "ledger.h"

struct report_search {
	char	algorithm[32];	/* the spec's search.algorithm */
	char	stopper[32];	/* the spec's search.stopper.algorithm, or
				   what auto chose */
	char	why[512];	/* "auto chose cmtpe: ...", or "" */
	char	stop_why[512];	/* "auto chose target: ...", or "" */
	char	held[600];	/* why it is held (report_held()), or "" */
};

/*
 * Fill rs for campaign c; what cannot be read (a spec that does not
 * parse, memory that runs out) is left "" or at its default.
 */
void	 report_search_load(struct ledger *, const struct ledger_campaign *c,
	    struct report_search *rs);
/*
 * Why running campaign c is held, in buf: the reason its last take-back
 * recorded (a 'held' event, engine_resume()), "" if it is not held.
 * 1 if held, else 0.
 */
int	 report_held(struct ledger *, const struct ledger_campaign *c,
	    char *buf, size_t len);
/*
 * Add rs to the report's JSON root as "search", and its held reason as
 * the campaign's "held" (a string, or null); -1 if memory ran out.
 */
int	 report_search_json(cJSON *root, const struct report_search *rs);

#endif
