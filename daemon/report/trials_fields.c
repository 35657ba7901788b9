/*
 * trials_fields.c: `hpoctl trials --fields LIST` (-O LIST, as squeue's
 * -O/--Format): the columns a user chooses, by their CSV names or a
 * parameter's name, in text, CSV or --parsable form, rendered from the
 * trial list's JSON form so that every form holds the same values.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_alloc.h"
#include "report_int.h"
#include "trials_opts.h"

/*
 * The trial list's own columns, in the order of its CSV form, and reason
 * (its JSON form's, the last attempt's end in words), by name only.
 */
static const char *const trials_columns[] = { "trial", "state", "role",
	"attempts", "seed", "best", "best_step", "reached", "job_id", "host",
	"dir", "pending_reason", "reason", NULL };

/* 1 if name is one of the own columns. */
static int
fields_own(const char *name)
{
	size_t	 i;

	for (i = 0; trials_columns[i] != NULL; i++)
		if (strcmp(trials_columns[i], name) == 0)
			return 1;
	return 0;
}

static void
fields_free(char **v, size_t n)
{
	size_t	 i;

	for (i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * Split a comma-separated list into names (NULL-terminated); n set.
 * NULL if memory ran out.
 */
static char **
fields_split(const char *list, size_t *n)
{
	char	**v, *copy, *p, *tok;
	size_t	  cap = 1;

	for (p = (char *)list; *p; p++)
		cap += *p == ',';
	*n = 0;
	v = report_calloc(cap + 1, sizeof(*v));
	copy = report_strdup(list);
	for (tok = copy; v != NULL && tok != NULL; tok = p) {
		if ((p = strchr(tok, ',')) != NULL)
			*p++ = '\0';
		if ((v[(*n)++] = report_strdup(tok)) == NULL)
			break;
	}
	if (copy == NULL || (v != NULL && v[*n - 1] == NULL)) {
		fields_free(v, *n);
		v = NULL;
	}
	free(copy);
	return v;
}

/*
 * Each row's parameters as a tree (the JSON form carries them raw, as
 * the ledger holds them; what does not parse is an empty object); -1 if
 * memory ran out.
 */
static int
fields_parse_params(cJSON *rows)
{
	cJSON	*row, *p, *tree;

	cJSON_ArrayForEach(row, rows) {
		p = cJSON_GetObjectItemCaseSensitive(row, "params");
		if (!cJSON_IsRaw(p))
			continue;
		if ((tree = cJSON_Parse(p->valuestring)) == NULL)
			tree = cJSON_CreateObject();
		if (tree == NULL || !cJSON_ReplaceItemInObjectCaseSensitive(row,
		    "params", tree)) {
			cJSON_Delete(tree);
			return -1;
		}
	}
	return 0;
}

/* Check every name against the columns and the rows' parameters. */
static int
fields_check(char **names, size_t n, const cJSON *rows, char *err,
    size_t errlen)
{
	const cJSON	*row, *params;
	size_t		 i;
	int		 found;

	for (i = 0; i < n; i++) {
		if (names[i][0] == '\0') {
			snprintf(err, errlen, "--fields: an empty column name "
			    "(expected names separated by single commas)");
			return -1;
		}
		if (fields_own(names[i]))
			continue;
		found = 0;
		cJSON_ArrayForEach(row, rows) {
			params = cJSON_GetObjectItemCaseSensitive(row, "params");
			if (cJSON_GetObjectItemCaseSensitive(params,
			    names[i]) != NULL) {
				found = 1;
				break;
			}
		}
		if (!found) {
			snprintf(err, errlen, "--fields: unknown column '%s' "
			    "(expected trial, state, role, attempts, seed, "
			    "best, best_step, reached, job_id, host, dir, "
			    "pending_reason, reason or a parameter of the "
			    "campaign's trials)", names[i]);
			return -1;
		}
	}
	return 0;
}

/* The text of one cell: CSV's exact form, or the text table's. */
static void
fields_cell(const cJSON *row, const char *name, int text, char *buf,
    size_t len)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(row, name);

	if (v == NULL && !fields_own(name))
		v = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(row, "params"), name);
	if (cJSON_IsString(v))
		snprintf(buf, len, "%s", *v->valuestring == '\0' && text ? "-" :
		    v->valuestring);
	else if (cJSON_IsBool(v))
		snprintf(buf, len, "%s", text ? (cJSON_IsTrue(v) ? "yes" :
		    "no") : (cJSON_IsTrue(v) ? "1" : "0"));
	else if (cJSON_IsNumber(v))
		snprintf(buf, len, text ? "%.6g" : "%.17g", v->valuedouble);
	else if (cJSON_IsRaw(v))	/* report_json_number's exact form */
		snprintf(buf, len, text ? "%.6g" : "%.17g",
		    strtod(v->valuestring, NULL));
	else
		snprintf(buf, len, "%s", text ? "-" : "");
}

