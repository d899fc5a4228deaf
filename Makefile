# arena — run `make help` for the list of jobs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DB ?= arena.db
GAMES ?= 20

.DEFAULT_GOAL := help
.PHONY: help demo test test-quick bench bench-quick lint check-bots clean sandbox browser

help: ## List the jobs
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-11s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

sandbox: ## Install bubblewrap, the bot sandbox, if it is missing (needs root; without it arena refuses to run bots)
	@command -v bwrap >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq bubblewrap) >/dev/null 2>&1; } || echo "note: bubblewrap is not installed and could not be (not root?): arena will refuse to run bots; see README, Containment"

browser: ## Install Chromium, which the web report's tests drive headless, if it is missing (needs root)
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null 2>&1; } || echo "note: chromium is not installed and could not be (not root?): the tests in tests/web will fail; install Debian's chromium"

demo: $(STAMP) sandbox ## Set up, play a small Corruption tournament among the bundled bots into arena.db, print the leaderboard
	$(BIN)/arena play corruption --bot bots/corruption-greedy --bot bots/random --bot bots/random \
		--bot bots/corruption-greedy --bot bots/random --games $(GAMES) --seed 1 --db $(DB)
	$(BIN)/arena ratings corruption --db $(DB)

# The suite runs on every core (pytest-xdist): it spends most of its time waiting on bot
# processes. Whole files go to one worker, so a module's shared matches are played once; they go
# in collection order, which starts with the longest files (tests/support/heaviest_first.py), not
# xdist's order by number of tests (which left the longest files for the end).
# WORKERS=0 runs it in this one process, for debugging.
WORKERS ?= auto
# Where PYTHONDONTWRITEBYTECODE is set (containers and CI images often set it) every process of
# the suite compiled the project's modules afresh (importing the CLI took 2.5 s of CPU instead
# of 0.7 s, in each `arena` command a test starts) and each worker rewrote every test module's
# asserts: the suite lets Python keep its bytecode, in the __pycache__ folders git ignores.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder

test: $(STAMP) sandbox browser ## Set up and run the whole test suite (on every core; WORKERS=0 for one process)
	$(PYTEST)

# test-quick's property tests try a fifth of their examples (the hypothesis profile arena-quick,
# tests/conftest.py); `make test` runs each property's whole budget.
test-quick: $(STAMP) sandbox ## The suite without the slow, browser and packaging tests, and fewer property examples (for while you work; CI runs `make test`)
	$(PYTEST) -m "not slow and not browser and not packaging" --hypothesis-profile arena-quick

# QUICK=1 passes --quick to every bench: fewer games, for CI logs.
BENCH_FLAGS := $(if $(QUICK),--quick,)

bench: $(STAMP) ## Print the speed figures, each with its target and met or NOT met (asserts nothing; QUICK=1 for a short run)
	$(BIN)/python -m arena.bench $(BENCH_FLAGS)
	$(BIN)/python -m leagues.bench $(BENCH_FLAGS)
	@# 10,000 games keep `make bench` near 2 minutes; reads no longer grow with the games (kept
	@# tallies), and `python -m leagues.bench_store` alone builds the 100,000 of the targets.
	@# It also times the web report's games list and bot page on that database (arena/web/bench.py).
	$(BIN)/python -m leagues.bench_store $(if $(QUICK),--quick,--games 10000 --repeat 1)

bench-quick: ## `make bench QUICK=1`: every figure from fewer games, for CI logs
	$(MAKE) --no-print-directory bench QUICK=1

lint: $(STAMP) ## ruff and mypy
	$(BIN)/ruff check arena protocol leagues bots tests
	$(BIN)/ruff format --check arena protocol leagues bots tests
	$(BIN)/mypy arena protocol leagues

check-bots: $(STAMP) ## Run `arena check` on every bundled bot, on its game (random: every game)
	for bot in bots/*/bot.toml; do bot=$$(dirname $$bot); \
		name=$$(basename $$bot); games=$${name%%-*}; \
		if [ "$$name" = random ]; then games="corruption intrigue paranoia"; fi; \
		for game in $$games; do $(BIN)/arena check $$bot --game $$game || exit 1; done; \
	done

clean: ## Remove the virtual environment and caches (keeps databases)
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache .mypy_cache
