#!/bin/sh
# The command lines as Unix and Slurm users expect them: --help and
# --version everywhere, options anywhere, a reason for every refusal,
# and the trial list naming each trial's job, host and directory.
. "$(dirname "$0")/lib.subr"
TRIAL="$BUILD/hpo-trial"

# refused DESC EXPECTED-MESSAGE COMMAND...: exits 64 and says why.
refused() {
	desc=$1
	msg=$2
	shift 2
	rc=0
	"$@" >"$T/out.txt" 2>"$T/err.txt" || rc=$?
	is "$desc: exit 64" "$rc" 64
	if grep -qF -- "$msg" "$T/err.txt" && grep -q '^usage: ' "$T/err.txt"
	then
		ok "$desc: says '$msg' and shows the usage"
	else
		not_ok "$desc: says '$msg' and shows the usage"
		sed 's/^/#   /' "$T/err.txt"
	fi
}

# --version and --help on every program, on stdout, exit 0.
for p in "$HPOD" "$HPOCTL" "$TRIAL"; do
	n=$(basename "$p")
	v=$("$p" --version) || v="exit $?"
	case "$v" in
	"$n "[0-9]*) ok "$n --version: $v" ;;
	*) not_ok "$n --version"; echo "#   got '$v'" ;;
	esac
	h=$("$p" --help) || h="exit $?"
	case "$h" in
	"usage: $n"*) ok "$n --help" ;;
	*) not_ok "$n --help"; echo "#   got '$h'" ;;
	esac
done
is "hpod -V" "$("$HPOD" -V)" "$("$HPOD" --version)"
is "hpo-trial -V" "$("$TRIAL" -V)" "$("$TRIAL" --version)"

# Every subcommand: --help prints its own usage, --version the version.
for c in run check render submit status trials report watch cancel ping \
    mllog; do
	h=$("$HPOCTL" "$c" --help) || h="exit $?"
	case "$h" in
	"usage: hpoctl $c"*) ok "hpoctl $c --help" ;;
	*) not_ok "hpoctl $c --help"; echo "#   got '$h'" ;;
	esac
done
is "check --help is not a file name" "$("$HPOCTL" check --help 2>&1)" \
    "usage: hpoctl check spec ..."
case "$("$HPOCTL" report --version)" in
"hpoctl report "[0-9]*) ok "hpoctl report --version" ;;
*) not_ok "hpoctl report --version" ;;
esac

# A campaign to read.
write_campaign cli 3 1 1
"$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$RUNS" "$T/cli.json" \
    >/dev/null || true

# Options anywhere: the README's own example.
rc=0
"$HPOCTL" report cli --format html -o "$T/r.html" --ledger "$LEDGER" || rc=$?
is "report CAMPAIGN --format html -o F: exit 0" "$rc" 0
check "report CAMPAIGN --format html -o F: wrote the page" \
    grep -q '<html' "$T/r.html"
is "trials CAMPAIGN --format csv --ledger F" \
    "$("$HPOCTL" trials cli --format csv --ledger "$LEDGER" | wc -l)" 4

# Every refusal says why.
refused "no command" "no command given" "$HPOCTL"
refused "unknown command" "unknown command 'frobnicate'" "$HPOCTL" frobnicate
refused "missing campaign" "hpoctl report: campaign missing" "$HPOCTL" report
refused "extra argument" "unexpected argument 'two'" \
    "$HPOCTL" trials one two --ledger "$LEDGER"
refused "unknown option" "hpoctl trials: unknown option '--bogus'" \
    "$HPOCTL" trials --bogus cli
refused "option without value" "option '--format' needs a value" \
    "$HPOCTL" status --ledger "$LEDGER" --format
refused "bad format" "--format: expected text, json" \
    "$HPOCTL" status --format xml --ledger "$LEDGER"
refused "--table outside report" "--table is an option of report" \
    "$HPOCTL" trials --table cli
refused "render without spec" "expected a spec, got 0 arguments" \
    "$HPOCTL" render
refused "hpod operand" "unexpected argument 'x'" "$HPOD" x
# mllog, rcp-check and export refuse through the same cli_refuse.
refused "mllog with no file" "hpoctl mllog: expected a file" "$HPOCTL" mllog
refused "mllog unknown option" "hpoctl mllog: unknown option '--bogus'" \
    "$HPOCTL" mllog --bogus f
