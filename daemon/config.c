/*
 * config.c: the configuration table and the hpod.conf parser.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

#include <uv.h>

#include "config.h"
#include "paths.h"
#include "xmalloc.h"

enum conf_type { CONF_PATH, CONF_STRING, CONF_INT };

struct conf_option {
	const char	*name;
	enum conf_type	 type;
	long		 min, max;
	const char	*def;		/* NULL: computed at load time */
	size_t		 offset;
	const char	*doc;
};

static const struct conf_option conf_table[] = {
	{ "socket", CONF_PATH, 0, 0, NULL, offsetof(struct config, socket),
	  "control socket ($XDG_RUNTIME_DIR/hpod/hpod.sock)" },
	{ "ledger", CONF_PATH, 0, 0, NULL, offsetof(struct config, ledger),
	  "SQLite ledger ($XDG_STATE_HOME/hpod/ledger.db)" },
	{ "run_dir", CONF_PATH, 0, 0, NULL, offsetof(struct config, run_dir),
	  "attempt directories ($XDG_STATE_HOME/hpod/runs)" },
	{ "workload_path", CONF_STRING, 0, 0, "",
	  offsetof(struct config, workload_path),
	  "extra workload spec directories, colon-separated" },
	{ "local_cpus", CONF_INT, 0, 65536, "0",
	  offsetof(struct config, local_cpus),
	  "CPUs the local backend may use (0: all)" },
	{ "poll_interval", CONF_INT, 50, 60000, "500",
	  offsetof(struct config, poll_interval),
	  "milliseconds between polls of job output" },
	{ "slurm_poll_min", CONF_INT, 100, 600000, "2000",
	  offsetof(struct config, slurm_poll_min),
	  "milliseconds between slurmctld queries while jobs change" },
	{ "slurm_poll_max", CONF_INT, 100, 3600000, "30000",
	  offsetof(struct config, slurm_poll_max),
	  "milliseconds between slurmctld queries at most (back-off)" },
	{ "slurm_poll_kick", CONF_INT, 0, 600000, "100",
	  offsetof(struct config, slurm_poll_kick),
	  "milliseconds from a job's end marker to the slurmctld query that "
	  "confirms it (0: wait for the timed query)" },
	{ "slurm_array_min", CONF_INT, 0, 1000000, "2",
	  offsetof(struct config, slurm_array_min),
	  "submit at least this many alike trials as one job array (0: never)" },
	{ "min_free", CONF_INT, 0, 1048576, "64",
	  offsetof(struct config, min_free),
	  "MiB that must stay free under run_dir and the ledger for new "
	  "trials to start (0: no check)" },
};
#define CONF_N	(sizeof(conf_table) / sizeof(conf_table[0]))

/* The computed default of a path option. */
static char *
config_default_path(const char *name)
{
	if (strcmp(name, "socket") == 0)
		return paths_default_socket();
	if (strcmp(name, "ledger") == 0)
		return paths_default_state("ledger.db");
	return paths_default_state("runs");
}

/* Set one option from text; return 0 or -1 with err. */
static int
config_set(struct config *cfg, const struct conf_option *o, const char *val,
    char *err, size_t errlen)
{
	char	**sp = (char **)((char *)cfg + o->offset);
	long	*lp = (long *)((char *)cfg + o->offset);
	char	*end;
	long	 n;

	switch (o->type) {
	case CONF_PATH:
		if (*val != '/') {
			snprintf(err, errlen, "%s: must be an absolute path",
			    o->name);
			return -1;
		}
		/* FALLTHROUGH */
	case CONF_STRING:
		free(*sp);
		*sp = xstrdup(val);
		return 0;
	case CONF_INT:
		errno = 0;
		n = strtol(val, &end, 10);
		if (errno != 0 || end == val || *end != '\0' || n < o->min ||
		    n > o->max) {
			snprintf(err, errlen,
			    "%s: '%s' must be an integer from %ld to %ld",
			    o->name, val, o->min, o->max);
			return -1;
		}
		*lp = n;
		return 0;
	}
	return -1;
}

/* Fill every option with its default. */
static void
config_defaults(struct config *cfg)
{
	char	 err[64];
	char	*p;
	size_t	 i;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < CONF_N; i++) {
		if (conf_table[i].def != NULL) {
			config_set(cfg, &conf_table[i], conf_table[i].def, err,
			    sizeof(err));
			continue;
		}
		p = config_default_path(conf_table[i].name);
		config_set(cfg, &conf_table[i], p, err, sizeof(err));
		free(p);
	}
}

