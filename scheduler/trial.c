/*
 * trial.c: hpo-trial, the wrapper that runs inside every job.  It records
 * the attempt in hpo-trial.json and result.json before the workload starts, runs the workload
 * in its own process group, forwards signals to that group, enforces an
 * optional time limit, ends what the workload left in its group when it
 * exits, and records how the workload ended.
 *
 * The wrapper waits with every interesting signal blocked and collects them
 * with sigtimedwait(), so it needs no handlers and no global state.
 */
#include <sys/types.h>
#include <sys/wait.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "jobfile.h"
#include "pilot_agent.h"
#include "result.h"

#define TRIAL_GRACE	10	/* seconds from SIGTERM to SIGKILL */
#define TRIAL_REAP_GRACE 2	/* the same for what the workload left */
#define TRIAL_EX_USAGE	JOBFILE_EX_USAGE /* sysexits.h EX_USAGE */
#define TRIAL_EX_IOERR	74	/* sysexits.h EX_IOERR */
#define TRIAL_EX_NOEXEC	127	/* the shell's "command not found" */

static const int trial_forwarded[] = {
	SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGCONT
};
#define TRIAL_NFORWARDED \
	(sizeof(trial_forwarded) / sizeof(trial_forwarded[0]))

struct trial {
	const char	*dir;
	char		**argv;
	long		 limit;		/* seconds, 0 = none */
	struct trial_result res;
	struct jobfile	 jf;		/* from -j or -J */
	sigset_t	 waited;	/* signals collected by sigtimedwait */
	sigset_t	 saved;		/* the mask to give the workload */
	pid_t		 child;
	double		 term_at;	/* monotonic time of SIGTERM, 0 = none */
	double		 kill_at;	/* monotonic time of SIGKILL, 0 = none */
};

#define TRIAL_USAGE	"hpo-trial -d dir -t token [-l seconds] -- " \
	"program [arg ...]\n" \
	"       hpo-trial [-l seconds] -j job.json\n" \
	"       hpo-trial [-l seconds] -J list\n" \
	"       hpo-trial --pilot file -i pilot -n slots\n" \
	"       hpo-trial -V | --version | --help"

/* Print the synopsis and exit with EX_USAGE. */
static void
trial_usage(void)
{
	fprintf(stderr, "usage: %s\n", TRIAL_USAGE);
	exit(TRIAL_EX_USAGE);
}

/* Return the time of clock id in seconds. */
static double
trial_now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Do nothing: SIGCHLD must have a handler to stay pending while blocked. */
static void
trial_sigchld(int sig)
{
}

/* Block the signals the wrapper collects, remembering the old mask. */
static void
trial_signals(struct trial *t)
{
	struct sigaction sa;
	size_t i;

	sigemptyset(&t->waited);
	for (i = 0; i < TRIAL_NFORWARDED; i++)
		sigaddset(&t->waited, trial_forwarded[i]);
	sigaddset(&t->waited, SIGCHLD);
	sigprocmask(SIG_BLOCK, &t->waited, &t->saved);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = trial_sigchld;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
}

/*
 * Send fd to dir/name, where the daemon reads the attempt's output (the
 * batch system's own output file holds only its messages).
 */
static void
trial_output(const char *dir, const char *name, int fd)
{
	char path[PATH_MAX];
	int out;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((out = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600)) == -1) {
		fprintf(stderr, "hpo-trial: %s: %s\n", path, strerror(errno));
		exit(TRIAL_EX_IOERR);
	}
	if (out != fd) {
		dup2(out, fd);
		close(out);
	}
}

/*
 * Take what to run from a job file (-j), or from the entry of a job list
 * that $SLURM_ARRAY_TASK_ID names (-J); export its environment.
 */
static void
trial_jobfile(struct trial *t, const char *file, const char *list)
{
	const char *id;
	char err[512], *path = NULL, *end, *eq;
	long index;
	size_t i;
	int rc;

	if (list != NULL) {
		id = getenv("SLURM_ARRAY_TASK_ID");
		errno = 0;
		index = id != NULL ? strtol(id, &end, 10) : -1;
		if (id == NULL || errno != 0 || end == id || *end != '\0' ||
		    index < 0) {
			fprintf(stderr, "hpo-trial: -J needs "
			    "SLURM_ARRAY_TASK_ID\n");
			exit(TRIAL_EX_USAGE);
		}
		if ((path = jobfile_list_entry(list, index, err,
		    sizeof(err))) == NULL) {
			fprintf(stderr, "hpo-trial: %s\n", err);
			exit(TRIAL_EX_USAGE);
		}
		file = path;
	}
	if (jobfile_read(file, &t->jf, err, sizeof(err)) == -1) {
		fprintf(stderr, "hpo-trial: %s\n", err);
		exit(TRIAL_EX_USAGE);
	}
	for (i = 0; t->jf.env[i] != NULL; i++) {
		if ((eq = strchr(t->jf.env[i], '=')) == NULL ||
		    eq == t->jf.env[i]) {
			fprintf(stderr, "hpo-trial: %s: bad environment entry "
			    "'%s'\n", file, t->jf.env[i]);
			exit(TRIAL_EX_USAGE);
		}
		*eq = '\0';
		rc = setenv(t->jf.env[i], eq + 1, 1);
		*eq = '=';
		if (rc != 0) {
			fprintf(stderr, "hpo-trial: %s\n", strerror(errno));
			exit(TRIAL_EX_USAGE);
		}
	}
	/* file may be path: the messages above still name it. */
	free(path);
	t->dir = t->jf.dir;
	t->argv = t->jf.argv;
	trial_output(t->dir, "stdout", STDOUT_FILENO);
	trial_output(t->dir, "stderr", STDERR_FILENO);
	if (t->limit == 0)
		t->limit = t->jf.limit;
}

