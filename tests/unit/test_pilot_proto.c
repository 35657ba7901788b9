/*
 * test_pilot_proto: the pilot protocol's messages (round trip, and a
 * clear error for each kind of bad message) and the pilot file (read
 * only when it is 0600 and ours, with a well-formed secret).
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "pilot_proto.h"
#include "tap.h"

static char dir[] = "/tmp/hpod-test-pilot.XXXXXX";

#define SECRET	"0123456789abcdef0123456789abcdef" \
		"0123456789abcdef0123456789abcdef"

/* A bad line is refused with a message containing want. */
static void
refused(const char *line, const char *want, const char *name)
{
	struct pilot_msg m;
	char		 err[512] = "";

	is_int(pilot_msg_parse(line, strlen(line), &m, err, sizeof(err)), -1,
	    name);
	like(err, want, name);
}

/* Render m, parse it back into out. */
static int
round_trip(const struct pilot_msg *m, struct pilot_msg *out)
{
	char	*line, err[512];
	size_t	 n;
	int	 rc;

	if ((line = pilot_msg_render(m)) == NULL)
		return -1;
	n = strlen(line);
	ok(n > 0 && line[n - 1] == '\n' && memchr(line, '\n', n - 1) == NULL,
	    "%s: one line ending in a newline", pilot_op_name(m->op));
	rc = pilot_msg_parse(line, n - 1, out, err, sizeof(err));
	if (rc == -1)
		printf("# %s\n", err);
	free(line);
	return rc;
}

static void
test_messages(void)
{
	struct pilot_msg m, r;
	char		*running[] = { "tok-1", "tok-2", NULL };
	int		 nodes[] = { 1, 3 };
	struct pilot_nodes at[] = { { NULL, 0 }, { nodes, 2 } };

	memset(&m, 0, sizeof(m));
	m.op = PILOT_HELLO;
	m.secret = SECRET;
	m.pilot = "pilot-1";
	m.slots = 4;
	m.running = running;
	is_int(round_trip(&m, &r), 0, "hello round trip");
	is_str(r.secret, SECRET, "hello: secret");
	is_str(r.pilot, "pilot-1", "hello: pilot");
	is_int(r.slots, 4, "hello: slots");
	ok(r.running && r.running[0] && r.running[1] && !r.running[2] &&
	    strcmp(r.running[1], "tok-2") == 0, "hello: running tokens");
	pilot_msg_release(&r);
	ok(r.running_nodes == NULL, "hello: no nodes said, none");
	m.running_nodes = at;
	is_int(round_trip(&m, &r), 0, "hello with its jobs' nodes: round trip");
	ok(r.running_nodes != NULL && r.running_nodes[0].n == 0 &&
	    r.running_nodes[0].at == NULL && r.running_nodes[1].n == 2 &&
	    r.running_nodes[1].at[0] == 1 && r.running_nodes[1].at[1] == 3,
	    "hello: where each running job is, [] for one not said");
	pilot_msg_release(&r);

	memset(&m, 0, sizeof(m));
	m.op = PILOT_RUN;
	m.token = "tok-3";
	m.dir = "/runs/a b/attempt-0";
	m.job = "{\n  \"token\": \"tok-3\"\n}";
	is_int(round_trip(&m, &r), 0, "run round trip");
	is_str(r.job, m.job, "run: a job.json text with newlines survives");
	is_str(r.dir, m.dir, "run: dir");
	ok(r.nodes == NULL && r.nnodes == 0, "run: no nodes said, none");
	pilot_msg_release(&r);
	m.nodes = nodes;
	m.nnodes = 2;
	is_int(round_trip(&m, &r), 0, "run on two nodes: round trip");
	ok(r.nnodes == 2 && r.nodes[0] == 1 && r.nodes[1] == 3,
	    "run: its nodes' indices");
	pilot_msg_release(&r);

	memset(&m, 0, sizeof(m));
	m.op = PILOT_STARTED;
	m.token = "tok-3";
	m.host = "node1";
	m.time = 1700000000.5;
	is_int(round_trip(&m, &r), 0, "started round trip");
	is_near(r.time, 1700000000.5, 1e-6, "started: time");
	is_str(r.host, "node1", "started: host");
	pilot_msg_release(&r);

	memset(&m, 0, sizeof(m));
	m.op = PILOT_ENDED;
	m.token = "tok-3";
	m.ending = 1;
	is_int(round_trip(&m, &r), 0, "ended round trip");
	is_int(r.ending, 1, "ended: ending");
	pilot_msg_release(&r);

	memset(&m, 0, sizeof(m));
	m.op = PILOT_DRAIN;
	is_int(round_trip(&m, &r), 0, "drain round trip");
	is_int((int)r.op, (int)PILOT_DRAIN, "drain: op");
	pilot_msg_release(&r);
}