/* Strip leading and trailing blanks in place. */
static char *
config_trim(char *s)
{
	char	*e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Parse one "key = value" line into cfg. */
static int
config_line(struct config *cfg, char *line, char *err, size_t errlen)
{
	char	*eq, *key, *val;
	size_t	 i, n;

	if ((eq = strchr(line, '=')) == NULL) {
		snprintf(err, errlen, "expected 'key = value'");
		return -1;
	}
	*eq = '\0';
	key = config_trim(line);
	val = config_trim(eq + 1);
	n = strlen(val);
	if (n >= 2 && val[0] == '"' && val[n - 1] == '"') {
		val[n - 1] = '\0';
		val++;
	}
	for (i = 0; i < CONF_N; i++)
		if (strcmp(conf_table[i].name, key) == 0)
			return config_set(cfg, &conf_table[i], val, err, errlen);
	snprintf(err, errlen, "unknown key '%s'", key);
	return -1;
}

/*
 * Check what no single line can: the Slurm poll period's bounds, and the
 * socket's path against what a socket address holds (which -n checks).
 */
static int
config_check(const struct config *cfg, const char *path, char *err,
    size_t errlen)
{
	size_t	 max = sizeof(((struct sockaddr_un *)0)->sun_path) - 1;

	if (cfg->slurm_poll_min > cfg->slurm_poll_max) {
		snprintf(err, errlen, "%s: slurm_poll_min: %ld is more than "
		    "slurm_poll_max (%ld)", path, cfg->slurm_poll_min,
		    cfg->slurm_poll_max);
		return -1;
	}
	if (cfg->socket != NULL && strlen(cfg->socket) > max) {
		snprintf(err, errlen, "%s: socket: '%s' is too long for a "
		    "socket (%zu bytes, at most %zu)", path, cfg->socket,
		    strlen(cfg->socket), max);
		return -1;
	}
	return 0;
}

/* Load the configuration file. */
int
config_load(const char *path, struct config *out, char *err, size_t errlen)
{
	struct config	 cfg;
	FILE		*f;
	char		*line = NULL, *p, msg[512];
	size_t		 cap = 0;
	int		 lineno = 0, rc = 0;

	config_defaults(&cfg);
	if (path != NULL) {
		if ((f = fopen(path, "r")) == NULL) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			config_release(&cfg);
			return -1;
		}
		while (rc == 0 && getline(&line, &cap, f) != -1) {
			lineno++;
			if ((p = strchr(line, '#')) != NULL)
				*p = '\0';
			p = config_trim(line);
			if (*p == '\0')
				continue;
			if (config_line(&cfg, p, msg, sizeof(msg)) == -1) {
				snprintf(err, errlen, "%s:%d: %s", path, lineno,
				    msg);
				rc = -1;
			}
		}
		/* A read error (a directory: EISDIR) is not an empty file. */
		if (rc == 0 && ferror(f)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			rc = -1;
		}
		free(line);
		fclose(f);
		if (rc == 0 && config_check(&cfg, path, err, errlen) == -1)
			rc = -1;
		if (rc == -1) {
			config_release(&cfg);
			return -1;
		}
	}
	if (cfg.local_cpus == 0)
		cfg.local_cpus = (long)uv_available_parallelism();
	config_release(out);
	*out = cfg;
	return 0;
}

/* Free the strings of a configuration. */
void
config_release(struct config *cfg)
{
	size_t	 i;

	for (i = 0; i < CONF_N; i++) {
		if (conf_table[i].type == CONF_INT)
			continue;
		free(*(char **)((char *)cfg + conf_table[i].offset));
		*(char **)((char *)cfg + conf_table[i].offset) = NULL;
	}
}

/* Print the effective configuration, one key per line. */
void
config_print(const struct config *cfg, FILE *f)
{
	size_t	 i;

	for (i = 0; i < CONF_N; i++) {
		const void *p = (const char *)cfg + conf_table[i].offset;

		fprintf(f, "# %s\n", conf_table[i].doc);
		if (conf_table[i].type == CONF_INT)
			fprintf(f, "%s = %ld\n", conf_table[i].name,
			    *(const long *)p);
		else
			fprintf(f, "%s = \"%s\"\n", conf_table[i].name,
			    *(char *const *)p ? *(char *const *)p : "");
	}
}
