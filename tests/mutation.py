"""Mutation testing of the gate's modules: do the tests fail when the code is wrong?

    python tests/mutation.py                      # every mutant of every module below
    python tests/mutation.py gitmem/model/refused.py --jobs 2
    python tests/mutation.py --list gitmem/gate/history.py   # the mutants, without running
    python tests/mutation.py --only gitmem/gate/history.py:960:drop-not --tests TEST ...
    python tests/mutation.py --sample 5 --check-selection    # selection against all tests

`make mutation` runs it; it is never part of `make test`. For each module it makes one mutant
per operator site (below), copies the package with that one change into a scratch folder, and
runs tests against the copy (PYTHONPATH first, so in-process tests, the gitmem command and the
hooks git runs all import the mutant), stopping at the first failure. A mutant is killed when
a test fails (or the run times out, or runs out of MEMORY_LIMIT), survives when all pass.

Which tests: first, one run of the module's tests (MODULES) under coverage records, per test,
the module's lines it runs, in the pytest process and in every Python process it starts (the
gitmem commands, the hooks of `git push` to a bare remote): a sitecustomize.py in the scratch
copy starts coverage there with the test from PYTEST_CURRENT_TEST as its context. The map is
cached in the user's cache folder (gitmem-mutation/), keyed by the hash of the package, the
module's tests and the shared fixtures; any change to them records it again. Each mutant then
runs only the tests that run its statement, in one pytest run that stops at the first failure:
first a test that killed a mutant nearby, then the tests by mutants killed per second (this
run's kills and those its module's journals hold), then the fastest. A mutant on a line no
test runs survives without running ("not covered"), and one on a line run outside any test
(at import, while collecting) runs them all. Code run only in a forked child
(gitmem.parallel) is not recorded there, but the same functions run in the parent too.
`--all-tests` runs every mutant against all of the module's tests (the old, slow way);
`--check-selection` runs a sample both ways and prints how many agree.

Operators, chosen to make each mutant a plausible bug rather than noise: a comparison flipped
(`==`/`!=`, `<`/`>=`, `>`/`<=`, `in`/`not in`, `is`/`is not`), `and`/`or` swapped, a `not`
dropped, `True`/`False` swapped, `+`/`-` swapped, a statement
that only calls something (`j.add(…)`, `problems.append(…)`) removed, `continue`/`break`
swapped, and an `if` whose body is left out (its test made False). Docstrings and the lines of
EQUIVALENT (mutants that cannot change behaviour, each with the reason) are not counted.

A run that is stopped loses nothing: each mutant's outcome is appended, as it is known, to a
journal (in the same cache folder, or `--journal FILE`) whose first line is the key of what
the outcomes depend on (the map's key, this runner, the tests chosen, the timeout); the same
command on the same code and tests takes the outcomes it finds there and runs only the rest,
so a long run can span several sittings, or machines, and still print the score of one
version of the code. A journal of another key is refused; `--fresh` starts it anew.

A mutant that makes a test loop (often in a server hook the test's push runs) is stopped at
that test's limit, 30 s plus ten times what the test took in the coverage run, and counts as
killed by a timeout; whatever the run started is killed with it (its own process group).

`--sample N` runs N mutants a module drawn at random with a fixed seed: the score is then an
estimate, said as such. Prints, per module, killed / counted and the score, then every survivor as
`path:line: operator` (`compare-0/2` for a line's second mutant of that operator: EQUIVALENT
names each on its own) so that each asks for a test, or for a line in EQUIVALENT; `--only`
with `--tests` then shows whether a new test kills it.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _each(module: str, reason: str, *sites: tuple[str, str]) -> dict[tuple[str, str, str], str]:
    """EQUIVALENT entries of one module that share one reason: (line text, operator) each."""
    return {(module, text, operator): reason for text, operator in sites}


#: module -> the tests that judge it (fast ones first)
MODULES: dict[str, list[str]] = {
    "gitmem/model/refused.py": ["tests/model/test_refused.py", "tests/gate/test_check.py"],
    "gitmem/model/allowed.py": [
        "tests/model/test_allowed.py",
        "tests/gate/test_check.py",
        "tests/gate/test_attacks.py",
    ],
    "gitmem/settings/policy.py": [
        "tests/settings/test_policy.py",
        "tests/hooks/test_installer.py",
        "tests/gate/test_attacks.py",
    ],
    "gitmem/index/indexmd.py": [
        "tests/index/test_indexmd.py",
        "tests/lifecycle/test_admit.py",
        "tests/gate/test_attacks.py",
    ],
    "gitmem/gate/scanner.py": ["tests/gate/test_scanner.py", "tests/gate/test_history.py"],
    "gitmem/gate/check.py": ["tests/gate/test_check.py", "tests/gate/test_warn.py"],
    "gitmem/gate/rules.py": [
        "tests/gate/test_check.py",
        "tests/model/test_refused.py",
        "tests/gate/test_attacks.py",
        "tests/gate/test_history.py",
    ],
    "gitmem/gate/history.py": [
        "tests/gate/test_attacks.py",
        "tests/gate/test_history_entry_points.py",
        "tests/gate/test_history_edges.py",
        "tests/gate/test_history.py",
        "tests/gate/test_history_model.py::test_the_model_refuses_what_it_must_and_accepts_the_flo"
        "w",
        "tests/lifecycle/test_admit.py",
        "tests/lifecycle/test_bootstrap.py::"
        "test_a_clone_of_an_empty_remote_is_told_to_push_main_before_the_candidate",
    ],
}

#: Mutants that cannot change what the code does, as (module, "function: the mutated line's
#: text", operator): why. Keyed by the text, not the line number, so that an edit above a line
#: does not move its entry onto another; an entry that matches no mutant is reported.
EQUIVALENT: dict[tuple[str, str, str], str] = {
    **_each(
        "gitmem/gate/history.py",
        "a file looked up in the commit's tree instead of its diff (or its diff computed first): "
        "the same file",
        ("_file_at: if key in j.changes or key in j.streamed:", "compare-0"),
        ("_file_at: if key in j.changes or key in j.streamed:", "compare-0/2"),
    ),
    **_each(
        "gitmem/gate/history.py",
        "the INDEX.md bytes of a commit that changed no entry not remembered: a cache; its child "
        "reads them from the tree, where they were proven to be",
        ("_index_proven: if parent is not None and commit not in j.index_bytes:", "compare-0"),
        ("_index_proven: if parent is not None and commit not in j.index_bytes:", "compare-0/2"),
        ("_index_proven: if parent is not None and commit not in j.index_bytes:", "skip-if"),
        ("_index_proven: _remember_index(j, commit, previous)", "drop-call"),
    ),
    **_each(
        "gitmem/gate/history.py",
        "a commit without a memory folder: both callers ask only of a commit that has one (the "
        "chain's guard; the scan asks about an INDEX.md the commit adds, which it cannot)",
        ("_index_proven: if memory is None:", "skip-if"),
        ("_index_proven: proven = True", "flip-bool"),
    ),
    (
        "gitmem/gate/history.py",
        "_index_proven: elif not entries and not any(c.path == index_path for c in changes):",
        "skip-if",
    ): (
        "the fast path of a commit that changes no entry and not INDEX.md: brought up to date "
        "with nothing, the parent's INDEX.md is itself, the same verdict"
    ),
    ("gitmem/gate/history.py", "_remember_index: if len(j.index_bytes) >= 4:", "skip-if"): (
        "INDEX.md versions never evicted from their cache: memory only"
    ),
    ("gitmem/gate/history.py", "at: ctx.scan_secrets = False", "flip-bool"): (
        "the tip's file rules scanning for secrets again: TipRules._report drops SECRET and "
        "HIDDEN-UNICODE, which every commit's scan reported already"
    ),
    (
        "gitmem/gate/history.py",
        "entry: if path in self.done or (entry := self.j.parsed.get(oid)) is None:",
        "compare-0",
    ): (
        "an entry not judged at its admission: TipRules.finish judges it with check_paths, the "
        "same rules over the same file"
    ),
    ("gitmem/gate/history.py", "_index_proven: if commit in j.proven:", "skip-if"): (
        "the memo of a commit's INDEX.md verdict: worked out again from the same commit and its "
        "parent's INDEX.md, the same verdict (the parent's bytes differ from its proven ones "
        "only when its own INDEX.md was reported already)"
    ),
    ("gitmem/gate/history.py", "_push_allowed_for: if not j.push_allowed:", "skip-if"): (
        "the fast path of a push whose admit merges allowed nothing: the look-up in the empty "
        "dictionary gives the same empty set"
    ),
    ("gitmem/gate/history.py", "_blob: _keep_blob(j, oid, data)", "drop-call"): (
        "a blob's bytes not kept: a cache; the next reader reads the same bytes from the store"
    ),
    **_each(
        "gitmem/gate/history.py",
        "the blob cache's bound: a cache kept past its size (memory only) or never kept (each "
        "reader reads the same bytes from the store)",
        *(
            ("_keep_blob: if j.blob_bytes + len(data) <= BLOB_CACHE_BYTES:", operator)
            for operator in ("skip-if", "add-sub", "compare-0")
        ),
    ),
    **_each(
        "gitmem/gate/history.py",
        "refused.md / allowed.md versions never evicted from their cache: memory only",
        ("_appended_bytes: if len(j.appended) >= 4:", "skip-if"),
        ("_appended_bytes: j.appended.pop(next(iter(j.appended)))", "drop-call"),
    ),
    (
        "gitmem/gate/history.py",
        "_remember_index: j.index_bytes.pop(next(iter(j.index_bytes)))",
        "drop-call",
    ): ("the cache of proven INDEX.md bytes not trimmed: more memory, the same answers"),
    (
        "gitmem/gate/history.py",
        "_index_of: while seen not in j.index_bytes:",
        "compare-0",
    ): (
        "a base INDEX.md read from the commit's tree instead of the bytes proven for it or an "
        "ancestor with the same memory folder: on the memory branch each INDEX.md is proven to be "
        "those bytes, back to the trusted base, or the push is refused there already"
    ),
    ("gitmem/gate/history.py", "_judge_main_commit: if not changes:", "skip-if"): (
        "a commit that changes no memory file judged on: the nothing kind explains it, and its "
        "INDEX.md, its parent's, is proven as such"
    ),
    (
        "gitmem/gate/history.py",
        "_judge_admission: _keep_blob(j, item.oid, derived)  # the candidate's own scan reads it "
        "from here",
        "drop-call",
    ): (
        "the candidate's bytes derived from the admitted text not kept: its scan reads them from "
        "the store, the same bytes"
    ),
    (
        "gitmem/gate/history.py",
        "_judge_admission: if max(len(candidate), len(admitted)) > SCAN_CAP or not "
        "is_candidate_text(",
        "compare-0",
    ): (
        "the fast text comparison of candidate and admitted entry skipped for small files: "
        "_judge_candidate_text compares them parsed, the same verdict"
    ),
    (
        "gitmem/gate/history.py",
        "holds: if self.old is None or not self.j.store.is_ancestor(commit, self.old):",
        "skip-if",
    ): (
        "the fast no for a commit old cannot reach: the walk of old's chain never meets it and "
        "says no too"
    ),
    (
        "gitmem/gate/history.py",
        "holds: if self.old is None or not self.j.store.is_ancestor(commit, self.old):",
        "and-or",
    ): ("the same fast no taken only with no old tip: the walk says no for the others"),
    ("gitmem/gate/history.py", "holds: self.current, self.started = self.old, True", "flip-bool"): (
        "the walk started again from old at every question: the commits it has seen are kept, the "
        "same answers, more steps"
    ),
    (
        "gitmem/gate/history.py",
        "holds: while commit not in self.seen and self.current is not None:",
        "and-or",
    ): ("the walk goes on to the chain's end once it met the commit: the same answer"),
    ("gitmem/gate/history.py", "finish: self.entry(path, item.oid)", "drop-call"): (
        "the fast path for an entry parsed already: left out, check_paths judges the same file "
        "from the snapshot, with the same rules"
    ),
    (
        "gitmem/gate/history.py",
        "_index_proven: if parent is not None and commit not in j.index_bytes:",
        "and-or",
    ): ("the INDEX.md bytes of a root commit or one remembered already remembered again: a cache"),
    (
        "gitmem/gate/history.py",
        "_judge_updates: _prefetch_changes(judge_, [c for _, walked in walks if walked for c in "
        "walked[1]])",
        "drop-call",
    ): (
        "no diff stream for a big push: each commit's diff is computed alone, the same changes "
        "(Store.diff_stream is held equal to Store.diff by tests/repo)"
    ),
    (
        "gitmem/gate/history.py",
        "check_pre_push: if u.ref == policy.main_ref and not store.has_object(u.old)",
        "and-or",
    ): (
        "every update whose old tip this clone lacks, and main's whatever: another ref's old tip "
        "is only a commit left out of its walk, and main's remote tip, put there instead, is left "
        "out already (exclude); for main with a known old tip, remote_tip gives that same tip"
    ),
    ("gitmem/gate/history.py", "_check_variants: if not found:", "skip-if"): (
        "no variant in the commit: the loop over none finds none either, only the parent is read"
    ),
    ("gitmem/gate/history.py", "_variants: if cached is not None:", "skip-if"): (
        "a tree's variants kept per push: without them they are read again, the same"
    ),
    (
        "gitmem/gate/history.py",
        "_scan_changes: if appended and change.old is not None:",
        "skip-if",
    ): (
        "refused.md or allowed.md scanned whole, not only its appended rows: the old rows were "
        "scanned when they came; the same findings at the same lines"
    ),
    (
        "gitmem/gate/history.py",
        "_scan_changes: if data.startswith(before):  # append-only: only the new rows need a scan",
        "skip-if",
    ): ("as the skip of the `if` above it"),
    ("gitmem/gate/history.py", ": @dataclass(frozen=True)", "flip-bool"): (
        "@dataclass(frozen=True) on Update and ChangeKind: no code assigns to one or hashes one"
    ),
    ("gitmem/gate/history.py", "_walk: if update.new == ZERO:", "skip-if"): (
        "a deletion's walk: Store.resolve of the zero id is None, which returns the same None"
    ),
    (
        "gitmem/gate/history.py",
        "_walk: j.commits.update((info.oid, info) for info in infos)",
        "drop-call",
    ): ("the walk's commits kept for Judge.commit: without them it reads each from the store"),
    ("gitmem/gate/history.py", "_prefetch_changes: if len(pairs) < BULK_DIFF_MIN:", "skip-if"): (
        "a small push's diffs from one git process too: the same changes (Store.diff_stream is "
        "held equal to Store.diff by tests/repo), only a process more"
    ),
    ("gitmem/gate/history.py", "_prefetch_changes: if len(pairs) < BULK_DIFF_MIN:", "compare-0"): (
        "the stream for small pushes and diffs one by one for big ones: the same changes"
    ),
    (
        "gitmem/gate/history.py",
        "_prefetch_changes: if all(j.memory_tree(c) == j.memory_tree(p) for c, p in pairs):",
        "skip-if",
    ): ("a push of code alone streamed anyway: every diff is empty, the same changes"),
    (
        "gitmem/gate/history.py",
        "_prefetch_changes: j.changes.update((key, []) for key in pairs)  # code only: no git "
        "process to start",
        "drop-call",
    ): ("the empty diffs of a code-only push not kept: each is computed again, empty"),
    ("gitmem/gate/history.py", "_prefetch_changes: j.streamed.update(pairs)", "drop-call"): (
        "the stream started but never read: each diff is computed alone, the same changes"
    ),
    (
        "gitmem/gate/history.py",
        "_streamed: while key not in j.changes and j.stream is not None:",
        "and-or",
    ): ("the stream read to its end at the first question: the same changes, read sooner"),
    ("gitmem/gate/history.py", "_streamed: j.stream.close()", "drop-call"): (
        "closing a generator that has ended: it does nothing"
    ),
    ("gitmem/gate/history.py", "_scan_changes: j.scanned.add(new.oid)", "drop-call"): (
        "one blob at two paths of a push scanned at each: its findings named at both, the same "
        "verdict"
    ),
    (
        "gitmem/gate/history.py",
        "_judge_updates: judge_.stream.close()  # stops git if a failure left diffs unread",
        "drop-call",
    ): ("as the skip of its `if`: the generator closes itself when freed"),
    ("gitmem/gate/history.py", "_judge_updates: if judge_.scanner is not None:", "skip-if"): (
        "stopping the scan worker in the finally: on the way out of a judge that did not fail, "
        "results() has waited for it already; a judge that failed ends its process (every gate is "
        "a hook or a command), whose exit closes the pipes the worker reads, so it ends"
    ),
    ("gitmem/gate/history.py", "_judge_updates: judge_.scanner.close()", "drop-call"): (
        "as the skip of its `if`"
    ),
    ("gitmem/model/refused.py", ": @dataclass(frozen=True)", "flip-bool"): (
        "@dataclass(frozen=True) on Refusal: no code assigns to a refusal or hashes one"
    ),
    ("gitmem/model/allowed.py", ": @dataclass(frozen=True)", "flip-bool"): (
        "@dataclass(frozen=True) on Allowance: no code assigns to a row or hashes one"
    ),
    ("gitmem/index/indexmd.py", "update: if spliced is not None:", "skip-if"): (
        "the splice into the text is a fast path to what splitting the lines and rendering "
        "them gives (test_a_few_lines_spliced_into_the_text_are_what_rendering_writes)"
    ),
    (
        "gitmem/index/indexmd.py",
        "_spliced_text: if sum(map(len, by_type.values())) > TEXT_SPLICE_MAX"
        " or not text.startswith(_HEADER_BYTES):",
        "skip-if",
    ): (
        "the size and header guard of the text splice: update() checked the header already, "
        "and a longer splice gives the same text, only slower"
    ),
    (
        "gitmem/index/indexmd.py",
        "_spliced_text: if sum(map(len, by_type.values())) > TEXT_SPLICE_MAX"
        " or not text.startswith(_HEADER_BYTES):",
        "and-or",
    ): ("the same guard with `and`: the same text, only slower when many lines change"),
    ("gitmem/gate/history.py", ": if TYPE_CHECKING:", "skip-if"): (
        "`if TYPE_CHECKING:` is False when the code runs: the mutant is the same code"
    ),
    ("gitmem/gate/history.py", "_judge_updates: if judge_.stream is not None:", "skip-if"): (
        "closing the diff stream in the finally: the generator closes itself (and stops git) "
        "when the judge is freed at the end of judged(), by reference counting"
    ),
    (
        "gitmem/gate/history.py",
        "_judge_tagged_tree: if tree is None:  # a tag of a blob: no memory folder in it",
        "skip-if",
    ): ("a tag of a blob: without the early return the walk of no memory folder finds nothing"),
    ("gitmem/index/indexmd.py", ": @dataclass(frozen=True)", "flip-bool"): (
        "@dataclass(frozen=True) on IndexLine: no code assigns to a line or hashes one"
    ),
    ("gitmem/index/indexmd.py", '_groups: if raw.startswith("## "):', "skip-if"): (
        "headings not read: every entry line then has no section and the update regenerates "
        "INDEX.md from the tree, the same bytes"
    ),
    (
        "gitmem/index/indexmd.py",
        "index_fields: if found is None or not all(isinstance(v, str) for v in found.values()):",
        "drop-not",
    ): ("which reader reads the three fields: both give str() of the same values, YAML slower"),
    (
        "gitmem/index/indexmd.py",
        "update: if previous is None or not previous.startswith(_HEADER_BYTES):",
        "drop-not",
    ): (
        "an INDEX.md that is gitmem's regenerated instead of spliced: the same bytes, slower; "
        "one that is not takes the line-splitting way, which gives up and regenerates too"
    ),
    ("gitmem/model/refused.py", "similarity: if not words_a or not words_b:", "and-or"): (
        "a topic with no content words on one side only: the Dice sum then matches nothing "
        "and gives 0.0, what the early return gives"
    ),
    ("gitmem/gate/rules.py", ": @dataclass(frozen=True)", "flip-bool"): (
        "@dataclass(frozen=True) on Place: no code assigns to a place or hashes one"
    ),
    (
        "gitmem/gate/history.py",
        "_judge_candidate_branch: if memory is not None and commit not in j.outside:",
        "skip-if",
    ): (
        "a candidate commit's paths from the diff stream or from a diff of its own: the "
        "stream's fast path gives the same paths when git saw nothing outside the folder"
    ),
    (
        "gitmem/gate/scanner.py",
        "add: if len(self._batch) >= (BATCH if self._worker.parallel else 1):",
        "skip-if",
    ): (
        "when a batch is sent to the worker: kept until results() instead, the same items are "
        "scanned in the same order, only in one batch"
    ),
    (
        "gitmem/gate/scanner.py",
        "add: if len(self._batch) >= (BATCH if self._worker.parallel else 1):",
        "compare-0",
    ): (
        "when a batch is sent to the worker: every item at once instead of BATCH at a time, "
        "the same findings in the same order"
    ),
    ("gitmem/settings/policy.py", ": @dataclass(frozen=True)", "flip-bool"): (
        "@dataclass(frozen=True) on Policy: no code assigns to a policy or hashes one "
        "(with_allowed makes a new one)"
    ),
    ("gitmem/gate/history.py", "entry: if self.blobs is not None:", "skip-if"): (
        "the tip's blob of a path from the tree instead of the push's own map of them: the map "
        "holds what the tip's tree holds at each path it names"
    ),
    ("gitmem/gate/history.py", "entry: self.done.add(path)", "drop-call"): (
        "an entry judged at its admission judged again by TipRules.finish: the same problems "
        "a second time, which the report's set of problems holds once"
    ),
    (
        "gitmem/gate/history.py",
        'finish: if path not in self.done and self.snapshot.kind(path) != "missing":',
        "and-or",
    ): (
        "an entry judged at its admission judged again by check_paths: the same problems, "
        "which the report holds once (finish is given only paths the tip holds)"
    ),
    **_each(
        "gitmem/gate/history.py",
        "an admitted, amended or retired entry not judged by the tip's rules at its merge: "
        "TipRules.finish judges it with check_paths (every path a chain commit writes is "
        "handed to it), the same rules over the same file",
        ("_check_admit: step.tip.entry(own.path, own.new.oid)", "drop-call"),
        ("_check_in_place: step.tip.entry(own.path, own.new.oid)", "drop-call"),
    ),
    (
        "gitmem/gate/history.py",
        "_judge_settings_change: "
        "if [i.oid if i else None for i in items] == [p.oid if p else None for p in previous]:",
        "skip-if",
    ): (
        "the fast path of a commit that leaves the settings files as they were: their policies "
        "then read the same, and changed_keys finds no change"
    ),
    **_each(
        "gitmem/gate/history.py",
        "the candidate's bytes proven from the admitted text (a fast path): not taken, the "
        "candidate's blob is read and compared instead, the same verdict; and its bytes are "
        "kept for the scan only when they are the blob's own (blob_id equal)",
        (
            "_judge_admission: derived = candidate_text(entry, admitted) "
            "if len(admitted) <= SCAN_CAP else None",
            "compare-0",
        ),
        *(
            (
                "_judge_admission: if derived is not None and item.oid not in j.blobs and "
                "j.store.blob_id(derived) == item.oid:",
                operator,
            )
            for operator in ("skip-if", "compare-0", "compare-0/2")
        ),
    ),
    **_each(
        "gitmem/gate/history.py",
        "_file_at's fast path (the file from the commit's own changes) not taken: the tree "
        "look-up finds the same file",
        ("_file_at: if key in j.changes or key in j.streamed:", "skip-if"),
        ("_file_at: if key in j.changes or key in j.streamed:", "and-or"),
        ("_file_at: if found is not None:", "skip-if"),
    ),
    ("gitmem/gate/history.py", "_net_changes: if old_memory is None:", "skip-if"): (
        "no old memory folder diffed as an empty one: every file an addition, which the "
        "rewrite's net judge passes over, and the tip's blob map then holds the tree's blobs"
    ),
    ("gitmem/gate/history.py", "_chain: chain.reverse()", "drop-call"): (
        "the chain commits the receiver had judged newest first: each is judged against its "
        "own first parent, whatever the order (which only decides which caches are warm)"
    ),
    ("gitmem/gate/history.py", "_judge_main: if net is not None:", "skip-if"): (
        "the tip's rules without the push's map of the tip's blobs: they look each path up in "
        "the tip's tree, which holds the same blobs"
    ),
    ("gitmem/gate/history.py", "_judge_main: side.clear()", "drop-call"): (
        "side commits scanned again with each later commit of the chain: the same findings, "
        "which the report holds once"
    ),
    ("gitmem/gate/history.py", "_judge_main: _scan_commit(j, left)", "drop-call"): (
        "the scan of side commits left after the last chain commit: none are, as the commits "
        "come oldest first (Store.new_commits) and the pushed tip is on the chain; the loop "
        "keeps every side commit scanned whatever the order"
    ),
    **_each(
        "gitmem/gate/history.py",
        "a candidate branch's file judged by TipRules.finish (check_paths) instead of from the "
        "blob parsed already: the same rules over the same file",
        (
            "_judge_candidate_branch: if item.is_file:  # judged from the blob the scan read "
            "and parsed, no more look-ups",
            "skip-if",
        ),
        ("_judge_candidate_branch: _parse_blob(j, item.oid)", "drop-call"),
        ("_judge_candidate_branch: tip.entry(own, item.oid)", "drop-call"),
    ),
    **_each(
        "gitmem/gate/history.py",
        "the tip's fast path in TipRules.finish not taken: check_paths judges the same file by "
        "the same rules (only a path the tip holds as a file reaches it)",
        *(
            ("finish: if item is not None and item.is_file:", operator)
            for operator in ("skip-if", "and-or", "compare-0")
        ),
    ),
}


@dataclass(frozen=True)
class Mutant:
    path: str
    line: int
    col: int
    operator: str
    #: the module's text before the change (`source` makes the change from it)
    original: str = field(repr=False)
    #: EQUIVALENT's key: the function holding the line, and the line's text
    #: ("_walk: if update.new == ZERO:"), "" for the function at the top level
    text: str = ""
    #: the lines whose execution reaches the mutated code: the statement it sits in (for a
    #: compound statement, its header only); the tests that run one of them are the ones run
    reach: tuple[int, int] = (0, 0)
    #: run when the module is imported (a class body, the top level): by every test
    at_import: bool = False
    #: which of the line's mutants with this operator it is, in the line's order (two
    #: comparisons on one line are two mutants, each equivalent or not on its own)
    nth: int = 1
    #: where the mutated node ends on its line, and its type: with line and col, what finds
    #: it again in a fresh parse of the module
    end_col: int = 0
    kind: str = ""

    @property
    def source(self) -> str:
        """The module with this one change, made when the mutant runs (a listing, or the check
        of EQUIVALENT against the mutants, needs none: unparsing a module per mutant is most
        of the time it takes to make them all)."""
        fresh = ast.parse(self.original)
        twin = next(
            n
            for n in ast.walk(fresh)
            if type(n).__name__ == self.kind
            and getattr(n, "lineno", None) == self.line
            and getattr(n, "col_offset", None) == self.col
            and getattr(n, "end_col_offset", None) == self.end_col
        )
        return ast.unparse(ast.fix_missing_locations(_Apply(twin, self.operator).visit(fresh)))

    @property
    def label(self) -> str:
        """The operator as printed and keyed: `compare-0`, or `compare-0/2` for the second."""
        return self.operator if self.nth == 1 else f"{self.operator}/{self.nth}"

    @property
    def key(self) -> tuple[str, str, str]:
        """What EQUIVALENT names it by: module, the mutated line's text, operator label."""
        return (self.path, self.text, self.label)

    @property
    def name(self) -> str:
        return f"{self.path}:{self.line}:{self.label}"


