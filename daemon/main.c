/*
 * main.c: hpod, the hyperparameter-search orchestration daemon: its
 * options, the configuration read first, the start, the loop, and the
 * signals that reload or stop it.  Its campaigns, requests and their
 * taking back are hpod_*.c's (hpod.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#include "cli.h"
#include "config.h"
#include "control.h"
#include "daemonize.h"
#include "engine.h"
#include "hpod.h"
#include "lockfile.h"
#include "log.h"
#include "report_alloc.h"
#include "run.h"
#include "shapereq.h"
#include "version.h"

#define HPOD_USAGE	"hpod [-dnvV] [-f file] [--help] [--version]"

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s\n", HPOD_USAGE);
	exit(CLI_EX_USAGE);
}

/* A backend is closed; after the last, free the engines and signals. */
static void
hpod_sched_closed(void *arg)
{
	struct hpod	*d = arg;
	size_t		 i;

	if (--d->nsched > 0)
		return;
	for (i = 0; i < d->nengines; i++)
		engine_free(d->engines[i]);
	d->nengines = 0;
	uv_close((uv_handle_t *)&d->sigterm, NULL);
	uv_close((uv_handle_t *)&d->sigint, NULL);
	uv_close((uv_handle_t *)&d->sighup, NULL);
	uv_close((uv_handle_t *)&d->retake, NULL);
}

/* SIGTERM/SIGINT: stop taking requests, leave jobs running, exit. */
static void
hpod_stop(struct hpod *d)
{
	size_t	 i;

	if (d->stopping)
		return;
	d->stopping = 1;
	uv_timer_stop(&d->retake);
	log_info("shutting down; running trials are left to run and will be "
	    "re-adopted at the next start");
	/* Submits waiting for the controller are told, before the close. */
	shapereq_stop(&d->asking);
	control_close(d->control);
	d->control = NULL;
	for (i = 0; i < d->nengines; i++)
		engine_detach(d->engines[i]);
	sched_close(d->local, hpod_sched_closed, d);
	if (d->slurm != NULL)
		sched_close(d->slurm, hpod_sched_closed, d);
}

/* SIGHUP: reload the configuration; keep the old one if it is bad. */
static void
hpod_reload(struct hpod *d)
{
	struct config	 cfg;
	char		 err[1024];

	memset(&cfg, 0, sizeof(cfg));
	if (config_load(d->conffile, &cfg, err, sizeof(err)) == -1) {
		log_warnx("reload: %s; keeping the running configuration",
		    err);
		return;
	}
	if (strcmp(cfg.socket, d->cfg.socket) != 0 ||
	    strcmp(cfg.ledger, d->cfg.ledger) != 0 ||
	    strcmp(cfg.run_dir, d->cfg.run_dir) != 0 ||
	    cfg.local_cpus != d->cfg.local_cpus)
		log_warnx("reload: socket, ledger, run_dir and local_cpus "
		    "change only at restart");
	d->cfg.poll_interval = cfg.poll_interval;
	free(d->cfg.workload_path);
	d->cfg.workload_path = cfg.workload_path;
	cfg.workload_path = NULL;
	config_release(&cfg);
	log_info("configuration reloaded");
}

/* Signals only set state; the work happens here on the loop. */
static void
hpod_signal(uv_signal_t *h, int sig)
{
	struct hpod	*d = h->data;

	if (sig == SIGHUP)
		hpod_reload(d);
	else
		hpod_stop(d);
}

/*
 * Open what the daemon runs on: the ledger (locked), the local backend,
 * the control socket and the signals; take back the campaigns left
 * running.  A failure is fatal: this is start-up.
 */
static void
hpod_start(struct hpod *d)
{
	char	 err[1024];

	d->loop = uv_default_loop();
	LIST_INIT(&d->asking);
	if ((d->ledger = run_ledger(d->cfg.ledger, 0, err, sizeof(err))) ==
	    NULL)
		fatalx("%s", err);
	if ((d->lockfd = lockfile_take(d->cfg.ledger, err, sizeof(err))) ==
	    -1)
		fatalx("%s", err);
	if ((d->local = run_backend(d->loop, "local", &d->cfg, err,
	    sizeof(err))) == NULL)
		fatalx("%s", err);
	d->nsched = 1;
	if ((d->control = control_open(d->loop, d->cfg.socket, hpod_request, d,
	    err, sizeof(err))) == NULL)
		fatalx("%s", err);
	uv_signal_init(d->loop, &d->sigterm);
	uv_signal_init(d->loop, &d->sigint);
	uv_signal_init(d->loop, &d->sighup);
	d->sigterm.data = d->sigint.data = d->sighup.data = d;
	uv_signal_start(&d->sigterm, hpod_signal, SIGTERM);
	uv_signal_start(&d->sigint, hpod_signal, SIGINT);
	uv_signal_start(&d->sighup, hpod_signal, SIGHUP);
	uv_timer_init(d->loop, &d->retake);
	d->retake.data = d;
	signal(SIGPIPE, SIG_IGN);
	hpod_resume(d);
}

int
main(int argc, char *argv[])
{
	struct hpod	 d;
	char		 err[1024];
	int		 ch, foreground = 0, check = 0, verbose = 0;
	int		 ready = -1;

	memset(&d, 0, sizeof(d));
	log_init("hpod", 1, 0);
	report_alloc_init();	/* a report out of memory is its error */
	cli_help_version(argc, argv, "hpod", HPOD_USAGE);
	while ((ch = getopt(argc, argv, "df:nvV")) != -1) {
		switch (ch) {
		case 'd':
			foreground = 1;
			break;
		case 'f':
			d.conffile = optarg;
			break;
		case 'n':
			check = 1;
			break;
		case 'v':
			verbose++;
			break;
		case 'V':
			cli_version("hpod");
			return 0;
		default:
			usage();
		}
	}
	if (optind != argc) {
		fprintf(stderr, "hpod: unexpected argument '%s'\n",
		    argv[optind]);
		usage();
	}
	log_setverbose(verbose);

	/* The whole configuration is read before anything starts. */
	if (config_load(d.conffile, &d.cfg, err, sizeof(err)) == -1)
		fatalx("%s", err);
	if (check) {
		if (verbose)
			config_print(&d.cfg, stdout);
		fprintf(stderr, "configuration OK\n");
		config_release(&d.cfg);
		return 0;
	}
	/* In the background, but a start-up failure still exits 1. */
	if (!foreground && (ready = daemonize_begin(err, sizeof(err))) == -1)
		fatalx("%s", err);

	hpod_start(&d);
	log_info("hpod %s listening on %s, ledger %s", HPOD_VERSION,
	    d.cfg.socket, d.cfg.ledger);
	if (ready != -1) {
		if (daemonize_ready(ready, err, sizeof(err)) == -1)
			fatalx("%s", err);
		log_init("hpod", 0, verbose);
	}

	uv_run(d.loop, UV_RUN_DEFAULT);

	if (uv_loop_close(d.loop) != 0)
		log_warnx("event loop closed with handles still open");
	ledger_close(d.ledger);
	close(d.lockfd);
	free(d.engines);
	config_release(&d.cfg);
	log_info("stopped");
	return 0;
}
