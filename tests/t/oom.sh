#!/bin/sh
# Memory running out while hpod renders a report is that request's error,
# never the end of the daemon.  The reports run on hpod's worker threads:
# an abort there (as xmalloc's was) killed the daemon and every campaign
# it ran.  HPOD_TEST_FAIL_ALLOC=report:N (hpod(8)) fails the Nth
# allocation of each render as if memory ran out; for several N, every
# report, guideline table, trial list and status in every format must
# come back either whole (the render needed fewer allocations) or as
# "... out of memory", the daemon must log it, answer a ping after it and
# exit 0 with no leak (ASan's leak check, under `make check`), and the
# ledger must be as it was.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

replay_big 40 0.215
check "a 40-trial replay campaign runs in the foreground" \
    "$HPOCTL" -f "$CONF" run -q "$T/big.json"
ledger_sum() {
	sqlite3 -readonly "$LEDGER" .dump | md5sum
}
before=$(ledger_sum)

# The requests: KIND FORMAT, each answered by hpod through the socket.
REQS="report:text report:json report:csv report:html table:text
table:json table:csv table:markdown table:rcp trials:text trials:json
trials:csv trials:fields status:text status:json"
ask() {
	case $1 in
	report)	"$HPOCTL" report --format "$2" big ;;
	table)	"$HPOCTL" report --table --format "$2" big ;;
	trials)	if [ "$2" = fields ]; then
			"$HPOCTL" trials -O trial,state,lr,best big
		else
			"$HPOCTL" trials --format "$2" big
		fi ;;
	status)	"$HPOCTL" status --format "$2" ;;
	esac
}
# The page says when it was written: leave that line out to compare.
same() {
	grep -v '^<p class="muted">Written by hpoctl' "$1" >"$T/a" || true
	grep -v '^<p class="muted">Written by hpoctl' "$2" >"$T/b" || true
	cmp -s "$T/a" "$T/b"
}

# With memory: the answers every faulty run is compared with.
start_daemon
for r in $REQS; do
	ask "${r%:*}" "${r#*:}" >"$T/ref.$r" 2>"$T/err" ||
	    { echo "# $r: $(cat "$T/err")"; not_ok "$r answers with memory"; }
done
check "hpod stops with memory" stop_daemon

# N from the first allocation to beyond the smaller renders' last one.
for n in 1 2 3 5 8 13 40 100 300 1000 3000; do
	export HPOD_TEST_FAIL_ALLOC=report:$n
	start_daemon
	unset HPOD_TEST_FAIL_ALLOC
	failed=0 whole=0 bad=
	for r in $REQS; do
		if ask "${r%:*}" "${r#*:}" >"$T/out" 2>"$T/err"; then
			if same "$T/out" "$T/ref.$r"; then
				whole=$((whole + 1))
			else
				bad="$bad $r(differs)"
			fi
		elif grep -q "^hpoctl: .*out of memory$" "$T/err"; then
			failed=$((failed + 1))
		else
			bad="$bad $r($(head -c 200 "$T/err"))"
		fi
	done
	echo "# report:$n: $failed requests out of memory, $whole whole"
	is "report:$n: each answer is whole or 'out of memory'" "$bad" ""
	check "report:$n: hpod answers a ping after them" "$HPOCTL" ping
	[ "$n" -gt 40 ] ||
	    check "report:$n: a request ran out" test "$failed" -gt 0
	is "report:$n: hpod logged each" \
	    "$(grep -c "out of memory" "$T/hpod.log")" "$failed"
	check "report:$n: hpod exits 0 (ASan: no leak)" stop_daemon
	: >"$T/hpod.log"
done
is "the ledger is as it was" "$(ledger_sum)" "$before"

# The message names the request and the campaign.
export HPOD_TEST_FAIL_ALLOC=report:1
start_daemon
unset HPOD_TEST_FAIL_ALLOC
"$HPOCTL" report --format json big 2>"$T/err" >/dev/null || true
is "the report's message" "$(cat "$T/err")" \
    "hpoctl: report for campaign 'big': out of memory"
"$HPOCTL" trials big 2>"$T/err" >/dev/null || true
is "the trial list's message" "$(cat "$T/err")" \
    "hpoctl: trials for campaign 'big': out of memory"
"$HPOCTL" status 2>"$T/err" >/dev/null || true
is "the status's message" "$(cat "$T/err")" "hpoctl: status: out of memory"
check "hpod exits 0" stop_daemon

# hpoctl --ledger renders in its own process: the same error, exit 1.
rc=0
HPOD_TEST_FAIL_ALLOC=report:1 "$HPOCTL" report --ledger "$LEDGER" \
    --format html big >/dev/null 2>"$T/err" || rc=$?
is "report --ledger out of memory: exit 1" "$rc" 1
is "report --ledger: the message" "$(cat "$T/err")" \
    "hpoctl: report for campaign 'big': out of memory"
is "the ledger is still as it was" "$(ledger_sum)" "$before"

done_testing
