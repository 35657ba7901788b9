/*
 * spec_slurm.c: the Slurm resource keys beyond the job's shape (mem,
 * mem_per_cpu, mem_per_gpu, exclusive, reservation, signal, gpus_per_task,
 * cpus_per_gpu) and sbatch_extra, written as sbatch takes them and checked
 * here so that an error names the file and key; the controller judges the
 * rest at submit.
 */
#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spec_int.h"

/*
 * A memory size as sbatch --mem takes it: an integer with an optional
 * unit K, M (the default), G or T; in MB (K rounds up), or 0 if bad.
 */
static uint64_t
sp_mem_parse(const cJSON *j)
{
	unsigned long long	 v;
	char			*end;

	if (cJSON_IsNumber(j))
		return j->valuedouble >= 1 && j->valuedouble < 1e12 &&
		    j->valuedouble == (double)(uint64_t)j->valuedouble ?
		    (uint64_t)j->valuedouble : 0;
	if (!cJSON_IsString(j) || !isdigit((unsigned char)*j->valuestring))
		return 0;
	errno = 0;
	v = strtoull(j->valuestring, &end, 10);
	if (errno != 0 || v == 0 || v > 1ULL << 40)
		return 0;
	if (*end != '\0' && end[1] != '\0' && strcasecmp(end + 1, "B") != 0)
		return 0;
	switch (toupper((unsigned char)*end)) {
	case '\0':
	case 'M':
		return v;
	case 'K':
		return (v + 1023) / 1024;
	case 'G':
		return v * 1024;
	case 'T':
		return v * 1024 * 1024;
	default:
		return 0;
	}
}

/* A memory member in MB; 0 if absent. */
static int
sp_mem(struct sp *sp, const cJSON *r, const char *name, uint64_t *out)
{
	const cJSON	*j = r ? cJSON_GetObjectItemCaseSensitive(r, name) : NULL;
	char		 k[64];

	*out = 0;
	if (j == NULL)
		return 0;
	if ((*out = sp_mem_parse(j)) == 0)
		return sp_fail(sp, sp_key(k, sizeof(k), "resources", name),
		    "expected a size as sbatch takes it (\"4G\", \"500M\", "
		    "or MB as a number)");
	return 0;
}