refused "mllog option without value" \
    "hpoctl mllog: option '--metric' needs a value" "$HPOCTL" mllog f --metric
refused "mllog bad --target" \
    "hpoctl mllog: --target: expected a number, got 'x'" \
    "$HPOCTL" mllog --target x f
refused "rcp-check with no set" \
    "hpoctl rcp-check: expected an RCP file and at least one set" \
    "$HPOCTL" rcp-check rcp.json
refused "rcp-check unknown option" \
    "hpoctl rcp-check: unknown option '--bogus'" \
    "$HPOCTL" rcp-check --bogus rcp.json set
refused "rcp-check bad --runs" "hpoctl rcp-check: --runs: expected a number" \
    "$HPOCTL" rcp-check --runs 2 rcp.json set
refused "export without -o" "hpoctl export: -o file missing" \
    "$HPOCTL" export --format optuna cli
refused "export without campaign" "hpoctl export: campaign missing" \
    "$HPOCTL" export --format optuna -o "$T/x.db"
refused "export unknown option" "hpoctl export: unknown option '--bogus'" \
    "$HPOCTL" export --bogus --format optuna -o "$T/x.db" cli
refused "export bad format" "hpoctl export: --format: expected optuna" \
    "$HPOCTL" export --format csv -o "$T/x.db" cli

# status: BEST in text and CSV is the value JSON has.
jbest=$("$HPOCTL" status --ledger "$LEDGER" --format json cli | jq -r .best)
cbest=$("$HPOCTL" status --ledger "$LEDGER" --format csv cli |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "best") c = i }
	NR == 2 { print $c }')
is "status csv best = json best" "$cbest" "$jbest"
tbest=$("$HPOCTL" status --ledger "$LEDGER" cli | awk 'NR == 2 { print $7 }')
is "status text BEST = json best (6 digits)" "$tbest" \
    "$(printf '%.6g' "$jbest")"

# trials: the job id, host and directory the ledger holds.
"$HPOCTL" trials --ledger "$LEDGER" --format json cli >"$T/trials.json"
is "trials json: job_id of trial 0" "$(jq -r '.[0].job_id' "$T/trials.json")" \
    "$(sql "select job_id from attempts a join trials t on t.id = a.trial_id where t.number = 0")"
is "trials json: host of trial 0" "$(jq -r '.[0].host' "$T/trials.json")" \
    "$(sql "select host from attempts a join trials t on t.id = a.trial_id where t.number = 0")"
is "trials json: dir of trial 0" "$(jq -r '.[0].dir' "$T/trials.json")" \
    "$(sql "select dir from attempts a join trials t on t.id = a.trial_id where t.number = 0")"
"$HPOCTL" trials --ledger "$LEDGER" --format csv cli >"$T/trials.csv"
is "trials csv: dir column" "$(awk -F, 'NR == 2 { print $11 }' "$T/trials.csv")" \
    "$(jq -r '.[0].dir' "$T/trials.json")"
"$HPOCTL" trials --ledger "$LEDGER" cli >"$T/trials.txt"
check "trials text: JOBID and HOST columns" \
    grep -q 'JOBID .* HOST' "$T/trials.txt"
is "trials text: trial 0's job id" \
    "$(awk 'NR == 2 { print $7 }' "$T/trials.txt")" \
    "$(jq -r '.[0].job_id' "$T/trials.json")"
# trials as squeue and sacct users expect: --state/-t, -h, --parsable.
for st in completed failed completed,failed; do
	want=$(sql "select count(*) from trials where state in ('$(echo "$st" | sed "s/,/','/g")')")
	is "trials --state $st: the ledger's $want" \
	    "$("$HPOCTL" trials --ledger "$LEDGER" -h --state "$st" cli | wc -l)" \
	    "$want"
done
is "trials -h: no header" \
    "$("$HPOCTL" trials --ledger "$LEDGER" -h cli | grep -c TRIAL)" 0
is "trials --parsable: the CSV header with |" \
    "$("$HPOCTL" trials --ledger "$LEDGER" --parsable cli | head -1)" \
    "$(head -1 "$T/trials.csv" | tr , '|')"
