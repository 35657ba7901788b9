/*
 * account_both.c: a campaign's account by SQL and from its lists
 * (account_both.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "account_both.h"
#include "ledger.h"

/* Account campaign cid both ways (account_both.h). */
int
account_both(struct ledger *l, int64_t cid, double now, struct account *sql,
    struct account *lists, struct ledger_attempt **at, size_t *na)
{
	struct ledger_campaign	 c;
	struct ledger_trial	*t = NULL;
	struct ledger_attempt	*a = NULL;
	struct account_group	*g = NULL;
	size_t			 nt = 0, n = 0, ng = 0;
	int			 rc = -1;

	memset(sql, 0, sizeof(*sql));
	memset(lists, 0, sizeof(*lists));
	if (at != NULL) {
		*at = NULL;
		*na = 0;
	}
	if (ledger_campaign_get(l, cid, &c) != 0) {
		printf("# %s\n", ledger_error(l));
		return -1;
	}
	if (account_campaign(l, &c, now, sql) == 0 &&
	    ledger_trial_list(l, cid, &t, &nt) == 0 &&
	    ledger_attempt_list(l, cid, 0, &a, &n) == 0 &&
	    account_lists(l, &c, now, t, nt, a, n, lists, &g, &ng) == 0)
		rc = 0;
	else
		printf("# %s\n", ledger_error(l));
	free(g);
	ledger_trial_list_free(t, nt);
	if (at != NULL) {
		*at = a;
		*na = n;
	} else
		ledger_attempt_list_free(a, n);
	ledger_campaign_release(&c);
	return rc;
}
