/*
 * hpoctl.c: the hpod client, and the foreground engine (`hpoctl run`).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <uv.h>

#include "client.h"
#include "config.h"
#include "engine.h"
#include "export.h"
#include "log.h"
#include "mllogcmd.h"
#include "rcpcmd.h"
#include "render.h"
#include "report.h"
#include "resume.h"
#include "run.h"
#include "spec.h"
#include "watch.h"

/* The foreground engine's state. */
struct fg {
	uv_loop_t	*loop;
	struct engine	*engine;
	struct sched	*sched;
	uv_signal_t	 sigint, sigterm;
	int		 quiet;
	int		 interrupts;
};

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr,
	    "usage: hpoctl [-f config] [-s socket] command [argument ...]\n"
	    "       hpoctl run [-q] [--ledger file] [--run-dir dir] "
	    "[--format fmt] spec\n"
	    "       hpoctl resume [-q] [--ledger file] [--run-dir dir] "
	    "[--format fmt] campaign\n"
	    "       hpoctl check spec ...\n"
	    "       hpoctl render [--trial n] [--format fmt] [--run-dir dir] "
	    "spec\n"
	    "       hpoctl submit spec\n"
	    "       hpoctl status [--ledger file] [--format fmt] [campaign]\n"
	    "       hpoctl trials [--ledger file] [--format fmt] campaign\n"
	    "       hpoctl report [--ledger file] [--format fmt] [-o file] "
	    "[--table] campaign\n"
	    "       hpoctl watch [--interval seconds] [--ledger file] campaign\n"
	    "       hpoctl export --format optuna [--ledger file] "
	    "[--study name] -o file\n"
	    "           campaign\n"
	    "       hpoctl cancel [--ledger file] campaign\n"
	    "       hpoctl ping\n"
	    "       hpoctl mllog [--json] [--metric key] [--target value]\n"
	    "           [--maximize | --minimize] file ...\n"
	    "       hpoctl mllog --summary [--json] [--metric key] "
	    "[--target value]\n"
	    "           [--maximize | --minimize] dir ...\n"
	    "       hpoctl rcp-check [--json] [--full] [--runs n] rcp-file "
	    "set ...\n");
	exit(64);
}

/* Options shared by the commands. */
struct opts {
	const char	*ledger;
	const char	*run_dir;
	const char	*format;
	const char	*output;
	int		 quiet;
	int		 table;
};

/* Parse a command's options; return the index of its first operand. */
static int
opts_parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "ledger", required_argument, NULL, 'l' },
		{ "run-dir", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "table", no_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};
	int	 ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+l:r:F:qo:", longopts, NULL)) !=
	    -1) {
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
		default:
			usage();
		}
	}
	return optind;
}

/* `hpoctl check`: validate specs (and their workloads) only. */
static int
cmd_check(int argc, char **argv, const struct config *cfg)
{
	struct campaign_spec	*s;
	struct workload		*w;
	char			 err[1024];
	int			 i, rc = 0;

	if (argc < 2)
		usage();
	for (i = 1; i < argc; i++) {
		if ((s = spec_load(argv[i], err, sizeof(err))) == NULL ||
		    (w = run_bind(s, cfg, err, sizeof(err))) == NULL) {
			fprintf(stderr, "hpoctl: %s\n", err);
			spec_free(s);
			rc = 1;
			continue;
		}
		printf("%s: ok: campaign '%s', workload '%s' (%s), %zu "
		    "parameters, %s search, %d trials, %s backend\n", argv[i],
		    s->name, w->name, w->path, s->space->n, s->algorithm,
		    s->max_trials, s->backend);
		workload_free(w);
		spec_free(s);
	}
	return rc;
}

/* Progress lines of the foreground engine go to stderr. */
static void
fg_progress(void *arg, struct engine *e, const char *line)
{
	struct fg	*fg = arg;

	if (!fg->quiet)
		log_warnx("%s: %s", engine_name(e), line);
}

/* The backend's handles are closed. */
static void
fg_sched_closed(void *arg)
{
}

