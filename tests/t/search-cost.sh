#!/bin/sh
# cmtpe (cost-aware mtpe) through the real engine on the replay backend:
# the seconds per epoch of each trial come from its points' times in the
# ledger, and of suggestions of about equal promise cmtpe makes the
# cheaper ones; the same spec run again makes the same trials; auto
# chooses cmtpe and says why.
. "$(dirname "$0")/lib.subr"

# A synthetic table: 12 learning rates x 6 batch sizes, 12 epochs.  The
# loss depends on the learning rate alone (0.005 to 0.03 reach the target
# 0.2 by epoch 8, the others stay above 0.5); an epoch takes 5120 /
# batch_size virtual seconds, 320 at 16 down to 10 at 512 (32-fold).
awk 'BEGIN {
	printf "{\"format\": \"hpod-replay-1\", \"workload\": \"minicosmo\",\n"
	printf " \"metric\": \"eval_error\", \"goal\": \"min\",\n"
	printf " \"params\": [{\"name\": \"lr\", \"scale\": \"log\"}, {\"name\": \"batch_size\", \"scale\": \"log\"}],\n"
	printf " \"fixed\": {\"epochs\": 12},\n \"runs\": ["
	n = 0
	for (i = 0; i < 12; i++) for (b = 16; b <= 512; b *= 2) {
		lr = 0.001 * 10 ^ (i * 2 / 11)
		printf "%s\n  {\"x\": [%.6g, %d], \"seed\": 0, \"start_s\": 5, ", n++ ? "," : "", lr, b
		printf "\"status\": 0, \"epoch_s\": ["
		for (e = 1; e <= 12; e++)
			printf "%s%d", (e > 1 ? ", " : ""), 5120 / b
		printf "], \"values\": ["
		for (e = 1; e <= 12; e++) {
			if (lr >= 0.005 && lr <= 0.03) v = 0.1 + 0.8 / e
			else v = 0.9 - 0.03 * e
			printf "%s%.6f", (e > 1 ? ", " : ""), v
		}
		printf "]}"
	}
	printf "\n]}\n"
}' >"$T/table.json"

# campaign NAME ALGORITHM: 40 trials over the table, 2 at a time, the
# target stopper (what auto picks here).
campaign() {
	cat >"$T/$1.json" <<JSON
{
  "name": "$1",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min", "target": 0.2},
  "space": {
    "lr": {"type": "float", "min": 0.001, "max": 0.1, "scale": "log"},
    "batch_size": {"type": "int", "min": 16, "max": 512, "scale": "log"}
  },
  "fixed": {"epochs": 12},
  "search": {"algorithm": "$2", "seed": 5, "stopper": {"algorithm": "target"}},
  "budget": {"max_trials": 40, "max_parallel": 2},
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
# per_epoch CAMPAIGN: mean seconds per epoch of its trials after the
# first 10, from the ledger's points.
per_epoch() {
	sql "select cast(avg(s) as int) from (select (max(m.time) - min(m.time)) / (max(m.step) - min(m.step)) as s from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id where t.campaign_id = $(cid "$1") and t.number >= 10 and m.key = 'eval_error' group by a.id having count(*) > 1)"
}

campaign cm cmtpe
check "a cmtpe campaign is accepted" "$HPOCTL" -f "$CONF" check "$T/cm.json"
"$HPOCTL" -f "$CONF" run -q "$T/cm.json" >/dev/null 2>&1
campaign m mtpe
"$HPOCTL" -f "$CONF" run -q "$T/m.json" >/dev/null 2>&1
campaign r random
"$HPOCTL" -f "$CONF" run -q "$T/r.json" >/dev/null 2>&1
is "cmtpe: 40 trials" "$(sql "select count(*) from trials where campaign_id = $(cid cm)")" 40
cme=$(per_epoch cm) me=$(per_epoch m) re=$(per_epoch r)
echo "# seconds per epoch after the first 10 trials: cmtpe $cme, mtpe $me, random $re"
check "cmtpe's trials cost at most 0.75x random's per epoch ($cme, $re)" \
    test $((cme * 4)) -le $((re * 3))
check "cmtpe's campaign reaches the target" \
    test "$(sql "select count(*) from trials where campaign_id = $(cid cm) and reached = 1")" -ge 1
A=$(cid cm)
"$HPOCTL" -f "$CONF" run -q "$T/cm.json" >/dev/null 2>&1
is "cmtpe, run again: the same trials" "$(trials "$(cid cm)")" "$(trials "$A")"

campaign auto auto
sed -i 's/, "stopper": {"algorithm": "target"}//' "$T/auto.json"
"$HPOCTL" -f "$CONF" run "$T/auto.json" >"$T/auto.out" 2>&1
check "auto chooses cmtpe and says why" \
    grep -q "search: auto chose cmtpe: .*; of equal promise, the cheaper per epoch" "$T/auto.out"
is "auto suggests what cmtpe does" "$(trials "$(cid auto)")" "$(trials "$A")"

done_testing
