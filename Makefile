# make demo: install into .venv and run gitmem's main job in a throwaway repository.
# make test: install into .venv, then ruff, mypy --strict and the whole test suite.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install test lint dogfood demo hooks clean mutation

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.deps: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q ".[test,semantic]"
	touch $@

# The package itself is reinstalled every time (not editable), so the tests run against
# what a user installs, schemas and hook scripts included.
# The distribution was called gitmem before it had a name of its own (gitmem-cli): a .venv made
# then still holds it, whose leftover files would shadow the new ones, so it goes first.
install: $(VENV)/.deps
	@if $(BIN)/python -m pip show -q gitmem >/dev/null 2>&1; then \
		$(BIN)/python -m pip uninstall -q -y gitmem; fi
	$(BIN)/python -m pip install -q --no-deps --force-reinstall .

lint: install
	$(BIN)/ruff check gitmem tests bench
	$(BIN)/ruff format --check gitmem tests bench
	$(BIN)/mypy gitmem
	$(BIN)/lint-imports --no-logo

# gitmem's own memory (.gitmem/) must pass gitmem's own rules, history included.
dogfood: install
	$(BIN)/gitmem check
	$(BIN)/gitmem index --check
	$(BIN)/gitmem check --range "$$(git rev-list --max-parents=0 HEAD | tail -n 1)..HEAD"

# One worker per core, each taking whole test files (module fixtures are built once per file),
# the slowest files first (tests/conftest.py: HEAVIEST_FIRST) in the order the suite lists them.
JOBS ?= auto
test: lint dogfood
	$(BIN)/pytest -q -p no:cacheprovider -n $(JOBS) --dist loadfile --no-loadscope-reorder

# Mutation testing of the gate's modules (tests/mutation.py says how): on demand, never in CI.
# One run of each module's tests under coverage records which tests run which lines; each
# mutant then runs only those. Prints killed/counted per module and every surviving mutant.
# The equivalent mutants (no behaviour to change) are listed, with why, in tests/mutation.py.
mutation: install
	$(BIN)/python tests/mutation.py $(MODULES)

demo: install
	PATH="$(CURDIR)/$(BIN):$$PATH" bash tests/demo.sh

# The hook scripts in gitmem/hooks/scripts/ (and so hooks/) are renderings of
# gitmem/hooks/hook.tmpl: edit the template, then write them again.
hooks:
	PYTHONPATH=$(CURDIR) $(PYTHON) -m gitmem.hooks.template gitmem/hooks/scripts

clean:
	rm -rf $(VENV) build dist
