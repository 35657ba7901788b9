#!/bin/sh
# hpoctl report --format html: the page of a real campaign renders in a
# headless browser (its plots and the guideline table are in the DOM), and
# every number on it equals the one of the JSON report or table it names.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/html.subr"

if ! command -v chromium >/dev/null 2>&1; then
	echo "1..0 # SKIP chromium is not installed (make deps installs it)"
	exit 0
fi

write_campaign ht 6 2 3
"$HPOCTL" -f "$CONF" run -q "$T/ht.json" >/dev/null
rc=0
"$HPOCTL" report --ledger "$LEDGER" --format html -o "$T/page.html" ht ||
    rc=$?
is "report --format html -o exits 0" "$rc" 0
"$HPOCTL" report --ledger "$LEDGER" --format json ht >"$T/report.json"
"$HPOCTL" report --ledger "$LEDGER" --table --format json ht >"$T/table.json"
"$HPOCTL" trials --ledger "$LEDGER" --format json ht >"$T/trials.json"
"$HPOCTL" report --ledger "$LEDGER" --format html ht >"$T/stdout.html"
is "without -o it goes to the standard output" \
    "$(sed '/^<p class="muted">Written by hpoctl/d' "$T/stdout.html" | cksum)" \
    "$(sed '/^<p class="muted">Written by hpoctl/d' "$T/page.html" | cksum)"
check "the page is self-contained: no script, no external resource" \
    sh -c "! grep -Eqi '<script|<link|src=|href=|url\\(' '$T/page.html'"

# Render it.
chrome --dump-dom "file://$T/page.html" >"$T/dom.html" || true
check "chromium renders the page" grep -q '</html>' "$T/dom.html"
check "the plots are in the DOM" test "$(grep -c '<svg' "$T/dom.html")" -ge 4
check "plot (a): a line per batch size" \
    test "$(grep -c '<polyline class="series"' "$T/dom.html")" -eq 2
check "plot (c): a bar per outcome" \
    test "$(grep -c '<rect class="bar"' "$T/dom.html")" -eq \
    "$(jq '.cost.by_outcome | length' "$T/report.json")"
check "the guideline table" grep -q '<table id="guideline">' "$T/dom.html"
check "with the intervals" grep -q '<th>95% Wilson</th>' "$T/dom.html"
is "one table row per batch size" \
    "$(sed -n '/<table id="guideline">/,/<\/table>/p' "$T/dom.html" |
    grep -o '<tr>' | wc -l)" $(( $(jq '.rows | length' "$T/table.json") + 1 ))

# Every marked number: its key's value in the JSON, and the text shown.
html_marked "$T/dom.html" >"$T/marked.txt"
check "the page marks its numbers" test "$(wc -l <"$T/marked.txt")" -ge 40
check "the headline numbers are marked" sh -c "grep -q '^time_to_solution_s ' \
    '$T/marked.txt' && grep -q '^cost.cpu_hours ' '$T/marked.txt' &&
    grep -q '^cost.by_outcome.completed.cpu_hours ' '$T/marked.txt' &&
    grep -q '^table.rows.0.batch_size ' '$T/marked.txt'"
html_compare "$T/marked.txt" "$T/report.json" "$T/table.json" \
    "$T/trials.json" >"$T/compare.txt"
sed '$d' "$T/compare.txt"
bad=$(tail -1 "$T/compare.txt")
is "every number on the page equals its JSON value" "$bad" 0
is "no numeric cell holds an unmarked number" "$(html_unmarked "$T/dom.html")" ""

# The trials' epochs and cost are the report's too ("per_trial"), and sum
# to the campaign's cost; the importance says why it is not drawn.
is "the report has a cost per trial" "$(jq '.per_trial | length' \
    "$T/report.json")" "$(jq length "$T/trials.json")"
is "the trials' costs sum to the campaign's" "$(jq '([.per_trial[].cpu_hours]
    | add) - .cost.cpu_hours | fabs < 1e-9' "$T/report.json")" true
is "a marked epochs and cost per trial" \
    "$(grep -c '^per_trial\.[0-9]*\.\(epochs\|cpu_hours\) ' "$T/marked.txt")" \
    "$(jq '[.per_trial[] | (.epochs, .cpu_hours) | select(. != null)] | length' \
    "$T/report.json")"
is "the report's importance: none from 6 trials" \
    "$(jq -c '.importance | [.method, .trials, .params]' "$T/report.json")" \
    '["eta_squared",6,null]'

# The headline's lower half is tables, not flattened JSON.
for id in cost-detail winner mlperf checklist; do
	check "the table $id under the headline" \
	    grep -q "<table[^>]* id=\"$id\">" "$T/dom.html"
done
is "a checklist row per item" "$(sed -n '/<table id="checklist">/,/<\/table>/p' \
    "$T/dom.html" | grep -c '^<tr><td>')" "$(jq '.checklist | length' "$T/report.json")"
check "no dotted JSON labels" sh -c "! grep -q 'Cost in detail\|by outcome&nbsp;' '$T/dom.html'"

# The trial-level plots: history with the target, every attempt's curve.
check "the optimization history" grep -q '<figure id="plot-history">' \
    "$T/dom.html"
is "a point per trial with a value" \
    "$(grep -c '<circle class="trial"' "$T/dom.html")" \
    "$(sql "select count(*) from trials where has_best")"
check "the best-so-far step line" grep -q '<polyline class="best-so-far"' \
    "$T/dom.html"
is "the target line in the history and the curves" \
    "$(grep -c '<line class="target"' "$T/dom.html")" 2
