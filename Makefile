# hatsuden-rules: every command a user or CI needs. Works on a fresh machine with python3 and make.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest examples bench verify verify-big nightly mutation vectors balance clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP) ## A seeded ISMCTS vs Greedy game, turn by turn (`hatsuden demo`).
	$(PY) -m hatsuden_rules demo

test: lint typecheck pytest examples ## Every check CI runs.

lint: $(STAMP)
	$(PY) -m ruff check src tests property_tests examples benchmarks
	$(PY) -m ruff format --check src tests property_tests examples benchmarks

typecheck: $(STAMP)
	$(PY) -m mypy src tests property_tests examples benchmarks

pytest: $(STAMP)
	$(PY) -m pytest tests property_tests

examples: $(STAMP)
	@set -e; for script in examples/*.py; do \
		echo "== $$script"; $(PY) $$script > /dev/null; \
	done

# The previous release, which `make bench` measures this tree against (0.2.0).
BENCH_BASE ?= 89ab3ac
bench: $(STAMP) ## The engine side by side with the previous release: random play and model check, ratios (benchmarks/README.md).
	$(PY) benchmarks/bench.py --compare $(BENCH_BASE) $(BENCH_ARGS)

verify: $(STAMP) ## Every reachable state of the medium configuration (rules, then hidden information), against the golden files.
	$(PY) -m hatsuden_rules.modelcheck --config medium --golden tests/golden/modelcheck.json
	$(PY) -m hatsuden_rules.modelcheck.information --config medium --config small-secret \
		--golden tests/golden/information.json

verify-big: $(STAMP) ## Every reachable state of the large configuration (all four tech cards, stall limit 4).
	$(PY) -m hatsuden_rules.modelcheck --config large --golden tests/golden/modelcheck.json

vectors: $(STAMP) ## Rebuild the conformance suite (conformance/) and the generated tables of CONFORMANCE.md.
	$(PY) -m hatsuden_rules.conformance.generate --out conformance --doc CONFORMANCE.md --root .

balance: $(STAMP) ## BALANCE.md: 10,000 Greedy and 10,000 ISMCTS (50 iterations) self-play games; about 40 min on 2 cores.
	$(PY) examples/balance.py --games 10000 --ismcts-games 10000 --ismcts ismcts:iterations=50 --seed 2017 --cache $(VENV)/balance-cache --output BALANCE.md

nightly: $(STAMP) ## The property tests with many more examples (Hypothesis "nightly" profile).
	HYPOTHESIS_PROFILE=nightly $(PY) -m pytest property_tests

mutation: $(STAMP) ## Mutation testing of the rules core with mutmut (slow; see VERIFICATION.md).
	$(PY) -m pip install --quiet -e '.[dev,mutation]'
	$(PY) -m mutmut run --max-children 2 || true
	$(PY) -m mutmut results

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis build dist mutants
