/*
 * export.h: `hpoctl export`, a campaign of the ledger in another tool's
 * format (today Optuna's RDB storage).
 */
#ifndef HPOD_EXPORT_H
#define HPOD_EXPORT_H

struct config;

/* Run `hpoctl export` (argv[0] is "export"); return the exit status. */
int	 export_command(int argc, char **argv, const struct config *);

#endif
