# hpod: hyperparameter-search orchestration daemon for HPC deep learning.
#
#   make              build hpod, hpoctl, hpo-trial and the proxy trainers
#   make demo         install what is missing, build, run a demo campaign
#   make check        install what is missing, build, run every test
#   make install      PREFIX=/usr/local DESTDIR=
#   make SANITIZE=address,undefined   build with sanitizers

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/hpod
DATADIR	?= $(PREFIX)/share/hpod
MANDIR	?= $(PREFIX)/share/man
SYSCONFDIR ?= $(PREFIX)/etc

BUILD	?= build
CC	?= cc
CFLAGS	?= -O2 -g
SANITIZE ?=

PKGS	:= libuv sqlite3 libcjson
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# libslurm 22.05 ships no pkg-config file.
SLURM_LIBS ?= -lslurm

XCFLAGS	:= -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter \
	-iquote . -iquote search -iquote ledger -iquote scheduler \
	-iquote workloads -iquote daemon \
	-DHPOD_LIBEXECDIR='"$(LIBEXECDIR)"' -DHPOD_DATADIR='"$(DATADIR)"' \
	-DHPOD_SYSCONFDIR='"$(SYSCONFDIR)"' $(PKG_CFLAGS)
ifneq ($(SANITIZE),)
XCFLAGS	+= -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
XLDFLAGS += -fsanitize=$(SANITIZE)
endif
LIBS	:= $(PKG_LIBS) -lm

