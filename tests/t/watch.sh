#!/bin/sh
# hpoctl watch: a live view of a real campaign, through the daemon and
# straight from the ledger; plain lines when stdout is not a terminal, the
# screen redrawn in place when it is; it ends with the campaign.  Its
# table's step column is named after what the workload's steps count
# (SAMPLE for a step_unit of samples; it said EPOCH of every workload).
. "$(dirname "$0")/lib.subr"

start_daemon
write_campaign wt 4 1 6
# A wall-time budget far away: the ETA is that of max_trials.
sed -i 's/"max_parallel": 1}/"max_parallel": 1, "max_wall_time": "01:00:00"}/' \
    "$T/wt.json"
"$HPOCTL" submit "$T/wt.json" >/dev/null
rc=0
"$HPOCTL" watch --ledger "$LEDGER" --interval 0.1 wt >"$T/ledger.txt" &
lpid=$!
"$HPOCTL" watch --interval 0.1 wt >"$T/watch.txt" 2>"$T/watch.err" || rc=$?
is "watch exits 0 when the campaign ends" "$rc" 0
rc=0
wait "$lpid" || rc=$?
is "watch --ledger exits 0 too" "$rc" 0
check "it shows trials running" grep -q '; trials 1 running, ' "$T/watch.txt"
check "and the trials done by state" \
    grep -q ' [1-3] done ([1-3] completed) of 4; ' "$T/watch.txt"
check "the best value so far and the cost" \
    grep -q '; best eval_error [0-9.]* (trial [0-9]); cost [0-9.]* node-h, 0.0000 GPU-h, [0-9.]* CPU-h; elapsed ' \
    "$T/watch.txt"
check "an ETA to max_trials while it runs" \
    grep -q 'running; .*; eta [0-9.]* s to max_trials$' "$T/watch.txt"
is "the last line is the final state" \
    "$(tail -n 1 "$T/watch.txt" | sed 's/; best.*//')" \
    "campaign wt (id 1): finished; trials 0 running, 0 queued, 4 done (4 completed) of 4"
check "with no ETA" sh -c "tail -n 1 '$T/watch.txt' | grep -q '; eta -\$'"
is "a line only when something changed" \
    "$(sed 's/; cost.*//' "$T/watch.txt" | uniq -d | wc -l)" 0
check "fewer lines than refreshes" test "$(wc -l <"$T/watch.txt")" -lt 30
is "--ledger ends the same way" "$(tail -n 1 "$T/ledger.txt" | sed 's/; cost.*//')" \
    "$(tail -n 1 "$T/watch.txt" | sed 's/; cost.*//')"

# A campaign that has ended: one line, at once.
"$HPOCTL" watch wt >"$T/again.txt"
is "an ended campaign: one line" "$(wc -l <"$T/again.txt")" 1

rc=0
"$HPOCTL" watch nosuch >"$T/out.txt" 2>"$T/err.txt" || rc=$?
is "an unknown campaign: exit 1" "$rc" 1
check "with a message" grep -q "no campaign 'nosuch' in the ledger" "$T/err.txt"
rc=0
"$HPOCTL" watch --ledger "$LEDGER" nosuch 2>"$T/err.txt" || rc=$?
is "and the same with --ledger" "$rc" 1
check "with the same message" grep -q "no campaign 'nosuch'" "$T/err.txt"
rc=0
"$HPOCTL" watch --interval 0 wt 2>"$T/err.txt" || rc=$?
is "a bad interval is a usage error" "$rc" 64
check "naming the option" grep -q -- "--interval: expected seconds" "$T/err.txt"

# On a terminal the screen is redrawn: cursor home, clear, then the block.
if script -qec "true" /dev/null >/dev/null 2>&1; then
	script -qec "'$HPOCTL' watch wt" /dev/null >"$T/tty.txt" 2>&1 || true
	check "on a terminal: cursor home and clear" \
	    grep -q "$(printf '\033\\[H\033\\[J')campaign wt" "$T/tty.txt"
	check "then the block" grep -q '^trials:  0 running, 0 queued, 4 done of 4' \
	    "$T/tty.txt"
	check "and a table of the trials" grep -q \
	    '^TRIAL  STATE      ATT  HOST          ELAPSED-S   EPOCH    eval_error  PARAMETERS' \
	    "$T/tty.txt"
	is "a row per trial, newest first" \
	    "$(sed -n '/^TRIAL  STATE/,$p' "$T/tty.txt" | tr -d '\r' |
	    awk 'NR > 1 { printf "%s/%s/%s ", $1, $2, $6 }')" \
	    "$(sql "select t.number || '/' || t.state || '/' || (select cast(max(m.step) as integer) from metrics m join attempts a on a.id = m.attempt_id where a.trial_id = t.id and m.key = 'eval_error') || ' ' from trials t order by t.number desc" | tr -d '\n')"
	# A workload whose steps count samples says so in the step column.
	nap_workload
	cat >"$T/wl/nap.json" <<JSON
{"name": "nap", "program": "sh", "args": ["$T/bin/nap.sh", "{value}"],
 "fidelity": "steps", "step_unit": "samples"}
JSON
	echo 'echo ":::MLLOG {\"key\": \"eval_error\", \"value\": 0.5, \"metadata\": {\"epoch_num\": 256}}"' \
	    >"$T/bin/nap.sh"
	cat >"$T/ws.json" <<JSON
{"name": "ws", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "choice", "values": [1]}},
 "search": {"algorithm": "grid"}, "budget": {"max_trials": 1}}
JSON
	"$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$RUNS" "$T/ws.json" \
	    >/dev/null 2>&1 || true
	script -qec "'$HPOCTL' watch --ledger '$LEDGER' ws" /dev/null \
	    >"$T/tty2.txt" 2>&1 || true
	check "a workload of samples: the step column says SAMPLE" grep -q \
	    '^TRIAL  STATE      ATT  HOST          ELAPSED-S  SAMPLE    eval_error  PARAMETERS' \
	    "$T/tty2.txt"
	is "and its row the sample" "$(sed -n '/^TRIAL  STATE/,$p' \
	    "$T/tty2.txt" | tr -d '\r' | awk 'NR == 2 { print $6 }')" 256
fi
check "the daemon stops cleanly" stop_daemon
done_testing