_SWAP: dict[type, type] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                first = body[0]
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def _sites(tree: ast.AST) -> Iterator[tuple[ast.AST, str]]:
    """(node, operator name) for every place a mutation applies."""
    annotations: set[int] = set()
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            if isinstance(node, ast.AnnAssign | ast.arg) and child is getattr(
                node, "annotation", 0
            ):
                annotations.update(id(n) for n in ast.walk(child))
            if isinstance(node, ast.FunctionDef) and child is node.returns:
                annotations.update(id(n) for n in ast.walk(child))
    for node in ast.walk(tree):
        if id(node) in annotations:
            continue
        if isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                if type(op) in _SWAP:
                    yield node, f"compare-{index}"
        elif isinstance(node, ast.BoolOp):
            yield node, "and-or"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "drop-not"
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            yield node, "flip-bool"
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            yield node, "add-sub"
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            yield node, "drop-call"
        elif isinstance(node, ast.Continue | ast.Break):
            yield node, "continue-break"
        elif isinstance(node, ast.If):
            yield node, "skip-if"


class _Apply(ast.NodeTransformer):
    def __init__(self, target: ast.AST, operator: str) -> None:
        self.target, self.operator = target, operator

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if node is not self.target:
            return node
        op = self.operator
        if op.startswith("compare-") and isinstance(node, ast.Compare):
            index = int(op.split("-")[1])
            node.ops[index] = _SWAP[type(node.ops[index])]()
        elif op == "and-or" and isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif op == "drop-not" and isinstance(node, ast.UnaryOp):
            return node.operand
        elif op == "flip-bool" and isinstance(node, ast.Constant):
            node.value = not node.value
        elif op == "add-sub" and isinstance(node, ast.BinOp):
            node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
        elif op == "drop-call":
            return ast.Pass()
        elif op == "continue-break":
            return ast.Break() if isinstance(node, ast.Continue) else ast.Continue()
        elif op == "skip-if" and isinstance(node, ast.If):
            node.test = ast.Constant(False)
        return node


