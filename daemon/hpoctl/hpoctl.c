/*
 * hpoctl.c: the hpod client: its subcommands, their options and usage.
 * The foreground engine (`hpoctl run`) is in fg.c, requests in request.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "check_sbatch.h"
#include "cli.h"
#include "client.h"
#include "config.h"
#include "export.h"
#include "fg.h"
#include "import.h"
#include "invoke.h"
#include "log.h"
#include "mllogcmd.h"
#include "prior.h"
#include "rcpcmd.h"
#include "render.h"
#include "report.h"
#include "report_alloc.h"
#include "request.h"
#include "run.h"
#include "search.h"
#include "spec.h"
#include "trials_opts.h"
#include "watch.h"
#include "xmalloc.h"

/* The subcommands, with the usage line each prints for --help. */
struct subcmd {
	const char	*name;
	int		(*fn)(int, char **, struct config *);
	const char	*usage;
};
static const struct subcmd *subcmd_find(const char *);

/* Print every subcommand's usage on f. */
static void
usage_print(FILE *f);

static void __attribute__((noreturn))
usage(void)
{
	usage_print(stderr);
	exit(CLI_EX_USAGE);
}

/* Refuse the command line of subcommand cmd, saying why; exit 64. */
static void __attribute__((format(printf, 2, 3), noreturn))
refuse(const char *cmd, const char *fmt, ...)
{
	const struct subcmd	*c = subcmd_find(cmd);
	char			 why[512], prog[64];
	va_list			 ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(prog, sizeof(prog), "hpoctl %s", cmd);
	cli_refuse(prog, c != NULL ? c->usage : "hpoctl --help", "%s", why);
}

/* Refuse unless argc - i operands, from min to max (-1: any), remain. */
static void
operands_check(int argc, char **argv, int i, int min, int max,
    const char *what)
{
	int	 n = argc - i;

	if (n < min)
		refuse(argv[0], "%s missing", what);
	if (max >= 0 && n > max)
		refuse(argv[0], "unexpected argument '%s' (after %s)",
		    argv[i + max], what);
}

/* Options shared by the commands. */
struct opts {
	const char	*ledger;
	const char	*run_dir;
	const char	*format;
	const char	*output;
	const char	*state;		/* trials --state */
	const char	*fields;	/* trials --fields */
	const char	*trial;		/* cancel --trial */
	const char	*max_trials;	/* budget --max-trials */
	const char	*node_hours;	/* budget --max-node-hours */
	const char	*gpu_hours;	/* budget --max-gpu-hours */
	const char	*wall_time;	/* budget --max-wall-time */
	int		 quiet;
	int		 table;
	int		 noheader;	/* trials -h */
	int		 parsable;	/* trials --parsable */
};

/* The long options of the commands that opts_parse() reads. */
static const struct option opts_long[] = {
	{ "ledger", required_argument, NULL, 'l' },
	{ "run-dir", required_argument, NULL, 'r' },
	{ "format", required_argument, NULL, 'F' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "table", no_argument, NULL, 'T' },
	{ "state", required_argument, NULL, 'S' },
	{ "noheader", no_argument, NULL, 'h' },
	{ "parsable", no_argument, NULL, 'P' },
	{ "fields", required_argument, NULL, 'O' },
	{ "trial", required_argument, NULL, 'N' },
	{ "max-trials", required_argument, NULL, 'M' },
	{ "max-node-hours", required_argument, NULL, 'H' },
	{ "max-gpu-hours", required_argument, NULL, 'G' },
	{ "max-wall-time", required_argument, NULL, 'W' },
	{ NULL, 0, NULL, 0 }
};

