# lib.sh: shared helpers for the integration tests (sourced, not run).
# Every test gets a private directory, socket, ledger and run directory,
# and removes them (and stops its daemon) on exit.

set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
BUILD=${HPOD_BUILD:-$TOP/build}
HPOD="$BUILD/hpod"
HPOCTL="$BUILD/hpoctl"
T=$(mktemp -d /tmp/hpod-t.XXXXXX)
SOCK="$T/run/hpod.sock"
LEDGER="$T/state/ledger.db"
RUNS="$T/state/runs"
CONF="$T/hpod.conf"
DPID=
TAPN=0
TAPFAIL=0
export HPOD_SOCKET="$SOCK"
export HPOD_WORKLOAD_PATH="$TOP/workloads"
# Sanitizer reports must fail the test that triggers them.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1}

cat >"$CONF" <<CONF
socket = $SOCK
ledger = $LEDGER
run_dir = $RUNS
poll_interval = 100
CONF

cleanup() {
	if [ -n "$DPID" ] && kill -0 "$DPID" 2>/dev/null; then
		kill -TERM "$DPID" 2>/dev/null || true
		wait "$DPID" 2>/dev/null || true
	fi
	# Trials run detached from the daemon: stop any this test left.
	pkill -f "hpo-trial -d $T/" 2>/dev/null || true
	rm -rf "$T"
}
trap cleanup EXIT

ok() {
	TAPN=$((TAPN + 1))
	echo "ok $TAPN - $*"
}

not_ok() {
	TAPN=$((TAPN + 1))
	TAPFAIL=$((TAPFAIL + 1))
	echo "not ok $TAPN - $*"
}

# check DESCRIPTION COMMAND...: pass when the command succeeds.
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# is DESCRIPTION GOT EXPECTED
is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "#   got '$2', expected '$3'"
	fi
}

done_testing() {
	echo "1..$TAPN"
	[ "$TAPFAIL" -eq 0 ]
}

# Start the daemon in the foreground and wait for its socket.
start_daemon() {
	"$HPOD" -d -v -f "$CONF" 2>>"$T/hpod.log" &
	DPID=$!
	for _ in $(seq 1 100); do
		"$HPOCTL" ping >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "# hpod did not come up:"; sed 's/^/#   /' "$T/hpod.log"
	return 1
}

# Stop the daemon with SIGTERM; succeed if it exits 0.
stop_daemon() {
	kill -TERM "$DPID"
	rc=0
	wait "$DPID" || rc=$?
	DPID=
	return $rc
}

# Wait (up to $2 seconds) until campaign $1 is no longer running.
wait_campaign() {
	for _ in $(seq 1 $(( $2 * 5 ))); do
		st=$("$HPOCTL" status --ledger "$LEDGER" --format json "$1" \
		    2>/dev/null | jq -r .state) || st=
		case "$st" in finished|cancelled) return 0 ;; esac
		sleep 0.2
	done
	return 1
}

# A small campaign of the real proxy trainer: write it to $T/$1.json.
# $2: max_trials, $3: max_parallel, $4: epochs.
write_campaign() {
	cat >"$T/$1.json" <<JSON
{
  "name": "$1",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min", "target": 0.35},
  "space": {
    "lr": {"type": "float", "min": 0.001, "max": 0.5, "scale": "log"},
    "batch_size": {"type": "choice", "values": [32, 64]}
  },
  "fixed": {"epochs": $4, "warmup_epochs": 0, "train_samples": 256, "eval_samples": 128},
  "search": {"algorithm": "random", "seed": 7},
  "budget": {"max_trials": $2, "max_parallel": $3},
  "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"}
}
JSON
}

# sql QUERY: run a read-only query on the ledger.
sql() {
	sqlite3 -readonly "$LEDGER" "$1"
}
