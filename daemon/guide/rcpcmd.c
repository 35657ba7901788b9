/*
 * rcpcmd.c: `hpoctl rcp-check RCP-FILE SET...`: read each set's epochs to
 * converge and batch size (an MLPerf result folder through score.h, or
 * every entry of an RCP-form JSON file such as hpod's export) and check
 * them against the reference points of their benchmark (rcp.h).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "mllogcmd.h"
#include "rcp.h"
#include "rcpcmd.h"
#include "score.h"
#include "xmalloc.h"

/* The command's options. */
struct rcpc_opts {
	int			 json;
	int			 full;
	int			 runs;		/* 0: the benchmark's */
	struct score_rule	 rule;
	const char		*rcp_file;
	int			 header;
};

/* One set of submission runs. */
struct rcpc_set {
	char		 name[512];
	char		 benchmark[128];
	double		 bs;
	double		*epochs;	/* INFINITY: not converged */
	size_t		 n;
	int		 subm_runs;
};

/* Take one of rcp-check's own options into own, a struct rcpc_opts. */
static int
rcpc_opt_take(void *own, int ch, const char *arg, char *err, size_t errlen)
{
	struct rcpc_opts *o = own;
	char	*end;
	long	 l;

	switch (ch) {
	case 'j':
		o->json = 1;
		return 1;
	case 'F':
		o->full = 1;
		return 1;
	case 'r':
		l = strtol(arg, &end, 10);
		if (end == arg || *end != '\0' || l < 3 || l > 1000) {
			snprintf(err, errlen, "--runs: expected a number of "
			    "runs from 3 to 1000, got '%s'", arg);
			return -1;
		}
		o->runs = (int)l;
		return 1;
	}
	return 0;
}

/* Parse the options; return the index of the first operand, or -1 (err). */
static int
rcpc_opts_parse(int argc, char **argv, struct rcpc_opts *o, char *err,
    size_t errlen)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "full", no_argument, NULL, 'F' },
		{ "runs", required_argument, NULL, 'r' },
		MLLOG_RULE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};

	memset(o, 0, sizeof(*o));
	if (mllog_opts_getopt(argc, argv, longopts, &o->rule, rcpc_opt_take,
	    o, err, errlen) == -1)
		return -1;
	if (argc - optind < 2) {
		snprintf(err, errlen, "expected an RCP file and at least one "
		    "set of runs");
		return -1;
	}
	o->rcp_file = argv[optind];
	return optind + 1;
}

/* Add an epoch count to a set. */
static void
rcpc_add(struct rcpc_set *s, double e)
{
	s->epochs = xreallocarray(s->epochs, s->n + 1, sizeof(double));
	s->epochs[s->n++] = e;
}

/* Read an MLPerf result folder into s; -1 with err. */
static int
rcpc_read_dir(const char *dir, const struct rcpc_opts *o, struct rcpc_set *s,
    char *err, size_t errlen)
{
	struct score_run *runs;
	size_t		  n, i;
	int		  rc = 0;

	if (score_dir(dir, &o->rule, &runs, &n, err, errlen) == -1)
		return -1;
	snprintf(s->name, sizeof(s->name), "%s", dir);
	for (i = 0; i < n && rc == 0; i++) {
		score_warn(stderr, "hpoctl", &runs[i]);
		if (!runs[i].has_gbs) {
			snprintf(err, errlen, "%s: no global_batch_size",
			    runs[i].file);
			rc = -1;
		} else if (runs[i].reached && !runs[i].has_epochs) {
			snprintf(err, errlen, "%s: the evaluation that met the "
			    "target has no epoch_num: no epochs to converge",
			    runs[i].file);
			rc = -1;
		} else if (i > 0 && (runs[i].gbs != s->bs ||
		    strcmp(runs[i].benchmark, s->benchmark) != 0)) {
			snprintf(err, errlen, "%s: benchmark %s batch size %g, "
			    "but %s has %s %g", dir, s->benchmark, s->bs,
			    runs[i].file, runs[i].benchmark, runs[i].gbs);
			rc = -1;
		} else {
			s->bs = runs[i].gbs;
			snprintf(s->benchmark, sizeof(s->benchmark), "%s",
			    runs[i].benchmark);
			s->subm_runs = runs[i].runs_required;
			rcpc_add(s, runs[i].reached && runs[i].has_epochs ?
			    runs[i].epochs : INFINITY);
		}
	}
	for (i = 0; i < n; i++)
		score_run_release(&runs[i]);
	free(runs);
	if (rc == 0 && s->benchmark[0] == '\0') {
		snprintf(err, errlen, "%s: no submission_benchmark", dir);
		rc = -1;
	}
	/* A set that fails holds nothing: its caller frees no epochs. */
	if (rc == -1) {
		free(s->epochs);
		s->epochs = NULL;
		s->n = 0;
	}
	return rc;
}

/*
 * Read the entries of an RCP-form file (hpod's export) as sets: each
 * entry's epochs, and as many runs that did not converge as its hpod.runs
 * counts beyond them.  *sets is malloc'ed; -1 with err.
 */
