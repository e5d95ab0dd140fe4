# hatsuden-rules: every command a user or CI needs. Works on a fresh machine with python3 and make.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# One venv, two stamps: `make demo` installs the package alone (runtime dependency: attrs), every
# other target the dev extra (the test tools, every optional extra, the docs and build tools).
CORE   := $(VENV)/.installed-core
STAMP  := $(VENV)/.installed
CODE   := src tests property_tests examples benchmarks tools docs/plugins native/hatsuden-py/python

.PHONY: demo test lint typecheck pytest examples docs dist bench bench-frameworks playthrough verify verify-big verify-huge verify-huge-python verify-variants verify-variants-big nightly mutation vectors balance clean

$(CORE): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(CORE)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(CORE)

demo: $(CORE) ## A seeded ISMCTS vs Greedy game, turn by turn (`hatsuden demo`).
	$(PY) -m hatsuden_rules demo

test: lint typecheck docs dist native native-check pytest examples ## Every check CI runs (the native core too: needs cargo).

lint: $(STAMP)
	$(PY) -m ruff check $(CODE)
	$(PY) -m ruff format --check $(CODE)

typecheck: $(STAMP)
	$(PY) -m mypy $(CODE)

docs: $(STAMP) ## The documentation site, into site/ (strict: any warning or broken link fails).
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

