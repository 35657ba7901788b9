#!/bin/sh
# GPU-hour and node-hour budget caps, counted by the engine from what it
# recorded (not read back from the ledger per tick), stop a replay
# campaign exactly where the ledger's own accounting says they are spent:
# no new trial once the cap is reached, and the last trial was created
# while the ledger's cost at that moment was still under it.  So does a
# daemon restarted mid-campaign, which takes the cost so far from the
# ledger.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

# One configuration: 3 epochs of 10 virtual seconds after 5 s of start-up.
replay_one 5

# campaign NAME CAP NODES GPUS: 1000 trials, 3 at a time, under CAP.
campaign() {
	lr_spec "$1" 1000 3 "\"nodes\": $3, \"gpus_per_node\": $4" ", $2"
}

# cost NAME COLUMN [AT]: the ledger's node- or GPU-seconds (COLUMN nodes
# or gpus) of campaign NAME, at time AT (default: the end).
cost() {
	at=${3:-1e300}
	sql "select printf('%.6f', total(max(min(coalesce(nullif(a.ended, 0), $at), $at) - a.started, 0) * a.$2))
	    from attempts a join trials t on t.id = a.trial_id
	    join campaigns c on c.id = t.campaign_id
	    where c.name = '$1' and a.started > 0 and a.started < $at"
}

# check_cap NAME COLUMN CAP_S WHAT
check_cap() {
	if [ -n "${5:-}" ]; then
		check "$1: the campaign finishes" wait_campaign "$1" 120
		cp "$T/hpod.log" "$T/$1.err"
	else
		rc=0
		"$HPOCTL" -f "$CONF" run "$T/$1.json" >/dev/null \
		    2>"$T/$1.err" || rc=$?
		is "$1: the campaign finishes" "$rc" 0
	fi
	check "$1: stopped by the $4 budget" grep -q "$4 budget spent" "$T/$1.err"
	n=$(sql "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = '$1'")
	check "$1: long before its 1000 trials ($n)" test "$n" -lt 1000
	check "$1: the ledger's cost reached the cap" \
	    awk -v c="$(cost "$1" "$2")" -v m="$3" 'BEGIN { exit !(c >= m) }'
	last=$(sql "select printf('%.6f', max(t.created)) from trials t join campaigns c on c.id = t.campaign_id where c.name = '$1'")
	check "$1: the last trial was created under the cap" \
	    awk -v c="$(cost "$1" "$2" "$last")" -v m="$3" 'BEGIN { exit !(c < m) }'
}

cd "$T"
# 0.1 GPU-hours = 360 GPU-seconds, 2 GPUs per trial of 35 s.
campaign gpu '"max_gpu_hours": 0.1' 1 2
check_cap gpu gpus 360 GPU-hour
# 0.05 node-hours = 180 node-seconds, 2 nodes per trial.
campaign node '"max_node_hours": 0.05' 2 1
check_cap node nodes 180 node-hour

# The daemon, stopped once two trials have ended and restarted: trials
# of one second, 2 at a time, under 10 node-seconds.
cat >"$T/nap.json" <<'JSON'
{"name": "nap", "program": "sh",
 "args": ["-c", "sleep 1; echo ':::MLLOG {{\"key\": \"eval_error\", \"value\": 0.5, \"metadata\": {{\"epoch_num\": 1}}}}'", "{x}"],
 "objective": {"metric": "eval_error", "goal": "min"}}
JSON
cat >"$T/rs.json" <<JSON
{"name": "rs", "workload": "$T/nap.json",
 "space": {"x": {"type": "float", "min": 0, "max": 1}},
 "budget": {"max_trials": 1000, "max_parallel": 2,
            "max_node_hours": $(awk 'BEGIN { printf "%.10f", 10 / 3600 }')}}
JSON
start_daemon
"$HPOCTL" submit "$T/rs.json" >/dev/null
ended() {
	sql "select count(*) from attempts a join trials t on t.id = a.trial_id
	    join campaigns c on c.id = t.campaign_id
	    where c.name = 'rs' and a.ended is not null"
}
for _ in $(seq 1 200); do
	[ "$(ended)" -ge 2 ] && break
	sleep 0.05
done
check "rs: two trials ended before the restart" test "$(ended)" -ge 2
check "rs: SIGTERM: the daemon exits 0" stop_daemon
start_daemon
check_cap rs nodes 10 node-hour daemon
check "rs: the daemon stops" stop_daemon
done_testing
