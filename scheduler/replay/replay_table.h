/*
 * replay_table.h: tables of learning curves for the replay backend.
 *
 * A table is a JSON file (hpod-campaign(5), "Replay"):
 *
 *	{"format": "hpod-replay-1", "workload": "minicosmo",
 *	 "metric": "eval_error", "goal": "min",
 *	 "params": [{"name": "lr", "scale": "log"}, ...],
 *	 "fixed": {"epochs": 12, ...},
 *	 "runs": [{"x": [0.01, 32], "seed": 0, "status": 0, "start_s": 0.3,
 *	           "epoch_s": [0.33, ...], "values": [0.41, ...]}, ...]}
 *
 * Each run is one real training run of a configuration (x, in the order
 * of params) and a seed: its exit status, the seconds before its first
 * epoch, and per epoch (1, 2, ...) the seconds it took and the metric.
 */
#ifndef HPOD_REPLAY_TABLE_H
#define HPOD_REPLAY_TABLE_H

#include <stddef.h>

struct replay_run {
	double		*x;		/* numeric values, NaN for strings */
	char		**xs;		/* string values, NULL for numbers */
	size_t		 config;	/* runs with equal x share it */
	long long	 seed;
	int		 status;	/* exit status of the real run */
	double		 start_s;
	size_t		 n;		/* epochs */
	double		*epoch_s, *values;
};

struct replay_table {
	char		*metric;
	int		 maximize;
	size_t		 nparams;
	char		**names;
	int		*logscale;
	double		*lo, *hi;	/* ranges (log for log scale) */
	size_t		 nfixed;
	char		**fixed_names;
	double		*fixed_values;
	size_t		 nruns;
	struct replay_run *runs;
};

/* Load and check a table; NULL with err naming the file and key. */
struct replay_table	*replay_table_load(const char *path, char *err,
			    size_t errlen);
void			 replay_table_free(struct replay_table *);

/*
 * The run to replay for a job whose environment holds HPO_<NAME>=value
 * for every parameter of the table and HPO_SEED: among the runs of the
 * configuration nearest to the job's (normalized Euclidean distance, log
 * scale where the table says so, strings equal or 1 apart; the first in
 * the table on a tie), the one made with that seed, else the seed modulo
 * their number.  NULL with err if the job lacks a parameter or its fixed
 * values differ from the table's.
 */
const struct replay_run	*replay_table_find(const struct replay_table *,
			    const char *const *env, char *err, size_t errlen);

/* The value of NAME in a NAME=VALUE vector, or NULL. */
const char		*replay_env(const char *const *env, const char *name);

#endif
