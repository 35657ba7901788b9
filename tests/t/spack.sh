#!/bin/sh
# The Spack recipe (etc/spack/package.py), checked as far as it can be
# without Spack: its version is hpod's, its url names the tarball `make
# dist` writes, and that tarball, unpacked, builds and installs with the
# make arguments the recipe gives for ~slurm and +slurm (MakefilePackage
# runs `make BUILD_TARGETS` then `make INSTALL_TARGETS`).  Spack itself
# (fetching, concretising, its compiler wrappers) is not exercised.
# (It builds its own copy in the test directory: a minute or so.)
. "$(dirname "$0")/lib.subr"
RECIPE="$TOP/etc/spack/package.py"

# What the recipe says, read with Python's own parser (never run: it
# imports spack): NAME VALUE lines.
python3 - "$RECIPE" >"$T/recipe.txt" <<'PY'
import ast, sys
tree = ast.parse(open(sys.argv[1]).read(), sys.argv[1])
for node in ast.walk(tree):
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "version":
        print("version", node.args[0].value)
        for kw in node.keywords:
            print(kw.arg, kw.value.value)
    if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "url":
        call = node.value
        print("url", call.func.value.value)
    if isinstance(node, ast.FunctionDef) and node.name == "_args":
        for s in ast.walk(node):
            if isinstance(s, ast.Constant) and isinstance(s.value, str) \
                    and "=" in s.value:
                print("arg", s.value)
PY
sed 's/^/# /' "$T/recipe.txt"
get() { sed -n "s/^$1 //p" "$T/recipe.txt"; }

ver=$(sed -n 's/^#define HPOD_VERSION[^"]*"\(.*\)"/\1/p' "$TOP/daemon/version.h")
is "the recipe's version is daemon/version.h's" "$(get version)" "$ver"
is "... and debian/changelog's" \
    "$(sed -n '1s/^hpod (\(.*\)).*/\1/p' "$TOP/debian/changelog")" "$ver"
is "its url names make dist's tarball" "$(basename "$(get url)")" \
    "hpod-$ver.tar.gz"
is "it carries no sha256 (the tarball holds the recipe itself)" \
    "$(get sha256)" ""
for a in "PREFIX={0}" "BUILD=build" "SLURM=no" "CPPFLAGS=-I{0}" \
    "SLURM_LIBS=-L{0} -Wl,-rpath,{0} -lslurm"; do
	check "it passes make $a" grep -qxF "arg $a" "$T/recipe.txt"
done

if ! git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	ok "# SKIP the build from make dist: not a git checkout"
	done_testing
	exit 0
fi
rc=0
make -s -C "$TOP" DISTDIR="$T" dist >/dev/null 2>&1 || rc=$?
is "make dist" "$rc" 0
check "the tarball holds the recipe" sh -c \
    "tar tzf '$T/hpod-$ver.tar.gz' | grep -qx 'hpod-$ver/etc/spack/package.py'"

# spack_make VARIANT ARGS...: build and install the unpacked tarball as
# the recipe does, into $T/VARIANT/prefix.
spack_make() {
	v=$1
	shift
	mkdir -p "$T/$v"
	tar xzf "$T/hpod-$ver.tar.gz" -C "$T/$v"
	src="$T/$v/hpod-$ver"
	rc=0
	{ make -C "$src" -j2 "$@" all && make -C "$src" "$@" install; } \
	    >"$T/$v/make.txt" 2>&1 || rc=$?
	is "$v: make all, make install with the recipe's arguments" "$rc" 0
	[ "$rc" = 0 ] || tail -20 "$T/$v/make.txt" | sed 's/^/#   /'
}

P="$T/noslurm/prefix"
spack_make noslurm "PREFIX=$P" BUILD=build SLURM=no
check "~slurm: hpod installed in the prefix" test -x "$P/bin/hpod"
check "~slurm: hpo-trial in its libexec" test -x "$P/libexec/hpod/hpo-trial"
check "~slurm: the configuration in PREFIX/etc" test -f "$P/etc/hpod/hpod.conf"
case "$("$P/bin/hpod" -V)" in
"hpod $ver "*"built without libslurm"*) ok "~slurm: hpod -V: $ver, no Slurm" ;;
*) not_ok "~slurm: hpod -V"; "$P/bin/hpod" -V | sed 's/^/#   /' ;;
esac

# +slurm with the system's libslurm as the dependency's prefix (/usr).
P="$T/slurm/prefix"
spack_make slurm "PREFIX=$P" BUILD=build "CPPFLAGS=-I/usr/include" \
    "SLURM_LIBS=-L/usr/lib -Wl,-rpath,/usr/lib -lslurm"
case "$("$P/bin/hpod" -V)" in
"hpod $ver "*slurm*) ok "+slurm: hpod -V: $ver with the Slurm backend" ;;
*) not_ok "+slurm: hpod -V"; "$P/bin/hpod" -V | sed 's/^/#   /' ;;
esac
check "+slurm: hpod links libslurm" sh -c "ldd '$P/bin/hpod' | grep -q libslurm"
check "+slurm: its rpath names the dependency's lib" sh -c \
    "readelf -d '$P/bin/hpod' | grep -q 'R.*PATH.*/usr/lib'"
done_testing