/* Parse a command's options; return the index of its first operand. */
static int
opts_parse(int argc, char **argv, struct opts *o)
{
	int	 ch;

	optind = 0;	/* GNU: start afresh, options anywhere */
	opterr = 0;	/* refuse() says what is wrong, naming the command */
	while ((ch = getopt_long(argc, argv, ":l:r:F:qo:t:hO:", opts_long,
	    NULL)) != -1) {
		switch (ch) {
		case 'l':
			o->ledger = optarg;
			break;
		case 'r':
			o->run_dir = optarg;
			break;
		case 'F':
			o->format = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'T':
			o->table = 1;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'S':
		case 't':	/* squeue's -t */
			o->state = optarg;
			break;
		case 'h':
			o->noheader = 1;
			break;
		case 'P':
			o->parsable = 1;
			break;
		case 'O':	/* squeue's -O/--Format: columns by name */
			o->fields = optarg;
			break;
		case 'N':
			o->trial = optarg;
			break;
		case 'M':
			o->max_trials = optarg;
			break;
		case 'H':
			o->node_hours = optarg;
			break;
		case 'G':
			o->gpu_hours = optarg;
			break;
		case 'W':
			o->wall_time = optarg;
			break;
		case ':':
			refuse(argv[0], "option '%s' needs a value",
			    argv[optind - 1]);
		default:
			if (optopt != 0)
				refuse(argv[0], "unknown option '-%c'", optopt);
			refuse(argv[0], "unknown option '%s'",
			    argv[optind - 1]);
		}
	}
	return optind;
}

/*
 * Read s's prior, if it has one, as the campaign's start would: a source
 * that cannot be read or does not fit is refused now.  0, or -1 said.
 */
static int
check_prior(const struct campaign_spec *s)
{
	struct ledger_prior	*pr;
	size_t			 n;
	char			 err[1024];

	if (prior_read(s, &pr, &n, err, sizeof(err)) == -1) {
		prior_error(s, err, sizeof(err));
		fprintf(stderr, "hpoctl: %s\n", err);
		return -1;
	}
	ledger_prior_list_free(pr, n);
	return 0;
}

/*
 * What "auto" will choose and why, as the run will say it: the search
 * from the space and budget, the stopper from the spec bound to its
 * workload.  A scaling campaign's lanes choose on their own budgets.
 */
static void
check_auto(const char *path, const struct campaign_spec *s)
{
	struct search	*se;
	const char	*why;
	double		*x;

	if (strcmp(s->algorithm, "auto") == 0 && s->scaling.nbatch == 0 &&
	    (se = search_new(s->algorithm, s->space, s->seed, NULL, 0)) !=
	    NULL) {
		search_set_budget(se, (size_t)s->max_trials);
		x = xcalloc(s->space->n, sizeof(*x));
		(void)search_suggest(se, NULL, x);
		if (*search_chosen(se, &why) != '\0' && *why != '\0')
			printf("%s: search: auto chose %s\n", path, why);
		free(x);
		search_free(se);
	}
	if (s->stop_why[0] != '\0')
		printf("%s: stopper: auto chose %s\n", path, s->stop_why);
}

/* `hpoctl check`: validate specs (and their workloads) only. */
static int
cmd_check(int argc, char **argv, struct config *cfg)
{
	struct campaign_spec	*s;
	struct workload		*w;
	char			 err[1024], note[1280], cut[512];
	int			 i, rc = 0;

	operands_check(argc, argv, 1, 1, -1, "spec");
	for (i = 1; i < argc; i++) {
		if ((s = spec_load(argv[i], err, sizeof(err))) == NULL ||
		    (w = run_bind(s, cfg, err, sizeof(err))) == NULL) {
			fprintf(stderr, "hpoctl: %s\n", err);
			spec_free(s);
			rc = 1;
			continue;
		}
		if (check_sbatch(s, argv[i], note, sizeof(note)) == -1 ||
		    check_prior(s) == -1) {
			rc = 1;
			workload_free(w);
			spec_free(s);
			continue;
		}
		printf("%s: ok: campaign '%s', workload '%s' (%s), %zu "
		    "parameter%s, %s search, %d trial%s, %s backend\n",
		    argv[i], s->name, w->name, w->path, s->space->n,
		    s->space->n == 1 ? "" : "s", s->algorithm, s->max_trials,
		    s->max_trials == 1 ? "" : "s", s->backend);
		if (s->search_points > (size_t)s->max_trials)
			printf("%s: note: %s\n", argv[i], spec_grid_cut(s,
			    cut, sizeof(cut)));
		check_auto(argv[i], s);
		/* Each trial would fail to submit (render warns the same). */
		if (strcmp(s->backend, "local") == 0 &&
		    invoke_runnable(w, err, sizeof(err)) == -1)
			printf("%s: warning: %s\n", argv[i], err);
		if (s->pilot.count > 0)
			printf("%s: dispatch pilot: %s%d pilot%s of %d CPU%s and "
			    "%d GPU%s at once\n", argv[i], s->pilot.autosize ?
			    "auto, " : "", s->pilot.count, s->pilot.count == 1 ?
			    "" : "s", s->pilot.cpus, s->pilot.cpus == 1 ? "" : "s",
			    s->pilot.gpus, s->pilot.gpus == 1 ? "" : "s");
		if (s->pilot.nodes > 1)
			printf("%s: dispatch pilot: %d nodes a pilot (its CPUs "
			    "and GPUs are each node's)\n", argv[i],
			    s->pilot.nodes);
		if (*note != '\0')
			printf("%s\n", note);
		workload_free(w);
		spec_free(s);
	}
	return rc;
}

