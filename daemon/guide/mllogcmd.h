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

struct option;
struct score_rule;

/*
 * The long options of the scoring rule that mllog and rcp-check share,
 * for the end of a command's table (before its terminating entry):
 * --metric KEY, --target VALUE, --maximize, --minimize.
 */
#define MLLOG_RULE_LONGOPTS \
	{ "metric", required_argument, NULL, 'm' }, \
	{ "target", required_argument, NULL, 't' }, \
	{ "maximize", no_argument, NULL, 'X' }, \
	{ "minimize", no_argument, NULL, 'N' }

/*
 * Take one of a command's own options ch (argument arg) into own: 1 if
 * taken, 0 if ch is not one of them, -1 (the reason in err) if its
 * argument is wrong.
 */
typedef int	 mllog_opt_take(void *own, int ch, const char *arg,
		    char *err, size_t errlen);

/*
 * Parse the options of argv (argv[0] is the command) with longopts, GNU
 * style (options anywhere): the scoring-rule options into rule, the
 * command's own through take.  Return the index of the first operand, or
 * -1 with the reason in err (an unknown option, a missing or wrong value).
 */
int	 mllog_opts_getopt(int argc, char **argv,
	    const struct option *longopts, struct score_rule *rule,
	    mllog_opt_take *take, void *own, char *err, size_t errlen);

#endif