/* The campaign ended: close everything so that uv_run returns. */
static void
fg_done(void *arg, struct engine *e)
{
	struct fg	*fg = arg;

	uv_close((uv_handle_t *)&fg->sigint, NULL);
	uv_close((uv_handle_t *)&fg->sigterm, NULL);
	sched_close(fg->sched, fg_sched_closed, fg);
}

/* SIGINT/SIGTERM: cancel the campaign; a second one stops waiting. */
static void
fg_signal(uv_signal_t *h, int sig)
{
	struct fg	*fg = h->data;

	if (fg->interrupts++ == 0) {
		log_warnx("signal %d: cancelling the campaign (again to quit)",
		    sig);
		engine_cancel(fg->engine);
		return;
	}
	log_warnx("signal %d: quitting; running trials are left running",
	    sig);
	exit(2);
}

/*
 * `hpoctl run`: run a campaign in the foreground.  `hpoctl resume` and
 * `hpoctl cancel --ledger` take back one whose foreground run died, to go
 * on or to cancel it (resume.c).
 */
static int
cmd_run(int argc, char **argv, struct config *cfg)
{
	struct opts		 o = { 0 };
	struct campaign_spec	*s;
	struct workload		*w = NULL;
	struct ledger		*l = NULL;
	struct engine_env	 env;
	enum report_format	 fmt = REPORT_TEXT;
	struct fg		 fg;
	char			 err[1024], id[32], *out = NULL;
	int			 i, rc = 1;
	int			 cancel = strcmp(argv[0], "cancel") == 0;
	int			 back = cancel || strcmp(argv[0], "resume") == 0;
	int			 lockfd = -1;
	int64_t			 cid = 0;

	i = opts_parse(argc, argv, &o);
	if (argc - i != 1)
		usage();
	if (o.format != NULL && report_format_parse(o.format, &fmt) == -1)
		usage();
	if (o.ledger != NULL) {
		free(cfg->ledger);
		cfg->ledger = strdup(o.ledger);
	}
	if (o.run_dir != NULL) {
		free(cfg->run_dir);
		cfg->run_dir = strdup(o.run_dir);
	}
	if (back)
		s = (l = run_ledger(cfg->ledger, 0, err, sizeof(err))) == NULL ?
		    NULL : resume_spec(l, cfg->ledger, argv[i], &cid, err,
		    sizeof(err));
	else
		s = spec_load(argv[i], err, sizeof(err));
	if (s == NULL || (w = run_bind(s, cfg, err, sizeof(err))) == NULL ||
	    (l == NULL && (l = run_ledger(cfg->ledger, 0, err, sizeof(err))) ==
	    NULL) || (back && (lockfd = resume_lock(cfg->ledger, cid, s->name,
	    err, sizeof(err))) == -1)) {
		fprintf(stderr, "hpoctl: %s\n", err);
		workload_free(w);
		spec_free(s);
		if (l != NULL)
			ledger_close(l);
		return 1;
	}
	memset(&fg, 0, sizeof(fg));
	fg.loop = uv_default_loop();
	fg.quiet = o.quiet;
	if ((fg.sched = run_spec_backend(fg.loop, s, cfg, err,
	    sizeof(err))) == NULL) {
		fprintf(stderr, "hpoctl: %s\n", err);
		workload_free(w);
		spec_free(s);
		ledger_close(l);
		return 1;
	}
	memset(&env, 0, sizeof(env));
	env.loop = fg.loop;
	env.ledger = l;
	env.sched = fg.sched;
	env.run_dir = cfg->run_dir;
	env.poll_interval = cfg->poll_interval;
	env.driver = "foreground";
	env.min_free = cfg->min_free;
	env.progress = fg_progress;
	env.done = fg_done;
	env.arg = &fg;
	if ((fg.engine = engine_new(&env, s, w, err, sizeof(err))) != NULL &&
	    cancel)
		engine_cancel(fg.engine);
	if (fg.engine == NULL || (back ? engine_resume(fg.engine, cid, err,
	    sizeof(err)) : engine_start(fg.engine, err, sizeof(err))) == -1) {
		fprintf(stderr, "hpoctl: %s\n", err);
		engine_free(fg.engine);
		sched_close(fg.sched, fg_sched_closed, &fg);
		uv_run(fg.loop, UV_RUN_DEFAULT);
		ledger_close(l);
		if (lockfd != -1)
			close(lockfd);
		return 1;
	}
	/* While this process lives, no resume may take the campaign. */
	if (!back && (lockfd = resume_lock(cfg->ledger, engine_id(fg.engine),
	    engine_name(fg.engine), err, sizeof(err))) == -1)
		log_warnx("%s", err);
	uv_signal_init(fg.loop, &fg.sigint);
	uv_signal_init(fg.loop, &fg.sigterm);
	fg.sigint.data = fg.sigterm.data = &fg;
	uv_signal_start(&fg.sigint, fg_signal, SIGINT);
	uv_signal_start(&fg.sigterm, fg_signal, SIGTERM);
	uv_run(fg.loop, UV_RUN_DEFAULT);

	snprintf(id, sizeof(id), "%lld", (long long)engine_id(fg.engine));
	rc = strcmp(engine_state(fg.engine), cancel ? "cancelled" :
	    "finished") == 0 ? 0 : 2;
	resume_unlock(lockfd, cfg->ledger, engine_id(fg.engine));
	engine_free(fg.engine);
	uv_run(fg.loop, UV_RUN_DEFAULT);
	if (uv_loop_close(fg.loop) != 0)
		log_warnx("event loop closed with handles still open");
	if (report_campaign(l, id, fmt, &out, err, sizeof(err)) != 0) {
		fprintf(stderr, "hpoctl: %s\n", err);
		rc = 1;
	} else
		fputs(out, stdout);
	free(out);
	ledger_close(l);
	return rc;
}

