/*
 * pilot_agent.c: the agent of a pilot allocation (see pilot_agent.h).
 *
 * One thread, poll(2) over the connection to hpod and a signalfd for
 * SIGCHLD and the termination signals.  When the connection drops (hpod
 * restarts, its port changes) the agent keeps its jobs running and
 * reconnects with back-off, re-reading the pilot file, for up to
 * AGENT_LOST_S seconds; it then says hello with the jobs it still runs
 * and reports those that ended meanwhile.  SIGTERM (the pilot cancelled
 * or out of time) is passed to its jobs; it exits once they have ended.
 *
 * A pilot of several nodes: the agent learns their names from
 * $SLURM_JOB_NODELIST (expanded by `scontrol show hostnames`), its own
 * node ($SLURMD_NODENAME) first, as hpod counts them.  hpod tells it on
 * which nodes each job runs (by index); a job launched by srun gets
 * "--nodelist=" those nodes after srun, so that its step runs there, and
 * reports them as its host; any other job runs on the agent's node.
 * Its hello says them again for each job it still runs, so that a
 * restarted hpod counts each job on its own nodes.
 */
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "file.h"
#include "jobfile.h"
#include "pilot_agent.h"
#include "pilot_proto.h"

#define AGENT_DIAL_MS	3000	/* for one address to answer */
#define AGENT_LOST_S	600	/* give up on hpod after this long */
#define AGENT_BACKOFF_MS 50	/* first reconnection delay, doubled */
#define AGENT_BACKOFF_MAX_MS 2000

struct achild {
	pid_t		 pid;
	char		*token;
	struct pilot_nodes nodes;	/* where hpod placed it (n 0: unsaid),
					   told again in each hello */
	int		 ended;		/* waiting to be reported */
};

struct agent {
	const char	*file, *pilot;
	char		 self[PATH_MAX];	/* this hpo-trial */
	char		 host[256];
	char		**nodes;	/* a pilot of several: their names */
	int		 nnodes;
	int		 slots;
	struct achild	*kids;		/* slots of them */
	int		 nrun;		/* running or unreported */
	int		 asked;		/* "next"s unanswered */
	int		 draining;
	int		 ending;	/* the pilot itself is ending */
	int		 fd;		/* to hpod, -1 if none */
	int		 sigfd;
	char		*buf;
	size_t		 len, cap;
};

static double
agent_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
agent_say(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "hpo-trial: pilot: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
}

/* Close the connection (the agent reconnects later). */
static void
agent_drop(struct agent *ag)
{
	if (ag->fd != -1)
		close(ag->fd);
	ag->fd = -1;
	ag->asked = 0;
	ag->len = 0;
}

/* Send m; a failure drops the connection. */
static int
agent_send(struct agent *ag, const struct pilot_msg *m)
{
	char	*line;
	int	 rc;

	if (ag->fd == -1)
		return -1;
	if ((line = pilot_msg_render(m)) == NULL)
		return -1;
	rc = file_write_all(ag->fd, line, strlen(line));
	free(line);
	if (rc == -1)
		agent_drop(ag);
	return rc;
}

/* Connect to hpod as the pilot file says; -1 if not now. */
/*
 * Tell hpod that slot i's trial ended; the slot is free once hpod has it
 * (if the connection is down, the hello after the reconnect says it again).
 */
static void
agent_ended(struct agent *ag, int i)
{
	struct pilot_msg m;

	memset(&m, 0, sizeof(m));
	m.op = PILOT_ENDED;
	m.token = ag->kids[i].token;
	m.ending = ag->ending;
	if (agent_send(ag, &m) == 0) {
		free(ag->kids[i].token);
		ag->kids[i].token = NULL;
		free(ag->kids[i].nodes.at);
		ag->kids[i].nodes.at = NULL;
		ag->kids[i].nodes.n = 0;
		ag->nrun--;
	}
}

/*
 * A connected socket to host (a name or a numeric address) at port, or -1.
 * Each address is given AGENT_DIAL_MS to answer, so that an address the
 * node cannot reach does not hold the agent for the kernel's minutes.
 */
