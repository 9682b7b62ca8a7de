# The commands a developer runs. `make ci` is what CI runs (bash .ci/run), from a fresh venv.
PYTHON ?= python
SHARED ?= ../shared

.PHONY: help dev format lint test test-python test-rust fuzz bench figures ci data wheel sdist docs

help:
	@echo "make dev | format | lint | test | test-python | test-rust | fuzz | bench | figures | ci | data | wheel | sdist | docs"

# The manylinux wheel: zig (the ziglang package) links against glibc 2.17's symbols, so the
# wheel runs on every x86-64 Linux with glibc 2.17 or newer; abi3, one wheel for CPython 3.10+.
wheel:  ## dist/perfectplay-*-cp310-abi3-manylinux_2_17_x86_64.whl, checked by auditwheel
	$(PYTHON) -m pip install -q "maturin>=1.9,<2" "ziglang==0.17.1" auditwheel twine
	# maturin finds zig through the ziglang package of the python on PATH: this one's.
	PATH="$$($(PYTHON) -c 'import os, sys; print(os.path.dirname(sys.executable))'):$$PATH" \
		$(PYTHON) -m maturin build --release --locked --zig --compatibility manylinux2014 --out dist
	$(PYTHON) -m auditwheel show dist/perfectplay-*manylinux*.whl
	$(PYTHON) -m twine check --strict dist/perfectplay-*manylinux*.whl
	# The opening books' data-only wheel (books/), one for every platform.
	$(PYTHON) -m pip wheel -q --no-deps ./books -w dist
	$(PYTHON) -m twine check --strict dist/perfectplay_books-*-py3-none-any.whl

sdist:  ## dist/perfectplay-*.tar.gz: the crate and the package, nothing else
	$(PYTHON) -m pip install -q "maturin>=1.9,<2" twine
	$(PYTHON) -m maturin sdist --out dist
	$(PYTHON) -m twine check --strict dist/perfectplay-*.tar.gz

dev:  ## install the package in place with the development tools
	$(PYTHON) -m pip install ./books -e '.[dev]' --config-settings=build-args=--features=testing

format:
	cargo fmt
	ruff format python tests benches docs
	ruff check --fix python tests benches docs

lint:
	cargo fmt --check
	cargo clippy --all-targets --all-features -- -D warnings
	cargo clippy --all-targets --no-default-features -- -D warnings
	ruff check python tests benches docs
	ruff format --check python tests benches docs
	mypy
	$(PYTHON) -m mypy.stubtest perfectplay._core
	lint-imports

test-rust:  ## every core without Python
	cargo test --release --no-default-features

test:  ## both backends, warnings are errors
	$(PYTHON) -m pytest

test-python:  ## the API tests on the pure twin only
	PERFECTPLAY_BACKEND=python $(PYTHON) -m pytest

fuzz:  ## both fuzz targets (arguments; files, threads, programs), longer than in the test run
	$(PYTHON) tests/fuzz_arguments.py --examples 5000
	$(PYTHON) tests/fuzz_files.py --examples 2000

bench:
	$(PYTHON) -m pytest benches/test_bench_tictactoe.py benches/test_bench_mnk.py benches/test_bench_footholds.py -n 0 -W ignore --benchmark-columns=median,iqr,rounds

figures:  ## the figures a change must not slow down
	$(PYTHON) benches/core_figures.py

ci:
	bash .ci/run

data:  ## copy the shared test data (computed by an independent solver) into tests/data
	cp $(SHARED)/cases/tictactoe.jsonl $(SHARED)/cases/footholds.jsonl $(SHARED)/cases/judge_samples.json $(SHARED)/cases/connect4_wide.txt tests/data/

docs:  ## the documentation site (docs/ and the docstrings) into site/, strictly
	$(PYTHON) -m mkdocs build --strict
