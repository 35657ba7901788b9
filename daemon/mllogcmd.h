/*
 * mllogcmd.h: `hpoctl mllog`, which scores MLPerf result logs (score.h)
 * and prints them as a table or as JSON.
 */
#ifndef HPOD_MLLOGCMD_H
#define HPOD_MLLOGCMD_H

/*
 * Run `hpoctl mllog` with its own argv (argv[0] is "mllog").  Return the
 * exit status: 0, 1 if a file or directory could not be scored, 64 on
 * bad usage.
 */
int	 mllog_command(int argc, char **argv);

#endif
