/*
 * hpod.h: the daemon's top-level state and what hpod's own files share:
 * main.c (options, start, signals, reload, stop), hpod_engine.c (the
 * campaigns it runs), hpod_request.c (the control requests),
 * hpod_submit.c (the submit request) and hpod_resume.c (taking the
 * campaigns back from the ledger).  Only the hpod program has these
 * files (the Makefile's HPODSRC): nothing else has a struct hpod.
 *
 * Who owns what: main() has the one struct hpod and, at exit, closes
 * its ledger and lock and releases its configuration and engine array.
 * hpod_stop() closes the control socket, the backends and, with the
 * last backend, the signals and the retake timer.  The engines in
 * engines[] are hpod's: hpod_forget() takes one out and frees it;
 * submitted only points at one of them.  The questions on asking are
 * shapereq.c's until they answer.
 */
#ifndef HPOD_HPOD_H
#define HPOD_HPOD_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <uv.h>

#include "config.h"
#include "shapereq.h"

struct engine;
struct ledger;
struct sched;

/* The daemon's top-level state: the only global state hpod has. */
struct hpod {
	uv_loop_t	*loop;
	const char	*conffile;
	struct config	 cfg;
	struct ledger	*ledger;
	struct sched	*local;
	struct sched	*slurm;		/* made for the first Slurm campaign */
	int		 nsched;	/* backends still open */
	struct control	*control;
	int		 lockfd;	/* the ledger's lock (lockfile.h) */
	struct engine	**engines;
	size_t		 nengines;
	struct engine	*submitted;	/* a submit's, until its record commits */
	struct shapereqs asking;	/* submits waiting for the controller */
	int		 deferred;	/* the request handled now waits for
					   the controller, and commits later */
	uv_signal_t	 sigterm, sigint, sighup;
	uv_timer_t	 retake;	/* hpod_retake(), while lost */
	uint64_t	 retake_ms;	/* its period now */
	int		 lost;		/* campaigns wait to be taken back */
	unsigned	 nlost;		/* failed commits so far */
	int		 stopping;
};

/* hpod_engine.c: the campaigns this hpod runs, one engine each. */
struct sched	*hpod_slurm(struct hpod *, char *err, size_t errlen);
struct engine	*hpod_engine_bound(struct hpod *, struct campaign_spec *,
		    struct workload *, char *err, size_t errlen);
struct engine	*hpod_engine(struct hpod *, struct campaign_spec *,
		    char *err, size_t errlen);
struct engine	*hpod_find(struct hpod *, const char *name);
void		 hpod_forget(struct hpod *, struct engine *);

/* hpod_resume.c: taking campaigns back, at start and after a lost commit. */
void		 hpod_resume(struct hpod *);
void		 hpod_lost(struct hpod *, const char *why);
void		 hpod_engine_lost(void *, struct engine *, const char *why);

/* hpod_request.c: the control requests (a control_handler). */
void		 hpod_request(void *, const cJSON *req, cJSON *reply);
void		 hpod_begin(struct hpod *);
void		 hpod_commit(struct hpod *, cJSON *reply, int writes);
void		 hpod_reply_error(cJSON *reply, const char *msg);
void		 hpod_reply_output(cJSON *reply, const char *out);

/* hpod_submit.c: the "submit" request. */
void		 hpod_submit(struct hpod *, const cJSON *req, cJSON *reply);

#endif
