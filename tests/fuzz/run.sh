#!/bin/sh
# run.sh DIR SECONDS TARGET...: run each libFuzzer target built in DIR for
# SECONDS from its seed corpus (tests/fuzz/corpus/TARGET, read only) and
# its work corpus (DIR/corpus/TARGET, where new inputs go); print the
# executions and the new inputs of each.  FUZZ_SEED, when set, is
# libFuzzer's -seed (make check sets it, so a check run explores the same
# inputs every time; make fuzz leaves it unset: a new seed each run).  Exit 1 if one of them found a
# crash, a leak or a timeout (its input is left as DIR/crash-* etc.).
set -u
dir=$1 secs=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
rc=0
for t in "$@"; do
	mkdir -p "$dir/corpus/$t"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	"$dir/$t" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
	    -max_total_time="$secs" -max_len=65536 -timeout=20 \
	    -print_final_stats=1 -artifact_prefix="$dir/$t-" \
	    "$dir/corpus/$t" "$top/tests/fuzz/corpus/$t" \
	    >"$dir/$t.log" 2>&1
	st=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/$t.log")
	new=$(sed -n 's/^stat::new_units_added: *//p' "$dir/$t.log")
	if [ "$st" -eq 0 ]; then
		echo "  FUZZ    $t: ${execs:-?} executions in $secs s, ${new:-?} new inputs, no crash"
	else
		echo "  FUZZ    $t: FAILED (exit $st) after ${execs:-?} executions; see $dir/$t.log" >&2
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$dir/$t.log" | head -5 >&2
		rc=1
	fi
done
exit $rc