static void
test_bad(void)
{
	refused("", "not a JSON object", "empty line");
	refused("[1, 2]", "not a JSON object", "an array");
	refused("{\"op\": \"hello\"", "not a JSON object", "truncated");
	refused("{}", "'op' must be a string", "no op");
	refused("{\"op\": 3}", "'op' must be a string", "op a number");
	refused("{\"op\": \"reboot\"}", "unknown op 'reboot'", "unknown op");
	refused("{\"op\": \"hello\", \"pilot\": \"p\", \"slots\": 1}",
	    "'secret' must be a non-empty string", "hello without secret");
	refused("{\"op\": \"hello\", \"secret\": \"s\", \"slots\": 1}",
	    "'pilot' must be a non-empty string", "hello without pilot");
	refused("{\"op\": \"hello\", \"secret\": \"s\", \"pilot\": \"p\"}",
	    "'slots' must be an integer", "hello without slots");
	refused("{\"op\": \"hello\", \"secret\": \"s\", \"pilot\": \"p\","
	    " \"slots\": 1.5}", "'slots' must be an integer", "slots 1.5");
	refused("{\"op\": \"hello\", \"secret\": \"s\", \"pilot\": \"p\","
	    " \"slots\": 1, \"running\": \"t\"}", "'running' must be an array",
	    "running a string");
	refused("{\"op\": \"hello\", \"secret\": \"s\", \"pilot\": \"p\","
	    " \"slots\": 1, \"running\": [\"t\", 2]}",
	    "running[1] must be a non-empty string", "running[1] a number");
	refused("{\"op\": \"hello\", \"secret\": \"s\", \"pilot\": \"p\","
	    " \"slots\": 2, \"running\": [\"t\", \"u\"], \"running_nodes\": [[1]]}",
	    "'running_nodes' must be an array of 2 arrays of node indices, "
	    "one for each of 'running'", "running_nodes shorter than running");
	refused("{\"op\": \"hello\", \"secret\": \"s\", \"pilot\": \"p\","
	    " \"slots\": 1, \"running_nodes\": [[0]]}",
	    "'running_nodes' must be an array of 0 arrays", "running_nodes "
	    "without running");
	refused("{\"op\": \"hello\", \"secret\": \"s\", \"pilot\": \"p\","
	    " \"slots\": 1, \"running\": [\"t\"], \"running_nodes\": {}}",
	    "'running_nodes' must be an array", "running_nodes an object");
	refused("{\"op\": \"hello\", \"secret\": \"s\", \"pilot\": \"p\","
	    " \"slots\": 1, \"running\": [\"t\"], \"running_nodes\": [1]}",
	    "'running_nodes[0]' must be an array of 0 to 100000 node indices",
	    "running_nodes[0] a number");
	refused("{\"op\": \"hello\", \"secret\": \"s\", \"pilot\": \"p\","
	    " \"slots\": 2, \"running\": [\"t\", \"u\"], "
	    "\"running_nodes\": [[], [0, 1.5]]}",
	    "running_nodes[1][1] must be an integer from 0 to 100000",
	    "running_nodes[1][1] not an integer");
	refused("{\"op\": \"started\", \"token\": \"t\"}",
	    "'time' must be a positive number", "started without time");
	/* 1e999 parses as infinity, which would render as null (fuzz_pilot) */
	refused("{\"op\": \"started\", \"token\": \"t\", \"time\": 1e999}",
	    "'time' must be a positive number", "started at an infinite time");
	refused("{\"op\": \"ended\"}", "'token' must be a non-empty string",
	    "ended without token");
	refused("{\"op\": \"ended\", \"token\": \"\"}",
	    "'token' must be a non-empty string", "ended, empty token");
	refused("{\"op\": \"run\", \"token\": \"t\", \"dir\": \"/d\"}",
	    "'job' must be a non-empty string", "run without job");
	refused("{\"op\": \"run\", \"token\": \"t\", \"dir\": \"/d\", "
	    "\"job\": \"{}\", \"nodes\": []}", "'nodes' must be an array of "
	    "1 to 100000 node indices", "run on no node");
	refused("{\"op\": \"run\", \"token\": \"t\", \"dir\": \"/d\", "
	    "\"job\": \"{}\", \"nodes\": [0, -1]}", "nodes[1] must be an "
	    "integer from 0 to 100000", "run on node -1");
	refused("{\"op\": \"ended\", \"token\": \"t\", \"ending\": 1}",
	    "'ending' must be true or false", "ending a number");
	refused("{\"op\": \"cancel\"}", "'token' must be a non-empty string",
	    "cancel without token");
}

