# VoiceMemo — build, run and test.
#
#   make run    install what is missing, build (release), start the app
#   make test   install what is missing, build, run every test
#
# `make deps` installs the Debian packages the build and the tests need, and
# does nothing when they are all present.

SHELL := /bin/bash
.DEFAULT_GOAL := build

BUILD_DEPS := libasound2-dev libsndfile1-dev libncursesw5-dev libsqlite3-dev pkg-config
TEST_DEPS  := alsa-utils sox sndfile-programs tmux pulseaudio libasound2-plugins espeak-ng sqlite3
DEPS       := $(BUILD_DEPS) $(TEST_DEPS)

SWIFT      ?= swift
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build release run test test-unit test-e2e bench clean

deps:
	@missing=""; \
	for p in $(DEPS); do \
	  dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else \
	  echo "make deps: all packages present"; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: release
	@"$$($(SWIFT) build -c release --show-bin-path)/voicememo"

test: deps
	bash Tests/run-all.sh

bench: release
	"$$($(SWIFT) build -c release --show-bin-path)/voicememo-bench" meter

clean:
	$(SWIFT) package clean
