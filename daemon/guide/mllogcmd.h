/*
 * mllogcmd.h: `hpoctl mllog`, which scores MLPerf result logs (score.h)
 * and prints them as a table or as JSON.
 */
#ifndef HPOD_MLLOGCMD_H
#define HPOD_MLLOGCMD_H

#include <stddef.h>

/*
 * Run `hpoctl mllog` with its own argv (argv[0] is "mllog").  Return the
 * exit status: 0, 1 if a file or directory could not be scored, 64 on
 * bad usage with the reason in err (for the caller's cli_refuse).
 */
int	 mllog_command(int argc, char **argv, char *err, size_t errlen);

struct score_rule;

/*
 * The scoring-rule options that mllog and rcp-check share, as getopt_long
 * returns them: 'm' --metric KEY, 't' --target VALUE, 'X' --maximize, 'N'
 * --minimize.  Apply option ch (argument arg) to rule: 1 if ch is one of
 * them, 0 if not, -1 (the reason in err) if its argument is wrong.
 */
int	 mllog_rule_opt(int ch, const char *arg, struct score_rule *rule,
	    char *err, size_t errlen);
/*
 * The reason getopt_long (opterr 0, optstring starting with ':') returned
 * ch ':' or '?' for argv, in err; return -1.
 */
int	 mllog_opt_refused(int ch, char **argv, char *err, size_t errlen);

#endif
