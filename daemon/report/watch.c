/*
 * watch.c: `hpoctl watch`, a live view of a campaign.  The snapshot is
 * computed from the ledger (by the daemon, or by hpoctl with --ledger);
 * the client asks for one every interval and shows it: in place on a
 * terminal, otherwise as one line whenever something changed.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "account.h"
#include "client.h"
#include "report_int.h"
#include "run.h"
#include "spec.h"
#include "watch.h"
#include "watch_trials.h"
#include "state.h"

/* The default and the largest refresh interval, in seconds. */
#define WATCH_INTERVAL		2.0
#define WATCH_INTERVAL_MAX	3600.0

/* What is watched, and how it is shown. */
struct watch {
	const char	*campaign;
	const char	*socket;
	struct ledger	*ledger;	/* --ledger, else the daemon */
	double		 interval;
	int		 tty;
	char		*last;		/* the last progress line */
};

static void __attribute__((noreturn))
watch_usage(void)
{
	fprintf(stderr, "usage: hpoctl watch [--interval seconds] "
	    "[--ledger file] campaign\n");
	exit(64);
}

/* Add a number, or null when there is none. */
static void
watch_add_number(cJSON *o, const char *k, int has, double v)
{
	if (has && isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

/* Keep the earlier of two estimates, and the limit it is for. */
static void
watch_eta_min(double t, const char *name, double *best, const char **limit)
{
	if (*limit == NULL || t < *best) {
		*best = t;
		*limit = name;
	}
}

/*
 * The time until the first limit of the budget is reached at the mean rate
 * so far: trials done, GPU- and node-hours spent, wall time.  Set *limit to
 * the key of that limit, NULL when no limit can be estimated.
 */
static double
watch_eta(const struct campaign_spec *s, int max_trials,
    const struct account *a, int done, const char **limit)
{
	double	 el = a->wall_seconds, best = 0;

	*limit = NULL;
	if (el <= 0)
		return 0;
	if (max_trials > 0 && done > 0)
		watch_eta_min((max_trials - done) / (done / el), "max_trials",
		    &best, limit);
	if (s != NULL && s->max_gpu_hours > 0 && a->gpu_seconds > 0)
		watch_eta_min((s->max_gpu_hours * 3600 - a->gpu_seconds) /
		    (a->gpu_seconds / el), "max_gpu_hours", &best, limit);
	if (s != NULL && s->max_node_hours > 0 && a->node_seconds > 0)
		watch_eta_min((s->max_node_hours * 3600 - a->node_seconds) /
		    (a->node_seconds / el), "max_node_hours", &best, limit);
	if (s != NULL && s->max_wall_time > 0)
		watch_eta_min(s->max_wall_time - el, "max_wall_time", &best,
		    limit);
	return best > 0 ? best : 0;
}

/*
 * What a step of campaign c's workload counts, plural, into buf: its
 * step_unit, else "steps" for a fidelity of steps, else "epochs".
 */
static void
watch_unit(const struct ledger_campaign *c, char *buf, size_t len)
{
	cJSON		*w = NULL;
	const cJSON	*f, *u;

	if (c->workload_json != NULL)
		w = cJSON_Parse(c->workload_json);
	f = cJSON_GetObjectItemCaseSensitive(w, "fidelity");
	u = cJSON_GetObjectItemCaseSensitive(w, "step_unit");
	snprintf(buf, len, "%s", cJSON_IsString(u) ? u->valuestring :
	    cJSON_IsString(f) && strcmp(f->valuestring, "steps") == 0 ?
	    "steps" : "epochs");
	cJSON_Delete(w);
}

/* The snapshot of campaign c as a JSON tree. */
static cJSON *
watch_tree(const struct ledger_campaign *c, const struct account *a,
    const struct campaign_spec *s, double now)
{
	cJSON		*root, *o;
	const char	*limit;
	double		 eta;
	int		 i, done, max_trials;
	char		 unit[32];

	done = a->trials_total - a->trials[TRIAL_PENDING] -
	    a->trials[TRIAL_RUNNING];
	max_trials = s != NULL ? s->max_trials : c->max_trials;
	root = cJSON_CreateObject();
	o = cJSON_AddObjectToObject(root, "campaign");
	cJSON_AddNumberToObject(o, "id", (double)c->id);
	cJSON_AddStringToObject(o, "name", c->name);
	cJSON_AddStringToObject(o, "state", c->state);
	cJSON_AddStringToObject(o, "metric", c->metric);
	cJSON_AddStringToObject(o, "goal", c->maximize ? "max" : "min");
	watch_add_number(o, "target", c->has_target, c->target);
	watch_unit(c, unit, sizeof(unit));
	cJSON_AddStringToObject(o, "epoch_unit", unit);
	cJSON_AddNumberToObject(root, "now", now);
	cJSON_AddNumberToObject(root, "elapsed_s", a->wall_seconds);
	o = cJSON_AddObjectToObject(root, "trials");
	cJSON_AddNumberToObject(o, "total", a->trials_total);
	cJSON_AddNumberToObject(o, "queued", a->trials[TRIAL_PENDING]);
	cJSON_AddNumberToObject(o, "done", done);
	for (i = 0; i < TRIAL_NSTATES; i++)
		cJSON_AddNumberToObject(o, trial_state_name(i),
		    a->trials[i]);
	cJSON_AddNumberToObject(o, "reached_target", a->reached);
	if (a->has_best) {
		o = cJSON_AddObjectToObject(root, "best");
		cJSON_AddNumberToObject(o, "trial", a->best_trial);
		cJSON_AddNumberToObject(o, "value", a->best_value);
		cJSON_AddBoolToObject(o, "reached", a->best_reached);
	} else
		cJSON_AddNullToObject(root, "best");
	o = cJSON_AddObjectToObject(root, "cost");
	cJSON_AddNumberToObject(o, "node_hours", a->node_seconds / 3600);
	cJSON_AddNumberToObject(o, "gpu_hours", a->gpu_seconds / 3600);
	cJSON_AddNumberToObject(o, "cpu_hours", a->cpu_seconds / 3600);
	o = cJSON_AddObjectToObject(root, "budget");
	cJSON_AddNumberToObject(o, "max_trials", max_trials);
	watch_add_number(o, "max_node_hours", s && s->max_node_hours > 0,
	    s ? s->max_node_hours : 0);
	watch_add_number(o, "max_gpu_hours", s && s->max_gpu_hours > 0,
	    s ? s->max_gpu_hours : 0);
	watch_add_number(o, "max_wall_time_s", s && s->max_wall_time > 0,
	    s ? s->max_wall_time : 0);
	eta = watch_eta(s, max_trials, a, done, &limit);
	if (campaign_state_parse(c->state) == CAMPAIGN_RUNNING &&
	    limit != NULL) {
		o = cJSON_AddObjectToObject(root, "eta");
		cJSON_AddNumberToObject(o, "s", eta > 0 ? eta : 0);
		cJSON_AddStringToObject(o, "limit", limit);
	} else
		cJSON_AddNullToObject(root, "eta");
	return root;
}

/* The campaign's progress now, as JSON text. */
int
watch_snapshot(struct ledger *l, const char *name, char **out, char *err,
    size_t errlen)
{
	struct ledger_campaign	 c;
	struct campaign_spec	*s = NULL;
	struct account		 a;
	cJSON			*root;
	char			 serr[256], *text;
	double			 now = report_now();
	int			 rc;

	memset(&c, 0, sizeof(c));
	if ((rc = ledger_campaign_find(l, name, &c)) != 0) {
		if (rc == 1)
			snprintf(err, errlen, "no campaign '%s' in the ledger",
			    name);
		else
			snprintf(err, errlen, "%s", ledger_error(l));
		return rc;
	}
	if (account_campaign(l, &c, now, &a) == -1) {
		snprintf(err, errlen, "%s", ledger_error(l));
		ledger_campaign_release(&c);
		return -1;
	}
	/* The budget is the spec's; a spec this build cannot read has none. */
	if (c.spec_json != NULL)
		s = spec_parse_recorded(c.spec_json, strlen(c.spec_json),
		    c.spec_path ? c.spec_path : c.name, serr, sizeof(serr));
	root = watch_tree(&c, &a, s, now);
	/* The running and the most recent trials, for the table. */
	if ((rc = watch_trials_json(l, &c, now, root, err, errlen)) == 0) {
		if ((text = cJSON_PrintUnformatted(root)) == NULL ||
		    asprintf(out, "%s\n", text) == -1) {
			*out = NULL;
			snprintf(err, errlen, "campaign '%s': out of memory",
			    name);
			rc = -1;
		}
		cJSON_free(text);
	}
	cJSON_Delete(root);
	spec_free(s);
	account_release(&a);
	ledger_campaign_release(&c);
	return rc;
}

/* Get a snapshot from the ledger or the daemon; NULL with err if none. */
static cJSON *
watch_fetch(struct watch *w, char *err, size_t errlen)
{
	cJSON	*req, *reply = NULL, *j, *snap = NULL;
	char	*out = NULL;

	if (w->ledger != NULL) {
		if (watch_snapshot(w->ledger, w->campaign, &out, err,
		    errlen) != 0)
			return NULL;
		snap = cJSON_Parse(out);
		free(out);
	} else {
		req = cJSON_CreateObject();
		cJSON_AddStringToObject(req, "cmd", "watch");
		cJSON_AddStringToObject(req, "campaign", w->campaign);
		if (client_request(w->socket, req, &reply, err, errlen) == -1) {
			cJSON_Delete(req);
			return NULL;
		}
		cJSON_Delete(req);
		j = cJSON_GetObjectItem(reply, "output");
		if (!cJSON_IsTrue(cJSON_GetObjectItem(reply, "ok"))) {
			j = cJSON_GetObjectItem(reply, "error");
			snprintf(err, errlen, "%s", cJSON_IsString(j) ?
			    j->valuestring : "the daemon gave no reason");
		} else if (cJSON_IsString(j))
			snap = cJSON_Parse(j->valuestring);
		cJSON_Delete(reply);
		if (snap == NULL && *err != '\0')
			return NULL;
	}
	if (!cJSON_IsObject(snap)) {
		snprintf(err, errlen, "malformed snapshot of campaign '%s'",
		    w->campaign);
		cJSON_Delete(snap);
		return NULL;
	}
	return snap;
}

/* A number of the snapshot by path ("cost.gpu_hours"); NAN if absent. */
static double
watch_num(const cJSON *o, const char *k1, const char *k2)
{
	const cJSON	*j = cJSON_GetObjectItem(o, k1);

	if (k2 != NULL)
		j = cJSON_GetObjectItem(j, k2);
	return cJSON_IsNumber(j) ? j->valuedouble : NAN;
}

/* A string of the snapshot ("campaign.state"); "?" if absent. */
static const char *
watch_str(const cJSON *o, const char *k1, const char *k2)
{
	const cJSON	*j = cJSON_GetObjectItem(cJSON_GetObjectItem(o, k1),
			    k2);

	return cJSON_IsString(j) ? j->valuestring : "?";
}

/*
 * The part of a snapshot that changes by events, not by the clock: the
 * state, the trials by state and the best value, as one line.
 */
static char *
watch_progress(const cJSON *snap)
{
	char	*buf = NULL;
	size_t	 len = 0;
	int	 i;
	FILE	*f = open_memstream(&buf, &len);
	double	 v, best = watch_num(snap, "best", "value");
	int	 any = 0;

	fprintf(f, "campaign %s (id %.0f): %s; trials %.0f running, %.0f "
	    "queued, %.0f done", watch_str(snap, "campaign", "name"),
	    watch_num(snap, "campaign", "id"),
	    watch_str(snap, "campaign", "state"),
	    watch_num(snap, "trials", "running"),
	    watch_num(snap, "trials", "queued"),
	    watch_num(snap, "trials", "done"));
	/* The ended trials by state. */
	for (i = TRIAL_COMPLETED; i < TRIAL_NSTATES; i++) {
		v = watch_num(snap, "trials", trial_state_name(i));
		if (v > 0)
			fprintf(f, "%s%.0f %s", any++ ? ", " : " (", v,
			    trial_state_name(i));
	}
	fprintf(f, "%s of %.0f", any ? ")" : "",
	    watch_num(snap, "budget", "max_trials"));
	if (isfinite(best))
		fprintf(f, "; best %s %.6g (trial %.0f)",
		    watch_str(snap, "campaign", "metric"), best,
		    watch_num(snap, "best", "trial"));
	else
		fprintf(f, "; best none yet");
	fclose(f);
	return buf;
}

/* The ETA as text: "12.0 s to max_trials" or "-". */
static void
watch_eta_text(const cJSON *snap, char *buf, size_t len)
{
	double	 s = watch_num(snap, "eta", "s");
	char	 d[64];

	if (!isfinite(s)) {
		snprintf(buf, len, "-");
		return;
	}
	report_duration(d, sizeof(d), s);
	snprintf(buf, len, "%s to %s", d, watch_str(snap, "eta", "limit"));
}

/* Show a snapshot as one line, if its progress changed since the last. */
static void
watch_line(struct watch *w, const cJSON *snap)
{
	char	*p = watch_progress(snap), el[64], eta[128];

	if (w->last != NULL && strcmp(w->last, p) == 0) {
		free(p);
		return;
	}
	report_duration(el, sizeof(el), watch_num(snap, "elapsed_s", NULL));
	watch_eta_text(snap, eta, sizeof(eta));
	printf("%s; cost %.4f node-h, %.4f GPU-h, %.4f CPU-h; elapsed %s; "
	    "eta %s\n", p, watch_num(snap, "cost", "node_hours"),
	    watch_num(snap, "cost", "gpu_hours"),
	    watch_num(snap, "cost", "cpu_hours"), el, eta);
	fflush(stdout);
	free(w->last);
	w->last = p;
}

/* Show a snapshot as a block that replaces the last one on the terminal. */
static void
watch_screen(struct watch *w, const cJSON *snap)
{
	const cJSON	*target;
	char		 el[64], eta[128];
	double		 best = watch_num(snap, "best", "value");
	int		 i;

	target = cJSON_GetObjectItem(cJSON_GetObjectItem(snap, "campaign"),
	    "target");
	report_duration(el, sizeof(el), watch_num(snap, "elapsed_s", NULL));
	watch_eta_text(snap, eta, sizeof(eta));
	/* Home the cursor and clear the screen, then draw the block. */
	printf("\033[H\033[J");
	printf("campaign %s (id %.0f): %s, elapsed %s\n",
	    watch_str(snap, "campaign", "name"),
	    watch_num(snap, "campaign", "id"),
	    watch_str(snap, "campaign", "state"), el);
	printf("trials:  %.0f running, %.0f queued, %.0f done of %.0f\n",
	    watch_num(snap, "trials", "running"),
	    watch_num(snap, "trials", "queued"),
	    watch_num(snap, "trials", "done"),
	    watch_num(snap, "budget", "max_trials"));
	printf("        ");
	for (i = 0; i < TRIAL_NSTATES; i++)
		printf(" %s %.0f", trial_state_name(i), watch_num(snap,
		    "trials", trial_state_name(i)));
	printf("; %.0f reached the target\n",
	    watch_num(snap, "trials", "reached_target"));
	printf("best:    ");
	if (isfinite(best))
		printf("%s %.6g (trial %.0f)", watch_str(snap, "campaign",
		    "metric"), best, watch_num(snap, "best", "trial"));
	else
		printf("none yet");
	if (cJSON_IsNumber(target))
		printf(", target %s %g", strcmp(watch_str(snap, "campaign",
		    "goal"), "max") == 0 ? ">=" : "<=", target->valuedouble);
	printf("\ncost:    %.4f node-hours, %.4f GPU-hours, %.4f CPU-hours\n",
	    watch_num(snap, "cost", "node_hours"),
	    watch_num(snap, "cost", "gpu_hours"),
	    watch_num(snap, "cost", "cpu_hours"));
	printf("eta:     %s\n", eta);
	watch_trials_print(stdout, snap);
	fflush(stdout);
}

/* Sleep for s seconds. */
static void
watch_sleep(double s)
{
	struct timespec	 ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* Show snapshots until the campaign is no longer running. */
static int
watch_loop(struct watch *w)
{
	cJSON	*snap;
	char	 err[1024];
	int	 running;

	for (;;) {
		err[0] = '\0';
		if ((snap = watch_fetch(w, err, sizeof(err))) == NULL) {
			fprintf(stderr, "hpoctl: %s\n", err);
			return 1;
		}
		if (w->tty)
			watch_screen(w, snap);
		else
			watch_line(w, snap);
		running = campaign_state_parse(watch_str(snap, "campaign",
		    "state")) == CAMPAIGN_RUNNING;
		cJSON_Delete(snap);
		if (!running)
			return 0;
		watch_sleep(w->interval);
	}
}

/* `hpoctl watch`. */
int
watch_command(int argc, char **argv, const struct config *cfg)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "ledger", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	struct watch	 w;
	const char	*path = NULL;
	char		 err[1024], *end;
	int		 ch, rc;

	memset(&w, 0, sizeof(w));
	w.interval = WATCH_INTERVAL;
	optind = 0;	/* GNU: start afresh, options anywhere */
	while ((ch = getopt_long(argc, argv, "i:l:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'i':
			errno = 0;
			w.interval = strtod(optarg, &end);
			if (errno != 0 || *end != '\0' || end == optarg ||
			    !(w.interval > 0) ||
			    w.interval > WATCH_INTERVAL_MAX) {
				fprintf(stderr, "hpoctl: --interval: expected "
				    "seconds in (0, %g], got '%s'\n",
				    WATCH_INTERVAL_MAX, optarg);
				return 64;
			}
			break;
		case 'l':
			path = optarg;
			break;
		default:
			watch_usage();
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "hpoctl %s: expected a campaign, got %d "
		    "arguments\n", argv[0], argc - optind);
		watch_usage();
	}
	w.campaign = argv[optind];
	w.socket = cfg->socket;
	w.tty = isatty(STDOUT_FILENO);
	if (path != NULL && (w.ledger = run_ledger(path, 1, err,
	    sizeof(err))) == NULL) {
		fprintf(stderr, "hpoctl: %s\n", err);
		return 1;
	}
	rc = watch_loop(&w);
	free(w.last);
	if (w.ledger != NULL)
		ledger_close(w.ledger);
	return rc;
}
