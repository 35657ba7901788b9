#!/bin/sh
# Engine behaviour with the real proxy trainer: retries of lost attempts,
# time limits, budget caps, stop-on-target, grid exhaustion and diverging
# trials; every attempt is costed.
. "$(dirname "$0")/lib.subr"

# spec NAME SPACE FIXED BUDGET [RESOURCES]: write $T/NAME.json.
spec() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "minicosmo",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.35},
 "space": {$2},
 "fixed": {"train_samples": 256, "eval_samples": 128, $3},
 "search": {"algorithm": "random", "seed": 11},
 "budget": {$4},
 "resources": {"cpus_per_task": 1 ${5:+, $5}}}
JSON
}
LR='"lr": {"type": "float", "min": 0.01, "max": 0.05, "scale": "log"}'
run() {
	rc=0
	"$HPOCTL" -f "$CONF" run ${QUIET--q} --format json "$T/$1.json" \
	    >"$T/$1.out" 2>"$T/$1.err" || rc=$?
	echo "$rc"
}
q() {
	sql "select $2 from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1' ${3:-}"
}

# A lost attempt (its wrapper killed with SIGKILL) is retried and costed.
spec lost "$LR" '"epochs": 30, "target": 0.001' '"max_trials": 1'
"$HPOCTL" -f "$CONF" run -q --format json "$T/lost.json" >"$T/lost.out" \
    2>"$T/lost.err" &
RUNPID=$!
pid=
for _ in $(seq 1 100); do
	pid=$(q lost job_id "and a.started is not null" 2>/dev/null) || pid=
	[ -n "$pid" ] && break
	sleep 0.1
done
sleep 1
kill -KILL "$pid"
rc=0
wait "$RUNPID" || rc=$?
is "the campaign with a lost attempt finishes" "$rc" 0
is "the lost attempt is recorded" "$(q lost 'a.state' 'and a.number = 0')" lost
is "a second attempt ran and completed" \
    "$(q lost 'a.state' 'and a.number = 1')" completed
is "the trial completed" "$(jq .trials.completed "$T/lost.out")" 1
is "both attempts are counted" "$(jq .cost.attempts "$T/lost.out")" 2
is "one of them as a retry" "$(jq .cost.retried_attempts "$T/lost.out")" 1
check "the lost attempt's run time is in the cost" \
    test "$(q lost "count(*)" "and a.state = 'lost' and a.ended > a.started")" = 1

# A trial over its time limit ends timeout and is not retried by default.
spec slow "$LR" '"epochs": 500, "target": 0.001' '"max_trials": 1' '"time_limit": "00:02"'
is "a campaign whose trial times out still finishes" "$(run slow)" 0
is "the attempt ended timeout" "$(q slow a.state)" timeout
is "the trial failed" "$(jq .trials.failed "$T/slow.out")" 1
is "one attempt only" "$(jq .cost.attempts "$T/slow.out")" 1

# The wall-clock cap cancels what runs when it is spent.
spec wall "$LR" '"epochs": 500, "target": 0.001' '"max_trials": 4, "max_parallel": 2, "max_wall_time": "00:03"'
is "wall-capped campaign finishes" "$(run wall)" 0
is "its running attempts were cancelled" "$(jq .trials.cancelled "$T/wall.out")" 2
is "no trial after the cap" "$(jq .trials.total "$T/wall.out")" 2
check "it stopped near the cap" jq -e '.campaign.wall_s < 20' "$T/wall.out"
check "the cancelled attempts are costed" jq -e '.cost.cpu_hours > 0' "$T/wall.out"

# stop_on_target: no new trials once one reached the target.
spec stop "$LR" '"epochs": 6' '"max_trials": 10, "max_parallel": 1, "stop_on_target": true'
is "stop-on-target campaign finishes" "$(run stop)" 0
is "it stopped after the first trial that reached" \
    "$(jq '.trials.total == .time_to_solution_trial + 1' "$T/stop.out")" true
check "and has a time to solution" jq -e '.time_to_solution_s > 0' "$T/stop.out"

# A grid smaller than max_trials ends when exhausted.
spec grid '"batch_size": {"type": "choice", "values": [32, 64]}, "lr": {"type": "float", "min": 0.01, "max": 0.04, "scale": "log", "steps": 3}' \
    '"epochs": 1' '"max_trials": 10, "max_parallel": 2'
sed -i 's/"random"/"grid"/' "$T/grid.json"
is "grid campaign finishes" "$(run grid)" 0
is "it ran each grid point once" "$(jq .trials.total "$T/grid.out")" 6
is "distinct points" "$(q grid "count(distinct t.params_json)")" 6
is "the log-spaced midpoint is exactly 0.02" \
    "$(q grid "count(*)" "and t.params_json like '%\"lr\":0.02}'")" 2

# A learning rate that diverges: a failed trial, exit status recorded.
spec div '"lr": {"type": "float", "min": 2, "max": 4}' '"epochs": 4' '"max_trials": 1'
is "diverging campaign finishes" "$(run div)" 0
is "the diverged trial failed" "$(jq .trials.failed "$T/div.out")" 1
is "with the trainer's exit status" "$(q div a.exit_code)" 2
check "and its divergence message kept in the attempt's stderr" \
    grep -q "diverged" "$(q div a.dir)/stderr"