/* Parse the command line into t; exit with EX_USAGE when it is wrong. */
static void
trial_options(struct trial *t, int argc, char **argv)
{
	const char *token = NULL, *file = NULL, *list = NULL;
	char *end;
	int ch;

	/* Only as the first argument: after it, --help is the workload's. */
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "--version") == 0))
		cli_help_version(2, argv, "hpo-trial", TRIAL_USAGE);
	while ((ch = getopt(argc, argv, "+d:t:l:j:J:V")) != -1) {
		switch (ch) {
		case 'd':
			t->dir = optarg;
			break;
		case 't':
			token = optarg;
			break;
		case 'j':
			file = optarg;
			break;
		case 'J':
			list = optarg;
			break;
		case 'l':
			errno = 0;
			t->limit = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    t->limit < 0 || t->limit > INT_MAX) {
				fprintf(stderr, "hpo-trial: bad time limit "
				    "'%s'\n", optarg);
				exit(TRIAL_EX_USAGE);
			}
			break;
		case 'V':
			cli_version("hpo-trial");
			exit(0);
		default:
			trial_usage();
		}
	}
	if (file != NULL || list != NULL) {
		if (t->dir != NULL || token != NULL || optind < argc ||
		    (file != NULL && list != NULL))
			trial_usage();
		trial_jobfile(t, file, list);
		token = t->jf.token;
	} else {
		if (t->dir == NULL || token == NULL || optind >= argc)
			trial_usage();
		t->argv = argv + optind;
	}
	if (strlen(token) >= sizeof(t->res.token)) {
		fprintf(stderr, "hpo-trial: token '%s' too long\n", token);
		exit(TRIAL_EX_USAGE);
	}
	snprintf(t->res.token, sizeof(t->res.token), "%s", token);
}