def _reach(tree: ast.AST, node: ast.AST) -> tuple[int, int]:
    """The lines of the innermost statement holding node (a compound one: its header, up to
    its body), which coverage records as run when the mutated code can run."""
    line = getattr(node, "lineno", 0)
    best: ast.stmt | None = None
    for stmt in ast.walk(tree):
        if not isinstance(stmt, ast.stmt) or not stmt.lineno <= line <= (stmt.end_lineno or 0):
            continue
        if best is None or (stmt.end_lineno or 0) - stmt.lineno <= (
            (best.end_lineno or 0) - best.lineno
        ):
            best = stmt
    if best is None:
        return (line, line)
    body = getattr(best, "body", None)
    if isinstance(body, list) and body and body[0].lineno > line:
        return (best.lineno, body[0].lineno - 1)
    return (min(best.lineno, line), best.end_lineno or line)


def _functions(tree: ast.AST, count: int) -> list[tuple[str, bool]]:
    """For each line (1-based), the name of the innermost function or class holding it (""
    at the top level), and whether that is a function: a line that is not in one runs when
    the module is imported."""
    names = [("", False)] * (count + 2)
    defs = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    ]
    for node in sorted(defs, key=lambda n: n.lineno):  # inner ones start later: they win
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
            names[line] = (node.name, not isinstance(node, ast.ClassDef))
    return names


