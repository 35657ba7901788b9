/*
 * result.h: the attempt's record, written atomically by hpo-trial and read
 * by every backend.
 *
 * {"token": "...", "state": "running"|"exited", "host": "...", "pid": N,
 *  "start": 1700000000.123, "end": 1700000042.5,
 *  "exit_code": 0, "signal": 0}
 */
#ifndef HPOD_RESULT_H
#define HPOD_RESULT_H

#include <stddef.h>

/*
 * The attempt's record, in its directory, where the program runs too: a
 * trainer may write a result.json of its own there while it runs.  So
 * the record is kept in hpo-trial.json, a name of the wrapper's own, and
 * written to result.json too, for people and their scripts (a program's
 * own file found there at the end is kept aside, see hpo-trial(8)).  An
 * hpo-trial before this one wrote result.json alone: the readers read
 * hpo-trial.json, else result.json, so that an hpod upgraded while such
 * attempts run still takes them back.
 */
#define RESULT_OWN	"hpo-trial.json"
#define RESULT_NAME	"result.json"

struct trial_result {
	char		 token[128];
	char		 host[256];
	int		 running;	/* 1 while the workload runs */
	int		 timed_out;	/* 1 if the wrapper enforced a limit */
	long		 pid;		/* the wrapper's pid */
	double		 start, end;
	int		 exit_code;	/* -1 when killed by a signal */
	int		 signal;
};

/*
 * Write dir/hpo-trial.json, then dir/result.json, each atomically
 * (temporary file, fsync, rename).
 */
int	 result_write(const char *dir, const struct trial_result *);
/*
 * Read the record: dir/hpo-trial.json, or dir/result.json where there is
 * none (an older hpo-trial's).  Return 0, 1 if there is neither, -1 if the
 * one read is unreadable or malformed (err says why, naming it).
 */
int	 result_read(const char *dir, struct trial_result *, char *err,
	    size_t errlen);
/* Read dir/name alone, as result_read() does. */
int	 result_read_file(const char *dir, const char *name,
	    struct trial_result *, char *err, size_t errlen);

/*
 * The end marker: hpo-trial creates dir/ended once the final result.json
 * is written, so that a daemon watching the directory polls at once.  It
 * is a hint only; the backend's own query decides that a job has ended.
 * Inside a Slurm job it holds the job's own id ($SLURM_JOB_ID, an array
 * task's own), so that the query can ask for that job alone.
 */
#define RESULT_ENDED	"ended"
int	 result_mark_ended(const char *dir);

#endif
