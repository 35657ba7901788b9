/*
 * export.h: `hpoctl export`, a campaign of the ledger in another tool's
 * format (today Optuna's RDB storage).
 */
#ifndef HPOD_EXPORT_H
#define HPOD_EXPORT_H

struct config;

#include <stddef.h>

/*
 * Run `hpoctl export` (argv[0] is "export"); return the exit status, 64
 * on bad usage with the reason in err (for the caller's cli_refuse).
 */
int	 export_command(int argc, char **argv, const struct config *,
	    char *err, size_t errlen);

#endif