/* A signal's number from "USR1", "SIGUSR1" or "10"; -1 if unknown. */
static int
sp_signal_number(const char *s, size_t len)
{
	static const struct {
		const char	*name;
		int		 num;
	} sigs[] = {
		{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
		{ "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 },
		{ "TERM", SIGTERM }, { "CONT", SIGCONT }, { "STOP", SIGSTOP },
		{ "URG", SIGURG }, { "ALRM", SIGALRM },
	};
	size_t	 i;
	char	*end;
	long	 n;

	if (len > 3 && strncasecmp(s, "SIG", 3) == 0) {
		s += 3;
		len -= 3;
	}
	if (len > 0 && isdigit((unsigned char)*s)) {
		n = strtol(s, &end, 10);
		return (size_t)(end - s) == len && n > 0 && n < 65 ? (int)n :
		    -1;
	}
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (strlen(sigs[i].name) == len &&
		    strncasecmp(s, sigs[i].name, len) == 0)
			return sigs[i].num;
	return -1;
}

/* "signal": sbatch's "[B:]SIG[@TIME]", TIME in seconds (default 60). */
static int
sp_signal(struct sp *sp, const cJSON *r, struct sched_slurm_extra *x)
{
	const cJSON	*j = r ? cJSON_GetObjectItemCaseSensitive(r, "signal") :
			    NULL;
	const char	*s, *at;
	char		*end;
	long		 t = 60;

	if (j == NULL)
		return 0;
	if (!cJSON_IsString(j))
		return sp_fail(sp, "resources.signal", "expected a string like "
		    "\"USR1@120\", got %s", sp_type(j));
	s = j->valuestring;
	if (strncmp(s, "B:", 2) == 0) {
		x->signal_batch = 1;
		s += 2;
	}
	at = strchr(s, '@');
	x->signal = sp_signal_number(s, at ? (size_t)(at - s) : strlen(s));
	if (at != NULL) {
		errno = 0;
		t = strtol(at + 1, &end, 10);
		if (errno != 0 || end == at + 1 || *end != '\0' || t < 0 ||
		    t > 65535)
			return sp_fail(sp, "resources.signal", "\"%s\": the "
			    "time after @ must be 0 to 65535 seconds",
			    j->valuestring);
	}
	if (x->signal == -1)
		return sp_fail(sp, "resources.signal", "\"%s\": expected "
		    "[B:]SIGNAL[@SECONDS], e.g. \"USR1@120\"",
		    j->valuestring);
	x->signal_time = (int)t;
	return 0;
}

/*
 * The sbatch options hpod sets itself, or that would change how it follows
 * a job; sbatch_extra may not hold them (nor an abbreviation: sbatch takes
 * any unique prefix of a long option).  key names the resources key that
 * models it, or NULL.
 */
static const struct {
	const char	*opt, *key;
} sp_sbatch_own[] = {
	{ "--job-name", NULL }, { "--comment", NULL }, { "--output", NULL },
	{ "--error", NULL }, { "--input", NULL }, { "--chdir", NULL },
	{ "--array", NULL }, { "--export", NULL }, { "--export-file", NULL },
	{ "--parsable", NULL }, { "--wrap", NULL }, { "--test-only", NULL },
	{ "--wait", NULL }, { "--requeue", NULL }, { "--no-requeue", NULL },
	{ "--uid", NULL }, { "--gid", NULL }, { "--get-user-env", NULL },
	{ "--nodes", "nodes" }, { "--ntasks", "tasks_per_node" },
	{ "--ntasks-per-node", "tasks_per_node" },
	{ "--cpus-per-task", "cpus_per_task" },
	{ "--gpus-per-node", "gpus_per_node" }, { "--time", "time_limit" },
	{ "--partition", "partition" }, { "--account", "account" },
	{ "--qos", "qos" }, { "--constraint", "constraint" },
	{ "--mem", "mem" }, { "--mem-per-cpu", "mem_per_cpu" },
	{ "--mem-per-gpu", "mem_per_gpu" }, { "--exclusive", "exclusive" },
	{ "--reservation", "reservation" }, { "--signal", "signal" },
	{ "--gpus-per-task", "gpus_per_task" },
	{ "--cpus-per-gpu", "cpus_per_gpu" },
};

/* Check one sbatch_extra entry (key names it); 0 or -1. */
static int
sp_sbatch_entry(struct sp *sp, const char *key, const char *e)
{
	size_t	 n, i;

	n = strcspn(e, "=");
	if (strncmp(e, "--", 2) != 0 || n < 3)
		return sp_fail(sp, key, "\"%s\": expected a long sbatch option "
		    "such as \"--qos=debug\" (starting with \"--\")", e);
	for (i = 0; e[i] != '\0'; i++)
		if (iscntrl((unsigned char)e[i]))
			return sp_fail(sp, key, "\"%s\": a control character "
			    "in an sbatch option", e);
	for (i = 0; i < sizeof(sp_sbatch_own) / sizeof(sp_sbatch_own[0]);
	    i++) {
		if (strncmp(e, sp_sbatch_own[i].opt, n) != 0)
			continue;
		if (sp_sbatch_own[i].key != NULL)
			return sp_fail(sp, key, "\"%s\": %s is set by hpod "
			    "(use resources.%s)", e, sp_sbatch_own[i].opt,
			    sp_sbatch_own[i].key);
		return sp_fail(sp, key, "\"%s\": %s is set by hpod itself",
		    e, sp_sbatch_own[i].opt);
	}
	return 0;
}

/* "sbatch_extra": sbatch options hpod does not model, checked above. */
static int
sp_sbatch_extra(struct sp *sp, const cJSON *r, struct sched_slurm_extra *x)
{
	const cJSON	*j = r ? cJSON_GetObjectItemCaseSensitive(r,
			    "sbatch_extra") : NULL;
	const cJSON	*e;
	char		 key[64];
	int		 n, i = 0;

	if (j == NULL)
		return 0;
	if (!cJSON_IsArray(j))
		return sp_fail(sp, "resources.sbatch_extra", "expected a list "
		    "of sbatch options such as [\"--qos=debug\"], got %s",
		    sp_type(j));
	if ((n = cJSON_GetArraySize(j)) > 64)
		return sp_fail(sp, "resources.sbatch_extra", "%d options: "
		    "at most 64", n);
	if (n == 0)
		return 0;
	if ((x->sbatch = calloc((size_t)n + 1, sizeof(*x->sbatch))) == NULL)
		return sp_fail(sp, "resources.sbatch_extra", "out of memory");
	cJSON_ArrayForEach(e, j) {
		snprintf(key, sizeof(key), "resources.sbatch_extra[%d]", i);
		if (!cJSON_IsString(e))
			return sp_fail(sp, key, "expected a string, got %s",
			    sp_type(e));
		if (sp_sbatch_entry(sp, key, e->valuestring) == -1)
			return -1;
		if ((x->sbatch[i++] = strdup(e->valuestring)) == NULL)
			return sp_fail(sp, key, "out of memory");
	}
	return 0;
}

int
sp_slurm(struct sp *sp, const cJSON *r, struct sched_slurm_extra *x)
{
	long	 n;
	int	 set = 0;
	char	*res = NULL;

	memset(x, 0, sizeof(*x));
	if (sp_mem(sp, r, "mem", &x->mem_mb) == -1 ||
	    sp_mem(sp, r, "mem_per_cpu", &x->mem_per_cpu_mb) == -1 ||
	    sp_mem(sp, r, "mem_per_gpu", &x->mem_per_gpu_mb) == -1)
		return -1;
	set = (x->mem_mb > 0) + (x->mem_per_cpu_mb > 0) +
	    (x->mem_per_gpu_mb > 0);
	if (set > 1)
		return sp_fail(sp, "resources", "mem, mem_per_cpu and "
		    "mem_per_gpu exclude each other (as in sbatch)");
	if (sp_bool(sp, r, "exclusive", "resources", 0, &x->exclusive) == -1 ||
	    sp_string(sp, r, "reservation", "resources", 0, NULL, &res) == -1)
		return -1;
	x->reservation = res;
	if (sp_signal(sp, r, x) == -1 ||
	    sp_int(sp, r, "gpus_per_task", "resources", 0, 0, 1024, 0, &n) ==
	    -1)
		return -1;
	x->gpus_per_task = (int)n;
	if (sp_int(sp, r, "cpus_per_gpu", "resources", 0, 0, 4096, 0, &n) ==
	    -1)
		return -1;
	x->cpus_per_gpu = (int)n;
	return sp_sbatch_extra(sp, r, x);
}

/* The keys as the sbatch options they stand for, "" if none. */
void
spec_slurm_sbatch(const struct sched_slurm_extra *x, char *buf, size_t len)
{
	FILE	*f;
	char	*text = NULL;
	size_t	 n = 0, i;

	if ((f = open_memstream(&text, &n)) == NULL) {
		snprintf(buf, len, "(out of memory)");
		return;
	}
	if (x->mem_mb > 0)
		fprintf(f, " --mem=%lluM", (unsigned long long)x->mem_mb);
	if (x->mem_per_cpu_mb > 0)
		fprintf(f, " --mem-per-cpu=%lluM",
		    (unsigned long long)x->mem_per_cpu_mb);
	if (x->mem_per_gpu_mb > 0)
		fprintf(f, " --mem-per-gpu=%lluM",
		    (unsigned long long)x->mem_per_gpu_mb);
	if (x->exclusive)
		fprintf(f, " --exclusive");
	if (x->reservation != NULL)
		fprintf(f, " --reservation=%s", x->reservation);
	if (x->signal > 0)
		fprintf(f, " --signal=%s%d@%d", x->signal_batch ? "B:" : "",
		    x->signal, x->signal_time);
	if (x->gpus_per_task > 0)
		fprintf(f, " --gpus-per-task=%d", x->gpus_per_task);
	if (x->cpus_per_gpu > 0)
		fprintf(f, " --cpus-per-gpu=%d", x->cpus_per_gpu);
	for (i = 0; x->sbatch != NULL && x->sbatch[i] != NULL; i++)
		fprintf(f, " %s", x->sbatch[i]);
	fclose(f);
	snprintf(buf, len, "%s", n > 0 ? text + 1 : "");
	free(text);
}
