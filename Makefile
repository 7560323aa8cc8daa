# intercom — build, test and benchmark entry points.
SWIFT ?= swift
CONFIG ?= debug

.PHONY: all deps build release test bench clean demo screenshots

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

bench: deps release
	scripts/bench.sh

# docs/screenshots/*.png: watch and the demo in kitty, xterm (sixel) and xterm-256color under Xvfb,
# checking that auto detection picks each terminal's mode. Not part of `test`.
screenshots: build
	INTERCOM_BIN=$(CURDIR)/.build/$(CONFIG)/intercom scripts/screenshots.sh

demo: build
	.build/$(CONFIG)/intercom demo

clean:
	rm -rf .build