static int
agent_dial(const char *host, int port)
{
	struct addrinfo	 hints, *res, *r;
	struct pollfd	 pfd;
	char		 serv[16];
	int		 fd = -1, e;
	socklen_t	 elen = sizeof(e);

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(serv, sizeof(serv), "%d", port);
	if (getaddrinfo(host, serv, &hints, &res) != 0)
		return -1;
	for (r = res; r != NULL; r = r->ai_next) {
		if ((fd = socket(r->ai_family, r->ai_socktype | SOCK_CLOEXEC |
		    SOCK_NONBLOCK, r->ai_protocol)) == -1)
			continue;
		if (connect(fd, r->ai_addr, r->ai_addrlen) == 0)
			break;
		pfd.fd = fd;
		pfd.events = POLLOUT;
		if (errno == EINPROGRESS && poll(&pfd, 1, AGENT_DIAL_MS) == 1 &&
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen) == 0 &&
		    e == 0)
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	/* The rest of the agent reads and writes blocking. */
	if (fd != -1 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
	    == -1) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static int
agent_connect(struct agent *ag)
{
	struct pilot_addr pa;
	struct pilot_msg m;
	char		 err[512];
	char		**running;
	struct pilot_nodes *at;
	int		 fd = -1, i, n = 0;

	if (pilot_addr_read(ag->file, &pa, err, sizeof(err)) == -1) {
		agent_say("%s%s", err, "");
		return -1;
	}
	/*
	 * On hpod's own host, loopback first (its name may not resolve, as
	 * in a chroot); then its name; then its interfaces' addresses.
	 */
	if (strcmp(ag->host, pa.host) == 0)
		fd = agent_dial("127.0.0.1", pa.port);
	if (fd == -1)
		fd = agent_dial(pa.host, pa.port);
	for (i = 0; fd == -1 && i < pa.naddrs; i++)
		fd = agent_dial(pa.addrs[i], pa.port);
	if (fd == -1)
		return -1;
	ag->fd = fd;
	running = calloc((size_t)ag->slots + 1, sizeof(*running));
	at = calloc((size_t)ag->slots + 1, sizeof(*at));
	if (running == NULL || at == NULL) {
		free(running);
		free(at);
		agent_say("%s%s", "out of memory; connection closed", "");
		agent_drop(ag);
		return -1;
	}
	/* Its jobs and their nodes: a restarted hpod counts them there. */
	for (i = 0; i < ag->slots; i++)
		if (ag->kids[i].token != NULL && !ag->kids[i].ended) {
			at[n] = ag->kids[i].nodes;
			running[n++] = ag->kids[i].token;
		}
	memset(&m, 0, sizeof(m));
	m.op = PILOT_HELLO;
	m.secret = pa.secret;
	m.pilot = (char *)ag->pilot;
	m.slots = ag->slots;
	m.running = running;
	m.running_nodes = at;
	agent_send(ag, &m);
	free(running);
	free(at);
	/* What ended while hpod was away. */
	for (i = 0; i < ag->slots && ag->fd != -1; i++)
		if (ag->kids[i].token != NULL && ag->kids[i].ended)
			agent_ended(ag, i);
	return ag->fd == -1 ? -1 : 0;
}

/*
 * The pilot's nodes: `scontrol show hostnames LIST` (no shell), its own
 * node moved first.  0, or -1 with err.
 */
static int
agent_nodes(struct agent *ag, const char *list, const char *self, char *err,
    size_t errlen)
{
	FILE		*f;
	char		 line[256], *nl, *t;
	pid_t		 pid;
	int		 fd[2], st, i;

	if (pipe(fd) == -1 || (pid = fork()) == -1) {
		snprintf(err, errlen, "cannot run scontrol: %s",
		    strerror(errno));
		return -1;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execlp("scontrol", "scontrol", "show", "hostnames", list,
		    (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	if ((f = fdopen(fd[0], "r")) == NULL) {
		close(fd[0]);
		waitpid(pid, &st, 0);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		if (line[0] == '\0')
			continue;
		if ((ag->nodes = realloc(ag->nodes, (size_t)(ag->nnodes + 1) *
		    sizeof(*ag->nodes))) == NULL ||
		    (ag->nodes[ag->nnodes] = strdup(line)) == NULL) {
			agent_say("%s%s", "out of memory", "");
			exit(1);
		}
		ag->nnodes++;
	}
	fclose(f);
	if (waitpid(pid, &st, 0) == -1 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0 || ag->nnodes == 0) {
		snprintf(err, errlen, "`scontrol show hostnames %s` failed",
		    list);
		return -1;
	}
	for (i = 0; self != NULL && i < ag->nnodes; i++)
		if (strcmp(ag->nodes[i], self) == 0) {
			t = ag->nodes[i];
			memmove(ag->nodes + 1, ag->nodes, (size_t)i *
			    sizeof(*ag->nodes));
			ag->nodes[0] = t;
			break;
		}
	return 0;
}

/*
 * Job m's nodes by name ("n01,n02", malloc'ed) into *hosts, and, when it
 * is launched by srun, "--nodelist=" them after srun in its job.json at
 * path.  0 (*hosts NULL: a job of the agent's node), or -1 with err.
 */
static int
agent_place(struct agent *ag, const struct pilot_msg *m, const char *path,
    char **hosts, char *err, size_t errlen)
{
	struct jobfile	 jf;
	char		**argv, *opt, *text, *prog;
	size_t		 len = 0, n;
	int		 i, rc = -1;

	*hosts = NULL;
	if (m->nnodes == 0 || ag->nnodes == 0)
		return 0;
	for (i = 0; i < m->nnodes; i++) {
		if (m->nodes[i] >= ag->nnodes) {
			snprintf(err, errlen, "node %d of a pilot of %d",
			    m->nodes[i], ag->nnodes);
			return -1;
		}
		len += strlen(ag->nodes[m->nodes[i]]) + 1;
	}
	if ((*hosts = calloc(1, len)) == NULL)
		goto nomem;
	for (i = 0; i < m->nnodes; i++) {
		if (i > 0)
			strcat(*hosts, ",");
		strcat(*hosts, ag->nodes[m->nodes[i]]);
	}
	if (jobfile_read(path, &jf, err, errlen) == -1)
		return -1;
	prog = jf.argv[0] != NULL ? strrchr(jf.argv[0], '/') : NULL;
	prog = prog != NULL ? prog + 1 : jf.argv[0];
	if (prog == NULL || strcmp(prog, "srun") != 0) {
		jobfile_release(&jf);
		return 0;
	}
	for (n = 0; jf.argv[n] != NULL; n++)
		;
	if ((argv = calloc(n + 2, sizeof(*argv))) == NULL ||
	    asprintf(&opt, "--nodelist=%s", *hosts) == -1) {
		free(argv);
		jobfile_release(&jf);
		goto nomem;
	}
	argv[0] = jf.argv[0];
	argv[1] = opt;
	memcpy(argv + 2, jf.argv + 1, n * sizeof(*argv));
	free(jf.argv);
	jf.argv = argv;
	if ((text = jobfile_render(&jf)) != NULL && file_save(path, text) == 0)
		rc = 0;
	else
		snprintf(err, errlen, "%.300s: %s", path, text == NULL ?
		    "out of memory" : strerror(errno));
	free(text);
	jobfile_release(&jf);
	return rc;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* Start job m (write its job.json, run hpo-trial -j on it). */
static void
agent_run(struct agent *ag, const struct pilot_msg *m)
{
	struct pilot_msg r;
	char		 path[PATH_MAX], err[512] = "", *hosts = NULL;
	sigset_t	 none;
	pid_t		 pid = -1;
	int		 i;

	ag->asked--;
	for (i = 0; i < ag->slots && ag->kids[i].token != NULL; i++)
		;
	snprintf(path, sizeof(path), "%s/job.json", m->dir);
	if (i == ag->slots)
		snprintf(err, sizeof(err), "no free slot");
	else if (file_save(path, m->job) == -1)
		snprintf(err, sizeof(err), "%.300s: %s", path,
		    strerror(errno));
	else if (agent_place(ag, m, path, &hosts, err, sizeof(err)) == 0 &&
	    (pid = fork()) == -1)
		snprintf(err, sizeof(err), "fork: %s", strerror(errno));
	if (pid == -1) {
		agent_say("cannot start '%s': %s", m->token, err);
		free(hosts);
		memset(&r, 0, sizeof(r));
		r.op = PILOT_ENDED;
		r.token = m->token;
		agent_send(ag, &r);
		return;
	}
	if (pid == 0) {
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execl(ag->self, ag->self, "-j", path, (char *)NULL);
		fprintf(stderr, "hpo-trial: cannot run '%s': %s\n", ag->self,
		    strerror(errno));
		_exit(127);
	}
	ag->kids[i].pid = pid;
	if ((ag->kids[i].token = strdup(m->token)) == NULL ||
	    (m->nnodes > 0 && (ag->kids[i].nodes.at = malloc((size_t)
	    m->nnodes * sizeof(*m->nodes))) == NULL)) {
		agent_say("out of memory keeping job '%s'%s", m->token, "");
		abort();
	}
	if (m->nnodes > 0)
		memcpy(ag->kids[i].nodes.at, m->nodes, (size_t)m->nnodes *
		    sizeof(*m->nodes));
	ag->kids[i].nodes.n = m->nnodes;
	ag->kids[i].ended = 0;
	ag->nrun++;
	memset(&r, 0, sizeof(r));
	r.op = PILOT_STARTED;
	r.token = m->token;
	r.host = hosts != NULL ? hosts : ag->host;
	r.time = agent_now();
	agent_send(ag, &r);
	free(hosts);
}

/* Signal the job called token (NULL: every job). */
static void
agent_kill(struct agent *ag, const char *token, int sig)
{
	int	 i;

	for (i = 0; i < ag->slots; i++)
		if (ag->kids[i].token != NULL && !ag->kids[i].ended &&
		    (token == NULL || strcmp(token, ag->kids[i].token) == 0))
			kill(ag->kids[i].pid, sig);
}

/* The messages from hpod in the buffer. */
static void
agent_lines(struct agent *ag)
{
	struct pilot_msg m;
	char		*nl, err[512];
	size_t		 off = 0, n;

	while (ag->fd != -1 && (nl = memchr(ag->buf + off, '\n',
	    ag->len - off)) != NULL) {
		n = (size_t)(nl - (ag->buf + off));
		if (pilot_msg_parse(ag->buf + off, n, &m, err, sizeof(err)) ==
		    -1) {
			agent_say("%s%s", err, "");
			agent_drop(ag);
			return;
		}
		off += n + 1;
		if (m.op == PILOT_RUN)
			agent_run(ag, &m);
		else if (m.op == PILOT_CANCEL)
			agent_kill(ag, m.token, SIGTERM);
		else if (m.op == PILOT_DRAIN)
			ag->draining = 1;
		pilot_msg_release(&m);
	}
	if (ag->fd != -1) {
		memmove(ag->buf, ag->buf + off, ag->len - off);
		ag->len -= off;
	}
}

/* Read what hpod sent; EOF or an error drops the connection. */
static void
agent_read(struct agent *ag)
{
	ssize_t	 n;

	if (ag->cap - ag->len < 4096) {
		ag->cap = ag->cap ? ag->cap * 2 : 65536;
		if (ag->cap > 2 * PILOT_LINE_MAX + 65536) {
			agent_say("%s%s", "a message too long from hpod", "");
			exit(1);
		}
		if ((ag->buf = realloc(ag->buf, ag->cap)) == NULL) {
			agent_say("%s%s", "out of memory reading from hpod", "");
			exit(1);
		}
	}
	n = read(ag->fd, ag->buf + ag->len, ag->cap - ag->len);
	if (n <= 0) {
		if (n == -1 && errno == EINTR)
			return;
		agent_drop(ag);
		return;
	}
	ag->len += (size_t)n;
	agent_lines(ag);
}

/* Reap ended jobs and report them (or keep them to report later). */
static void
agent_reap(struct agent *ag)
{
	pid_t		 pid;
	int		 i, status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		for (i = 0; i < ag->slots; i++)
			if (ag->kids[i].token != NULL && ag->kids[i].pid ==
			    pid) {
				ag->kids[i].ended = 1;
				agent_ended(ag, i);
			}
}

/* The signals on the signalfd. */
static void
agent_signals(struct agent *ag)
{
	struct signalfd_siginfo si;

	while (read(ag->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			agent_reap(ag);
		else {
			ag->draining = 1;
			ag->ending = 1;
			agent_kill(ag, NULL, (int)si.ssi_signo);
		}
	}
}

static void
agent_usage(void)
{
	fprintf(stderr, "usage: hpo-trial --pilot file -i pilot -n slots\n");
	exit(64);
}

/* Run the agent (pilot_agent.h). */
int
pilot_agent_main(int argc, char **argv)
{
	struct agent	 ag;
	struct pilot_msg m;
	struct pollfd	 pfd[2];
	sigset_t	 set;
	double		 lost = 0;
	char		*end, err[512];
	const char	*nl, *nn;
	int		 ch, wait_ms = AGENT_BACKOFF_MS, timeout;
	ssize_t		 n;

	memset(&ag, 0, sizeof(ag));
	ag.fd = -1;
	if (argc < 3)
		agent_usage();
	ag.file = argv[2];
	optind = 3;
	while ((ch = getopt(argc, argv, "i:n:")) != -1) {
		switch (ch) {
		case 'i':
			ag.pilot = optarg;
			break;
		case 'n':
			ag.slots = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || ag.slots < 1 || ag.slots > 100000)
				agent_usage();
			break;
		default:
			agent_usage();
		}
	}
	if (ag.pilot == NULL || ag.slots < 1 || optind != argc)
		agent_usage();
	if ((n = readlink("/proc/self/exe", ag.self, sizeof(ag.self) - 1)) ==
	    -1) {
		agent_say("/proc/self/exe: %s%s", strerror(errno), "");
		return 1;
	}
	ag.self[n] = '\0';
	gethostname(ag.host, sizeof(ag.host) - 1);
	if ((nl = getenv("SLURM_JOB_NODELIST")) != NULL &&
	    (nn = getenv("SLURM_JOB_NUM_NODES")) != NULL && atoi(nn) > 1 &&
	    agent_nodes(&ag, nl, getenv("SLURMD_NODENAME"), err,
	    sizeof(err)) == -1) {
		agent_say("the pilot's nodes: %s%s", err, "");
		return 1;
	}
	if ((ag.kids = calloc((size_t)ag.slots, sizeof(*ag.kids))) == NULL) {
		agent_say("%s%s", "out of memory", "");
		return 1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if ((ag.sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC)) ==
	    -1) {
		agent_say("signalfd: %s%s", strerror(errno), "");
		return 1;
	}
	for (;;) {
		if (ag.fd == -1 && (!ag.draining || ag.nrun > 0)) {
			if (agent_connect(&ag) == 0) {
				wait_ms = AGENT_BACKOFF_MS;
				lost = 0;
			} else if (lost == 0)
				lost = agent_now();
			else if (agent_now() - lost > AGENT_LOST_S) {
				agent_say("hpod unreachable for %s s; %s",
				    "600", "ending");
				ag.draining = 1;
				agent_kill(&ag, NULL, SIGTERM);
			}
		}
		while (ag.fd != -1 && !ag.draining && ag.asked + ag.nrun <
		    ag.slots) {
			memset(&m, 0, sizeof(m));
			m.op = PILOT_NEXT;
			if (agent_send(&ag, &m) == 0)
				ag.asked++;
		}
		if (ag.draining && ag.nrun == 0)
			break;
		pfd[0].fd = ag.sigfd;
		pfd[0].events = POLLIN;
		pfd[1].fd = ag.fd;
		pfd[1].events = POLLIN;
		timeout = ag.fd == -1 ? wait_ms : -1;
		if (ag.fd == -1 && wait_ms < AGENT_BACKOFF_MAX_MS)
			wait_ms *= 2;
		if (poll(pfd, ag.fd == -1 ? 1 : 2, timeout) == -1 &&
		    errno != EINTR)
			break;
		if (pfd[0].revents & POLLIN)
			agent_signals(&ag);
		if (ag.fd != -1 && (pfd[1].revents & (POLLIN | POLLHUP |
		    POLLERR)))
			agent_read(&ag);
	}
	agent_drop(&ag);
	free(ag.buf);
	free(ag.kids);
	for (ch = 0; ch < ag.nnodes; ch++)
		free(ag.nodes[ch]);
	free(ag.nodes);
	close(ag.sigfd);
	return 0;
}
