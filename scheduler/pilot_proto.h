/*
 * pilot_proto.h: the messages between a pilot's agent (hpo-trial --pilot)
 * and the pilot backend in hpod: newline-delimited JSON objects, one per
 * line, each with an "op".
 *
 * agent -> hpod:
 *   {"op": "hello", "secret": S, "pilot": P, "slots": N, "running": [T...],
 *    "running_nodes": [[I...]...]}      running_nodes (optional: an older
 *                                           agent sends none): for each of
 *                                           running, in order, the indices
 *                                           of the pilot's nodes it runs on
 *                                           as its run said ([]: none said)
 *   {"op": "next"}                          a slot is free
 *   {"op": "started", "token": T, "host": H, "time": t}
 *   {"op": "ended", "token": T, "ending": B} T's result.json is final;
 *                                           B true: T was stopped because
 *                                           the pilot itself is ending
 * hpod -> agent:
 *   {"op": "run", "token": T, "dir": D, "job": J, "nodes": [I...]}
 *                                           J: job.json's text; I: the
 *                                           indices of the pilot's nodes
 *                                           it runs on (optional: absent,
 *                                           the agent's own node)
 *   {"op": "cancel", "token": T}            stop T (SIGTERM to its wrapper)
 *   {"op": "drain"}                         no more: exit when idle
 *
 * A "next" stays unanswered until there is a job for it (or a drain):
 * an agent asks once per free slot and hears back as soon as a job is
 * queued.
 *
 * The pilot file, written by hpod (0600), tells the agent where to call:
 *   {"host": "10.0.0.1", "port": 41000, "secret": "<64 hex digits>"}
 */
#ifndef HPOD_PILOT_PROTO_H
#define HPOD_PILOT_PROTO_H

#include <stddef.h>

#define PILOT_LINE_MAX	(1024 * 1024)	/* longest message accepted */
#define PILOT_SECRET_LEN 64		/* hex digits */

enum pilot_op {
	PILOT_HELLO, PILOT_NEXT, PILOT_STARTED, PILOT_ENDED,
	PILOT_RUN, PILOT_CANCEL, PILOT_DRAIN
};

/* Where a running job is: the indices of its pilot's nodes (n 0: unsaid). */
struct pilot_nodes {
	int		*at;
	int		 n;
};

/* One message; strings are malloc'ed (pilot_msg_release frees them). */
struct pilot_msg {
	enum pilot_op	 op;
	char		*secret;	/* hello */
	char		*pilot;		/* hello: the pilot's own token */
	int		 slots;		/* hello: trials it runs at once */
	char		**running;	/* hello: NULL-terminated tokens */
	struct pilot_nodes *running_nodes; /* hello: one per running token,
					   or NULL: not said (older agent) */
	char		*token;		/* started, ended, run, cancel */
	char		*host;		/* started */
	double		 time;		/* started */
	char		*dir;		/* run */
	char		*job;		/* run: the job.json text */
	int		*nodes;		/* run: its nodes' indices, or NULL */
	int		 nnodes;	/* how many */
	int		 ending;	/* ended: stopped with its pilot */
};

/* The name of an op ("hello", ...). */
const char	*pilot_op_name(enum pilot_op);
/*
 * Parse one line (without its newline) into m.  Return 0, or -1 with err
 * saying what is wrong ("pilot message: 'token' must be a non-empty
 * string"); m then holds nothing to release.
 */
int	 pilot_msg_parse(const char *line, size_t len, struct pilot_msg *m,
	    char *err, size_t errlen);
/* m as one line of JSON ending in a newline (malloc'ed); NULL: no memory. */
char	*pilot_msg_render(const struct pilot_msg *m);
void	 pilot_msg_release(struct pilot_msg *m);

/*
 * The pilot file: where hpod listens for this campaign's agents: its host
 * name, and its interfaces' numeric addresses for nodes that cannot
 * resolve that name (key "addresses", optional on reading).
 */
#define PILOT_MAX_ADDRS	8
struct pilot_addr {
	char		 host[256];
	char		 addrs[PILOT_MAX_ADDRS][64];
	int		 naddrs;
	int		 port;
	char		 secret[PILOT_SECRET_LEN + 1];
};
/*
 * Read the pilot file at path.  It must be a regular file of this uid,
 * readable and writable by it alone (0600).  Return 0, or -1 with err
 * naming the file and what is wrong.
 */
int	 pilot_addr_read(const char *path, struct pilot_addr *, char *err,
	    size_t errlen);
/* The pilot file's text for a (malloc'ed; NULL: no memory). */
char	*pilot_addr_render(const struct pilot_addr *);

#endif