/* Write a command's output to the file of -o, or to the standard output. */
static int
cmd_output(const char *path, const char *text)
{
	FILE	*f;

	if (path == NULL) {
		fputs(text, stdout);
		return 0;
	}
	if ((f = fopen(path, "w")) == NULL) {
		fprintf(stderr, "hpoctl: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fputs(text, f);
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "hpoctl: write %s: %s\n", path,
		    strerror(errno));
		return 1;
	}
	return 0;
}

/* status/trials/report straight from a ledger file. */
static int
cmd_read_ledger(const char *cmd, const char *path, const char *campaign,
    enum report_format fmt, const char *output)
{
	struct ledger	*l;
	char		 err[1024], *out = NULL;
	int		 rc;

	if ((l = run_ledger(path, 1, err, sizeof(err))) == NULL) {
		fprintf(stderr, "hpoctl: %s\n", err);
		return 1;
	}
	rc = report_command(l, cmd, campaign, fmt, &out, err, sizeof(err));
	ledger_close(l);
	if (rc != 0) {
		fprintf(stderr, "hpoctl: %s\n", err);
		return 1;
	}
	rc = cmd_output(output, out);
	free(out);
	return rc;
}

/* Send a request to the daemon and print its output (to output if set). */
static int
cmd_daemon(const char *socket, cJSON *req, const char *output)
{
	cJSON		*reply = NULL, *j;
	char		 err[1024];
	int		 rc = 1;

	if (client_request(socket, req, &reply, err, sizeof(err)) == -1) {
		fprintf(stderr, "hpoctl: %s\n", err);
		cJSON_Delete(req);
		return 1;
	}
	cJSON_Delete(req);
	if (!cJSON_IsTrue(cJSON_GetObjectItem(reply, "ok"))) {
		j = cJSON_GetObjectItem(reply, "error");
		fprintf(stderr, "hpoctl: %s\n", cJSON_IsString(j) ?
		    j->valuestring : "the daemon gave no reason");
	} else {
		j = cJSON_GetObjectItem(reply, "output");
		rc = cJSON_IsString(j) ? cmd_output(output, j->valuestring) :
		    0;
	}
	cJSON_Delete(reply);
	return rc;
}

