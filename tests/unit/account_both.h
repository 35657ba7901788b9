/*
 * account_both.h: a campaign's account made both ways, by SQL
 * (account_campaign()) and from its trial and attempt lists
 * (account_lists()), for the unit tests that check the two agree.
 */
#ifndef ACCOUNT_BOTH_H
#define ACCOUNT_BOTH_H

#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "ledger.h"

/*
 * Account campaign cid of l at time now by SQL into *sql and from its
 * lists into *lists, both zeroed first; when at is not NULL, hand back
 * the attempt list in *at and *na (ledger_attempt_list_free() it).
 * Return 0, or -1 after a TAP comment with the ledger's error.
 * account_release() both in either case.
 */
int	 account_both(struct ledger *l, int64_t cid, double now,
	    struct account *sql, struct account *lists,
	    struct ledger_attempt **at, size_t *na);

#endif