/* Write text to dir/name with mode and return the path. */
static const char *
put(const char *name, const char *text, mode_t mode)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (file_save(path, text) == -1 || chmod(path, mode) == -1)
		perror(path);
	return path;
}

static void
test_file(void)
{
	struct pilot_addr a, b;
	char		*text, err[512], none[512];
	const char	*p;

	memset(&a, 0, sizeof(a));
	snprintf(a.host, sizeof(a.host), "node-0");
	a.port = 41234;
	memcpy(a.secret, SECRET, sizeof(SECRET));
	snprintf(a.addrs[0], sizeof(a.addrs[0]), "10.1.2.3");
	snprintf(a.addrs[1], sizeof(a.addrs[1]), "192.168.7.9");
	a.naddrs = 2;
	text = pilot_addr_render(&a);
	p = put("pilot.json", text, 0600);
	free(text);
	is_int(pilot_addr_read(p, &b, err, sizeof(err)), 0, "file: read");
	is_str(b.host, "node-0", "file: host");
	is_int(b.port, 41234, "file: port");
	is_str(b.secret, SECRET, "file: secret");
	is_int(b.naddrs, 2, "file: two addresses");
	is_str(b.addrs[1], "192.168.7.9", "file: the addresses in order");

	chmod(p, 0644);
	is_int(pilot_addr_read(p, &b, err, sizeof(err)), -1,
	    "file: mode 0644 refused");
	like(err, "mode 0600", "file: says why");
	like(err, "pilot.json", "file: names the file");

	p = put("noaddr.json", "{\"host\": \"h\", \"port\": 1, \"secret\": "
	    "\"" SECRET "\"}", 0600);
	is_int(pilot_addr_read(p, &b, err, sizeof(err)), 0,
	    "file: addresses are optional (a file of an earlier hpod)");
	is_int(b.naddrs, 0, "file: then none");
	p = put("badaddr.json", "{\"host\": \"h\", \"port\": 1, \"secret\": "
	    "\"" SECRET "\", \"addresses\": [\"10.0.0.1\", 7]}", 0600);
	is_int(pilot_addr_read(p, &b, err, sizeof(err)), -1,
	    "file: a number among the addresses refused");
	like(err, "badaddr.json: 'addresses' must hold", "file: says why");

	p = put("short.json", "{\"host\": \"h\", \"port\": 1, \"secret\": "
	    "\"abc\"}", 0600);
	is_int(pilot_addr_read(p, &b, err, sizeof(err)), -1,
	    "file: a short secret refused");
	like(err, "'secret' must be 64 hex digits", "file: says why");
	p = put("port.json", "{\"host\": \"h\", \"port\": 70000, \"secret\": "
	    "\"" SECRET "\"}", 0600);
	is_int(pilot_addr_read(p, &b, err, sizeof(err)), -1,
	    "file: port 70000 refused");
	like(err, "'port' must be from 1 to 65535", "file: says why");
	snprintf(none, sizeof(none), "%s/none.json", dir);
	is_int(pilot_addr_read(none, &b, err, sizeof(err)), -1,
	    "file: a missing file");
	like(err, "none.json", "file: names the missing file");
}

int
main(void)
{
	char	 cmd[600];

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_messages();
	test_bad();
	test_file();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return tap_done();
}