/* `hpoctl submit`: hand a spec to the daemon. */
static int
cmd_submit(int argc, char **argv, const struct config *cfg)
{
	struct campaign_spec	*s;
	cJSON			*req;
	char			 err[1024], *abs;

	if (argc != 2)
		usage();
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
	return cmd_daemon(cfg->socket, req, NULL);
}

int
main(int argc, char *argv[])
{
	struct config	 cfg;
	struct opts	 o = { 0 };
	enum report_format fmt = REPORT_TEXT;
	const char	*conffile = NULL, *sock = getenv("HPOD_SOCKET");
	const char	*cmd, *campaign = NULL;
	cJSON		*req;
	char		 err[1024];
	int		 ch, i;

	log_init("hpoctl", 1, 0);
	while ((ch = getopt(argc, argv, "+f:s:")) != -1) {
		switch (ch) {
		case 'f':
			conffile = optarg;
			break;
		case 's':
			sock = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	memset(&cfg, 0, sizeof(cfg));
	if (config_load(conffile, &cfg, err, sizeof(err)) == -1) {
		fprintf(stderr, "hpoctl: %s\n", err);
		return 1;
	}
	if (sock != NULL) {
		free(cfg.socket);
		cfg.socket = strdup(sock);
	}
	cmd = argv[0];
	if (strcmp(cmd, "run") == 0 || strcmp(cmd, "resume") == 0)
		i = cmd_run(argc, argv, &cfg);
	else if (strcmp(cmd, "check") == 0)
		i = cmd_check(argc, argv, &cfg);
	else if (strcmp(cmd, "render") == 0)
		i = render_command(argc, argv, &cfg);
	else if (strcmp(cmd, "watch") == 0)
		i = watch_command(argc, argv, &cfg);
	else if (strcmp(cmd, "export") == 0)
		i = export_command(argc, argv, &cfg);
	else if (strcmp(cmd, "submit") == 0)
		i = cmd_submit(argc, argv, &cfg);
	else if (strcmp(cmd, "status") == 0 || strcmp(cmd, "trials") == 0 ||
	    strcmp(cmd, "report") == 0 || strcmp(cmd, "cancel") == 0 ||
	    strcmp(cmd, "ping") == 0) {
		i = opts_parse(argc, argv, &o);
		if (argc - i > 1 || (argc - i == 0 && strcmp(cmd, "status") &&
		    strcmp(cmd, "ping")) || (argc - i == 1 &&
		    strcmp(cmd, "ping") == 0))
			usage();
		campaign = argc > i ? argv[i] : NULL;
		if (o.format != NULL && report_format_parse(o.format, &fmt) ==
		    -1) {
			fprintf(stderr, "hpoctl: --format: expected text, json, "
			    "csv, markdown, rcp or html, got '%s'\n", o.format);
			config_release(&cfg);
			return 64;
		}
		if (o.table && strcmp(cmd, "report") != 0)
			usage();
		if (o.table)
			cmd = "table";	/* the guideline table's read command */
		if (o.ledger != NULL && strcmp(cmd, "cancel") == 0)
			i = cmd_run(argc, argv, &cfg);
		else if (o.ledger != NULL && strcmp(cmd, "ping") == 0) {
			fprintf(stderr, "hpoctl: %s needs the daemon; "
			    "--ledger is for reading results\n", cmd);
			config_release(&cfg);
			return 64;
		} else if (o.ledger != NULL)
			i = cmd_read_ledger(cmd, o.ledger, campaign, fmt,
			    o.output);
		else {
			req = cJSON_CreateObject();
			cJSON_AddStringToObject(req, "cmd", cmd);
			if (campaign != NULL)
				cJSON_AddStringToObject(req, "campaign",
				    campaign);
			cJSON_AddStringToObject(req, "format", o.format ?
			    o.format : "text");
			i = cmd_daemon(cfg.socket, req, o.output);
		}
	} else if (strcmp(cmd, "mllog") == 0)
		i = mllog_command(argc, argv);
	else if (strcmp(cmd, "rcp-check") == 0)
		i = rcp_command(argc, argv);
	else
		usage();
	config_release(&cfg);
	return i;
}
