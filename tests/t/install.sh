#!/bin/sh
# make install as centres and packagers run it: PREFIX=/usr puts the
# configuration in /etc and the unit's ExecStart at the installed hpod;
# CPPFLAGS and LDFLAGS are honoured; SLURM=no builds without libslurm and
# says so; make dist names its tarball with hpod's version.  (It builds
# its own copy in the test directory: a minute or so.)
. "$(dirname "$0")/lib.subr"
R="$T/root"

# Compile and link lines carry the packager's flags.
make -s -n -C "$TOP" BUILD="$T/n" CPPFLAGS=-DHPOD_CPPFLAGS_SEEN \
    LDFLAGS=-Wl,-z,now all >"$T/n.txt" 2>&1 || true
check "CPPFLAGS reach the compiler" grep -q 'HPOD_CPPFLAGS_SEEN' "$T/n.txt"
check "LDFLAGS reach the linker" grep -q -- '-o .*/hpod .*-Wl,-z,now\|-Wl,-z,now.*-o .*/hpod' "$T/n.txt"

rc=0
make -s -j2 -C "$TOP" BUILD="$T/build" SLURM=no PREFIX=/usr DESTDIR="$R" \
    install >"$T/make.txt" 2>&1 || rc=$?
is "make install PREFIX=/usr SLURM=no DESTDIR=..." "$rc" 0
[ "$rc" = 0 ] || sed 's/^/#   /' "$T/make.txt" | tail -20
check "the configuration is in /etc" test -f "$R/etc/hpod/hpod.conf"
check "no /usr/etc" test ! -e "$R/usr/etc"
check "hpod in /usr/bin" test -x "$R/usr/bin/hpod"
check "hpo-trial in /usr/libexec/hpod" test -x "$R/usr/libexec/hpod/hpo-trial"
check "hpo-trial(8) is installed" test -f "$R/usr/share/man/man8/hpo-trial.8"
U="$R/usr/lib/systemd/user/hpod.service"
is "the unit's ExecStart is the installed hpod, with its config" \
    "$(sed -n 's/^ExecStart=//p' "$U")" "/usr/bin/hpod -d -f %E/hpod/hpod.conf"
check "the unit seeds the config from /etc/hpod" \
    grep -q '^ExecStartPre=.*/etc/hpod/hpod.conf' "$U"
check "hpod looks for hpo-trial in /usr/libexec/hpod" \
    grep -q '/usr/libexec/hpod' "$R/usr/bin/hpod"

# SLURM=no: no libslurm, and a Slurm campaign is refused, saying why.
v=$("$R/usr/bin/hpod" -V)
case "$v" in
*"built without libslurm"*) ok "hpod -V says it has no Slurm: $v" ;;
*) not_ok "hpod -V says it has no Slurm"; echo "#   got '$v'" ;;
esac
if ldd "$R/usr/bin/hpod" | grep -q libslurm; then
	not_ok "hpod SLURM=no does not link libslurm"
else
	ok "hpod SLURM=no does not link libslurm"
fi
write_campaign sl 1 1 1
sed -i 's/"budget"/"backend": "slurm", "budget"/' "$T/sl.json"
rc=0
"$R/usr/bin/hpoctl" run --ledger "$T/sl.db" --run-dir "$T/slruns" \
    "$T/sl.json" 2>"$T/sl.err" >/dev/null || rc=$?
is "a Slurm campaign fails" "$rc" 1
check "saying this build has no Slurm backend" \
    grep -q 'slurm backend is not in this build.*SLURM=no' "$T/sl.err"
# So does hpod's submit, and its log says so once, and why: not first
# that the job was not checked with the controller.
HPOD="$T/build/hpod" HPOCTL="$T/build/hpoctl"
check "hpod SLURM=no starts" start_daemon
rc=0
"$HPOCTL" submit "$T/sl.json" 2>"$T/sub.err" >/dev/null || rc=$?
is "hpod SLURM=no: a submitted Slurm campaign is refused" "$rc" 1
check "saying this build has no Slurm backend" \
    grep -q 'slurm backend is not in this build.*SLURM=no' "$T/sub.err"
grep "'sl'" "$T/hpod.log" | sed 's/^/# hpod: /'
is "hpod's log says it once" "$(grep -c "'sl'" "$T/hpod.log")" 1
check "that it was refused, and why" grep -q \
    "submitted campaign 'sl' refused: the slurm backend is not in this build" \
    "$T/hpod.log"
check "hpod stops cleanly" stop_daemon

# make dist: the tarball has the version hpod -V gives (from a git
# checkout only: a tarball's tree has no history to archive).
ver=$(echo "$v" | awk '{ print $2 }')
if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	rc=0
	make -s -C "$TOP" DISTDIR="$T" dist >/dev/null 2>&1 || rc=$?
	is "make dist" "$rc" 0
	check "hpod-$ver.tar.gz holds hpod-$ver/Makefile" \
	    sh -c "tar tzf '$T/hpod-$ver.tar.gz' | grep -qx 'hpod-$ver/Makefile'"
else
	ok "# SKIP make dist: not a git checkout"
fi
done_testing
