#!/bin/sh
# mtpe and auto through the real engine on the replay backend: auto says
# what it chose and why; mtpe with four trials at a time gives the same
# trials when run again (suggestions made while trials run are a pure
# function of seed and history); failed (diverged) trials steer mtpe away
# from the region that diverges, where tpe keeps returning to it.
. "$(dirname "$0")/lib.subr"

# A synthetic table: 12 learning rates x 2 batch sizes, 6 epochs of 10
# virtual seconds; lr >= 0.1 diverges in its first epoch, and the best
# learning rate, 0.05, borders that region.
awk 'BEGIN {
	printf "{\"format\": \"hpod-replay-1\", \"workload\": \"minicosmo\",\n"
	printf " \"metric\": \"eval_error\", \"goal\": \"min\",\n"
	printf " \"params\": [{\"name\": \"lr\", \"scale\": \"log\"}, {\"name\": \"batch_size\", \"scale\": \"log\"}],\n"
	printf " \"fixed\": {\"epochs\": 6},\n \"runs\": ["
	n = 0
	for (i = 0; i < 12; i++) for (b = 32; b <= 64; b *= 2) {
		lr = 0.001 * 10 ^ (i * 3 / 11)
		printf "%s\n  {\"x\": [%.6g, %d], \"seed\": 0, \"start_s\": 5, ", n++ ? "," : "", lr, b
		if (lr >= 0.1) {
			printf "\"status\": 2, \"epoch_s\": [10], \"values\": [0.9]}"
			continue
		}
		l = log(lr / 0.05) / log(10)
		printf "\"status\": 0, \"epoch_s\": [10,10,10,10,10,10], \"values\": ["
		for (e = 1; e <= 6; e++)
			printf "%s%.6f", (e > 1 ? ", " : ""), 0.1 + 0.3 / e + 0.2 * l * l + (b == 64 ? 0.01 : 0)
		printf "]}"
	}
	printf "\n]}\n"
}' >"$T/table.json"

# campaign NAME ALGORITHM PARALLEL: 40 trials over the table.
campaign() {
	cat >"$T/$1.json" <<JSON
{
  "name": "$1",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min"},
  "space": {
    "lr": {"type": "float", "min": 0.001, "max": 1, "scale": "log"},
    "batch_size": {"type": "choice", "values": [32, 64]}
  },
  "fixed": {"epochs": 6},
  "search": {"algorithm": "$2", "seed": 3},
  "budget": {"max_trials": 40, "max_parallel": $3},
  "resources": {"gpus_per_node": 1, "time_limit": "01:00:00"},
  "backend": "replay",
  "replay": {"table": "$T/table.json"},
  "retry": {"limit": 0}
}
JSON
}
cid() { sql "select id from campaigns where name = '$1' order by id desc limit 1"; }
trials() {
	sql "select group_concat(params_json || ' ' || state, '; ') from (select * from trials where campaign_id = $1 order by number)"
}
failed() {
	sql "select count(*) from trials where campaign_id = $(cid "$1") and state = 'failed'"
}

campaign auto auto 1
check "an auto campaign is accepted" "$HPOCTL" -f "$CONF" check "$T/auto.json"
"$HPOCTL" -f "$CONF" run "$T/auto.json" >"$T/auto.out" 2>&1
check "auto says what it chose and why" \
    grep -q "search: auto chose cmtpe: the budget and 2 parameters" "$T/auto.out"
is "40 trials" "$(sql "select count(*) from trials where campaign_id = $(cid auto)")" 40

campaign par mtpe 4
"$HPOCTL" -f "$CONF" run -q "$T/par.json" >/dev/null
A=$(cid par)
"$HPOCTL" -f "$CONF" run -q "$T/par.json" >/dev/null
is "mtpe, 4 at a time, run again: the same trials" "$(trials "$(cid par)")" "$(trials "$A")"

campaign ftpe tpe 1
"$HPOCTL" -f "$CONF" run -q "$T/ftpe.json" >/dev/null
campaign fmtpe mtpe 1
"$HPOCTL" -f "$CONF" run -q "$T/fmtpe.json" >/dev/null
nt=$(failed ftpe)
nm=$(failed fmtpe)
check "mtpe fails fewer trials than tpe next to a diverging region ($nm < $nt)" \
    test "$nm" -lt "$nt"

done_testing