/*
 * The run directory of --run-dir as an absolute path (malloc'ed): the
 * ledger records each attempt's directory under it, and the trials, their
 * wrappers and pilot agents start in directories of their own, where a
 * relative one would name nothing.
 */
static char *
run_dir_absolute(const char *cmd, const char *dir)
{
	char	*cwd, *abs;

	if (dir[0] == '/')
		return xstrdup(dir);
	if ((cwd = getcwd(NULL, 0)) == NULL)
		refuse(cmd, "--run-dir '%s': cannot know the current "
		    "directory: %s", dir, strerror(errno));
	abs = xasprintf("%s/%s", cwd, dir);
	free(cwd);
	return abs;
}

/*
 * `hpoctl run`: run a campaign in the foreground.  `hpoctl resume` and
 * `hpoctl cancel --ledger` take back one whose foreground run died, to go
 * on or to cancel it (fg.c).
 */
static int
cmd_run(int argc, char **argv, struct config *cfg)
{
	struct opts		 o = { 0 };
	enum report_format	 fmt = REPORT_TEXT;
	int			 i;
	int			 cancel = strcmp(argv[0], "cancel") == 0;
	int			 back = cancel || strcmp(argv[0], "resume") == 0;

	i = opts_parse(argc, argv, &o);
	operands_check(argc, argv, i, 1, 1, back ? "campaign" : "spec");
	if (o.format != NULL && report_format_parse(o.format, &fmt) == -1)
		refuse(argv[0], "--format: expected text, json or csv, got "
		    "'%s'", o.format);
	if (cancel && (o.trial != NULL || o.run_dir != NULL))
		refuse(argv[0], "--ledger cancels a whole campaign that no "
		    "daemon runs; --trial and --run-dir go with the daemon");
	if (o.ledger != NULL) {
		free(cfg->ledger);
		cfg->ledger = xstrdup(o.ledger);
	}
	if (o.run_dir != NULL) {
		free(cfg->run_dir);
		cfg->run_dir = run_dir_absolute(argv[0], o.run_dir);
	}
	return fg_run(cfg, argv[0], argv[i], o.quiet, fmt);
}

/* `hpoctl submit`: hand a spec to the daemon. */
static int
cmd_submit(int argc, char **argv, struct config *cfg)
{
	struct campaign_spec	*s;
	cJSON			*req;
	char			 err[1024], *abs;

	operands_check(argc, argv, 1, 1, 1, "spec");
	/* Validate here too, so that errors name the user's file. */
	if ((s = spec_load(argv[1], err, sizeof(err))) == NULL) {
		fprintf(stderr, "hpoctl: %s\n", err);
		return 1;
	}
	req = cJSON_CreateObject();
	cJSON_AddStringToObject(req, "cmd", "submit");
	abs = strcmp(argv[1], "-") ? realpath(argv[1], NULL) : NULL;
	cJSON_AddStringToObject(req, "path", abs ? abs : argv[1]);
	free(abs);
	cJSON_AddItemToObject(req, "spec", cJSON_Parse(s->json));
	spec_free(s);
	return request_daemon(cfg->socket, req, NULL);
}

