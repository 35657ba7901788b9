#!/bin/sh
# The HTML report of a large campaign stays a page a browser opens: above
# 2,000 trials it draws the 500 best trials one by one (table rows,
# points, curves) and the others as densities and per-epoch bands, and
# says so.  A 5,000-trial replay campaign: the page is bounded in size,
# its table holds the 500 best trials (by value, as `hpoctl trials` has
# them), its curves are theirs, and every number it marks equals the JSON
# report's, as on a small page (html.sh).
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"
. "$(dirname "$0")/html.subr"

N=5000
replay_big "$N" 0.215
check "a $N-trial replay campaign runs in the foreground" \
    "$HPOCTL" -f "$CONF" run -q "$T/big.json"
"$HPOCTL" report --ledger "$LEDGER" --format html -o "$T/page.html" big
"$HPOCTL" report --ledger "$LEDGER" --format json big >"$T/report.json"
"$HPOCTL" report --ledger "$LEDGER" --table --format json big >"$T/guide.json"
"$HPOCTL" trials --ledger "$LEDGER" --format json big >"$T/trials.json"

size=$(wc -c <"$T/page.html")
echo "# the page of $N trials: $size bytes"
check "the page is under 2 MB" test "$size" -lt 2000000
check "it says how many trials it draws, and where the others are" \
    grep -q "^<p id=\"shown\">This campaign has $N trials: the page draws the 500 best one by one" \
    "$T/page.html"
check "the table says it shows 500 of them" grep -q \
    "^<p id=\"trials-shown\">Showing the 500 best trials of $N; all are in <code>hpoctl trials</code>" \
    "$T/page.html"
is "500 rows in the table" "$(grep -c '^<div class="r"' "$T/page.html")" 500
is "500 points in the history" \
    "$(grep -c '^<circle class="trial"' "$T/page.html")" 500
check "densities of all trials under the points" \
    grep -q '^<g class="density"' "$T/page.html"
is "bands of every attempt under the curves" \
    "$(grep -c '^<path class="band"' "$T/page.html")" 2

# The rows are the 500 best trials: their numbers, as `hpoctl trials` ranks
# them by value (then number), and the curves are theirs.
html_marked "$T/page.html" >"$T/marked.txt"
sed -n 's/^trial_list\.[0-9]*\.trial \([0-9]*\) .*/\1/p' "$T/marked.txt" |
    sort -n >"$T/rows"
jq -r '[.[] | select(.best != null)] | sort_by(.best, .trial) | .[:500][] |
    .trial' "$T/trials.json" | sort -n >"$T/best"
is "the rows are the 500 best trials" "$(cmp "$T/rows" "$T/best" &&
    echo same)" same
sed -n 's/^<polyline class="curve" data-trial="\([0-9]*\)".*/\1/p' \
    "$T/page.html" | sort -n | uniq >"$T/curves"
is "the curves drawn are theirs" "$(cmp "$T/curves" "$T/best" &&
    echo same)" same

# Every marked number equals its JSON value: one jq a JSON file.
lookup() {
	jq -r --rawfile keys "$2" '. as $d | $keys | split("\n")[] |
	    select(length > 0) | . as $k | [$k, ($d | getpath($k |
	    split(".") | map(tonumber? // .)) | tostring)] | @tsv' "$1"
}
awk '{ print $1 }' "$T/marked.txt" | sed -n 's/^trial_list\.//p' >"$T/k.trials"
awk '{ print $1 }' "$T/marked.txt" | sed -n 's/^table\.//p' >"$T/k.table"
awk '{ print $1 }' "$T/marked.txt" | grep -v '^trial_list\.\|^table\.' \
    >"$T/k.report"
{ lookup "$T/trials.json" "$T/k.trials" | sed 's/^/trial_list./'
  lookup "$T/guide.json" "$T/k.table" | sed 's/^/table./'
  lookup "$T/report.json" "$T/k.report"; } >"$T/json.txt"
check "the page marks the numbers of its 500 rows" \
    test "$(grep -c '^per_trial\.[0-9]*\.gpu_hours ' "$T/marked.txt")" -eq 500
bad=$(awk -F'\t' 'NR == FNR { json[$1] = $2; next }
    { split($0, f, " "); a = f[2]; t = f[3]; b = json[f[1]]
      if (!(f[1] in json) || b == "null") { print "#   " f[1] ": no JSON value"; n++; next }
      d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
      if (d > 1e-12 * (m > 1 ? m : 1)) { print "#   " f[1] ": page " a ", json " b; n++; next }
      if (t == "") next
      d = a - t; if (d < 0) d = -d; m = a < 0 ? -a : a
      if (!(d <= 5e-4 * m + 1e-12)) { print "#   " f[1] ": shown " t ", value " a; n++ } }
    END { print n + 0 }' "$T/json.txt" "$T/marked.txt")
echo "$bad" | sed '$d'
is "every number on the page equals its JSON value" "$(echo "$bad" | tail -1)" 0

# A browser opens it: in a 1280 px window nothing overflows.
if command -v chromium >/dev/null 2>&1; then
	html_measure page "$T/page.html"
	is "measured in a 1280 px window" \
	    "$(sed -n 's/^window //p' "$T/page.measure")" 1280
	is "nothing overflows the window" \
	    "$(sed -n 's/^overflow //p' "$T/page.measure")" 0
else
	ok "# SKIP chromium is not installed"
fi
done_testing
