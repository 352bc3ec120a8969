# chicago — the two commands of the quick start are `make run` and `make test`.
# Both create .venv on first use and install what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test axe lint typecheck bench bench-bots train train-play check check-dist release clean

# Every extra of the program ([all]: terminal, server, PostgreSQL, Redis, RL, OpenSpiel,
# cluster) plus the tools of development (dev: tests, linters, build; bench: benchmarks).
$(STAMP): pyproject.toml setup.py $(wildcard src/chicago/*.c src/chicago/*/*.c)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[all,dev,bench]'
	touch $(STAMP)

## Start the main program on its embedded defaults: the table server with the browser app
## (chicago serve; it prints the address to open).
run: $(STAMP)
	$(VENV)/bin/chicago serve

## Run the whole test suite.
test: $(STAMP)
	$(PY) -m pytest -q -n 2 --durations=20

## axe-core, the accessibility checker of the browser tests, from npm into tests/web
## (without it those checks skip; .ci/run installs it and makes them required).
axe:
	bash .ci/install-axe

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict src

check: test lint typecheck

## The sdist, a manylinux wheel per CPython 3.11+ of this machine and the pure-Python wheel in
## dist/, checked as a user gets them: installed into fresh virtual environments outside the
## checkout (scripts/check_dist.py; part of .ci/run).
check-dist: $(STAMP)
	$(PY) scripts/check_dist.py --out dist

## The same, for publishing: also requires CHANGELOG.md's section for the version
## (chicago.__version__) and writes dist/SHA256SUMS.
release: $(STAMP)
	$(PY) scripts/check_dist.py --out dist --release

## Benchmarks (not part of the tests): every script at its defaults, to the end; the
## scripts that failed are named at the end (and make fails then). bench_workers needs
## PostgreSQL and Redis: when CHICAGO_TEST_PG_URL / CHICAGO_TEST_REDIS_URL are unset, local
## servers are started for it as .ci/run does (.ci/start-postgres, .ci/start-redis).
bench: $(STAMP)
	@if [ -z "$$CHICAGO_TEST_PG_URL" ]; then \
		CHICAGO_TEST_PG_URL="$$(bash .ci/start-postgres)" && export CHICAGO_TEST_PG_URL \
		|| echo "bench: PostgreSQL could not be started" >&2; fi; \
	if [ -z "$$CHICAGO_TEST_REDIS_URL" ]; then \
		CHICAGO_TEST_REDIS_URL="$$(bash .ci/start-redis)" && export CHICAGO_TEST_REDIS_URL \
		|| echo "bench: Redis could not be started" >&2; fi; \
	failed=""; for f in benchmarks/bench_*.py; do echo "== $$f"; \
		$(PY) $$f || failed="$$failed $$f"; done; \
	if [ -n "$$failed" ]; then echo "failed:$$failed"; exit 1; fi

## Bot strength and speed: the long duplicate matches of issue 4 (about 70 minutes on 2 cores).
bench-bots: $(STAMP)
	$(PY) benchmarks/bench_bots.py --full --jobs 2

## The master bot's learned model of the opponents' hands, from self-play games with a fixed
## seed (chicago.training; numpy): rewrites src/chicago/bots/hand_model.json (its weights, then
## the power of its weights fitted on other games) and prints its calibration on held-out
## games (docs/BOTS.md shows it). About an hour on one core.
train: $(STAMP)
	$(PY) -m chicago.training --games 600 --tune-games 60 --check-games 120 --seed 30 \
		--report build/hand-model-calibration.md

## The fitted policy of the experts' card play (master:infer=2), from expert self-play games
## with a fixed seed (chicago.training_play; numpy): rewrites src/chicago/bots/play_policy.json
## and prints its check on held-out games (docs/BOTS.md shows it).
train-play: $(STAMP)
	$(PY) -m chicago.training_play --games 64 --check-games 16 --seed 49 \
		--report build/play-policy-check.md

clean:
	rm -rf $(VENV) build dist src/*.egg-info
