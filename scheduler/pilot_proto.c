/*
 * pilot_proto.c: parsing and rendering the pilot protocol's messages and
 * the pilot file (see pilot_proto.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "file.h"
#include "pilot_proto.h"

static const char *const pilot_op_names[] = {
	[PILOT_HELLO] = "hello", [PILOT_NEXT] = "next",
	[PILOT_STARTED] = "started", [PILOT_ENDED] = "ended",
	[PILOT_RUN] = "run", [PILOT_CANCEL] = "cancel",
	[PILOT_DRAIN] = "drain"
};
#define PILOT_NOPS	(sizeof(pilot_op_names) / sizeof(pilot_op_names[0]))

const char *
pilot_op_name(enum pilot_op op)
{
	return (size_t)op < PILOT_NOPS ? pilot_op_names[op] : "?";
}

/* Copy string member key of o into *out; -1 with err if required/bad. */
static int
pilot_str(const cJSON *o, const char *key, int required, char **out,
    char *err, size_t errlen)
{
	const cJSON	*j = cJSON_GetObjectItemCaseSensitive(o, key);

	*out = NULL;
	if (j == NULL && !required)
		return 0;
	if (!cJSON_IsString(j) || j->valuestring[0] == '\0') {
		snprintf(err, errlen, "pilot message: '%s' must be a non-empty "
		    "string", key);
		return -1;
	}
	if ((*out = strdup(j->valuestring)) == NULL) {
		snprintf(err, errlen, "pilot message: out of memory");
		return -1;
	}
	return 0;
}

/* The hello's "running": an array of tokens (absent: none). */
static int
pilot_running(const cJSON *o, struct pilot_msg *m, char *err, size_t errlen)
{
	const cJSON	*a = cJSON_GetObjectItemCaseSensitive(o, "running");
	const cJSON	*t;
	int		 n = 0;

	if (a != NULL && !cJSON_IsArray(a)) {
		snprintf(err, errlen, "pilot message: 'running' must be an "
		    "array of tokens");
		return -1;
	}
	if ((m->running = calloc((size_t)cJSON_GetArraySize(a) + 1,
	    sizeof(*m->running))) == NULL) {
		snprintf(err, errlen, "pilot message: out of memory");
		return -1;
	}
	cJSON_ArrayForEach(t, a) {
		if (!cJSON_IsString(t) || t->valuestring[0] == '\0') {
			snprintf(err, errlen, "pilot message: running[%d] "
			    "must be a non-empty string", n);
			return -1;
		}
		if ((m->running[n++] = strdup(t->valuestring)) == NULL) {
			snprintf(err, errlen, "pilot message: out of memory");
			return -1;
		}
	}
	return 0;
}

/*
 * Node indices: array a (named what in errors) of min to 100000 integers
 * from 0 to 100000, into *at (malloc'ed, NULL when empty) and *n.
 */
static int
pilot_indices(const cJSON *a, const char *what, int min, int **at, int *n,
    char *err, size_t errlen)
{
	const cJSON	*t;

	*at = NULL;
	*n = 0;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < min ||
	    cJSON_GetArraySize(a) > 100000) {
		snprintf(err, errlen, "pilot message: '%s' must be an array "
		    "of %d to 100000 node indices", what, min);
		return -1;
	}
	if (cJSON_GetArraySize(a) > 0 && (*at = calloc((size_t)
	    cJSON_GetArraySize(a), sizeof(**at))) == NULL) {
		snprintf(err, errlen, "pilot message: out of memory");
		return -1;
	}
	cJSON_ArrayForEach(t, a) {
		if (!cJSON_IsNumber(t) || t->valuedouble < 0 ||
		    t->valuedouble > 100000 ||
		    t->valuedouble != floor(t->valuedouble)) {
			snprintf(err, errlen, "pilot message: %s[%d] must "
			    "be an integer from 0 to 100000", what, *n);
			return -1;
		}
		(*at)[(*n)++] = (int)t->valuedouble;
	}
	return 0;
}

/* The run's "nodes": an array of node indices (absent: none). */
static int
pilot_nodes(const cJSON *o, struct pilot_msg *m, char *err, size_t errlen)
{
	const cJSON	*a = cJSON_GetObjectItemCaseSensitive(o, "nodes");

	if (a == NULL)
		return 0;
	return pilot_indices(a, "nodes", 1, &m->nodes, &m->nnodes, err,
	    errlen);
}

/*
 * The hello's "running_nodes" (absent: none said): one array of node
 * indices, maybe empty, for each of its "running" tokens, in order.
 */
