/*
 * pending.c: how many of a campaign's trials wait for their job to start,
 * and the commonest reason their scheduler gives (hpoctl status).
 */
#include <string.h>

#include "report_int.h"

/* report_pending(): see report_int.h. */
void
report_pending(const struct ledger_attempt *a, size_t n,
    struct report_pending *p)
{
	size_t	 i, j;
	int	 count;

	memset(p, 0, sizeof(*p));
	p->reason = "";
	for (i = 0; i < n; i++) {
		if (a[i].started > 0 || a[i].ended > 0)
			continue;
		p->trials++;
		if (a[i].pending_reason == NULL)
			continue;
		/* Counted once, at its first attempt. */
		for (j = 0; j < i; j++)
			if (a[j].started == 0 && a[j].ended == 0 &&
			    a[j].pending_reason != NULL &&
			    strcmp(a[j].pending_reason,
			    a[i].pending_reason) == 0)
				break;
		if (j < i)
			continue;
		for (count = 0, j = i; j < n; j++)
			if (a[j].started == 0 && a[j].ended == 0 &&
			    a[j].pending_reason != NULL &&
			    strcmp(a[j].pending_reason,
			    a[i].pending_reason) == 0)
				count++;
		if (count > p->count) {
			p->count = count;
			p->reason = a[i].pending_reason;
		}
	}
}