/* status, trials, report, cancel and ping: from the daemon or a ledger. */
static int
cmd_read(int argc, char **argv, struct config *cfg)
{
	struct opts		 o = { 0 };
	enum report_format	 fmt = REPORT_TEXT;
	const char		*cmd = argv[0], *campaign;
	cJSON			*req;
	char			 why[256];
	int			 i, rc, any = strcmp(cmd, "status") == 0;

	i = opts_parse(argc, argv, &o);
	if (strcmp(cmd, "ping") == 0)
		operands_check(argc, argv, i, 0, 0, "ping");
	else
		operands_check(argc, argv, i, any ? 0 : 1, 1, "campaign");
	campaign = argc > i ? argv[i] : NULL;
	if (o.format != NULL && report_format_parse(o.format, &fmt) == -1)
		refuse(cmd, "--format: expected text, json, csv, markdown, rcp "
		    "or html, got '%s'", o.format);
	if (o.table && strcmp(cmd, "report") != 0)
		refuse(cmd, "--table is an option of report");
	if (o.run_dir != NULL || o.quiet)
		refuse(cmd, "--run-dir and -q are options of run");
	if ((o.state != NULL || o.noheader || o.parsable ||
	    o.fields != NULL) &&
	    strcmp(cmd, "trials") != 0)
		refuse(cmd, "--state, -h, --parsable and --fields are options "
		    "of trials");
	if (o.state != NULL && trials_states_check(o.state, why,
	    sizeof(why)) == -1)
		refuse(cmd, "%s", why);
	if (o.fields != NULL && o.format != NULL && fmt != REPORT_TEXT &&
	    fmt != REPORT_CSV)
		refuse(cmd, "--fields chooses the columns of text and CSV "
		    "(the JSON form has every key), not of %s", o.format);
	if (o.trial != NULL && strcmp(cmd, "cancel") != 0)
		refuse(cmd, "--trial is an option of cancel");
	if (o.max_trials != NULL || o.node_hours != NULL ||
	    o.gpu_hours != NULL || o.wall_time != NULL)
		refuse(cmd, "--max-* are options of budget");
	if (o.trial != NULL && (*o.trial == '\0' || strlen(o.trial) > 9 ||
	    strspn(o.trial, "0123456789") != strlen(o.trial)))
		refuse(cmd, "--trial: expected a trial number, got '%s'",
		    o.trial);
	if (o.table)
		cmd = "table";	/* the guideline table's read command */
	/* A campaign whose foreground run died: no daemon to ask. */
	if (o.ledger != NULL && strcmp(cmd, "cancel") == 0)
		return cmd_run(argc, argv, cfg);
	if (o.ledger != NULL && strcmp(cmd, "ping") == 0)
		refuse(cmd, "needs the daemon; --ledger is for reading "
		    "results");
	req = cJSON_CreateObject();
	cJSON_AddStringToObject(req, "cmd", cmd);
	if (campaign != NULL)
		cJSON_AddStringToObject(req, "campaign", campaign);
	cJSON_AddStringToObject(req, "format", o.format ? o.format : "text");
	if (o.state != NULL)
		cJSON_AddStringToObject(req, "state", o.state);
	if (o.noheader)
		cJSON_AddTrueToObject(req, "noheader");
	if (o.parsable)
		cJSON_AddTrueToObject(req, "parsable");
	if (o.fields != NULL)
		cJSON_AddStringToObject(req, "fields", o.fields);
	if (o.trial != NULL)
		cJSON_AddNumberToObject(req, "trial", atoi(o.trial));
	if (o.ledger != NULL) {
		rc = request_ledger(cmd, o.ledger, campaign, fmt, req,
		    o.output);
		cJSON_Delete(req);
		return rc;
	}
	return request_daemon(cfg->socket, req, o.output);
}

/* A positive number option of budget, or refuse it. */
static double
budget_number(const char *opt, const char *v, double max)
{
	char	*end;
	double	 n;

	n = strtod(v, &end);
	if (*v == '\0' || *end != '\0' || !(n > 0) || n > max)
		refuse("budget", "%s: expected a positive number up to %g, got "
		    "'%s'", opt, max, v);
	return n;
}

