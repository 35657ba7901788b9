#!/bin/sh
# A second, unprivileged user on the same machine: what hpod creates is
# its own user's alone.  The ledger and run directories sit in a directory
# others may enter (as `ledger =` and `run_dir =` in a shared place would);
# the other user is refused on the control socket and can read neither the
# ledger nor any attempt's files.  Needs root (useradd, runuser).
. "$(dirname "$0")/lib.subr"

if [ "$(id -u)" != 0 ] || ! command -v useradd >/dev/null; then
	ok "# skip needs root and useradd"
	done_testing
	exit
fi
U=hpodt$$
useradd -M -r -s /bin/sh "$U"
trap 'rc=$?; userdel "$U" 2>/dev/null || true; cleanup "$rc"' EXIT

# Others may enter $T and $T/state; what hpod creates there is private.
chmod 755 "$T"
mkdir -m 755 "$T/state"
as_other() {
	runuser -u "$U" -- "$@"
}

# denied DESCRIPTION COMMAND...: the other user runs it and is refused.
denied() {
	desc=$1
	shift
	if runuser -u "$U" -- "$@" >"$T/other.out" 2>&1; then
		not_ok "$desc"
	elif grep -qi "permission denied\|unable to open" "$T/other.out"; then
		ok "$desc"
		return
	else
		not_ok "$desc"
	fi
	sed 's/^/#   /' "$T/other.out"
}

write_campaign priv 1 1 1
start_daemon
check "submitted" "$HPOCTL" submit "$T/priv.json"
check "campaign ends" wait_campaign priv 120
dir=$(sql "select dir from attempts")

is "ledger is 0600" "$(stat -c %a "$LEDGER")" 600
is "run_dir is 0700" "$(stat -c %a "$RUNS")" 700
is "attempt directory is 0700" "$(stat -c %a "$dir")" 700
is "attempt output is 0600" "$(stat -c %a "$dir/stdout")" 600
is "result.json is 0600" "$(stat -c %a "$dir/result.json")" 600
is "hpo-trial.json is 0600" "$(stat -c %a "$dir/hpo-trial.json")" 600
is "the ledger's lock file is 0600" "$(stat -c %a "$LEDGER.lock")" 600

check "the other user can enter the shared directory" as_other ls "$T/state"
denied "but is refused on the control socket" \
    env HPOD_SOCKET="$SOCK" "$HPOCTL" ping
denied "cannot read the ledger" cat "$LEDGER"
denied "cannot open it with hpoctl" "$HPOCTL" status --ledger "$LEDGER"
denied "cannot list the run directories" ls "$RUNS"
denied "cannot read an attempt's output" cat "$dir/stdout"
denied "cannot read its result.json" cat "$dir/result.json"
check "the owner still reads everything" "$HPOCTL" report priv
stop_daemon
done_testing
