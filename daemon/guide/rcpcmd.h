/*
 * rcpcmd.h: `hpoctl rcp-check`, which checks sets of runs (MLPerf result
 * folders, or the entries of hpod's RCP export) against a reference
 * convergence point file (rcp.h).
 */
#ifndef HPOD_RCPCMD_H
#define HPOD_RCPCMD_H

#include <stddef.h>

/*
 * Run `hpoctl rcp-check` with its own argv (argv[0] is "rcp-check").
 * Return 0 if every set passes, 1 if one fails or cannot be read, 64 on
 * bad usage with the reason in err (for the caller's cli_refuse).
 */
int	 rcp_command(int argc, char **argv, char *err, size_t errlen);

#endif