static int
pilot_running_nodes(const cJSON *o, struct pilot_msg *m, char *err,
    size_t errlen)
{
	const cJSON	*a = cJSON_GetObjectItemCaseSensitive(o,
			    "running_nodes");
	const cJSON	*e;
	char		 what[64];
	int		 n = 0, i;

	if (a == NULL)
		return 0;
	for (i = 0; m->running[i] != NULL; i++)
		;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != i) {
		snprintf(err, errlen, "pilot message: 'running_nodes' must be "
		    "an array of %d arrays of node indices, one for each of "
		    "'running'", i);
		return -1;
	}
	if ((m->running_nodes = calloc((size_t)i + 1,
	    sizeof(*m->running_nodes))) == NULL) {
		snprintf(err, errlen, "pilot message: out of memory");
		return -1;
	}
	cJSON_ArrayForEach(e, a) {
		snprintf(what, sizeof(what), "running_nodes[%d]", n);
		if (pilot_indices(e, what, 0, &m->running_nodes[n].at,
		    &m->running_nodes[n].n, err, errlen) == -1)
			return -1;
		n++;
	}
	return 0;
}

/* The members op needs, into m. */
static int
pilot_members(const cJSON *o, struct pilot_msg *m, char *err, size_t errlen)
{
	const cJSON	*j;

	switch (m->op) {
	case PILOT_HELLO:
		j = cJSON_GetObjectItemCaseSensitive(o, "slots");
		if (!cJSON_IsNumber(j) || j->valuedouble < 1 ||
		    j->valuedouble > 100000 ||
		    j->valuedouble != floor(j->valuedouble)) {
			snprintf(err, errlen, "pilot message: 'slots' must be "
			    "an integer from 1 to 100000");
			return -1;
		}
		m->slots = (int)j->valuedouble;
		return pilot_str(o, "secret", 1, &m->secret, err, errlen) == -1 ||
		    pilot_str(o, "pilot", 1, &m->pilot, err, errlen) == -1 ||
		    pilot_running(o, m, err, errlen) == -1 ||
		    pilot_running_nodes(o, m, err, errlen) == -1 ? -1 : 0;
	case PILOT_STARTED:
		j = cJSON_GetObjectItemCaseSensitive(o, "time");
		if (!cJSON_IsNumber(j) || !(j->valuedouble > 0) ||
		    !isfinite(j->valuedouble)) {
			snprintf(err, errlen, "pilot message: 'time' must be "
			    "a positive number");
			return -1;
		}
		m->time = j->valuedouble;
		return pilot_str(o, "token", 1, &m->token, err, errlen) == -1 ||
		    pilot_str(o, "host", 0, &m->host, err, errlen) == -1 ?
		    -1 : 0;
	case PILOT_ENDED:
		j = cJSON_GetObjectItemCaseSensitive(o, "ending");
		if (j != NULL && !cJSON_IsBool(j)) {
			snprintf(err, errlen, "pilot message: 'ending' must be "
			    "true or false");
			return -1;
		}
		m->ending = cJSON_IsTrue(j);
		return pilot_str(o, "token", 1, &m->token, err, errlen);
	case PILOT_CANCEL:
		return pilot_str(o, "token", 1, &m->token, err, errlen);
	case PILOT_RUN:
		return pilot_str(o, "token", 1, &m->token, err, errlen) == -1 ||
		    pilot_str(o, "dir", 1, &m->dir, err, errlen) == -1 ||
		    pilot_str(o, "job", 1, &m->job, err, errlen) == -1 ||
		    pilot_nodes(o, m, err, errlen) == -1 ? -1 : 0;
	case PILOT_NEXT:
	case PILOT_DRAIN:
		break;
	}
	return 0;
}

/* Parse one line into m. */
int
pilot_msg_parse(const char *line, size_t len, struct pilot_msg *m, char *err,
    size_t errlen)
{
	const cJSON	*op;
	cJSON		*o;
	size_t		 i;
	int		 rc = -1;

	memset(m, 0, sizeof(*m));
	if (len > PILOT_LINE_MAX) {
		snprintf(err, errlen, "pilot message: longer than %d bytes",
		    PILOT_LINE_MAX);
		return -1;
	}
	if ((o = cJSON_ParseWithLength(line, len)) == NULL ||
	    !cJSON_IsObject(o)) {
		snprintf(err, errlen, "pilot message: not a JSON object");
		cJSON_Delete(o);
		return -1;
	}
	op = cJSON_GetObjectItemCaseSensitive(o, "op");
	if (!cJSON_IsString(op)) {
		snprintf(err, errlen, "pilot message: 'op' must be a string");
		goto out;
	}
	for (i = 0; i < PILOT_NOPS; i++)
		if (strcmp(op->valuestring, pilot_op_names[i]) == 0)
			break;
	if (i == PILOT_NOPS) {
		snprintf(err, errlen, "pilot message: unknown op '%.64s'",
		    op->valuestring);
		goto out;
	}
	m->op = (enum pilot_op)i;
	rc = pilot_members(o, m, err, errlen);
out:
	cJSON_Delete(o);
	if (rc == -1)
		pilot_msg_release(m);
	return rc;
}

