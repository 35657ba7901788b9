/*
 * import.c: `hpoctl import [--study name | --campaign name] --from file
 * [-o output] spec`.  It sets the spec's "prior" to the study of an Optuna
 * RDB file, or to a campaign of an hpod ledger, reads the priors with the
 * loader the engine uses when the campaign starts (prior_read()), so that
 * another space, direction or search is refused now, naming the file and
 * the key, and writes the warm-started spec.  The priors are prior
 * knowledge: the campaign records them when it starts, and they count in
 * neither its trials nor its cost.  The file is named by its absolute path,
 * so the spec reads it wherever it is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "import.h"
#include "ledger.h"
#include "prior.h"
#include "spec.h"

static void __attribute__((noreturn))
import_usage(void)
{
	fprintf(stderr, "usage: hpoctl import [--study name | --campaign name] "
	    "--from file [-o output] spec\n");
	exit(64);
}

/* Read a whole file ("-": the standard input); NULL with err. */
static char *
import_slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE	*f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char	*buf = NULL, *nb;
	size_t	 cap = 0, n;

	*len = 0;
	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (*len + 4096 > cap) {
			if ((nb = realloc(buf, cap = 2 * cap + 4096)) == NULL) {
				snprintf(err, errlen, "%s: out of memory",
				    path);
				free(buf);
				if (f != stdin)
					fclose(f);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len - 1, f);
		*len += n;
	} while (n > 0);
	buf[*len] = '\0';
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	return buf;
}

/*
 * The spec's text with "prior" set to {"optuna": from, "study": name} or
 * {"ledger": from, "campaign": name} (malloc'ed); NULL with err.
 */
static char *
import_rewrite(const char *spec, const char *text, const char *from,
    const char *study, const char *campaign, char *err, size_t errlen)
{
	cJSON	*root = cJSON_Parse(text), *p;
	char	*out;

	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "%s: not a JSON object", spec);
		cJSON_Delete(root);
		return NULL;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(root, "prior");
	p = cJSON_AddObjectToObject(root, "prior");
	cJSON_AddStringToObject(p, campaign ? "ledger" : "optuna", from);
	if (campaign != NULL)
		cJSON_AddStringToObject(p, "campaign", campaign);
	else if (study != NULL)
		cJSON_AddStringToObject(p, "study", study);
	if ((out = cJSON_Print(root)) == NULL)
		snprintf(err, errlen, "%s: out of memory", spec);
	cJSON_Delete(root);
	return out;
}

/* Write text to a new file (never replacing one), or stdout for NULL. */
static int
import_write(const char *output, const char *text, char *err, size_t errlen)
{
	FILE	*f = stdout;
	int	 fd;

	if (output != NULL) {
		if ((fd = open(output, O_WRONLY | O_CREAT | O_EXCL, 0644)) ==
		    -1 || (f = fdopen(fd, "w")) == NULL) {
			snprintf(err, errlen, "%s: %s", output,
			    strerror(errno));
			return -1;
		}
	}
	fprintf(f, "%s\n", text);
	if ((output != NULL ? fclose(f) : fflush(f)) != 0) {
		snprintf(err, errlen, "%s: %s", output ? output :
		    "standard output", strerror(errno));
		return -1;
	}
	return 0;
}

/* Import into the spec; 0, or -1 with err. */
static int
import_run(const char *spec, const char *from, const char *study,
    const char *campaign, const char *output, char *err, size_t errlen)
{
	struct campaign_spec	*s = NULL;
	struct ledger_prior	*pr = NULL;
	char			*text, *out = NULL, abs[PATH_MAX];
	size_t			 len, n = 0;
	int			 rc = -1;

	if (realpath(from, abs) == NULL) {
		snprintf(err, errlen, "--from %s: %s", from, strerror(errno));
		return -1;
	}
	if ((text = import_slurp(spec, &len, err, errlen)) == NULL)
		return -1;
	if ((out = import_rewrite(spec, text, abs, study, campaign, err,
	    errlen)) == NULL ||
	    (s = spec_parse(out, strlen(out), spec, err, errlen)) == NULL ||
	    prior_read(s, &pr, &n, err, errlen) == -1)
		goto done;
	if (n == 0) {
		snprintf(err, errlen, "%s: no finished trial to import", from);
		goto done;
	}
	if (import_write(output, out, err, errlen) == -1)
		goto done;
	fprintf(stderr, "hpoctl: import: %zu prior%s from %s into campaign "
	    "'%s': prior knowledge, not its trials or cost\n", n,
	    n == 1 ? "" : "s", pr[0].source, s->name);
	rc = 0;
done:
	ledger_prior_list_free(pr, n);
	spec_free(s);
	free(out);
	free(text);
	return rc;
}

/* `hpoctl import`. */
int
import_command(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "study", required_argument, NULL, 'S' },
		{ "campaign", required_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*from = NULL, *study = NULL, *campaign = NULL;
	const char	*output = NULL;
	char		 err[1024];
	int		 ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+o:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			from = optarg;
			break;
		case 'S':
			study = optarg;
			break;
		case 'C':
			campaign = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		default:
			import_usage();
		}
	}
	if (argc - optind != 1 || from == NULL ||
	    (study != NULL && campaign != NULL))
		import_usage();
	if (import_run(argv[optind], from, study, campaign, output, err,
	    sizeof(err)) == -1) {
		fprintf(stderr, "hpoctl: import: %s\n", err);
		return 1;
	}
	return 0;
}