/* Write the record; a failure is reported and returned. */
static int
trial_record(const struct trial *t)
{
	if (result_write(t->dir, &t->res) == -1) {
		fprintf(stderr, "hpo-trial: cannot write '%s/" RESULT_OWN
		    "' and '" RESULT_NAME "': %s\n", t->dir, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The program runs in dir, where result.json is ours too: one it wrote
 * there itself (not ours, or not a result at all) is moved aside to
 * result.json.workload before ours replaces it, rather than lost.  While
 * it ran, the readers read our hpo-trial.json, which it leaves alone.
 */
static void
trial_keep_theirs(const struct trial *t)
{
	struct trial_result	 r;
	char			 err[256], from[PATH_MAX], to[PATH_MAX];
	int			 rc;

	rc = result_read_file(t->dir, RESULT_NAME, &r, err, sizeof(err));
	if (rc == 1 || (rc == 0 && strcmp(r.token, t->res.token) == 0))
		return;
	if ((size_t)snprintf(from, sizeof(from), "%s/" RESULT_NAME, t->dir) >=
	    sizeof(from) || (size_t)snprintf(to, sizeof(to), "%s/" RESULT_NAME
	    ".workload", t->dir) >= sizeof(to))
		return;
	if (rename(from, to) == -1)
		fprintf(stderr, "hpo-trial: cannot keep the program's '%s' as "
		    "'%s': %s\n", from, to, strerror(errno));
	else
		fprintf(stderr, "hpo-trial: the program wrote its own "
		    RESULT_NAME "; kept as '%s'\n", to);
}

/* Start the workload in its own process group; -1 if fork failed. */
static int
trial_spawn(struct trial *t)
{
	struct sigaction sa;
	size_t i;

	if ((t->child = fork()) == -1) {
		fprintf(stderr, "hpo-trial: cannot fork: %s\n",
		    strerror(errno));
		return -1;
	}
	if (t->child > 0) {
		/* Also here, so the group exists before any forwarding. */
		setpgid(t->child, t->child);
		return 0;
	}
	setpgid(0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	for (i = 0; i < TRIAL_NFORWARDED; i++)
		sigaction(trial_forwarded[i], &sa, NULL);
	sigprocmask(SIG_SETMASK, &t->saved, NULL);
	execvp(t->argv[0], t->argv);
	fprintf(stderr, "hpo-trial: cannot run '%s': %s\n", t->argv[0],
	    strerror(errno));
	_exit(TRIAL_EX_NOEXEC);
}

/* Send sig to the workload's process group. */
static void
trial_kill(const struct trial *t, int sig)
{
	if (kill(-t->child, sig) == -1 && errno == ESRCH)
		kill(t->child, sig);
}

/* Act on the limit and grace deadlines that have passed. */
static void
trial_deadlines(struct trial *t)
{
	double now = trial_now(CLOCK_MONOTONIC);

	if (t->term_at > 0 && now >= t->term_at) {
		trial_kill(t, SIGTERM);
		t->res.timed_out = 1;
		t->term_at = 0;
		if (t->kill_at == 0)
			t->kill_at = now + TRIAL_GRACE;
	}
	if (t->kill_at > 0 && now >= t->kill_at) {
		trial_kill(t, SIGKILL);
		t->kill_at = 0;
	}
}

/* Return how long to wait for a signal, NULL for as long as it takes. */
static struct timespec *
trial_timeout(const struct trial *t, struct timespec *ts)
{
	double next = 0, left;

	if (t->term_at > 0)
		next = t->term_at;
	if (t->kill_at > 0 && (next == 0 || t->kill_at < next))
		next = t->kill_at;
	if (next == 0)
		return NULL;
	left = next - trial_now(CLOCK_MONOTONIC);
	if (left < 0)
		left = 0;
	ts->tv_sec = (time_t)left;
	ts->tv_nsec = (long)((left - (double)ts->tv_sec) * 1e9);
	return ts;
}

/*
 * Wait for the workload to end, forwarding signals and enforcing the
 * limit.  A SIGTERM from outside also arms SIGKILL after the grace time,
 * so a workload that ignores it cannot outlive its cancellation.
 */
static int
trial_wait(struct trial *t)
{
	struct timespec ts;
	siginfo_t info;
	pid_t pid;
	int sig, status;

	if (t->limit > 0)
		t->term_at = trial_now(CLOCK_MONOTONIC) + (double)t->limit;
	for (;;) {
		sig = sigtimedwait(&t->waited, &info, trial_timeout(t, &ts));
		if (sig == SIGCHLD) {
			while ((pid = waitpid(t->child, &status, WNOHANG)) ==
			    -1 && errno == EINTR)
				;
			if (pid == t->child)
				return status;
		} else if (sig > 0) {
			trial_kill(t, sig);
			if (sig == SIGTERM && t->kill_at == 0)
				t->kill_at = trial_now(CLOCK_MONOTONIC) +
				    TRIAL_GRACE;
		}
		trial_deadlines(t);
	}
}

/*
 * The workload's main process has ended: end what it left behind in its
 * process group (`sleep 300 &` in a script), SIGTERM first, SIGKILL after
 * TRIAL_REAP_GRACE seconds.  The group's id stays reserved while any
 * member lives, so signalling it after the leader is reaped is safe.
 */
static void
trial_reap_group(const struct trial *t)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	double until;

	if (t->child <= 0 || kill(-t->child, SIGTERM) == -1)
		return;
	until = trial_now(CLOCK_MONOTONIC) + TRIAL_REAP_GRACE;
	while (kill(-t->child, 0) == 0 && trial_now(CLOCK_MONOTONIC) < until)
		nanosleep(&nap, NULL);
	kill(-t->child, SIGKILL);
}

/* Run the workload and exit with its exit code (128 + signal if killed). */
int
main(int argc, char **argv)
{
	struct trial t;
	int status;

	/* The agent of a pilot allocation (pilot_agent.c). */
	if (argc > 1 && strcmp(argv[1], "--pilot") == 0)
		return pilot_agent_main(argc, argv);
	memset(&t, 0, sizeof(t));
	trial_signals(&t);
	trial_options(&t, argc, argv);

	gethostname(t.res.host, sizeof(t.res.host) - 1);
	t.res.pid = (long)getpid();
	t.res.start = trial_now(CLOCK_REALTIME);
	t.res.running = 1;
	t.res.exit_code = -1;
	if (trial_record(&t) == -1)
		return TRIAL_EX_IOERR;

	if (trial_spawn(&t) == -1) {
		status = TRIAL_EX_NOEXEC << 8;
	} else
		status = trial_wait(&t);
	trial_reap_group(&t);

	t.res.running = 0;
	t.res.end = trial_now(CLOCK_REALTIME);
	if (WIFSIGNALED(status)) {
		t.res.exit_code = -1;
		t.res.signal = WTERMSIG(status);
	} else
		t.res.exit_code = WEXITSTATUS(status);
	trial_keep_theirs(&t);
	/* The marker tells a watching daemon to poll now (a hint only). */
	if (trial_record(&t) == 0 && result_mark_ended(t.dir) == -1)
		fprintf(stderr, "hpo-trial: cannot create '%s/" RESULT_ENDED
		    "': %s\n", t.dir, strerror(errno));
	jobfile_release(&t.jf);
	return t.res.signal ? 128 + t.res.signal : t.res.exit_code;
}