/* Add string member key (skipped when v is NULL); 0 or -1. */
static int
pilot_add(cJSON *o, const char *key, const char *v)
{
	return v == NULL || cJSON_AddStringToObject(o, key, v) != NULL ? 0 :
	    -1;
}

/* The hello's "running_nodes" into o: 0, or -1 (no memory). */
static int
pilot_render_running_nodes(cJSON *o, const struct pilot_msg *m)
{
	const struct pilot_nodes *pn;
	cJSON		*a, *e;
	size_t		 i;

	if ((a = cJSON_AddArrayToObject(o, "running_nodes")) == NULL)
		return -1;
	for (i = 0; m->running != NULL && m->running[i] != NULL; i++) {
		pn = &m->running_nodes[i];
		e = pn->n > 0 ? cJSON_CreateIntArray(pn->at, pn->n) :
		    cJSON_CreateArray();
		if (e == NULL || !cJSON_AddItemToArray(a, e)) {
			cJSON_Delete(e);
			return -1;
		}
	}
	return 0;
}

/* Render m as one line. */
char *
pilot_msg_render(const struct pilot_msg *m)
{
	cJSON	*o, *a;
	char	*text, *line = NULL;
	size_t	 i, n;
	int	 ok;

	if ((o = cJSON_CreateObject()) == NULL)
		return NULL;
	ok = pilot_add(o, "op", pilot_op_name(m->op)) == 0 &&
	    pilot_add(o, "secret", m->secret) == 0 &&
	    pilot_add(o, "pilot", m->pilot) == 0 &&
	    pilot_add(o, "token", m->token) == 0 &&
	    pilot_add(o, "host", m->host) == 0 &&
	    pilot_add(o, "dir", m->dir) == 0 &&
	    pilot_add(o, "job", m->job) == 0 &&
	    (m->op != PILOT_HELLO ||
	    cJSON_AddNumberToObject(o, "slots", m->slots) != NULL) &&
	    (m->op != PILOT_STARTED ||
	    cJSON_AddNumberToObject(o, "time", m->time) != NULL) &&
	    (m->op != PILOT_ENDED ||
	    cJSON_AddBoolToObject(o, "ending", m->ending) != NULL);
	if (ok && m->op == PILOT_HELLO) {
		ok = (a = cJSON_AddArrayToObject(o, "running")) != NULL;
		for (i = 0; ok && m->running != NULL && m->running[i] != NULL;
		    i++)
			ok = cJSON_AddItemToArray(a,
			    cJSON_CreateString(m->running[i]));
	}
	if (ok && m->op == PILOT_HELLO && m->running_nodes != NULL)
		ok = pilot_render_running_nodes(o, m) == 0;
	if (ok && m->op == PILOT_RUN && m->nnodes > 0)
		ok = cJSON_AddItemToObject(o, "nodes",
		    cJSON_CreateIntArray(m->nodes, m->nnodes));
	if (ok && (text = cJSON_PrintUnformatted(o)) != NULL) {
		n = strlen(text);
		if ((line = malloc(n + 2)) != NULL) {
			memcpy(line, text, n);
			line[n] = '\n';
			line[n + 1] = '\0';
		}
		cJSON_free(text);
	}
	cJSON_Delete(o);
	return line;
}

void
pilot_msg_release(struct pilot_msg *m)
{
	size_t	 i;

	free(m->secret);
	free(m->pilot);
	for (i = 0; m->running != NULL && m->running[i] != NULL; i++) {
		if (m->running_nodes != NULL)
			free(m->running_nodes[i].at);
		free(m->running[i]);
	}
	free(m->running_nodes);
	free(m->running);
	free(m->token);
	free(m->host);
	free(m->dir);
	free(m->job);
	free(m->nodes);
	memset(m, 0, sizeof(*m));
}