def mutants(path: str) -> list[Mutant]:
    source = (ROOT / path).read_text(encoding="utf-8")
    tree = ast.parse(source)
    skipped = _docstring_lines(tree)
    lines = source.splitlines()
    functions = _functions(tree, len(lines))
    out = []
    for node, operator in list(_sites(tree)):
        line = getattr(node, "lineno", 0)
        if line in skipped or "pragma: no mutate" in lines[line - 1]:
            continue
        col = getattr(node, "col_offset", 0)
        reach = _reach(tree, node)
        function, in_function = functions[line]
        text = f"{function}: {lines[line - 1].strip()}"
        mutant = Mutant(path, line, col, operator, source, text, reach, not in_function)
        end_col = getattr(node, "end_col_offset", 0)
        out.append(dataclasses.replace(mutant, end_col=end_col, kind=type(node).__name__))
    seen: dict[tuple[int, str], int] = {}
    numbered = []
    for mutant in sorted(out, key=lambda m: (m.line, m.col)):
        seen[mutant.line, mutant.operator] = nth = seen.get((mutant.line, mutant.operator), 0) + 1
        numbered.append(dataclasses.replace(mutant, nth=nth))
    return numbered


# The coverage run's two helpers, written into its scratch copy (never into the repository).
# sitecustomize.py starts coverage in every Python process whose PYTHONPATH holds the copy: the
# pytest process, the gitmem command a test runs and the hooks `git push` runs on a bare
# remote. A subprocess takes the test it runs for from PYTEST_CURRENT_TEST, which pytest sets
# in its environment and which the subprocess inherits; the pytest process switches to each
# test's id as the test starts (the plugin), so code run while collecting has no test ("").
# The variables' names start with neither GITMEM_ nor GIT_, which the tests' isolation clears.
_SITECUSTOMIZE = """\
import atexit
import os

if os.environ.get("MUTATION_COVERAGE_DATA"):
    import coverage

    _test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
    _cov = coverage.Coverage(
        data_file=os.environ["MUTATION_COVERAGE_DATA"],
        data_suffix=True,
        include=[os.environ["MUTATION_COVERAGE_MODULE"]],
        context=_test,
        config_file=False,
    )
    _cov.start()

    def _save():
        _cov.stop()
        _cov.save()

    atexit.register(_save)
"""

