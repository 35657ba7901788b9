# hpod: hyperparameter-search orchestration daemon for HPC deep learning.
#
#   make              build hpod, hpoctl, hpo-trial and the proxy trainers
#   make demo         install what is missing, build, run a demo campaign
#   make check        install what is missing, build, run every test
#   make install      PREFIX=/usr/local DESTDIR= (PREFIX=/usr: config in /etc)
#   make SANITIZE=address,undefined   build with sanitizers
#   make SLURM=no     build without libslurm: local and replay backends only
#   make dist         hpod-VERSION.tar.gz of the committed tree
#   make deb          the Debian package (dpkg-buildpackage -us -uc)

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/hpod
DATADIR	?= $(PREFIX)/share/hpod
MANDIR	?= $(PREFIX)/share/man
# The FHS puts /usr's configuration in /etc, not /usr/etc.
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
SYSTEMDUSERDIR ?= $(PREFIX)/lib/systemd/user
VERSION	:= $(shell sed -n 's/^\#define HPOD_VERSION[^"]*"\(.*\)"/\1/p' \
	daemon/version.h)

BUILD	?= build
CC	?= cc
CFLAGS	?= -O2 -g
SANITIZE ?=

# pkg-config runs when this file is parsed: on a fresh machine that is
# before `make deps` installed it, so the targets that install (demo, check,
# bench*) build in a second make, which parses this file again afterwards.
PKG_CONFIG ?= pkg-config
PKGS	:= libuv sqlite3 libcjson
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
ifeq ($(PKG_LIBS),)
PKG_MISSING := 1
endif
# libslurm 22.05 ships no pkg-config file.  SLURM=no builds without it.
SLURM	?= yes
ifeq ($(SLURM),no)
SLURM_LIBS :=
else
SLURM_LIBS ?= -lslurm
endif

XCFLAGS	:= -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter \
	-DHPOD_LIBEXECDIR='"$(LIBEXECDIR)"' -DHPOD_DATADIR='"$(DATADIR)"' \
	-DHPOD_SYSCONFDIR='"$(SYSCONFDIR)"' $(PKG_CFLAGS)
ifeq ($(SLURM),no)
XCFLAGS	+= -DHPOD_NO_SLURM
endif
ifneq ($(SANITIZE),)
SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
XLDFLAGS += -fsanitize=$(SANITIZE)
endif
LIBS	:= $(PKG_LIBS) -lm

# The rooms of the code (see README, "Source tree") and what each may include
# besides itself: a file is compiled with -iquote for its own folder and
# these only, so an include across a boundary not listed here fails the
# build.  search/, ledger/ and workloads/ see nothing else; the backends
# see only the scheduler interface.  Tests, benchmarks and fuzz targets
# see every room.
ROOMS	:= daemon daemon/engine daemon/plan daemon/spec daemon/report \
	daemon/html daemon/guide daemon/hpoctl scheduler scheduler/slurm \
	scheduler/local scheduler/replay scheduler/pilot search search/stop \
	ledger ledger/optuna workloads workloads/proxies workloads/proxies/common \
	workloads/proxies/minicam
SEES_daemon		:= daemon/engine daemon/report daemon/spec ledger \
			   scheduler search search/stop workloads
SEES_daemon/engine	:= daemon daemon/plan daemon/spec ledger scheduler \
			   search search/stop workloads
SEES_daemon/plan	:= daemon daemon/spec ledger ledger/optuna scheduler \
			   search search/stop workloads
SEES_daemon/spec	:= scheduler search search/stop workloads
SEES_daemon/report	:= daemon daemon/engine daemon/guide daemon/html \
			   daemon/spec ledger scheduler search search/stop \
			   workloads
# The report as an HTML page with SVG charts, from the report's structures.
SEES_daemon/html	:= daemon/guide daemon/report daemon/spec ledger \
			   scheduler search search/stop workloads
SEES_daemon/guide	:= daemon/report daemon/spec ledger scheduler search \
			   search/stop workloads
# hpoctl import reads the priors with the engine's loader (prior.h).
SEES_daemon/hpoctl	:= daemon daemon/engine daemon/guide daemon/plan \
			   daemon/report daemon/spec ledger ledger/optuna \
			   scheduler search search/stop workloads