/* Is s PILOT_SECRET_LEN lowercase hex digits? */
static int
pilot_secret_ok(const char *s)
{
	size_t	 i;

	for (i = 0; s[i] != '\0'; i++)
		if (strchr("0123456789abcdef", s[i]) == NULL)
			return 0;
	return i == PILOT_SECRET_LEN;
}

/* Read the pilot file's optional "addresses" into pa. */
static int
pilot_addrs_read(const cJSON *o, struct pilot_addr *pa, const char *path,
    char *err, size_t errlen)
{
	const cJSON	*a, *e;

	a = cJSON_GetObjectItemCaseSensitive(o, "addresses");
	if (a == NULL)
		return 0;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > PILOT_MAX_ADDRS) {
		snprintf(err, errlen, "%s: 'addresses' must be a list of at "
		    "most %d addresses", path, PILOT_MAX_ADDRS);
		return -1;
	}
	cJSON_ArrayForEach(e, a) {
		if (!cJSON_IsString(e) || e->valuestring[0] == '\0' ||
		    strlen(e->valuestring) >= sizeof(pa->addrs[0])) {
			snprintf(err, errlen, "%s: 'addresses' must hold "
			    "numeric addresses (strings)", path);
			return -1;
		}
		snprintf(pa->addrs[pa->naddrs++], sizeof(pa->addrs[0]), "%s",
		    e->valuestring);
	}
	return 0;
}

/* Read the pilot file. */
int
pilot_addr_read(const char *path, struct pilot_addr *pa, char *err,
    size_t errlen)
{
	struct stat	 st;
	const cJSON	*h, *p, *s;
	cJSON		*o;
	char		*text, ferr[512];
	size_t		 len;
	int		 rc;

	memset(pa, 0, sizeof(*pa));
	if (lstat(path, &st) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077) != 0) {
		snprintf(err, errlen, "%s: must be a regular file of uid %ld "
		    "with mode 0600 (it holds the campaign's secret)", path,
		    (long)geteuid());
		return -1;
	}
	if ((rc = file_slurp(path, 65536, &text, &len, ferr, sizeof(ferr)))
	    != 0) {
		snprintf(err, errlen, "%s", rc == 1 ? "no such file" : ferr);
		return -1;
	}
	o = cJSON_ParseWithLength(text, len);
	free(text);
	h = cJSON_GetObjectItemCaseSensitive(o, "host");
	p = cJSON_GetObjectItemCaseSensitive(o, "port");
	s = cJSON_GetObjectItemCaseSensitive(o, "secret");
	rc = -1;
	if (!cJSON_IsString(h) || h->valuestring[0] == '\0' ||
	    strlen(h->valuestring) >= sizeof(pa->host))
		snprintf(err, errlen, "%s: 'host' must be a host name or "
		    "address", path);
	else if (!cJSON_IsNumber(p) || p->valuedouble < 1 ||
	    p->valuedouble > 65535 || p->valuedouble != floor(p->valuedouble))
		snprintf(err, errlen, "%s: 'port' must be from 1 to 65535",
		    path);
	else if (!cJSON_IsString(s) || !pilot_secret_ok(s->valuestring))
		snprintf(err, errlen, "%s: 'secret' must be %d hex digits",
		    path, PILOT_SECRET_LEN);
	else if (pilot_addrs_read(o, pa, path, err, errlen) == 0) {
		snprintf(pa->host, sizeof(pa->host), "%s", h->valuestring);
		pa->port = (int)p->valuedouble;
		memcpy(pa->secret, s->valuestring, PILOT_SECRET_LEN + 1);
		rc = 0;
	}
	cJSON_Delete(o);
	return rc;
}

/* The pilot file's text. */
char *
pilot_addr_render(const struct pilot_addr *pa)
{
	cJSON	*o, *a, *e = NULL;
	char	*text = NULL;
	int	 i;

	if ((o = cJSON_CreateObject()) == NULL)
		return NULL;
	if (cJSON_AddStringToObject(o, "host", pa->host) != NULL &&
	    (a = cJSON_AddArrayToObject(o, "addresses")) != NULL &&
	    cJSON_AddNumberToObject(o, "port", pa->port) != NULL &&
	    cJSON_AddStringToObject(o, "secret", pa->secret) != NULL) {
		for (i = 0; i < pa->naddrs; i++)
			if ((e = cJSON_CreateString(pa->addrs[i])) == NULL ||
			    !cJSON_AddItemToArray(a, e)) {
				cJSON_Delete(e);
				cJSON_Delete(o);
				return NULL;
			}
		text = cJSON_Print(o);
	}
	cJSON_Delete(o);
	return text;
}
