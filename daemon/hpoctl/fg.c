/*
 * fg.c: the foreground engine (see fg.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#include "check_sbatch.h"
#include "engine.h"
#include "fg.h"
#include "log.h"
#include "resume.h"
#include "run.h"

/* The foreground engine's state. */
struct fg {
	uv_loop_t	*loop;
	struct engine	*engine;
	struct sched	*sched;
	uv_signal_t	 sigint, sigterm;
	int		 quiet;
	int		 interrupts;
	int		 lost;		/* a commit failed: fg_lost() */
	int		 following;	/* in fg_follow(), signals set */
};

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

/*
 * A commit of the ledger failed (a full disk): what the engine holds is
 * no longer what the ledger has, as after a crash at this point.  The
 * run stops as a crash would leave it, its trials running on, and exits
 * 1: `hpoctl resume` takes the campaign back from the ledger.
 */
static void
fg_lost(void *arg, struct engine *e, const char *why)
{
	struct fg	*fg = arg;

	if (fg->lost++)
		return;
	log_warnx("campaign '%s': %s; stopped, its running trials go on: "
	    "once the ledger can be written, `hpoctl resume %s` takes it "
	    "back from the ledger", engine_name(e), why, engine_name(e));
	engine_detach(e);
	if (fg->following)
		fg_done(fg, e);
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
 * What a foreground run needs before its engine: the spec (of the file
 * operand, or recorded for the campaign to take back, *cid), its workload,
 * the ledger and, when taking back, the campaign's lock.  -1 with err.
 * A refusal from here on closes the ledger with ledger_discard(): one it
 * created and left empty goes.
 */
static int
fg_open(struct config *cfg, const char *operand, int back, int cancel,
    struct campaign_spec **sp, struct workload **wp, struct ledger **lp,
    int64_t *cid, int *lockfd, char *err, size_t errlen)
{
	struct campaign_spec	*s;
	struct workload		*w = NULL;
	struct ledger		*l = NULL;

	if (back)
		s = (l = run_ledger(cfg->ledger, 0, err, errlen)) == NULL ?
		    NULL : resume_spec(l, cfg->ledger, operand, cid, err,
		    errlen);
	else
		s = spec_load(operand, err, errlen);
	/* A held campaign is not taken back to go on: it could not. */
	if (s != NULL && back && !cancel && s->hold[0] != '\0') {
		snprintf(err, errlen, "campaign '%s' is held: %s; this hpoctl "
		    "refuses its recorded spec and does not resume it "
		    "(hpoctl cancel --ledger ends it)", s->name, s->hold);
		spec_free(s);
		s = NULL;
	}
	if (s == NULL || (w = run_bind(s, cfg, err, errlen)) == NULL ||
	    (l == NULL && (l = run_ledger(cfg->ledger, 0, err, errlen)) ==
	    NULL) || (back && (*lockfd = resume_lock(cfg->ledger, *cid,
	    s->name, err, errlen)) == -1)) {
		workload_free(w);
		spec_free(s);
		ledger_discard(l);
		return -1;
	}
	*sp = s;
	*wp = w;
	*lp = l;
	return 0;
}

/*
 * Follow the started engine until its campaign ends, then close the loop
 * and print the report.  0 when it ended as asked, 2 if not, 1 on error.
 */
static int
fg_follow(struct fg *fg, struct config *cfg, struct ledger *l, int cancel,
    int lockfd, enum report_format fmt)
{
	char	 err[1024], id[32], *out = NULL;
	int	 rc;

	uv_signal_init(fg->loop, &fg->sigint);
	uv_signal_init(fg->loop, &fg->sigterm);
	fg->sigint.data = fg->sigterm.data = fg;
	uv_signal_start(&fg->sigint, fg_signal, SIGINT);
	uv_signal_start(&fg->sigterm, fg_signal, SIGTERM);
	fg->following = 1;
	if (fg->lost)
		fg_done(fg, fg->engine);
	uv_run(fg->loop, UV_RUN_DEFAULT);

	snprintf(id, sizeof(id), "%lld", (long long)engine_id(fg->engine));
	rc = fg->lost ? 1 : engine_state(fg->engine) == (cancel ?
	    CAMPAIGN_CANCELLED : CAMPAIGN_FINISHED) ? 0 : 2;
	resume_unlock(lockfd, cfg->ledger, engine_id(fg->engine));
	engine_free(fg->engine);
	uv_run(fg->loop, UV_RUN_DEFAULT);
	if (uv_loop_close(fg->loop) != 0)
		log_warnx("event loop closed with handles still open");
	if (fg->lost)
		return rc;
	if (report_campaign(l, id, fmt, &out, err, sizeof(err)) != 0) {
		fprintf(stderr, "hpoctl: %s\n", err);
		rc = 1;
	} else
		fputs(out, stdout);
	free(out);
	return rc;
}

/*
 * `hpoctl run`: run a campaign in the foreground.  `hpoctl resume` and
 * `hpoctl cancel --ledger` take back one whose foreground run died, to go
 * on or to cancel it (resume.c).
 */
int
fg_run(struct config *cfg, const char *cmd, const char *operand, int quiet,
    enum report_format fmt)
{
	struct campaign_spec	*s;
	struct workload		*w;
	struct ledger		*l;
	struct run_driver	 drv;
	struct fg		 fg;
	char			 err[1024], note[1280];
	int			 rc, lockfd = -1;
	int			 cancel = strcmp(cmd, "cancel") == 0;
	int			 back = cancel || strcmp(cmd, "resume") == 0;
	int64_t			 cid = 0;

	if (fg_open(cfg, operand, back, cancel, &s, &w, &l, &cid, &lockfd, err,
	    sizeof(err)) == -1) {
		fprintf(stderr, "hpoctl: %s\n", err);
		return 1;
	}
	/* Slurm: the controller's word first, nothing recorded. */
	if (!back && check_sbatch(s, operand, note, sizeof(note)) == -1) {
		workload_free(w);
		spec_free(s);
		ledger_discard(l);
		return 1;
	}
	if (!back && *note != '\0' && !quiet)
		log_warnx("%s", note);
	memset(&fg, 0, sizeof(fg));
	fg.loop = uv_default_loop();
	fg.quiet = quiet;
	if ((fg.sched = run_spec_backend(fg.loop, s, cfg, err,
	    sizeof(err))) == NULL) {
		fprintf(stderr, "hpoctl: %s\n", err);
		workload_free(w);
		spec_free(s);
		ledger_discard(l);
		return 1;
	}
	drv.loop = fg.loop;
	drv.ledger = l;
	drv.cfg = cfg;
	drv.name = "foreground";
	drv.progress = fg_progress;
	drv.done = fg_done;
	drv.lost = fg_lost;
	drv.arg = &fg;
	if ((fg.engine = run_engine(&drv, fg.sched, s, w, err,
	    sizeof(err))) != NULL &&
	    cancel)
		engine_cancel(fg.engine);
	if (fg.engine == NULL || (back ? engine_resume(fg.engine, cid, err,
	    sizeof(err)) : engine_start(fg.engine, err, sizeof(err))) == -1) {
		fprintf(stderr, "hpoctl: %s\n", err);
		engine_free(fg.engine);
		sched_close(fg.sched, fg_sched_closed, &fg);
		uv_run(fg.loop, UV_RUN_DEFAULT);
		ledger_discard(l);
		if (lockfd != -1)
			close(lockfd);
		return 1;
	}
	/* While this process lives, no resume may take the campaign. */
	if (!back && (lockfd = resume_lock(cfg->ledger, engine_id(fg.engine),
	    engine_name(fg.engine), err, sizeof(err))) == -1)
		log_warnx("%s", err);
	rc = fg_follow(&fg, cfg, l, cancel, lockfd, fmt);
	ledger_close(l);
	return rc;
}