dist: $(STAMP) ## The sdist and the wheel, into dist/, checked by twine (tests/repo/test_dist.py installs the wheel).
	rm -rf dist
	$(PY) -m build --outdir dist .
	$(PY) -m twine check --strict dist/*

# On every core (pytest-xdist): a file's tests stay on one worker, so its cached results and module
# fixtures are computed once (tests/README.md); the longest files are handed out first, in the
# order tests/conftest.py gives them. PYTEST_ARGS adds options (PYTEST_ARGS="-n 0": one process).
PYTEST_ARGS ?=
pytest: $(STAMP)
	$(PY) -m pytest -n auto --dist loadfile --no-loadscope-reorder --durations=10 $(PYTEST_ARGS) property_tests tests

examples: $(STAMP)
	@set -e; for script in examples/*.py; do \
		echo "== $$script"; $(PY) $$script > /dev/null; \
	done

# The previous release, which `make bench` measures this tree against (0.2.0).
BENCH_BASE ?= 89ab3ac
bench: $(STAMP) ## The engine side by side with the previous release: random play and model check, ratios (benchmarks/README.md).
	$(PY) benchmarks/bench.py --compare $(BENCH_BASE) $(BENCH_ARGS)

bench-frameworks: $(STAMP) ## OpenSpiel and PettingZoo adapters against direct library play (games/s, clone time).
	$(PY) benchmarks/bench_frameworks.py

playthrough: $(STAMP) ## Regenerate tests/golden/playthrough_python_hatsuden.txt with OpenSpiel's playthrough tool.
	$(PY) -c "import hatsuden_rules.openspiel; from open_spiel.python.algorithms import generate_playthrough as g; \
		open('tests/golden/playthrough_python_hatsuden.txt', 'w').write(g.playthrough('python_hatsuden', None, seed=2026))"

verify: $(STAMP) ## Every reachable state of the medium configuration (rules, then hidden information) and every position of choice on two cores, against the golden files.
	$(PY) -m hatsuden_rules.modelcheck --config medium --soundness --golden tests/golden/modelcheck.json
	$(PY) -m hatsuden_rules.modelcheck --config choice --workers 2 --golden tests/golden/modelcheck.json
	$(PY) -m hatsuden_rules.modelcheck.information --config medium --config small-secret \
		--golden tests/golden/information.json

verify-big: $(STAMP) ## Every reachable state of the large configuration (all four tech cards, stall limit 4).
	$(PY) -m hatsuden_rules.modelcheck --config large --golden tests/golden/modelcheck.json

HUGE_CHECKPOINT := $(VENV)/verify-huge
HUGE_NATIVE_CHECKPOINT := $(VENV)/verify-huge-native
NATIVE_CHECK := native/target/release/hatsuden-native-check
verify-huge: ## Every reachable position of the huge configuration (two-card hands, duplicates, all four tech cards): the native ranked engine (exact storage, files on disk) with the row-swap symmetry on both cores, resumable (run it again to continue from the last part).
	cd native && cargo build --release --quiet -p hatsuden-check
	$(NATIVE_CHECK) --config huge --engine ranked --symmetry --workers 2 --max-memory 20G --progress \
		--checkpoint $(HUGE_NATIVE_CHECKPOINT) $$(test -f $(HUGE_NATIVE_CHECKPOINT)/ranked.txt && echo --resume) \
		--golden tests/golden/modelcheck.json
	rm -rf $(HUGE_NATIVE_CHECKPOINT)

verify-huge-python: $(STAMP) ## verify-huge with the Python fingerprint engine (much slower), resumable.
	$(PY) -m hatsuden_rules.modelcheck --config huge --workers 2 --max-memory 20G \
		--checkpoint $(HUGE_CHECKPOINT) $$(test -f $(HUGE_CHECKPOINT)/meta.json && echo --resume) \
		--golden tests/golden/modelcheck.json
	rm -rf $(HUGE_CHECKPOINT)

verify-variants: $(STAMP) ## The rule variants (R40, R41) and the printed rules' endless games (R25), against the golden files; about 30 min.
	$(PY) -m hatsuden_rules.modelcheck --config medium-place-at-once --golden tests/golden/modelcheck.json
	$(PY) -m hatsuden_rules.modelcheck --config medium-any-set --golden tests/golden/modelcheck.json
	$(PY) -m hatsuden_rules.modelcheck.information --config small-place-at-once --config secret-any-set \
		--golden tests/golden/information.json
	$(PY) -m hatsuden_rules.modelcheck.termination --golden tests/golden/termination.json

verify-variants-big: $(STAMP) ## Every reachable state of wide-any-set: three columns, flip sets of two plants (R41).
	$(PY) -m hatsuden_rules.modelcheck --config wide-any-set --golden tests/golden/modelcheck.json

vectors: $(STAMP) ## Rebuild the conformance suite (conformance/) and the generated tables of CONFORMANCE.md.
	$(PY) -m tools.vectors.generate --out conformance --doc CONFORMANCE.md --root .

# BALANCE_ARGS adds options, e.g. make balance BALANCE_ARGS="--backend ray --address auto".
BALANCE_ARGS ?=

balance: $(STAMP) ## BALANCE.md: 10,000 Greedy and 10,000 ISMCTS (50 iterations) self-play games; about 40 min on 2 cores.
	$(PY) examples/balance.py --games 10000 --ismcts-games 10000 --ismcts ismcts:iterations=50 --seed 2017 --cache $(VENV)/balance-cache --output BALANCE.md $(BALANCE_ARGS)

nightly: $(STAMP) ## The property tests with many more examples (Hypothesis "nightly" profile).
	HYPOTHESIS_PROFILE=nightly $(PY) -m pytest property_tests

# mutmut over the rules core in two stages (tools/mutation_core.py, MUTATION.md): every mutant
# against the rules' fast tests, the survivors against mutmut's whole test selection; each stage
# in its own copy of the committed tree under build/mutation/, kept, so a second run continues.
mutation: $(STAMP) ## Mutation testing of the rules core with mutmut, in two stages (about an hour; a second run continues).
	$(PY) -m pip install --quiet -e '.[dev,mutation]'
	$(PY) -m tools.mutation_core run

.PHONY: native native-check verify-native verify-native-check verify-native-ray

# The native core (issue 20): the Rust crates in native/, the PyO3 binding native/hatsuden-py built
# by maturin into the abi3 wheel hatsuden-native (needs cargo and maturin; `make demo` does not).
MATURIN     ?= $(VENV)/bin/maturin
NATIVE_PY   := native/hatsuden-py/Cargo.toml
NATIVE_DIST := dist-native
NATIVE_TMP  := build/native-check

native: $(CORE) ## Build the native wheel (release, abi3) into dist-native/ and install it into .venv (hatsuden-native-adapter on .venv/bin).
	test -x $(MATURIN) || $(PY) -m pip install --quiet 'maturin>=1.5,<2'
	rm -rf $(NATIVE_DIST)
	$(MATURIN) build --release --quiet -m $(NATIVE_PY) --out $(NATIVE_DIST) -i $(PY)
	$(PY) -m pip install --quiet --force-reinstall --no-deps $(NATIVE_DIST)/hatsuden_native-*.whl

native-check: $(STAMP) native ## cargo fmt, clippy and test; the checker with the test-only fault-injection feature (for pytest); then the pure and native wheels in a fresh venv pass every conformance vector.
	cd native && cargo fmt --all --check
	cd native && cargo clippy --workspace --all-targets -- -D warnings
	cd native && cargo test --workspace --release
	$(PY) -m tests.native.fault_build
	rm -rf $(NATIVE_TMP) && mkdir -p $(NATIVE_TMP)
	$(PY) -m build --wheel --outdir $(NATIVE_TMP)/wheels .
	$(MATURIN) build --release --quiet -m $(NATIVE_PY) --out $(NATIVE_TMP)/wheels -i $(PY)
	$(PYTHON) -m venv $(NATIVE_TMP)/venv
	$(NATIVE_TMP)/venv/bin/python -m pip install --quiet $(NATIVE_TMP)/wheels/*.whl
	cd $(NATIVE_TMP) && PATH="$$PWD/venv/bin:$$PATH" venv/bin/python -c \
		"import hatsuden_rules.native as n; n.load(); import sys; assert 'hatsuden_native' in sys.modules"
	cd $(NATIVE_TMP) && PATH="$$PWD/venv/bin:$$PATH" hatsuden-conformance --adapter hatsuden-native-adapter
	rm -rf $(NATIVE_TMP)

verify-native-check: $(STAMP) native ## Both model checkers (--core python and native) on medium and medium-place-at-once: the same figures, events and verdicts (minutes each in Python); the native --symmetry on medium, large, choice and two variants gives the golden figures; the native ranked and breadth-first engines agree on large and choice.
	$(PY) -m tests.native.check_compare medium medium-place-at-once --workers 2
	cd native && cargo test --release -p hatsuden-check --test symmetry -- --ignored
	cd native && cargo test --release --quiet -p hatsuden-check --test ranked -- --ignored

verify-native-ray: $(STAMP) native ## The Ray backend (--core native --backend ray) on choice with 1, 2 and 4 workers on a local Ray: identical to one process; bytes sent and time per state.
	$(PY) -m tests.native.verify_ray choice --workers 1 2 4

verify-native: $(STAMP) ## After make native: 10^4 seeded (and 10^3 explicit) random games per named rule set identical on both cores; the differential tests with the nightly profile.
	$(PY) -m tests.native.verify_native --games 10000 --explicit 1000
	HYPOTHESIS_PROFILE=nightly $(PY) -m pytest tests/native/test_differential.py

.PHONY: fuzz-native

# FUZZ_SECONDS per target; needs the nightly toolchain and cargo-fuzz (cargo install cargo-fuzz).
FUZZ_SECONDS ?= 300
fuzz-native: ## cargo fuzz: the crate's notation and JSON readers never panic and round-trip (FUZZ_SECONDS per target, default 300).
	python3 native/fuzz/seed_corpus.py conformance native/fuzz/corpus
	cd native/fuzz && for target in notation json; do \
		cargo +nightly fuzz run $$target corpus/$$target -- -max_total_time=$(FUZZ_SECONDS) -max_len=4096 || exit 1; \
	done

.PHONY: svg-golden browser-tools browser-check screenshots site-check

svg-golden: $(STAMP) ## Rewrite the golden SVG pictures (tests/golden/svg/); review them before committing.
	$(PY) -m tests.support.svg_positions

# Headless Chromium and ChromeDriver from Debian's packages (installed here if missing, as root).
BROWSER_PACKAGES := chromium chromium-driver fonts-dejavu-core
browser-tools:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
		if [ "$$(id -u)" != 0 ]; then \
			echo "browser-check needs Debian's $(BROWSER_PACKAGES): install them as root"; exit 1; \
		fi; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(BROWSER_PACKAGES); \
	fi

browser-check: $(STAMP) browser-tools ## Step through a replay page in headless Chromium; screenshots in build/browser-check/ (not part of make test).
	$(PY) tools/browser_check.py --out build/browser-check

site-check: docs browser-tools ## The docs site opened from the disk (file://) in headless Chromium: search works, wide code scrolls; screenshots in build/site-check/.
	$(PY) -m tools.site_check --site site --out build/site-check

screenshots: $(STAMP) browser-tools ## browser-check, then copy its mid-game and end screenshots to docs/images/ (shown in the README).
	$(PY) tools/browser_check.py --out build/browser-check --docs docs/images

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis build dist site mutants $(NATIVE_DIST)

.PHONY: mutation-native mutation-native-score mutation-native-save

# cargo-mutants over the native rules crate (issue 21; native/.cargo/mutants.toml, MUTATION.md
# "Rust rules crate"), in three stages (tools/mutants_native.py): every mutant against the rules
# crate's integration tests, the ones they miss against its unit tests, then the ones both miss
# against the native model checker on small. Each
# shard works in its own disposable copy of native/, the vectors and the golden file (the
# crates' tests read ../../conformance and ../../tests/golden), mutated in place there and never
# in this tree; its outcomes accumulate in build/mutation-native/shard-K-of-N/results.tsv and a
# second run of the same shard continues it. `--shard k/n` (k from 0) takes every n-th mutant;
# two shards may run at once (two cores):
#   make mutation-native MUTANTS_SHARD=0/16 & make mutation-native MUTANTS_SHARD=1/16
# MUTANTS_ARGS=--retest-missed tests a shard's missed mutants again (after a new test).
# `make mutation-native-save` writes every outcome so far to native/mutants-outcomes.tsv with the
# git blob of each mutated source file: committed, it lets a run on another machine continue
# (the mutants of a file changed since are tested again).
MUTANTS_SHARD ?= 0/1
MUTANTS_ARGS  ?=
mutation-native: ## Mutation testing of the native rules crate with cargo-mutants (hours: shard it, MUTANTS_SHARD=k/n; make mutation-native-score sums the shards).
	@command -v cargo-mutants >/dev/null || { echo "cargo-mutants is not installed: cargo install --locked cargo-mutants"; \
		cargo install --locked cargo-mutants; }
	$(PYTHON) -m tools.mutants_native run $(MUTANTS_SHARD) $(MUTANTS_ARGS)

mutation-native-score: ## The outcomes of every shard of make mutation-native, summed (the score, the throughput).
	$(PYTHON) -m tools.mutants_native score --missed

mutation-native-save: ## Every outcome of make mutation-native so far into native/mutants-outcomes.tsv (commit it: another machine continues from it).
	$(PYTHON) -m tools.mutants_native save