# minicam's data generator uses the trainers' random numbers.
SEES_workloads/proxies/minicam := workloads/proxies/common
# Optuna's RDB storage, written and read with SQLite (xmalloc.h).
SEES_ledger/optuna	:= ledger
# The early stoppers (ASHA, Hyperband, median, target) and their interface.
SEES_search/stop	:= search
SEES_scheduler/slurm	:= scheduler
SEES_scheduler/local	:= scheduler
SEES_scheduler/replay	:= scheduler
SEES_scheduler/pilot	:= scheduler
# hpo-trial's main shares the programs' --help/--version (daemon/cli.h).
$(BUILD)/scheduler/trial.o: SEES_EXTRA := daemon
room_iquote = $(addprefix -iquote ,$(if $(filter $1,$(ROOMS)),\
	$1 $(SEES_$1) $(SEES_EXTRA),. $(ROOMS)))

# The -iquote flags of a room (tests/t/rooms.sh): make -s room-flags ROOM=search
room-flags:
	@echo '$(call room_iquote,$(ROOM))'
room-list:
	@echo '$(ROOMS)'

# Every .c file of a module is part of libhpod.a except the programs' mains
# and hpod's own files around its top-level state (daemon/hpod.h).
HPODSRC	:= daemon/main.c $(wildcard daemon/hpod_*.c)
MAINS	:= $(HPODSRC) daemon/hpoctl/hpoctl.c scheduler/trial.c
MODSRC	:= $(filter-out $(MAINS),$(wildcard daemon/*.c daemon/*/*.c \
	scheduler/*.c scheduler/*/*.c search/*.c search/*/*.c workloads/*.c \
	ledger/*.c ledger/*/*.c))
ifeq ($(SLURM),no)
MODSRC	:= $(filter-out scheduler/slurm/%.c,$(MODSRC))
else
MODSRC	:= $(filter-out scheduler/noslurm.c,$(MODSRC))
endif
MODOBJ	:= $(MODSRC:%.c=$(BUILD)/%.o)
PROXIES	:= $(patsubst workloads/proxies/%.c,%,$(wildcard workloads/proxies/*.c))
PROGS	:= $(BUILD)/hpod $(BUILD)/hpoctl $(BUILD)/hpo-trial \
	$(PROXIES:%=$(BUILD)/%)
# A sanitizer build's trainers with the sanitizers (see below).
SANPROXIES := $(if $(SANITIZE),$(PROXIES:%=$(BUILD)/sanitized/%))
UNITSRC	:= $(wildcard tests/unit/test_*.c)
ifeq ($(SLURM),no)
UNITSRC	:= $(filter-out tests/unit/test_slurm%.c,$(UNITSRC))
endif
UNITS	:= $(UNITSRC:tests/unit/%.c=$(BUILD)/tests/%)
# What unit tests and benches share (tests/unit/ files not named test_*).
UNITHELP := $(patsubst %.c,$(BUILD)/%.o,$(filter-out tests/unit/test_%.c,\
	$(wildcard tests/unit/*.c)))
# Timing programs of make bench.
BENCHES	:= $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(wildcard tests/bench/*.c))
MANS	:= $(wildcard man/*.[1-8])

all: pkgcheck $(PROGS) $(SANPROXIES)

# Say what is missing instead of hundreds of undefined references.
pkgcheck:
	@if [ -n "$(PKG_MISSING)" ]; then \
	  echo "make: '$(PKG_CONFIG) --libs $(PKGS)' found nothing:" \
	    "run 'make deps' (as root) first" >&2; exit 1; fi

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(XCFLAGS) $(SANFLAGS) $(call room_iquote,$(patsubst %/,%,$(dir $<))) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# The installed paths are compiled in: `make install PREFIX=/usr` after a
# plain `make` recompiles what uses them.
PATHS	:= $(LIBEXECDIR) $(DATADIR) $(SYSCONFDIR)
$(BUILD)/paths.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(PATHS)' | cmp -s - $@ || echo '$(PATHS)' >$@
$(BUILD)/daemon/paths.o $(BUILD)/daemon/engine/run.o: $(BUILD)/paths.stamp
FORCE:

$(BUILD)/libhpod.a: $(MODOBJ)
	@rm -f $@
	@$(AR) rcs $@ $^

$(BUILD)/hpod: $(HPODSRC:%.c=$(BUILD)/%.o) $(BUILD)/libhpod.a
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(SLURM_LIBS)
$(BUILD)/hpoctl: $(BUILD)/daemon/hpoctl/hpoctl.o $(BUILD)/libhpod.a
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(SLURM_LIBS)
$(BUILD)/hpo-trial: $(BUILD)/scheduler/trial.o $(BUILD)/libhpod.a
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
PROXYCOMMON := $(patsubst %.c,$(BUILD)/%.o,\
	$(wildcard workloads/proxies/common/*.c))
$(BUILD)/%: $(BUILD)/workloads/proxies/%.o $(PROXYCOMMON)
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ -lm
# A trainer's own files beyond its main (workloads/proxies/NAME/*.c).
$(foreach p,$(PROXIES),$(eval $(BUILD)/$(p): $(patsubst %.c,$(BUILD)/%.o,\
	$(wildcard workloads/proxies/$(p)/*.c))))
# The proxy trainers are the workload the tests give hpod, not hpod: a
# sanitizer build makes them without the sanitizers (with them a trainer
# runs 15 times slower, and the suite trains hundreds) and, with them, as
# $(BUILD)/sanitized/NAME, the trainers tests/t/proxies.sh tests.
# proxies.stamp rebuilds the trainers of a build made before that.
$(BUILD)/workloads/proxies/%.o: SANFLAGS :=
$(PROXIES:%=$(BUILD)/%): XLDFLAGS :=
$(patsubst %.c,$(BUILD)/%.o,$(wildcard workloads/proxies/*.c \
    workloads/proxies/*/*.c)): $(BUILD)/proxies.stamp