_PLUGIN = """\
import json
import os

import coverage

_durations = {}


def pytest_runtest_logstart(nodeid, location):
    current = coverage.Coverage.current()
    if current is not None:
        current.switch_context(nodeid)


def pytest_runtest_logreport(report):
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session, exitstatus):
    with open(os.environ["MUTATION_TEST_DURATIONS"], "w", encoding="utf-8") as out:
        json.dump(_durations, out)
"""


# The mutant runs' helper, also written into each scratch copy: a test that runs past its own
# limit (30 s plus ten times what it took in the coverage run) fails there, so a mutant that
# loops in a hook costs that test's limit, not the whole selection's; it leaves a note that the
# runner reports as a timeout, never as a test's failure.
_LIMITS = """\
import json
import os
import signal

import pytest

_limits = json.load(open(os.environ["MUTATION_TEST_LIMITS"], encoding="utf-8"))


class _Expired(BaseException):
    pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    limit = _limits.get(item.nodeid, _limits.get("", 300.0))

    def expired(signum, frame):
        with open(os.environ["MUTATION_TIMED_OUT"], "w", encoding="utf-8") as out:
            out.write(f"{item.nodeid} ran past {limit:.0f} s")
        raise _Expired(item.nodeid)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
"""


@dataclass
class Map:
    """Which tests run which lines of one module, from one coverage run of its tests."""

    lines: dict[int, set[str]]
    durations: dict[str, float]

    def tests(self, mutant: Mutant) -> list[str] | None:
        """The tests that run the mutant's statement, fastest first; None when code run outside
        any test (an import while collecting) reaches it, or it runs at import (a class body:
        the map may have seen the import only in the processes some tests start), so that
        every test may see it."""
        if mutant.at_import:
            return None
        found: set[str] = set()
        for line in range(mutant.reach[0], mutant.reach[1] + 1):
            found |= self.lines.get(line, set())
        if "" in found:
            return None
        return sorted(found, key=lambda t: (self.durations.get(t, 0.0), t))