is "a learning curve per attempt with points" \
    "$(grep -c '<polyline class="curve"' "$T/dom.html")" \
    "$(sql "select count(distinct attempt_id) from metrics where key = 'eval_error'")"

# The parameters: a slice each, a line per trial with a value through
# the parallel coordinates, and importance only from 8 completed trials.
is "a slice per parameter" "$(grep -c '<figure class="plot-slice">' "$T/dom.html")" 2
is "a point per trial with a value in each slice" \
    "$(grep -c '<circle class="slice"' "$T/dom.html")" \
    "$(( 2 * $(sql "select count(*) from trials where has_best") ))"
is "parallel coordinates: a line per trial with a value" \
    "$(grep -c '<polyline class="parallel"' "$T/dom.html")" \
    "$(sql "select count(*) from trials where has_best")"
check "importance is not drawn from 6 trials, and the page says why" \
    grep -q 'Parameter importance needs at least 8 completed trials' \
    "$T/dom.html"

# The cost over wall time: a line per outcome and the total, ending at
# the report's cost, and the time to solution marked (checked above).
is "cost over time: five outcomes and the total" \
    "$(grep -c '<polyline class="cost-' "$T/dom.html")" 6
check "... with the time to solution marked" \
    grep -q '<line class="tts"' "$T/dom.html"
last=$(grep -o '<polyline class="cost-total"[^>]*points="[^"]*"' "$T/dom.html" |
    sed 's/.*points="//; s/"$//' | tr ' ' '\n' | tail -1 | cut -d, -f2)
top=$(grep -o '<polyline class="cost-total"[^>]*points="[^"]*"' "$T/dom.html" |
    sed 's/.*points="//; s/"$//' | tr ' ' '\n' | cut -d, -f2 | sort -n | head -1)
check "... the total rises to its end" test -n "$last" -a "$last" = "$top"

# The table of trials: a row per trial, marked numbers from hpoctl trials,
# and ranks that order the rows by each column (here: the value).
rows=$(grep -c '^<div class="r" style="--o0:' "$T/dom.html")
is "a table row per trial" "$rows" "$(jq length "$T/trials.json")"
check "its numbers are marked with hpoctl trials' paths" \
    grep -q '^trial_list\.0\.best ' "$T/marked.txt"
k=$(grep -o '<div class="h">.*</div>' "$T/dom.html" | grep -o '<label for="ts-[0-9]*">[^<]*<' |
    sed -n 's/^<label for="ts-\([0-9]*\)">value<$/\1/p') || true
grep '^<div class="r" style=' "$T/dom.html" |
    sed -n "s/.*--o$k:\([0-9]*\);.*data-key=\"trial_list\.[0-9]*\.best\" data-value=\"\([^\"]*\)\".*/\1 \2/p" |
    sort -n >"$T/ranks.txt" || true
is "every value has a rank" "$(wc -l <"$T/ranks.txt")" \
    "$(jq '[.[] | select(.best != null)] | length' "$T/trials.json")"
check "ranked by value, the values ascend" awk '
    NR > 1 && $2 + 0 < prev + 0 { exit 1 } { prev = $2 }' "$T/ranks.txt"

# Nothing wider than the page's column (72em, 1152 px at 16 px, less its
# padding): every figure fits, and the wide tables scroll in their box.
check "every plot fits a 1280 px window" awk '
    { while (match($0, /<svg [^>]*width="[0-9]+"/)) {
	w = substr($0, RSTART, RLENGTH); sub(/.*width="/, "", w)
	if (w + 0 > 1120) exit 1; $0 = substr($0, RSTART + RLENGTH) } }' \
    "$T/dom.html"
check "the trial table scrolls in its own box" \
    grep -q '<div class="wide"><div class="tt"' "$T/dom.html"

# A screenshot at 1280 px, kept as an artefact of the test run.
chrome --screenshot="$T/shot.png" --window-size=1280,4000 \
    "file://$T/page.html" >/dev/null || true
mkdir -p "$BUILD/artefacts" && cp "$T/shot.png" "$BUILD/artefacts/report.png"
check "a screenshot is taken" test -s "$T/shot.png"
is "and it is a PNG" "$(head -c 8 "$T/shot.png" | od -An -c | tr -d ' ')" \
    '211PNG\r\n032\n'

# The daemon serves the same page.
start_daemon
"$HPOCTL" report --format html -o "$T/daemon.html" ht
is "the daemon's page is the same" \
    "$(sed '/^<p class="muted">Written by hpoctl/d' "$T/daemon.html" | cksum)" \
    "$(sed '/^<p class="muted">Written by hpoctl/d' "$T/page.html" | cksum)"
check "the daemon stops cleanly" stop_daemon

# Text from the ledger is escaped.
sqlite3 "$LEDGER" "update campaigns set workload = '<i>w&x</i>'"
"$HPOCTL" report --ledger "$LEDGER" --format html ht >"$T/esc.html"
check "text from the ledger is escaped" grep -q '&lt;i&gt;w&amp;x&lt;/i&gt;' \
    "$T/esc.html"
check "and never raw" sh -c "! grep -q '<i>w' '$T/esc.html'"

rc=0
"$HPOCTL" report --ledger "$LEDGER" --format html nosuch 2>"$T/err.txt" ||
    rc=$?
is "an unknown campaign: exit 1" "$rc" 1
rc=0
"$HPOCTL" status --ledger "$LEDGER" --format html 2>"$T/err.txt" || rc=$?
is "html is for the report only: bad usage" "$rc" 64
done_testing
