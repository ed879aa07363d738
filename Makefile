# task_diag: kernel series, libtaskdiag, perf integration, tests and bench.
#
#   make                 install missing packages, build kernel, perf, tests
#   make test            every test: host-side, then in the QEMU guest
#   make test-debug      the guest tests on the debug kernel (KASAN, lockdep..)
#   make fuzz            libtaskdiag's fuzzer, then the kernel interface's
#   make bench           the 50,000-task start-up bench (see bench/)
#   make test-perf-suite perf's whole test suite in the guest, synthesizing
#                        from task_diag and from /proc: the same results?
#                        (PERF_TESTS="N ..." for a subset)
#   make kernel-tree     the build tree with the series as commits to edit
#   make kernel-export   rewrite kernel/patches/ from that tree
#   make checkpatch      scripts/checkpatch.pl --strict over the series
#   make check-configs   every patch with the i386, Debian and option-off
#                        configs (CHECK_COMMITS=head: the series head only)

SHELL := /bin/bash
export TASKDIAG_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/taskdiag
S := scripts
TOP_TAP_RUN := tools/testing/tap/tap-run

.PHONY: all deps kernel-tree kernel perf selftests test test-host test-guest \
	kernel-export checkpatch check-bisect bench clean-cache lib fuzz \
	kernel-debug test-debug check-configs test-perf-suite

all: kernel perf selftests lib

deps:
	@$(S)/deps.sh

kernel-tree: deps
	@$(S)/kernel-tree.sh

kernel: kernel-tree
	@$(S)/build-kernel.sh >/dev/null

perf: kernel
	@$(S)/build-perf.sh >/dev/null

selftests: kernel
	@$(S)/build-selftests.sh >/dev/null

lib: kernel
	@$(S)/build-lib.sh all test-progs

fuzz: lib selftests
	@$(S)/build-lib.sh fuzz FUZZ_TIME=$(or $(FUZZ_TIME),600)
	@$(S)/fuzz-guest.sh

test: all
	@$(S)/run-tests.sh

# the guest tests on the debug kernel (KASAN, lockdep, kmemleak, UBSAN...)
kernel-debug: kernel-tree
	@KPROFILE=debug $(S)/build-kernel.sh >/dev/null

test-debug: all kernel-debug
	@KPROFILE=debug VM_TIMEOUT=$(or $(VM_TIMEOUT),7200) $(S)/run-tests.sh guest

kernel-export:
	@$(S)/kernel-export.sh

checkpatch: kernel-tree
	@$(S)/checkpatch.sh

bench: all
	@bench/run $(if $(TASKS),--tasks $(TASKS)) $(if $(THREADS),--threads $(THREADS)) $(if $(SWEEP),--sweep "$(SWEEP)") $(if $(SYNTH_SWEEP),--synth-sweep "$(SYNTH_SWEEP)") $(if $(ITER),--iterations $(ITER)) $(if $(LIBS_TASKS),--libs-tasks $(LIBS_TASKS))

clean-cache:
	rm -rf "$(TASKDIAG_CACHE)"

test-perf-suite: all
	@$(TOP_TAP_RUN) perf-suite "'$(CURDIR)/vm/run' --mem 6G --timeout $(or $(VM_TIMEOUT),14400) -- '$(CURDIR)/tests/guest/perf-suite-compare.sh' $(PERF_TESTS)"

check-bisect: kernel
	@$(S)/check-bisect.sh

check-configs: kernel
	@$(TOP_TAP_RUN) check-configs "$(CURDIR)/$(S)/check-configs.sh"