# Every .c file of a module is part of libhpod.a except the programs' mains.
MAINS	:= daemon/main.c daemon/hpoctl.c scheduler/trial.c
MODSRC	:= $(filter-out $(MAINS),$(wildcard daemon/*.c scheduler/*.c \
	search/*.c workloads/*.c ledger/*.c))
MODOBJ	:= $(MODSRC:%.c=$(BUILD)/%.o)
PROXIES	:= $(patsubst workloads/proxies/%.c,%,$(wildcard workloads/proxies/*.c))
PROGS	:= $(BUILD)/hpod $(BUILD)/hpoctl $(BUILD)/hpo-trial \
	$(PROXIES:%=$(BUILD)/%)
UNITSRC	:= $(wildcard tests/unit/test_*.c)
UNITS	:= $(UNITSRC:tests/unit/%.c=$(BUILD)/tests/%)
# Timing programs of make bench.
BENCHES	:= $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(wildcard tests/bench/*.c))
MANS	:= $(wildcard man/*.[1-8])

all: $(PROGS)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(XCFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/libhpod.a: $(MODOBJ)
	@rm -f $@
	@$(AR) rcs $@ $^

$(BUILD)/hpod: $(BUILD)/daemon/main.o $(BUILD)/libhpod.a
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(SLURM_LIBS)
$(BUILD)/hpoctl: $(BUILD)/daemon/hpoctl.o $(BUILD)/libhpod.a
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(SLURM_LIBS)
$(BUILD)/hpo-trial: $(BUILD)/scheduler/trial.o $(BUILD)/libhpod.a
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
$(BUILD)/%: $(BUILD)/workloads/proxies/%.o \
	$(BUILD)/workloads/proxies/common/proxy.o
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ -lm
$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/libhpod.a
	@mkdir -p $(@D)
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(SLURM_LIBS)
$(BUILD)/bench/%: $(BUILD)/tests/bench/%.o $(BUILD)/libhpod.a
	@mkdir -p $(@D)
	$(CC) $(XLDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(SLURM_LIBS)

# Debian packages needed to build and test; installed if missing (as root).
DEB_BUILD := gcc make pkg-config libc6-dev libuv1-dev libsqlite3-dev \
	libcjson-dev libslurm-dev
# slurm-wlm and munge only start the throwaway cluster of tests/slurm/.
DEB_TEST  := clang perl sqlite3 jq mandoc procps slurm-wlm munge chromium
deps:
	@missing=; for p in $(DEB_BUILD) $(DEB_TEST); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' \
	    || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "deps: all packages present"; \
	elif [ "$$(id -u)" != 0 ]; then \
	  echo "deps: missing:$$missing (run make deps as root)" >&2; exit 1; \
	else echo "deps: installing$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -q --no-install-recommends $$missing; fi

units: $(UNITS)

# The test suite runs against a sanitizer build in $(BUILD)/san, and the
# tree must also compile warning-free with clang.  The Slurm tests start a
# throwaway cluster as root and skip themselves otherwise.
SLURMTESTS := $(filter-out tests/slurm/cluster.sh,$(wildcard tests/slurm/*.sh))
check: deps
	$(MAKE) BUILD=$(BUILD)/san SANITIZE=address,undefined all units
	$(MAKE) BUILD=$(BUILD)/clang CC=clang all units
	mandoc -Tlint -W warning $(MANS)
	HPOD_BUILD=$(CURDIR)/$(BUILD)/san \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  prove -e '' $(BUILD)/san/tests/test_* tests/t/*.sh $(SLURMTESTS)
	$(MAKE) fuzz FUZZ_TIME=3

# Coverage-guided fuzzing of the parsers and the control protocol (clang's
# libFuzzer), each target from its seed corpus in tests/fuzz/corpus/:
# FUZZ_TIME seconds each (make fuzz; make check runs them for 3 s).  New
# inputs go to $(BUILD)/fuzz/corpus/, crashes to $(BUILD)/fuzz/crash-*.
FUZZ	:= $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/*.c))
FUZZ_TIME ?= 120
fuzz-build:
	$(MAKE) BUILD=$(BUILD)/fuzz CC=clang SANITIZE=fuzzer-no-link,address,undefined \
	  $(BUILD)/fuzz/libhpod.a
	@for f in $(FUZZ); do echo "  FUZZ    $$f"; \
	  clang $(XCFLAGS) -fsanitize=fuzzer,address,undefined -g -O1 \
	    -o $(BUILD)/fuzz/$$f tests/fuzz/$$f.c $(BUILD)/fuzz/libhpod.a \
	    $(LIBS) || exit 1; done
fuzz: fuzz-build
	tests/fuzz/run.sh $(BUILD)/fuzz $(FUZZ_TIME) $(FUZZ)

demo: deps all
	tests/demo.sh $(BUILD)

bench: deps all $(BENCHES)
	tests/bench/bench.sh $(BUILD)

# Search methods against each other and Optuna on the replay table
# (Debian's python3-optuna, run by /usr/bin/python3, installed if missing).
bench-search: deps all
	@dpkg-query -W -f='$${Status}' python3-optuna 2>/dev/null | \
	  grep -q 'ok installed' || { [ "$$(id -u)" = 0 ] && \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get \
	  install -y -q --no-install-recommends python3-optuna; } || \
	  { echo "bench-search: install python3-optuna (as root)" >&2; exit 1; }
	tests/bench/bench-search.sh $(BUILD)

# The Slurm backend's submission rate and slot gap on the test cluster (as root).
bench-slurm: deps all
	tests/bench/slurm-submit.sh $(BUILD)
	tests/bench/slurm-gap.sh $(BUILD) 1000 64 3
	tests/bench/slurm-gap.sh $(BUILD) 1000 16 3

bench-proxy: deps all
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
	install -m 644 etc/hpod.conf $(DESTDIR)$(SYSCONFDIR)/hpod/hpod.conf.example
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1
	install -m 644 man/*.5 $(DESTDIR)$(MANDIR)/man5
	install -m 644 man/*.8 $(DESTDIR)$(MANDIR)/man8
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/user \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 etc/systemd/hpod.service \
	  $(DESTDIR)$(PREFIX)/lib/systemd/user/hpod.service
	install -m 644 etc/completion/hpoctl.bash \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/hpoctl

clean:
	rm -rf $(BUILD)

.PHONY: all deps units check demo bench bench-slurm bench-proxy bench-search fuzz \
	fuzz-build \
	install clean
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