# One interrupt cancels a foreground campaign; its attempts are costed.
spec intr "$LR" '"epochs": 500, "target": 0.001' '"max_trials": 3, "max_parallel": 2'
"$HPOCTL" -f "$CONF" run -q --format json "$T/intr.json" >"$T/intr.out" \
    2>"$T/intr.err" &
RUNPID=$!
for _ in $(seq 1 100); do
	[ "$(q intr "count(*)" "and a.started is not null")" -ge 2 ] && break
	sleep 0.1
done
sleep 0.5
kill -INT "$RUNPID"
rc=0
wait "$RUNPID" || rc=$?
is "an interrupted hpoctl run exits 2" "$rc" 2
is "the campaign is cancelled" "$(jq -r .campaign.state "$T/intr.out")" cancelled
is "its running trials are cancelled" "$(jq .trials.cancelled "$T/intr.out")" 2
check "and costed" jq -e '.cost.cpu_hours > 0' "$T/intr.out"
is "no trial is left running" "$(pgrep -fc "hpo-trial -d $T/state/runs/[0-9]*-intr/" || true)" 0

# What a trial receives: argv elements, HPO_* variables (a parameter wins
# over the built-in of the same name, and is exported once) and params.json.
cat >"$T/envdump.json" <<'JSON'
{"name": "envdump", "program": "sh",
 "args": ["-c", "env | grep ^HPO_ | sort >hpo_env; printf '%s\\n' \"$@\" >argv", "sh", "{lr}", "a b;{opt}", "{seed}", "{trial}"],
 "objective": {"metric": "eval_error", "goal": "min"}}
JSON
cat >"$T/env.json" <<JSON
{"name": "env", "workload": "$T/envdump.json",
 "space": {"lr": {"type": "float", "min": 0.1, "max": 0.2},
           "opt": {"type": "choice", "values": ["adam", "lamb"]},
           "seed": {"type": "choice", "values": [5]}},
 "budget": {"max_trials": 1}}
JSON
is "a campaign of the environment probe finishes" "$(run env)" 0
d=$(q env a.dir)
pj=$(sql "select params_json from trials t join campaigns c on c.id = t.campaign_id where c.name = 'env'")
lr=$(echo "$pj" | sed 's/.*"lr":\([^,}]*\).*/\1/')
opt=$(sql "select json_extract(params_json, '\$.opt') from trials t join campaigns c on c.id = t.campaign_id where c.name = 'env'")
is "argv: the parameter as one element" "$(sed -n 1p "$d/argv")" "$lr"
is "argv: spaces and semicolons stay in one element" "$(sed -n 2p "$d/argv")" "a b;$opt"
is "argv: the seed parameter wins over the built-in" "$(sed -n 3p "$d/argv")" 5
is "argv: built-in trial number" "$(sed -n 4p "$d/argv")" 0
check "HPO_LR is the parameter" grep -qx "HPO_LR=$lr" "$d/hpo_env"
check "HPO_OPT is the choice" grep -qx "HPO_OPT=$opt" "$d/hpo_env"
is "HPO_SEED is exported once, as the parameter" "$(grep '^HPO_SEED=' "$d/hpo_env")" "HPO_SEED=5"
check "HPO_DIR is the attempt directory" grep -qx "HPO_DIR=$d" "$d/hpo_env"
check "HPO_TOKEN is the attempt's token" grep -qx "HPO_TOKEN=$(q env a.token)" "$d/hpo_env"
check "params.json holds exactly the ledger's parameters" grep -qF "\"params\":	$pj" "$d/params.json"

# Bad job output: malformed MLLOG lines are reported with the file and
# line, and ignored; the good lines around them still count.
cat >"$T/chatty.json" <<'JSON'
{"name": "chatty", "program": "sh",
 "args": ["-c", "echo ':::MLLOG {{\"key\": '; echo ':::MLLOG {{\"key\": \"eval_error\", \"value\": \"low\"}}'; printf ':::MLLOG {{\"key\": \"eval_error\", \"value\": %s, \"metadata\": {{\"epoch_num\": 1}}}}\\n' \"$0\"", "{x}"],
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.5}}
JSON
cat >"$T/bad-output.json" <<JSON
{"name": "bad-output", "workload": "$T/chatty.json",
 "space": {"x": {"type": "float", "min": 0.1, "max": 0.2}},
 "budget": {"max_trials": 1}}
JSON
is "a campaign with malformed job output finishes" "$(QUIET= run bad-output)" 0
check "the malformed line is reported with file and line" \
    grep -q "trial 0 attempt 0: .*/attempt-0/stdout:1: .*line ignored" "$T/bad-output.err"
check "a non-numeric metric is reported with file and line" \
    grep -q "stdout:2: eval_error is not a number; line ignored" "$T/bad-output.err"
check "the good line still counts" jq -e '.best.value >= 0.1 and .best.value <= 0.2 and .trials.reached_target == 1' "$T/bad-output.out"
done_testing