def _cache_dir() -> Path:
    """A private folder of the user's cache (never the repository, never a shared /tmp name)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = base / "gitmem-mutation"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def _map_key(module: str) -> str:
    """The hash of what the map depends on: the package (the module and every caller of it),
    the module's test files, the tests' shared helpers (conftest.py files and the modules
    beside them that are not tests), and this runner's coverage helpers."""
    digest = hashlib.sha256((_SITECUSTOMIZE + _PLUGIN + "\n".join(MODULES[module])).encode())
    files = sorted((ROOT / "gitmem").rglob("*.py"))
    files += [ROOT / t.split("::")[0] for t in MODULES[module]]
    files += sorted((ROOT / "tests").rglob("conftest.py"))
    helpers = (ROOT / "tests").glob("*.py")
    files += sorted(
        p for p in helpers if not p.name.startswith("test_") and p.name != "mutation.py"
    )
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    digest.update(module.encode())
    return digest.hexdigest()[:24]


def _journal_key(module: str, tests: list[str], timeout: float) -> str:
    """What a run's outcomes depend on: the package and tests (the map's key), this runner,
    the tests it was given and its timeout."""
    runner = Path(__file__).read_bytes()
    what = "\0".join([_map_key(module), *tests, repr(timeout)]).encode() + runner
    return hashlib.sha256(what).hexdigest()[:24]


@dataclass
class Journal:
    """A run's outcomes, a JSON line each, after a first line naming the key they belong to:
    a run takes only a journal of its own key, so a score is always one version's."""

    path: Path
    key: str

    @classmethod
    def open(cls, module: str, key: str, path: Path | None, fresh: bool) -> Journal:
        """The journal at path (by default the cache folder's for this key), started anew
        when fresh or missing; one of another key is an error, never mixed in."""
        path = path or _cache_dir() / f"journal-{Path(module).stem}-{key}.jsonl"
        if path.exists() and not fresh:
            first = path.read_text(encoding="utf-8").partition("\n")[0]
            if first != json.dumps({"journal": key}):
                sys.exit(
                    f"{path} holds the outcomes of another version of the code, tests, runner "
                    "or options: give another --journal, or --fresh to start it again"
                )
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"journal": key}) + "\n", encoding="utf-8")
        return cls(path, key)

    def read(self, found: list[Mutant]) -> dict[str, Outcome]:
        """The outcomes it holds of these mutants (a line cut short by a kill is skipped)."""
        by_name = {m.name: m for m in found}
        known: dict[str, Outcome] = {}
        for line in self.path.read_text(encoding="utf-8").splitlines()[1:]:
            try:
                raw = json.loads(line)
            except json.JSONDecodeError:
                continue
            mutant = by_name.get(raw.get("name", ""))
            if mutant is not None:
                known[mutant.name] = Outcome(
                    mutant, bool(raw["killed"]), str(raw["by"]), float(raw["seconds"]),
                    bool(raw["covered"]),
                )  # fmt: skip
        return known

    def add(self, outcome: Outcome) -> None:
        record = {
            "name": outcome.mutant.name, "killed": outcome.killed, "by": outcome.by,
            "seconds": round(outcome.seconds, 1), "covered": outcome.covered,
        }  # fmt: skip
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")


def _kills_in_journals(module: str) -> Counter[str]:
    """How many of the module's mutants each test killed in every journal the cache holds
    (earlier versions of the code too): the order a new run tries its tests in."""
    kills: Counter[str] = Counter()
    for journal in _cache_dir().glob(f"journal-{Path(module).stem}-*.jsonl"):
        for line in journal.read_text(encoding="utf-8").splitlines():
            try:
                raw = json.loads(line)
            except json.JSONDecodeError:
                continue
            by = str(raw.get("by", ""))
            if raw.get("killed") and by and not by.startswith("("):
                kills[by] += 1
    return kills