/* `hpoctl budget`: change a running campaign's budget. */
static int
cmd_budget(int argc, char **argv, struct config *cfg)
{
	struct opts	 o = { 0 };
	cJSON		*req;
	double		 n;
	int		 i;

	i = opts_parse(argc, argv, &o);
	operands_check(argc, argv, i, 1, 1, "campaign");
	if (o.max_trials == NULL && o.node_hours == NULL &&
	    o.gpu_hours == NULL && o.wall_time == NULL)
		refuse("budget", "--max-trials, --max-node-hours, "
		    "--max-gpu-hours or --max-wall-time missing");
	if (o.ledger != NULL || o.format != NULL || o.output != NULL ||
	    o.state != NULL || o.trial != NULL || o.table || o.quiet ||
	    o.noheader || o.parsable || o.fields != NULL || o.run_dir != NULL)
		refuse("budget", "takes --max-trials, --max-node-hours, "
		    "--max-gpu-hours and --max-wall-time only");
	req = cJSON_CreateObject();
	cJSON_AddStringToObject(req, "cmd", "budget");
	cJSON_AddStringToObject(req, "campaign", argv[i]);
	if (o.max_trials != NULL) {
		n = budget_number("--max-trials", o.max_trials, 1000000);
		if (n != (int)n)
			refuse("budget", "--max-trials: expected an integer, "
			    "got '%s'", o.max_trials);
		cJSON_AddNumberToObject(req, "max_trials", n);
	}
	if (o.node_hours != NULL)
		cJSON_AddNumberToObject(req, "max_node_hours",
		    budget_number("--max-node-hours", o.node_hours, 1e9));
	if (o.gpu_hours != NULL)
		cJSON_AddNumberToObject(req, "max_gpu_hours",
		    budget_number("--max-gpu-hours", o.gpu_hours, 1e9));
	if (o.wall_time != NULL) {
		if (spec_parse_duration(o.wall_time) <= 0)
			refuse("budget", "--max-wall-time: expected a duration "
			    "as sbatch --time takes it, got '%s'", o.wall_time);
		cJSON_AddStringToObject(req, "max_wall_time", o.wall_time);
	}
	return request_daemon(cfg->socket, req, NULL);
}

/* render, watch and mllog live in their own files. */
static int
cmd_render(int argc, char **argv, struct config *cfg)
{
	return render_command(argc, argv, cfg);
}

static int
cmd_watch(int argc, char **argv, struct config *cfg)
{
	return watch_command(argc, argv, cfg);
}

static int
cmd_mllog(int argc, char **argv, struct config *cfg)
{
	char	 err[512] = "";
	int	 rc = mllog_command(argc, argv, err, sizeof(err));

	if (rc == CLI_EX_USAGE)
		refuse(argv[0], "%s", err);
	return rc;
}

static int
cmd_export(int argc, char **argv, struct config *cfg)
{
	char	 err[512] = "";
	int	 rc = export_command(argc, argv, cfg, err, sizeof(err));

	if (rc == CLI_EX_USAGE)
		refuse(argv[0], "%s", err);
	return rc;
}

static int
cmd_import(int argc, char **argv, struct config *cfg)
{
	return import_command(argc, argv);
}

static int
cmd_rcp(int argc, char **argv, struct config *cfg)
{
	char	 err[512] = "";
	int	 rc = rcp_command(argc, argv, err, sizeof(err));

	if (rc == CLI_EX_USAGE)
		refuse(argv[0], "%s", err);
	return rc;
}

