#!/bin/sh
# A client that leaves while hpod puts its Slurm campaign to sbatch
# --test-only (tests/slurm/submit_shape.sh) takes its submit with it:
# hpod kills the sbatch, records nothing, submits no job, and logs one
# line naming the campaign; the user, told no campaign id, is spent no
# budget.  A client that waits, or only shuts down its writing side,
# still gets its campaign's id.  slurmctld is frozen (SIGSTOP) so that
# the check waits until the client has gone.
. "$(dirname "$0")/lib.subr"

start_daemon
ctld=$(cat "$SC/ctld/slurmctld.pid")

# asking NAME: wait until the sbatch --test-only of campaign NAME runs.
asking() {
	for _ in $(seq 1 100); do
		pgrep -f "sbatch --parsable --job-name=$1 " >/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# asked NAME: wait until no sbatch --test-only of campaign NAME runs.
asked() {
	for _ in $(seq 1 100); do
		pgrep -f "sbatch --parsable --job-name=$1 " >/dev/null || return 0
		sleep 0.1
	done
	return 1
}

sleep_campaign gone 1 1 1
sleep_campaign stays 1 1 1
sleep_campaign half 1 1 1
kill -STOP "$ctld"
"$HPOCTL" submit "$T/gone.json" >"$T/gone.out" 2>&1 &
SUB=$!
check "frozen controller: the submit's sbatch --test-only waits" asking gone
# A client that stays, and one that shuts down its writing side after its
# request (as socat does), both while the controller is frozen.
"$HPOCTL" submit "$T/stays.json" >"$T/stays.out" 2>&1 &
STAYS=$!
python3 - "$SOCK" "$T/half.json" >"$T/half.out" 2>&1 <<'PY' &
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
spec = json.load(open(sys.argv[2]))
s.sendall((json.dumps({"cmd": "submit", "spec": spec}) + "\n").encode())
s.shutdown(socket.SHUT_WR)
print(json.loads(s.makefile().readline()).get("id"))
PY
HALF=$!
check "the staying client's check waits too" asking stays
check "the half-closed client's check waits too" asking half
kill -KILL "$SUB"
wait "$SUB" 2>/dev/null || true
check "hpod logs that the submit was abandoned" wait_for_log \
    "submit of 'gone' abandoned: the client left before it was checked" \
    "$T/hpod.log" 10
check "its sbatch --test-only is killed, the controller still frozen" \
    asked gone
kill -CONT "$ctld"
rc=0
wait "$STAYS" || rc=$?
sed 's/^/# /' "$T/stays.out"
is "the client that stayed gets its campaign's id" "$rc" 0
check "as before" grep -q "^campaign 'stays' submitted as id [0-9]*\$" \
    "$T/stays.out"
rc=0
wait "$HALF" || rc=$?
is "the half-closed client gets its campaign's id" \
    "$(cat "$T/half.out")" \
    "$(sql "select id from campaigns where name = 'half'")"
check "the staying client's campaign runs to its end" wait_campaign stays 60
check "the half-closed client's too" wait_campaign half 60
is "nothing of the abandoned campaign is recorded" \
    "$(sql "select count(*) from campaigns where name = 'gone'")" 0
is "Slurm has no job of it: one job for each of the others" \
    "$(slurm_jobs | wc -l)" 2
is "one log line about it" \
    "$(grep -c "'gone'" "$T/hpod.log")" 1
check "hpod stops cleanly" stop_daemon
done_testing
