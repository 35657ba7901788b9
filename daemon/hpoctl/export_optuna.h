/*
 * export_optuna.h: a campaign of the ledger as an Optuna study (see
 * hpoctl(1), "Python in and out").
 */
#ifndef HPOD_EXPORT_OPTUNA_H
#define HPOD_EXPORT_OPTUNA_H

#include <stddef.h>

#include "ledger.h"

/*
 * Write campaign c as the Optuna study `study` (NULL: the campaign's
 * name) to a new SQLite file at path.  Return 0, or -1 with err.
 */
int	 export_optuna(struct ledger *, const struct ledger_campaign *c,
	    const char *study, const char *path, char *err, size_t errlen);

#endif
