# intercom — build, test and benchmark entry points.
SWIFT ?= swift
CONFIG ?= debug

.PHONY: all deps build release test bench clean demo screenshots fuzz fuzz-replay sanitize docs
FUZZ_SECONDS ?= 30

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c $(CONFIG)

release: deps
	$(SWIFT) build -c release

# Everything CI runs: packages, build, then the whole suite (unit, loopback calls, real peers).
test: deps
	$(SWIFT) build
	# Serial: many suites drive real processes against deadlines; in parallel on 2 cores they starve each other.
	INTERCOM_BIN=$(CURDIR)/.build/debug/intercom $(SWIFT) test --no-parallel
	$(MAKE) --no-print-directory fuzz-replay

# The fuzz seeds and past crash inputs, once each through the ordinary build (no fuzzer): a second.
fuzz-replay:
	@for t in config keyvalue alarm jpeg terminal control sip; do .build/debug/intercom-fuzz $$t Fuzz/corpus/$$t || exit 1; done

# libFuzzer + AddressSanitizer on every parser of outside input, FUZZ_SECONDS each (docs/PROOF.md).
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) scripts/fuzz.sh

# AddressSanitizer + LeakSanitizer on the C shims, call paths and a real call; valgrind on the
# fuzz seeds. A few minutes on 2 cores (docs/PROOF.md).
sanitize: deps build
	SWIFT=$(SWIFT) scripts/sanitize.sh

bench: deps release
	scripts/bench.sh

# docs/screenshots/*.png: watch and the demo in kitty, xterm (sixel) and xterm-256color under Xvfb,
# checking that auto detection picks each terminal's mode. Not part of `test`.
screenshots: build
	INTERCOM_BIN=$(CURDIR)/.build/$(CONFIG)/intercom scripts/screenshots.sh

# docs/CONFIG.md from the config table (a test fails when the committed file differs).
docs: build
	.build/$(CONFIG)/intercom config --reference > docs/CONFIG.md

demo: build
	.build/$(CONFIG)/intercom demo

clean:
	rm -rf .build .build-fuzz .build-sanitize .build-baseline
	git worktree prune