static int
rcpc_read_export(const char *path, struct rcpc_set **sets, size_t *n,
    char *err, size_t errlen)
{
	struct rcp_point	*pts;
	struct rcpc_set		*s;
	size_t			 np, i, j;

	if (rcp_read(path, &pts, &np, err, errlen) == -1)
		return -1;
	*sets = xcalloc(np + 1, sizeof(**sets));
	for (i = 0; i < np; i++) {
		s = &(*sets)[i];
		snprintf(s->name, sizeof(s->name), "%s:%s", path, pts[i].key);
		snprintf(s->benchmark, sizeof(s->benchmark), "%s",
		    pts[i].benchmark);
		s->bs = pts[i].bs;
		for (j = 0; j < pts[i].n; j++)
			rcpc_add(s, pts[i].epochs[j]);
		for (; j < (size_t)pts[i].runs; j++)
			rcpc_add(s, INFINITY);
		s->subm_runs = (int)s->n;
		free(pts[i].key);
		free(pts[i].benchmark);
		free(pts[i].epochs);
	}
	free(pts);
	*n = np;
	if (np == 0) {
		snprintf(err, errlen, "%s: no RCP entry", path);
		return -1;
	}
	return 0;
}

/* Print one verdict. */
static void
rcpc_print(struct rcpc_opts *o, const struct rcpc_set *s,
    const struct rcp_verdict *v)
{
	cJSON	*j;
	char	*t;

	if (o->json) {
		j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "set", s->name);
		cJSON_AddStringToObject(j, "benchmark", s->benchmark);
		cJSON_AddNumberToObject(j, "global_batch_size", s->bs);
		cJSON_AddNumberToObject(j, "runs", (double)s->n);
		cJSON_AddBoolToObject(j, "converged", v->converged);
		if (v->converged)
			cJSON_AddNumberToObject(j, "mean_epochs",
			    v->subm_mean);
		else
			cJSON_AddNullToObject(j, "mean_epochs");
		cJSON_AddStringToObject(j, "rcp", rcp_how_name(v->how));
		if (v->ref.benchmark != NULL) {
			cJSON_AddNumberToObject(j, "rcp_bs", v->ref.bs);
			cJSON_AddNumberToObject(j, "rcp_mean", v->ref.mean);
			cJSON_AddNumberToObject(j, "rcp_stdev", v->ref.stdev);
			cJSON_AddNumberToObject(j, "min_epochs",
			    v->ref.min_epochs);
			cJSON_AddNumberToObject(j, "norm_factor", v->norm);
		}
		cJSON_AddBoolToObject(j, "pass", v->pass);
		cJSON_AddStringToObject(j, "reason", v->msg);
		t = xneed(cJSON_PrintUnformatted(j), "hpoctl rcp: the JSON "
		    "text");
		printf("%s\n", t);
		cJSON_free(t);
		cJSON_Delete(j);
		return;
	}
	if (!o->header++)
		printf("%-10s %6s %4s %9s %8s %10s %6s %-4s %s\n", "BENCHMARK",
		    "BS", "RUNS", "EPOCHS", "RCP-MEAN", "MIN-EPOCHS", "NORM",
		    "PASS", "SET: WHY");
	printf("%-10s %6g %4zu ", s->benchmark, s->bs, s->n);
	if (v->converged)
		printf("%9.3f ", v->subm_mean);
	else
		printf("%9s ", "-");
	if (v->ref.benchmark != NULL)
		printf("%8.3f %10.3f %6.3f ", v->ref.mean, v->ref.min_epochs,
		    v->norm);
	else
		printf("%8s %10s %6s ", "-", "-", "-");
	printf("%-4s %s: %s\n", v->pass ? "yes" : "no", s->name, v->msg);
}

/* Check one set; 0 if it passes. */
static int
rcpc_check(struct rcpc_opts *o, const struct rcpc_set *s)
{
	struct rcp_set		 rs;
	struct rcp_verdict	 v;
	char			 err[1024];

	if (rcp_load(o->rcp_file, s->benchmark, o->runs ? o->runs :
	    s->subm_runs < 3 ? 3 : s->subm_runs, &rs, err,
	    sizeof(err)) == -1) {
		fflush(stdout);
		fprintf(stderr, "hpoctl: %s: %s\n", s->name, err);
		return 1;
	}
	rcp_check(&rs, s->bs, s->epochs, s->n, o->full, &v);
	rcpc_print(o, s, &v);
	rcp_release(&rs);
	return !v.pass;
}

/* `hpoctl rcp-check`. */
int
rcp_command(int argc, char **argv, char *usage_err, size_t usage_errlen)
{
	struct rcpc_opts	 o;
	struct rcpc_set		*sets;
	struct stat		 st;
	char			 err[1024];
	size_t			 n, j;
	int			 i, rc = 0;

	if ((i = rcpc_opts_parse(argc, argv, &o, usage_err,
	    usage_errlen)) == -1)
		return 64;
	for (; i < argc; i++) {
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			n = 1;
			sets = xcalloc(1, sizeof(*sets));
			if (rcpc_read_dir(argv[i], &o, sets, err,
			    sizeof(err)) == -1)
				n = 0;
		} else if (rcpc_read_export(argv[i], &sets, &n, err,
		    sizeof(err)) == -1) {
			sets = NULL;
			n = 0;
		}
		if (n == 0) {
			fflush(stdout);
			fprintf(stderr, "hpoctl: %s\n", err);
			rc = 1;
		}
		for (j = 0; j < n; j++)
			rc |= rcpc_check(&o, &sets[j]);
		for (j = 0; sets != NULL && j < n; j++)
			free(sets[j].epochs);
		free(sets);
	}
	return rc;
}