is "trials --parsable -h: the CSV rows with |" \
    "$("$HPOCTL" trials --ledger "$LEDGER" --parsable -h cli | tr '|' ,)" \
    "$(tail -n +2 "$T/trials.csv")"
# --fields/-O chooses columns by name (squeue's -O); -o stays the output file.
is "trials --parsable --fields: the CSV's columns, in the order asked" \
    "$("$HPOCTL" trials --ledger "$LEDGER" --parsable --fields lr,trial,job_id,best cli)" \
    "$(awk -F, '{ print $13 "|" $1 "|" $9 "|" $6 }' "$T/trials.csv")"
is "trials --format csv -O: the same" \
    "$("$HPOCTL" trials --ledger "$LEDGER" --format csv -O lr,trial,job_id,best cli)" \
    "$(awk -F, '{ print $13 "," $1 "," $9 "," $6 }' "$T/trials.csv")"
"$HPOCTL" trials --ledger "$LEDGER" --fields trial,state,host,batch_size cli \
    -o "$T/fields.txt"
is "trials --fields in text: a header of the columns" \
    "$(head -1 "$T/fields.txt" | tr -s ' ')" "TRIAL STATE HOST batch_size"
is "trials --fields in text: trial 0's row" \
    "$(sed -n 2p "$T/fields.txt" | tr -s ' ')" \
    "$(jq -r '.[0] | "\(.trial) \(.state) \(.host) \(.params.batch_size)"' "$T/trials.json")"
is "trials --fields -h: rows only" \
    "$("$HPOCTL" trials --ledger "$LEDGER" -h -t completed -O state cli | sort -u)" \
    completed
rc=0
"$HPOCTL" trials --ledger "$LEDGER" --fields trial,bogus cli 2>"$T/err.txt" ||
    rc=$?
is "trials --fields bogus: refused as bad usage" "$rc" 64
check "naming the column and the known ones" \
    grep -q "unknown column 'bogus' (expected trial, state" "$T/err.txt"
refused "trials --fields with JSON" "JSON form has every key" \
    "$HPOCTL" trials --ledger "$LEDGER" --format json --fields trial cli
refused "--state outside trials" "--state, -h, --parsable and --fields are options" \
    "$HPOCTL" status --ledger "$LEDGER" -h
refused "trials --state bogus" \
    "unknown trial state 'bogus' (expected pending, running" \
    "$HPOCTL" trials --ledger "$LEDGER" --state bogus cli
# Through the daemon, the same answer.
start_daemon
is "trials --state through the daemon" \
    "$("$HPOCTL" trials --parsable -t completed cli)" \
    "$("$HPOCTL" trials --ledger "$LEDGER" --parsable -t completed cli)"
is "trials --fields through the daemon" \
    "$("$HPOCTL" trials -O trial,lr,dir cli)" \
    "$("$HPOCTL" trials --ledger "$LEDGER" -O trial,lr,dir cli)"
refused "trials --state bogus through the daemon" \
    "unknown trial state 'bogus'" "$HPOCTL" trials --state bogus cli
refused "trials -O with JSON through the daemon" "JSON form has every key" \
    "$HPOCTL" trials --format json -O trial cli
# A column only the campaign's rows can refuse: the daemon marks the
# reply "usage", and hpoctl exits 64 as with --ledger.
rc=0
"$HPOCTL" trials --fields trial,bogus cli 2>"$T/err.txt" || rc=$?
is "trials --fields bogus through the daemon: bad usage" "$rc" 64
check "naming the column" grep -q "unknown column 'bogus'" "$T/err.txt"
# send LINE: one request line on the socket, print the reply line.
send() {
	perl -MIO::Socket::UNIX -e '
		my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "$!";
		print $s "$ARGV[1]\n"; my $r = <$s>; print $r;' "$SOCK" "$1"
}
is "the raw reply says usage" \
    "$(send '{"cmd":"trials","campaign":"cli","fields":"bogus"}' |
    jq -c '[.ok, .usage]')" '[false,true]'
is "a campaign that does not exist is not usage" \
    "$(send '{"cmd":"trials","campaign":"nosuch"}' | jq -c '[.ok, .usage]')" \
    '[false,null]'
check "the daemon stops" stop_daemon
done_testing