$(BUILD)/proxies.stamp:
	@mkdir -p $(@D)
	@echo 'trainers built without sanitizers' >$@
ifneq ($(SANITIZE),)
$(BUILD)/sanitized/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $< (sanitized)"
	@$(CC) $(XCFLAGS) $(SANFLAGS) $(call room_iquote,$(patsubst %/,%,$(dir $<))) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/sanitized/%: $(BUILD)/sanitized/workloads/proxies/%.o \
    $(PROXYCOMMON:$(BUILD)/%=$(BUILD)/sanitized/%)
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ -lm
$(foreach p,$(PROXIES),$(eval $(BUILD)/sanitized/$(p): $(patsubst %.c,\
	$(BUILD)/sanitized/%.o,$(wildcard workloads/proxies/$(p)/*.c))))
endif
$(BUILD)/libunithelp.a: $(UNITHELP)
	@rm -f $@
	@$(AR) rcs $@ $^
$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/libunithelp.a $(BUILD)/libhpod.a
	@mkdir -p $(@D)
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(SLURM_LIBS)
# test_nomem fails one allocation after another: ld's --wrap sends them
# through the test's own allocators.
NOMEM_WRAP := malloc calloc realloc reallocarray strdup asprintf
$(BUILD)/tests/test_nomem: XLDFLAGS += $(NOMEM_WRAP:%=-Wl,--wrap=%)
$(BUILD)/bench/%: $(BUILD)/tests/bench/%.o $(BUILD)/libunithelp.a $(BUILD)/libhpod.a
	@mkdir -p $(@D)
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(SLURM_LIBS)

# Debian packages: DEB_BUILD builds and runs the demo; DEB_CHECK adds what
# the tests need (slurm-wlm and munge only start the throwaway cluster of
# tests/slurm/, chromium renders the HTML report's test, python3-optuna
# and python3-pandas read the Optuna export and the ledger, libclang-rt-14-dev
# is clang's libFuzzer, only recommended by clang; iproute2's ss sees
# hpod's connection to slurmctld in tests/slurm/submit_drop.sh).
DEB_BUILD := gcc make pkg-config libc6-dev libuv1-dev libsqlite3-dev \
	libcjson-dev libslurm-dev
DEB_CHECK := clang perl sqlite3 jq mandoc procps iproute2 slurm-wlm munge \
	chromium libclang-rt-14-dev python3 python3-optuna python3-pandas
DEB_PKGS  ?= $(DEB_BUILD) $(DEB_CHECK)
deps:
	@missing=; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' \
	    || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "deps: all packages present"; \
	elif [ "$$(id -u)" != 0 ]; then \
	  echo "deps: missing:$$missing (run make deps as root)" >&2; exit 1; \
	else echo "deps: installing$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -q --no-install-recommends $$missing; fi
deps-build:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_BUILD)"

units: $(UNITS)

# The test suite runs against a sanitizer build in $(BUILD)/san, and the
# tree must also compile warning-free with clang.  The Slurm tests start a
# throwaway cluster as root and skip themselves otherwise.
# The unit and shell tests run PROVE_JOBS at a time (each has its own
# directory, socket, ledger and build); the Slurm tests SLURM_JOBS at a
# time: each starts and stops its own throwaway cluster (ports, munge
# socket, spool and state private to its directory, tests/slurm/cluster.sh).
PROVE_JOBS ?= 2
TESTENV	= HPOD_BUILD=$(CURDIR)/$(BUILD)/san \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# prove starts the files in the order given: the longest first (by
# `prove --timer` on a 2-core machine), so that the run does not end on
# one of them alone.  The Slurm tests mostly wait (for Slurm's 1-minute
# time limits, its 30 s limit checks, jobs that sleep): SLURM_JOBS of
# them run at once.
SLOWTESTS := tests/t/wall-split.sh tests/t/spack.sh \
	$(BUILD)/san/tests/test_search_mtpe_fold tests/t/replay_mtpe.sh \
	tests/t/faults.sh tests/t/control_oom.sh tests/t/pilot_resume.sh \
	tests/t/replay_tpe.sh tests/t/html_demo.sh tests/t/pilot_host.sh \
	tests/t/stop_cancel.sh tests/t/proxies.sh
CHECKTESTS := $(SLOWTESTS) $(filter-out $(SLOWTESTS),\
	$(UNITSRC:tests/unit/%.c=$(BUILD)/san/tests/%) $(wildcard tests/t/*.sh))
SLOWSLURM := tests/slurm/pilot_nodes.sh tests/slurm/pilot_timeout.sh \
	tests/slurm/faults.sh tests/slurm/submit_drop.sh tests/slurm/chain.sh \
	tests/slurm/crash.sh tests/slurm/pilot.sh tests/slurm/outage.sh
SLURMTESTS := $(SLOWSLURM) $(filter-out tests/slurm/cluster.sh $(SLOWSLURM),\
	$(wildcard tests/slurm/*.sh))
SLURM_JOBS ?= 4
check: deps
	$(MAKE) BUILD=$(BUILD)/san SANITIZE=address,undefined all units
	$(MAKE) BUILD=$(BUILD)/clang CC=clang all units
	mandoc -Tlint -W warning $(MANS)
	$(TESTENV) prove -j$(PROVE_JOBS) -e '' $(CHECKTESTS)
	$(TESTENV) prove -j$(SLURM_JOBS) -e '' $(SLURMTESTS)
	FUZZ_SEED=1 $(MAKE) fuzz FUZZ_TIME=3

# The crash test (tests/t/crash.sh) at length: more trials, more kills.
SOAK_TRIALS ?= 300
SOAK_KILLS ?= 150
soak: deps
	$(MAKE) all
	HPOD_BUILD=$(CURDIR)/$(BUILD) HPOD_CRASH_TRIALS=$(SOAK_TRIALS) \
	  HPOD_CRASH_KILLS=$(SOAK_KILLS) HPOD_CRASH_EPOCHS=6 HPOD_CRASH_FG_TRIALS=60 \
	  HPOD_CRASH_FG_KILLS=30 prove -v -e '' tests/t/crash.sh

# Coverage-guided fuzzing of the parsers and the control protocol (clang's
# libFuzzer), each target from its seed corpus in tests/fuzz/corpus/:
# FUZZ_TIME seconds each (make fuzz; make check runs them for 3 s from
# libFuzzer seed 1: the same inputs in the same order each time, as far
# as 3 s reach; make fuzz draws a new seed each run).  New
# inputs go to $(BUILD)/fuzz/corpus/, crashes to $(BUILD)/fuzz/crash-*.
FUZZ	:= $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/*.c))
FUZZ_TIME ?= 120
fuzz-build:
	$(MAKE) BUILD=$(BUILD)/fuzz CC=clang SANITIZE=fuzzer-no-link,address,undefined \
	  $(BUILD)/fuzz/libhpod.a
	@for f in $(FUZZ); do echo "  FUZZ    $$f"; \
	  clang $(XCFLAGS) $(call room_iquote,tests) -fsanitize=fuzzer,address,undefined -g -O1 \
	    -o $(BUILD)/fuzz/$$f tests/fuzz/$$f.c $(BUILD)/fuzz/libhpod.a \
	    $(LIBS) || exit 1; done
fuzz: fuzz-build
	tests/fuzz/run.sh $(BUILD)/fuzz $(FUZZ_TIME) $(FUZZ)

demo: deps-build
	$(MAKE) all
	tests/demo.sh $(BUILD)

bench: deps $(BENCHES)
	$(MAKE) all
	tests/bench/bench.sh $(BUILD)

# Search methods against each other and Optuna on the replay table
# (Debian's python3-optuna, run by /usr/bin/python3, installed if missing),
# then the lower bound of any method at 1 and 8 at once (search-bound.sh).
bench-search: deps
	$(MAKE) all
	@dpkg-query -W -f='$${Status}' python3-optuna 2>/dev/null | \
	  grep -q 'ok installed' || { [ "$$(id -u)" = 0 ] && \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get \
	  install -y -q --no-install-recommends python3-optuna; } || \
	  { echo "bench-search: install python3-optuna (as root)" >&2; exit 1; }
	tests/bench/bench-search.sh $(BUILD)
	tests/bench/search-bound.sh $(BUILD)

# The Slurm backend's submission rate, slot gap and load on slurmctld
# (sdiag), and the makespan of pilot allocations, on the test cluster
# (as root).
bench-slurm: deps
	$(MAKE) all
	tests/bench/slurm-submit.sh $(BUILD)
	tests/bench/slurm-gap.sh $(BUILD) 1000 64 3
	tests/bench/slurm-gap.sh $(BUILD) 1000 16 3
	tests/bench/slurm-gap.sh $(BUILD) 1000 1000 3
	tests/bench/slurm-rpc.sh $(BUILD)
	tests/bench/pilot-makespan.sh $(BUILD) 1000 3

bench-proxy: deps
	$(MAKE) all
	tests/bench/proxy-table.sh $(BUILD) minicosmo
	tests/bench/proxy-table.sh $(BUILD) minicam

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) \
	  $(DESTDIR)$(DATADIR)/workloads $(DESTDIR)$(DATADIR)/campaigns \
	  $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	  $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(SYSCONFDIR)/hpod
	install -m 755 $(BUILD)/hpod $(BUILD)/hpoctl $(DESTDIR)$(BINDIR)
	install -m 755 $(BUILD)/hpo-trial $(PROXIES:%=$(BUILD)/%) \
	  $(DESTDIR)$(LIBEXECDIR)
	install -m 644 workloads/*.json $(DESTDIR)$(DATADIR)/workloads
	install -m 644 etc/campaigns/*.json $(DESTDIR)$(DATADIR)/campaigns
	install -m 644 etc/hpod.conf $(DESTDIR)$(SYSCONFDIR)/hpod/hpod.conf
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1
	install -m 644 man/*.5 $(DESTDIR)$(MANDIR)/man5
	install -m 644 man/*.8 $(DESTDIR)$(MANDIR)/man8
	install -d $(DESTDIR)$(SYSTEMDUSERDIR) \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	sed -e 's|/usr/local/bin/|$(BINDIR)/|g' \
	    -e 's|/usr/local/etc/|$(SYSCONFDIR)/|g' etc/systemd/hpod.service \
	  >$(DESTDIR)$(SYSTEMDUSERDIR)/hpod.service
	chmod 644 $(DESTDIR)$(SYSTEMDUSERDIR)/hpod.service
	install -m 644 etc/completion/hpoctl.bash \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/hpoctl

# The committed tree as hpod-VERSION.tar.gz (what etc/spack/package.py
# and debian/ build from).
DISTDIR	?= .
dist:
	git archive --format=tar.gz --prefix=hpod-$(VERSION)/ \
	  -o $(DISTDIR)/hpod-$(VERSION).tar.gz HEAD
	@echo "dist: $(DISTDIR)/hpod-$(VERSION).tar.gz"

# The Debian package, built from the dist tarball in $(BUILD)/deb-src (so
# that nothing lands beside the source tree); the .deb is left in $(BUILD).
deb:
	rm -rf $(BUILD)/deb-src && mkdir -p $(BUILD)/deb-src
	$(MAKE) --no-print-directory DISTDIR=$(CURDIR)/$(BUILD)/deb-src dist
	tar xzf $(BUILD)/deb-src/hpod-$(VERSION).tar.gz -C $(BUILD)/deb-src
	cd $(BUILD)/deb-src/hpod-$(VERSION) && dpkg-buildpackage -us -uc -b
	cp $(BUILD)/deb-src/hpod_$(VERSION)_*.deb $(BUILD)/
	@echo "deb: $$(ls $(BUILD)/hpod_$(VERSION)_*.deb)"

clean:
	rm -rf $(BUILD)

.PHONY: FORCE all room-flags room-list pkgcheck deps deps-build units dist deb check soak demo bench bench-slurm bench-proxy bench-search fuzz \
	fuzz-build \
	install clean
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