def coverage_map(module: str) -> Map:
    """The module's map, from the cache or from one run of its tests under coverage."""
    cached = _cache_dir() / f"{Path(module).stem}-{_map_key(module)}.json"
    if cached.exists():
        raw = json.loads(cached.read_text(encoding="utf-8"))
        return Map({int(k): set(v) for k, v in raw["lines"].items()}, raw["durations"])
    import coverage  # the test extra's; only this mode needs it

    scratch = scratch_copy()
    try:
        (scratch / "sitecustomize.py").write_text(_SITECUSTOMIZE, encoding="utf-8")
        (scratch / "gitmem_mutation_contexts.py").write_text(_PLUGIN, encoding="utf-8")
        data = scratch / "coverage-data" / "run"
        data.parent.mkdir()
        env = {
            **os.environ,
            "PYTHONPATH": str(scratch),
            "PYTHONDONTWRITEBYTECODE": "1",
            "MUTATION_COVERAGE_DATA": str(data),
            "MUTATION_COVERAGE_MODULE": str(scratch / module),
            "MUTATION_TEST_DURATIONS": str(scratch / "durations.json"),
        }
        print(f"{module}: recording which tests run which lines (once per change) ...", flush=True)
        started = time.perf_counter()
        command = [*_PYTEST, "-p", "gitmem_mutation_contexts", *MODULES[module]]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{module}: the tests fail without any mutant:\n{done.stdout[-3000:]}")
        lines: dict[int, set[str]] = {}
        for part in data.parent.iterdir():
            one = coverage.CoverageData(basename=str(part))
            one.read()
            for measured in one.measured_files():
                if Path(measured).resolve() != (scratch / module).resolve():
                    continue
                for line, contexts in one.contexts_by_lineno(measured).items():
                    lines.setdefault(line, set()).update(contexts)
        durations = json.loads((scratch / "durations.json").read_text(encoding="utf-8"))
        print(f"  ... {time.perf_counter() - started:.0f} s", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    raw = {"lines": {k: sorted(v) for k, v in lines.items()}, "durations": durations}
    cached.write_text(json.dumps(raw), encoding="utf-8")
    return Map(lines, durations)


# -P: the source tree (the current folder) is not put before PYTHONPATH
_PYTEST = [sys.executable, "-P", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
_PYTEST += ["-k", "not every_gate_agrees"]

#: The address space a mutant's test run (and every process it starts) may take: a mutant
#: that loops appending to a list fails with MemoryError (killed) instead of filling a
#: shared machine's memory before the timeout.
MEMORY_LIMIT: int = 3 * 1024**3

# The limit is set in a small Python that then becomes pytest (exec), not in a preexec_fn,
# which is unsafe with the runner's threads.
_LIMITED = [
    sys.executable,
    "-c",
    "import os, resource, sys; "
    "resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1]))); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[2:]])",
    str(MEMORY_LIMIT),
]


@dataclass
class Outcome:
    mutant: Mutant
    killed: bool
    by: str = ""
    seconds: float = 0.0
    covered: bool = True


class Runner:
    """Runs mutants of one module, each in a scratch copy of the package: with a map, each
    mutant against the tests that run its statement only; without one, against them all."""

    def __init__(
        self, tests: list[str], timeout: float, map: Map | None, kills: Counter[str] | None = None
    ) -> None:
        self.tests = tests
        self.timeout = timeout
        self.map = map
        self.killers: dict[int, str] = {}  # line -> a test that killed a mutant there
        #: test id -> how many of the module's mutants it killed, in this run and the journals
        #: of earlier ones: it decides only the order tests run in, never an outcome
        self.kills: Counter[str] = kills if kills is not None else Counter()

    def _likely_killers_first(self, mutant: Mutant, tests: list[str]) -> list[str]:
        """The selected tests, those most likely to fail first: a test that killed a mutant
        a few lines away, then by mutants killed per second of their run, then the map's
        order (fastest first). A killed mutant stops at its first failing test, so this
        order is most of a run's time; a survivor runs them all whatever the order."""
        near = {t for line, t in self.killers.items() if abs(line - mutant.line) <= 12}
        durations = self.map.durations if self.map else {}

        def rank(test: str) -> tuple[bool, float]:
            return (test not in near, -self.kills[test] / max(durations.get(test, 1.0), 0.5))

        return sorted(tests, key=rank)

    def run(self, mutant: Mutant, scratch: Path) -> Outcome:
        tests = self.tests
        timeout = self.timeout
        batches = None
        if self.map is not None:
            chosen = self.map.tests(mutant)
            if chosen == []:
                return Outcome(mutant, False, covered=False)
            if chosen is not None:
                tests = chosen
                batches = [self._likely_killers_first(mutant, chosen)]
                if not timeout:
                    timeout = 60 + 5 * sum(self.map.durations.get(t, 1.0) for t in tests)
            elif not timeout:
                timeout = 60 + 5 * sum(self.map.durations.values())
        timeout = timeout or 900.0
        if batches is None:  # test files, not ids: a nearby killer's id first, on its own
            near = sorted({t for line, t in self.killers.items() if abs(line - mutant.line) <= 12})
            batches = [near, tests] if near else [tests]
        target = scratch / mutant.path
        target.write_text(mutant.source, encoding="utf-8")
        shutil.rmtree(target.parent / "__pycache__", ignore_errors=True)
        started = time.perf_counter()
        try:
            for batch in batches:
                failed = self._pytest(batch, scratch, timeout)
                if failed is not None:
                    if not failed.startswith("("):  # a test's id, not "(timed out)"
                        self.killers[mutant.line] = failed
                        self.kills[failed] += 1
                    return Outcome(mutant, True, failed, time.perf_counter() - started)
            return Outcome(mutant, False, "", time.perf_counter() - started)
        finally:
            shutil.copyfile(ROOT / mutant.path, target)

    def _pytest(self, tests: list[str], scratch: Path, timeout: float) -> str | None:
        """The first failing test's id, or None when all pass; a timeout (of the whole run,
        or of one test past its limit) counts as failing."""
        limits = scratch / "test-limits.json"
        if not limits.exists():
            durations = self.map.durations if self.map else {}
            per_test = {t: 30.0 + 10 * d for t, d in durations.items()}
            limits.write_text(json.dumps({"": 300.0, **per_test}), encoding="utf-8")
        note = scratch / "timed-out"
        note.unlink(missing_ok=True)
        env = {
            **os.environ,
            "PYTHONPATH": str(scratch),
            "PYTHONDONTWRITEBYTECODE": "1",
            "MUTATION_TEST_LIMITS": str(limits),
            "MUTATION_TIMED_OUT": str(note),
        }
        # its own process group, so that the hooks and commands it started end with it: a
        # hook a mutant made loop outlives the test that pushed
        with subprocess.Popen(
            [*_LIMITED, *_PYTEST[1:], "-p", "gitmem_mutation_limits", "-x", *tests],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        ) as child:
            try:
                stdout, _ = child.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                _end_group(child.pid)
                child.communicate()
                return "(timed out)"
            _end_group(child.pid)
        if note.exists():
            return "(timed out)"
        if child.returncode == 0:
            return None
        if child.returncode == 5:  # no test ran: a stale id, never a kill
            print(f"    (no test ran of {' '.join(tests)[:200]})", flush=True)
            return None
        for line in stdout.splitlines():
            for word in ("FAILED ", "ERROR "):
                if line.startswith(word):
                    return line[len(word) :].split(" - ")[0]
        # 2-4: pytest could not start or collect (a mutant that breaks an import); < 0: a
        # signal ended it (a mutant that crashes the interpreter): the tests failed
        return f"(pytest exit {child.returncode})"


def _end_group(pgid: int) -> None:
    """Kill what is left of a test run's process group (nothing, unless a hook hangs)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def scratch_copy() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="gitmem-mutants-"))
    shutil.copytree(
        ROOT / "gitmem", folder / "gitmem", ignore=shutil.ignore_patterns("__pycache__")
    )
    (folder / "gitmem_mutation_limits.py").write_text(_LIMITS, encoding="utf-8")
    return folder


def _order(mutant: Mutant) -> tuple[int, int, str]:
    return (mutant.line, mutant.col, mutant.operator)


def run_module(
    module: str, found: list[Mutant], jobs: int, runner: Runner, journal: Journal | None = None
) -> tuple[list[Outcome], float]:
    """Every mutant of a module, `jobs` at a time; the outcomes and the minutes it took. With
    a journal, the outcomes it holds are taken from it and each new one is appended to it."""
    known = journal.read(found) if journal else {}
    if known:
        print(f"{module}: {len(known)} outcomes from the journal {journal.path}", flush=True)
    scratches = [scratch_copy() for _ in range(jobs)]
    free = list(scratches)
    outcomes: list[Outcome] = []

    def one(mutant: Mutant) -> Outcome:
        if mutant.name in known:
            return known[mutant.name]
        scratch = free.pop()
        try:
            return runner.run(mutant, scratch)
        finally:
            free.append(scratch)

    started = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        for outcome in pool.map(one, found):
            outcomes.append(outcome)
            if outcome.mutant.name in known:
                continue
            print(
                f"  {module}:{outcome.mutant.line}: {outcome.mutant.label}: "
                f"{_state(outcome)} ({outcome.seconds:.0f} s)",
                flush=True,
            )
            if journal is not None:
                journal.add(outcome)
    for scratch in scratches:
        shutil.rmtree(scratch, ignore_errors=True)
    return outcomes, (time.perf_counter() - started) / 60


def _state(outcome: Outcome) -> str:
    if outcome.killed:
        return f"killed by {outcome.by}"
    return "SURVIVED" if outcome.covered else "SURVIVED (not covered: no test runs its line)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("modules", nargs="*", default=list(MODULES))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--list", action="store_true", help="print the mutants only")
    parser.add_argument(
        "--timeout",
        type=float,
        default=0.0,
        help="seconds a mutant's run may take before it counts as killed; by default 60 + 5 "
        "times what its tests took in the coverage run (900 with --all-tests)",
    )
    parser.add_argument(
        "--all-tests",
        action="store_true",
        help="run every mutant against all of its module's tests, not only those that run "
        "its line (the slow way, which the selection is checked against)",
    )
    parser.add_argument(
        "--check-selection",
        action="store_true",
        help="run each mutant both ways and print whether the two agree on killed/survived",
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=0,
        help="run at most this many mutants a module, drawn evenly (with --seed): an estimate "
        "in a fraction of the time; 0 (the default) runs them all",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="run every mutant again: the journal starts anew",
    )
    parser.add_argument(
        "--journal",
        type=Path,
        default=None,
        metavar="FILE",
        help="keep the outcomes in FILE (one module's run), not in the cache folder: a run "
        "carried to another machine resumes from it, if the code, tests and runner are the same",
    )
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument(
        "--at",
        default="",
        metavar="LINE,LINE",
        help="only the mutants on these lines (to run again the survivors a test now covers)",
    )
    parser.add_argument(
        "--only",
        default="",
        metavar="PATH:LINE:OPERATOR",
        help="one mutant only (as a survivor is printed), to see a new test kill it",
    )
    parser.add_argument(
        "--tests",
        nargs="+",
        default=[],
        metavar="TEST",
        help="run the mutants against these tests only (with --only: does a new test kill it?)",
    )
    args = parser.parse_args()
    modules = args.modules
    if args.only:
        modules = [args.only.split(":")[0]]
    lines = {int(n) for n in args.at.split(",") if n.strip()}
    summary = []
    disagreements: list[tuple[Outcome, Outcome]] = []
    compared = total = total_killed = 0
    total_started = time.perf_counter()
    # every map first: a long run then judges each module by the tests as they were at start
    maps: dict[str, Map | None] = {
        module: None if args.list or args.all_tests or args.tests else coverage_map(module)
        for module in modules
    }
    for module in modules:
        every = mutants(module)
        stale = {k for k in EQUIVALENT if k[0] == module} - {m.key for m in every}
        for _, text, operator in sorted(stale):
            print(f"  EQUIVALENT names no {operator} mutant of {module} at {text!r}: edit it")
        found = sorted((m for m in every if m.key not in EQUIVALENT), key=_order)
        if lines:
            found = [m for m in found if m.line in lines]
        if args.only:
            found = [m for m in found if m.name == args.only]
            if not found:
                sys.exit(f"no mutant {args.only} (see --list; EQUIVALENT ones are not run)")
        if args.sample and len(found) > args.sample:
            import random

            found = sorted(random.Random(args.seed).sample(found, args.sample), key=_order)
        if args.list:
            for m in found:
                print(f"{m.path}:{m.line}: {m.label}")
            continue
        map = maps[module]
        runner = Runner(
            args.tests or MODULES[module], args.timeout, map, _kills_in_journals(module)
        )
        key = _journal_key(module, runner.tests, args.timeout)
        journal = Journal.open(module, key, args.journal, args.fresh)
        outcomes, minutes = run_module(module, found, args.jobs, runner, journal)
        if args.check_selection and map is not None:
            print(f"{module}: the same mutants against all of its tests ...", flush=True)
            every = Runner(MODULES[module], args.timeout, None)
            every_outcome, _ = run_module(module, found, args.jobs, every)
            compared += len(every_outcome)
            disagreements += [
                (a, b) for a, b in zip(outcomes, every_outcome, strict=True) if a.killed != b.killed
            ]
        killed = sum(o.killed for o in outcomes)
        total_killed += killed
        total += len(outcomes)
        uncovered = sum(not o.covered for o in outcomes)
        score = killed / len(outcomes) if outcomes else 1.0
        line = f"{module}: {killed}/{len(outcomes)} killed, {score:.1%} ({minutes:.0f} min"
        line += f"; {uncovered} not covered)" if uncovered else ")"
        summary.append((line, [o for o in outcomes if not o.killed]))
        print(line, flush=True)
    if args.list:
        return
    print("\nmutation score by module (equivalent mutants excluded: see EQUIVALENT):")
    for line, survivors in summary:
        print(line)
        for o in survivors:
            note = "" if o.covered else " (not covered)"
            print(f"    survived {o.mutant.path}:{o.mutant.line}: {o.mutant.label}{note}")
    print(
        f"in all: {total_killed}/{total} killed, {total_killed / max(total, 1):.1%}; "
        f"{len(EQUIVALENT)} equivalent mutants listed; "
        f"{(time.perf_counter() - total_started) / 60:.0f} min"
    )
    if args.check_selection:
        print(f"selection against all tests: {compared - len(disagreements)}/{compared} agree")
        for fast, slow in disagreements:
            print(f"    {fast.mutant.name}: selected {_state(fast)}; all tests {_state(slow)}")


if __name__ == "__main__":
    main()
