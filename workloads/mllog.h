/*
 * mllog.h: parse one line of MLCommons mlperf_logging output,
 *
 *	[prefix] :::MLLOG {"namespace": "", "time_ms": 1, "event_type":
 *	    "POINT_IN_TIME", "key": "eval_error", "value": 0.2,
 *	    "metadata": {"epoch_num": 3, ...}}
 *
 * Anything before ":::MLLOG" (a rank prefix, a timestamp) is ignored.
 */
#ifndef HPOD_MLLOG_H
#define HPOD_MLLOG_H

#include <stddef.h>

struct mllog_event {
	char		 key[64];
	char		 event_type[32];
	int		 has_time;	/* time_ms is a number */
	double		 time_ms;
	int		 has_num;	/* value is a number (a bool is not) */
	double		 num;
	char		 str[128];	/* value when it is a string */
	char		 value_json[160];	/* value when it is a bool, an
					   array or an object, as JSON
					   ("" if longer) */
	int		 has_epoch;	/* metadata.epoch_num present */
	double		 epoch;
	char		 status[32];	/* metadata.status ("" if absent) */
	int		 nomem;		/* -1 because memory ran out */
};

/*
 * Parse one line (len bytes, no newline needed).  Return 0 for an MLLOG
 * event, 1 for a line that is not MLLOG output, -1 for an MLLOG line that
 * is malformed (a negative or infinite epoch_num too) or, with ev->nomem
 * set, that memory ran out to read (err says why).
 */
int	 mllog_parse_line(const char *line, size_t len, struct mllog_event *,
	    char *err, size_t errlen);

/*
 * Whether x can be a point's step (metadata.epoch_num, or a reader's
 * epoch group): finite and >= 0.  A line with another is malformed.
 */
int	 mllog_step_ok(double x);

#endif