static const struct subcmd subcmds[] = {
	{ "run", cmd_run, "hpoctl run [-q] [--ledger file] [--run-dir dir] "
	    "[--format fmt] spec" },
	{ "resume", cmd_run, "hpoctl resume [-q] [--ledger file] "
	    "[--run-dir dir] [--format fmt] campaign" },
	{ "check", cmd_check, "hpoctl check spec ..." },
	{ "render", cmd_render, "hpoctl render [--trial n] [--format fmt] "
	    "[--run-dir dir] spec" },
	{ "submit", cmd_submit, "hpoctl submit spec" },
	{ "status", cmd_read, "hpoctl status [--ledger file] [--format fmt] "
	    "[-o file] [campaign]" },
	{ "trials", cmd_read, "hpoctl trials [--ledger file] [--format fmt] "
	    "[-o file] [-t|--state list] [-h|--noheader]\n"
	    "           [--parsable] [-O|--fields list] campaign" },
	{ "report", cmd_read, "hpoctl report [--ledger file] [--format fmt] "
	    "[-o file] [--table] campaign" },
	{ "watch", cmd_watch, "hpoctl watch [--interval seconds] "
	    "[--ledger file] campaign" },
	{ "export", cmd_export, "hpoctl export --format optuna "
	    "[--ledger file] [--study name] -o file campaign" },
	{ "import", cmd_import, "hpoctl import [--study name | --campaign "
	    "name] --from file [-o output] spec" },
	{ "cancel", cmd_read, "hpoctl cancel [--trial n] campaign\n"
	    "       hpoctl cancel --ledger file campaign" },
	{ "budget", cmd_budget, "hpoctl budget [--max-trials n] "
	    "[--max-node-hours h] [--max-gpu-hours h]\n"
	    "           [--max-wall-time duration] campaign" },
	{ "ping", cmd_read, "hpoctl ping" },
	{ "mllog", cmd_mllog, "hpoctl mllog [--json] [--metric key] "
	    "[--target value]\n"
	    "           [--maximize | --minimize] file ...\n"
	    "       hpoctl mllog --summary [--json] [--metric key] "
	    "[--target value]\n"
	    "           [--maximize | --minimize] dir ...\n"
	    "       hpoctl mllog --table [--format fmt] [--metric key] "
	    "[--target value]\n"
	    "           [--maximize | --minimize] dir ..." },
	{ "rcp-check", cmd_rcp, "hpoctl rcp-check [--json] [--full] "
	    "[--runs n] [--metric key]\n"
	    "           [--target value] [--maximize | --minimize] "
	    "rcp-file set ..." },
};

static const struct subcmd *
subcmd_find(const char *name)
{
	size_t	 i;

	for (i = 0; i < sizeof(subcmds) / sizeof(subcmds[0]); i++)
		if (strcmp(subcmds[i].name, name) == 0)
			return &subcmds[i];
	return NULL;
}

static void
usage_print(FILE *f)
{
	size_t	 i;

	fprintf(f, "usage: hpoctl [-f config] [-s socket] command "
	    "[argument ...]\n");
	fprintf(f, "       hpoctl --help | --version | command --help\n");
	for (i = 0; i < sizeof(subcmds) / sizeof(subcmds[0]); i++)
		fprintf(f, "       %s\n", subcmds[i].usage);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const struct subcmd	*c;
	struct config		 cfg;
	const char		*conffile = NULL, *sock = getenv("HPOD_SOCKET");
	char			 err[1024], prog[64];
	int			 ch, rc;

	log_init("hpoctl", 1, 0);
	report_alloc_init();	/* a report out of memory is its error */
	while ((ch = getopt_long(argc, argv, "+f:s:V", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'f':
			conffile = optarg;
			break;
		case 's':
			sock = optarg;
			break;
		case 'h':
			usage_print(stdout);
			return 0;
		case 'V':
			cli_version("hpoctl");
			return 0;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		fprintf(stderr, "hpoctl: no command given\n");
		usage();
	}
	if ((c = subcmd_find(argv[0])) == NULL) {
		fprintf(stderr, "hpoctl: unknown command '%s'\n", argv[0]);
		usage();
	}
	snprintf(prog, sizeof(prog), "hpoctl %s", c->name);
	cli_help_version(argc, argv, prog, c->usage);
	memset(&cfg, 0, sizeof(cfg));
	if (config_load(conffile, &cfg, err, sizeof(err)) == -1) {
		fprintf(stderr, "hpoctl: %s\n", err);
		return 1;
	}
	if (sock != NULL) {
		free(cfg.socket);
		cfg.socket = xstrdup(sock);
	}
	rc = c->fn(argc, argv, &cfg);
	config_release(&cfg);
	return rc;
}
