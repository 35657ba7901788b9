/*
 * report_int.h: what the renderers of reports share (report.c, guide*.c,
 * watch.c).  Private to daemon/report/ and daemon/guide/.
 */
#ifndef HPOD_REPORT_INT_H
#define HPOD_REPORT_INT_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "ledger.h"

/*
 * Set member k of o to v in its shortest exact form (cJSON's printing may
 * drop the last bit of a double), or to null when !has or v is not
 * finite; an existing member is replaced.  -1 if memory ran out (o
 * NULL included).
 */
int	 report_json_number(cJSON *o, const char *k, int has, double v);
/*
 * Print a tree as indented text with a final newline, freeing the tree;
 * NULL if root is NULL or memory ran out (report_alloc.h).
 */
char	*report_json_text(cJSON *root);
/*
 * Write s as one CSV field (RFC 4180): as it is, or in double quotes,
 * each quote doubled, when it holds a comma, a quote or a line end.
 */
void	 report_csv_text(FILE *f, const char *s);
/* Render seconds as "4.2 s", "2m 05s" or "1h 02m 03s" ("-" if unknown). */
void	 report_duration(char *buf, size_t len, double s);
/* Look a campaign up by name or id; 1 with err if there is none. */
int	 report_find(struct ledger *, const char *name,
	    struct ledger_campaign *, char *err, size_t errlen);
/*
 * rc, what a render of cmd ("report", "trials") for campaign (may be
 * NULL) returned, or -1 if memory ran out anywhere in it
 * (report_alloc_done(), which ends the render): *out is freed and err
 * says so.
 */
int	 report_alloc_check(const char *cmd, const char *campaign, int rc,
	    char **out, char *err, size_t errlen);
/* Wall-clock time now, in seconds since the epoch. */
double	 report_now(void);

/* Trials waiting for their job to start, and why (pending.c). */
struct report_pending {
	int		 trials;	/* attempts neither started nor ended */
	const char	*reason;	/* their commonest pending reason,
					   borrowed from the attempts; "" if
					   none is known (local) */
	int		 count;		/* how many pend for it */
};
/*
 * The pending trials among a campaign's attempts a[n]: a tie for the
 * commonest reason goes to the one of the lowest trial.
 */
void	 report_pending(const struct ledger_attempt *a, size_t n,
	    struct report_pending *);

#endif