/* Write s as a CSV field: quoted when it must be, unless raw. */
static void
fields_csv(FILE *f, const char *s, int raw)
{
	if (raw)
		fputs(s, f);
	else
		report_csv_text(f, s);
}

/* The header of a text column: an own column in capitals, as squeue. */
static void
fields_header(const char *name, char *buf, size_t len)
{
	size_t	 i;

	snprintf(buf, len, "%s", name);
	if (fields_own(name))
		for (i = 0; buf[i] != '\0'; i++)
			buf[i] = (char)toupper((unsigned char)buf[i]);
}

int
trials_fields_render(cJSON *rows, const char *list,
    enum report_format fmt, int noheader, int parsable, char **out,
    char *err, size_t errlen)
{
	const cJSON	*row;
	char		**names, cell[512];
	size_t		 n, i, len, *width;
	FILE		*f;
	int		 text = fmt == REPORT_TEXT && !parsable;

	if (fmt != REPORT_TEXT && fmt != REPORT_CSV) {
		snprintf(err, errlen, "--fields chooses the columns of text "
		    "and CSV (the JSON form has every key)");
		return -2;
	}
	*out = NULL;
	if (fields_parse_params(rows) == -1 ||
	    (names = fields_split(list, &n)) == NULL)
		return -1;
	if (fields_check(names, n, rows, err, errlen) == -1) {
		fields_free(names, n);
		return -2;
	}
	if ((width = report_calloc(n, sizeof(*width))) == NULL ||
	    (f = report_memstream(out, &len)) == NULL) {
		free(width);
		fields_free(names, n);
		return -1;
	}
	for (i = 0; text && i < n; i++) {
		width[i] = noheader ? 0 : strlen(names[i]);
		cJSON_ArrayForEach(row, rows) {
			fields_cell(row, names[i], 1, cell, sizeof(cell));
			if (strlen(cell) > width[i])
				width[i] = strlen(cell);
		}
	}
	for (i = 0; !noheader && i < n; i++) {
		if (text) {
			fields_header(names[i], cell, sizeof(cell));
			fprintf(f, "%s%-*s", i > 0 ? "  " : "", i + 1 < n ?
			    (int)width[i] : 0, cell);
		} else
			fprintf(f, "%s%s", i > 0 ? (parsable ? "|" : ",") : "",
			    names[i]);
	}
	if (!noheader)
		fputc('\n', f);
	cJSON_ArrayForEach(row, rows) {
		for (i = 0; i < n; i++) {
			fields_cell(row, names[i], text, cell, sizeof(cell));
			if (text)
				fprintf(f, "%s%-*s", i > 0 ? "  " : "",
				    i + 1 < n ? (int)width[i] : 0, cell);
			else {
				if (i > 0)
					fputc(parsable ? '|' : ',', f);
				fields_csv(f, cell, parsable);
			}
		}
		fputc('\n', f);
	}
	free(width);
	fields_free(names, n);
	return report_memstream_close(f, out);
}
