# intercom — build, test and benchmark entry points.
SWIFT ?= swift
CONFIG ?= debug

.PHONY: all deps build release check test bench clean demo screenshots fuzz fuzz-replay sanitize docs \
	install install-files uninstall deb
FUZZ_SECONDS ?= 30

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c $(CONFIG)

release: deps
	$(SWIFT) build -c release

# The fast loop for editing: every unit target whole (Intercom<Part>Tests: the package's walls, the config and
# pure units, the engine's parts on fakes with a manual clock, the screens' view models). The integration
# targets (Intercom<Part>IntegrationTests, IntercomEndToEndTests: real peers, processes, tmux) are skipped by
# their names' pattern, so a new unit suite runs here by where it lives, with no list of suites to keep.
# Seconds after a warm build.
INTEGRATION_TARGETS = ^Intercom[A-Za-z]*IntegrationTests\.|^IntercomEndToEndTests\.
check:
	$(SWIFT) build --build-tests
	# Serial, as in `test`: the picture renderers hold the two cooperative threads for seconds on a loaded
	# machine, and the engine's waits on fakes would wait behind them.
	$(SWIFT) test --skip-build --no-parallel --skip '$(INTEGRATION_TARGETS)'

# Everything CI runs: packages, build, then the whole suite (unit, loopback calls, real peers).
# Each shard is serial (many suites drive real processes against deadlines; tests in parallel inside one
# process starve each other on 2 cores), but four shards run at once: most suites wait on peers, not on the
# CPU (scripts/test-shards.sh, docs/PROOF.md). Any shard failing fails the rule.
test: deps
	$(SWIFT) build --build-tests
	INTERCOM_BIN=$(CURDIR)/.build/debug/intercom SWIFT=$(SWIFT) scripts/test-shards.sh
	$(MAKE) --no-print-directory fuzz-replay

# The fuzz seeds and past crash inputs, once each through the ordinary build (no fuzzer): a second.
fuzz-replay:
	@for t in config keyvalue alarm jpeg terminal control sip syslog; do .build/debug/intercom-fuzz $$t Fuzz/corpus/$$t || exit 1; done

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

# docs/CONFIG.md from the config table, docs/REFERENCE.md from the command tables (a test fails
# when a committed file differs).
docs: build
	.build/$(CONFIG)/intercom config --reference > docs/CONFIG.md
	.build/$(CONFIG)/intercom help --reference > docs/REFERENCE.md

# Installed as a Linux program: `make install` (PREFIX=/usr/local) or `make install PREFIX=$$HOME/.local`,
# after `make deps` once (the Debian packages the build needs);
# DESTDIR stages the tree for a package. The man pages and completions are made by the built
# binary at install time, so they always match it. BUILT names the build to install (make deb, tests).
PREFIX ?= /usr/local
DESTDIR ?=
BUILT ?= .build/release
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
GENERATED = .build/generated

# Builds what changed, never installs packages (`make deps` does: a machine that builds has them, and an
# install run as root must not reach for apt behind the user's back).
install:
	$(SWIFT) build -c release
	$(MAKE) --no-print-directory install-files

install-files:
	@test -x $(BUILT)/intercom-full || { echo "no build in $(BUILT): run 'make install' (it builds), or set BUILT" >&2; exit 1; }
	mkdir -p $(GENERATED)
	$(BUILT)/intercom help --man > $(GENERATED)/intercom.1
	$(BUILT)/intercom config --man > $(GENERATED)/intercom-config.5
	$(BUILT)/intercom completion bash > $(GENERATED)/intercom.bash
	$(BUILT)/intercom completion zsh > $(GENERATED)/_intercom
	$(BUILT)/intercom completion fish > $(GENERATED)/intercom.fish
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/intercom/ringtones $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(USERUNITDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(BUILT)/intercom $(BUILT)/intercom-full $(BUILT)/intercom-sim $(DESTDIR)$(BINDIR)/
	install -m 644 Resources/ringtones/*.wav $(DESTDIR)$(DATADIR)/intercom/ringtones/
	install -m 644 $(GENERATED)/intercom.1 $(DESTDIR)$(MANDIR)/man1/intercom.1
	install -m 644 $(GENERATED)/intercom-config.5 $(DESTDIR)$(MANDIR)/man5/intercom-config.5
	sed 's|^ExecStart=.*|ExecStart=$(BINDIR)/intercom daemon|' contrib/systemd/intercom.service \
		> $(DESTDIR)$(USERUNITDIR)/intercom.service
	chmod 644 $(DESTDIR)$(USERUNITDIR)/intercom.service
	install -m 644 $(GENERATED)/intercom.bash $(DESTDIR)$(BASHCOMPDIR)/intercom
	install -m 644 $(GENERATED)/_intercom $(DESTDIR)$(ZSHCOMPDIR)/_intercom
	install -m 644 $(GENERATED)/intercom.fish $(DESTDIR)$(FISHCOMPDIR)/intercom.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/intercom $(DESTDIR)$(BINDIR)/intercom-full $(DESTDIR)$(BINDIR)/intercom-sim
	rm -rf $(DESTDIR)$(DATADIR)/intercom
	rm -f $(DESTDIR)$(MANDIR)/man1/intercom.1 $(DESTDIR)$(MANDIR)/man5/intercom-config.5
	rm -f $(DESTDIR)$(USERUNITDIR)/intercom.service $(DESTDIR)$(BASHCOMPDIR)/intercom
	rm -f $(DESTDIR)$(ZSHCOMPDIR)/_intercom $(DESTDIR)$(FISHCOMPDIR)/intercom.fish

# intercom_VERSION_ARCH.deb in .build/deb (scripts/make-deb.sh): dependencies from dpkg-shlibdeps,
# the Swift runtime private in /usr/lib/intercom, checked by lintian.
deb: release
	BUILT=$(BUILT) scripts/make-deb.sh

demo: build
	.build/$(CONFIG)/intercom demo

clean:
	rm -rf .build .build-fuzz .build-sanitize .build-baseline
	git worktree prune
