"""Recall's cache-update invariant as a property over random moves of the memory branch, on a
real repository: whatever main goes through (entries added by hand or admitted by `gitmem
admit`, edited, retired, superseded, deleted, moved, copied to a second file, made
unreadable; the memory folder moved by `memory.dir`; main reset back, merged from a side
branch, its cited files changed; git's unreachable objects pruned), a recall served from the
cache gitmem keeps in the git directory, and updates by the tree diff from the tree it last
indexed (gitmem.recall.cache), answers exactly as a recall whose cache is built from nothing at
the same commit: the same hits in the same order, with the same scores, freshness,
explanations and warnings. And `gitmem index --check` passes after every move.

Two references. The cold recall is the code's own build from scratch: the git directory's
gitmem folder is set aside for it (the recall cache and what a warm recall remembers), and put
back after, so the warm cache goes on from where the moves left it. Beside it, a model that
knows nothing of gitmem's code reads main's tip with git plumbing and YAML: the admitted
entries are the files at an entry's place (`<memory dir>/entries/<type>/<id>.md`) whose front
matter says that id, that type and status admitted, the last in path order where two files
hold one id; each entry's title holds a word of its own, so a recall of every such word ever
written, ranked without the gate (`--min-score 0`), must answer exactly the model's entries,
each from the model's file, with its title.

The recalls are the command line's: the first after a move is a `gitmem` process of its own,
which takes the full path (gitmem.recall.service, the cache brought up by the diff); the next
ones run in-process and take the warm path, which reads the cache without opening the
repository (gitmem.agents.memory); one at an older `--ref` leaves that ref's tree the cache's
newest, which the next update may start from.

Keyword recall only (GITMEM_SEMANTIC=false): the extra's vectors follow the same diff
(gitmem.recall.cache's _catch_up), but loading the model in every example is too slow for a
property test; tests/recall/test_semantic.py covers them case by case.

`make test` runs a few examples; GITMEM_HYPOTHESIS=thorough runs many (see the README).
"""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from clirunner import admit, ok, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from remote import forged

from gitmem.model.entry import parse
from gitmem.recall.cache import NEAR
from gitmem.recall.engine import MAX_QUERY_TERMS

from conftest import git, new_repo, run_gitmem, set_up_memory

THOROUGH = os.environ.get("GITMEM_HYPOTHESIS") == "thorough"
EXAMPLES = 200 if THOROUGH else 20
STEPS = 12 if THOROUGH else 6
#: The words entries are made of: few, so that entries share them and a word's rarity (its
#: idf, which every removal and addition changes) weighs in every ranking.
WORDS = (
    "rotate", "signing", "keys", "cache", "branch", "hooks",
    "deploy", "schema", "tokens", "backup", "review", "release",
)  # fmt: skip
TYPES = ("decision", "method", "mistake")
CITED = ("README.md", "src/app.py")
UNRELATED = "how do I bake sourdough bread at home"
DEFAULT_DIR = ".gitmem"


# --------------------------------------------------------------------------------------------
# the reference model: git plumbing and YAML only


def memory_dir(repo: Path, commit: str) -> str:
    """The memory folder main's settings at commit name (.gitmem.toml's memory.dir)."""
    done = git(repo, "ls-tree", "--name-only", commit, "--", ".gitmem.toml")
    if not done.strip():
        return DEFAULT_DIR
    settings_ = tomllib.loads(git(repo, "cat-file", "blob", f"{commit}:.gitmem.toml"))
    return str(settings_.get("memory", {}).get("dir", DEFAULT_DIR))


def front(text: str) -> dict[str, Any]:
    """An entry file's front matter; {} when it has none that YAML reads as a mapping."""
    if not text.startswith("---\n") or "\n---\n" not in text[3:]:
        return {}
    try:
        found = yaml.safe_load(text[4:].split("\n---\n", 1)[0])
    except yaml.YAMLError:
        return {}
    return found if isinstance(found, dict) else {}


def admitted(repo: Path, commit: str, folder: str) -> dict[str, tuple[str, str]]:
    """id -> (path, title) of the entries of the memory folder a recall at commit may answer
    with (the checkout's settings name the folder, whichever commit is recalled)."""
    found: dict[str, tuple[str, str]] = {}
    listing = git(repo, "ls-tree", "-r", "-z", commit, "--", f"{folder}/entries/")
    records = (r.split("\t", 1) for r in listing.split("\0") if r)
    for info, path in sorted(records, key=lambda record: record[1]):
        parts = path[len(folder) + 1 :].split("/")
        if (
            info.split()[0] not in ("100644", "100755")
            or len(parts) != 3
            or not parts[2].endswith(".md")
        ):
            continue
        _, type_, name = parts
        meta = front(git(repo, "cat-file", "blob", info.split()[2]))
        if (meta.get("id"), meta.get("type"), meta.get("status")) == (
            name.removesuffix(".md"),
            type_,
            "admitted",
        ):
            found[name.removesuffix(".md")] = (path, str(meta.get("title")))  # the last wins
    return found


def read(path: Path) -> str:
    """An entry file's text as the checkout holds it; "" for a link, which is no entry."""
    return "" if path.is_symlink() else path.read_text()


def write(path: Path, text: str) -> None:
    """An entry file written in place of what is there, a link included (never through it)."""
    if path.is_symlink():
        path.unlink()
    path.write_text(text)


# --------------------------------------------------------------------------------------------
# the moves, made with git and gitmem's command line as a person makes them


class Moves:
    """One repository's main, moved by the steps, and the recalls compared after them."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.n = 0
        self.tokens: list[str] = []
        self.looks = 0

    def g(self, *args: str, check: bool = True) -> str:
        return git(self.work, *args, check=check)

    @property
    def dir(self) -> str:
        settings_file = self.work / ".gitmem.toml"
        if not settings_file.exists():
            return DEFAULT_DIR
        return str(
            tomllib.loads(settings_file.read_text()).get("memory", {}).get("dir", DEFAULT_DIR)
        )

    def entries(self) -> list[str]:
        """The files below the memory folder's entries/, as the checkout holds them."""
        return sorted(self.g("ls-files", "--", f"{self.dir}/entries/").split())

    def commit(self, message: str) -> None:
        """INDEX.md regenerated (`gitmem index`, which also brings the recall cache up to
        main's tip before this commit), then everything committed on main, no hook run."""
        ok(run(self.work, "index"))
        self.g("add", "-A")
        self.g("commit", "-q", "--allow-empty", "--no-verify", "-m", message)

    def lesson(self, words: int) -> tuple[str, str, str, str]:
        """A new entry's title (with a word no other entry holds), applies_when and body,
        made of WORDS picked by the number words."""
        token = f"marker{self.n}x"
        self.n += 1
        self.tokens.append(token)
        w = [WORDS[(words >> (4 * i)) % len(WORDS)] for i in range(4)]  # 4 bits a word
        return (
            f"{token} {w[0]} {w[1]}",
            f"the {w[2]} and {w[3]} change",
            f"## Context\nThe {w[1]} broke.\n\n## Content\nCheck the {w[3]} first.\n\n"
            "## Evidence\nIt happened.\n",
            token,
        )

    def _pick(self, pick: int) -> Path | None:
        found = self.entries()
        return self.work / found[pick % len(found)] if found else None

    # -- the steps

    def add(self, kind: int, words: int, cite: int) -> None:
        """An admitted entry committed straight on main (as a merge of someone's branch
        without the gate would bring it)."""
        self.commit(f"add {self._new(kind, words, cite)}")

    def bulk(self, kind: int, words: int) -> None:
        """More entries in one commit than an update takes the newest remembered tree for
        at once (gitmem.recall.cache.NEAR): every remembered tree is diffed."""
        for n in range(NEAR + 1):
            self._new(kind + n, words * (n + 1), n % 3)
        self.commit("a bulk of entries")

    def _new(self, kind: int, words: int, cite: int) -> str:
        type_ = TYPES[kind % len(TYPES)]
        title, when, body, token = self.lesson(words)
        entry_id = f"local-{type_}-20261205-{token}"
        files = [CITED[cite]] if cite < len(CITED) else []
        path = self.work / self.dir / "entries" / type_ / f"{entry_id}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        write(
            path,
            forged(entry_id, type=type_, title=title, applies_when=when, files=files, body=body),
        )
        return entry_id

    def admit(self, kind: int, words: int, cite: int) -> None:
        """`gitmem propose` and `gitmem admit`: a merge commit with two parents (a decision
        or a method: a mistake asks for fields of its own)."""
        title, when, body, _ = self.lesson(words)
        content = body.split("## Content\n")[1].split("\n")[0]
        cited = ["--file", CITED[cite]] if cite < len(CITED) else []
        if cited and not (self.work / cited[1]).exists():
            cited = []  # an admission cites files that exist (FILES-MISSING)
        admit(
            self.work,
            ["propose", "--type", TYPES[kind % 2], "--title", title,
             "--applies-when", when, "--content", content, *cited],
        )  # fmt: skip

    def edit(self, pick: int, what: str, words: int) -> None:
        path = self._pick(pick)
        if path is None:
            return
        text = read(path)
        meta = front(text)
        if not meta:  # a damaged one mended
            title, when, body, _ = self.lesson(words)
            mended = forged(
                path.stem, type=path.parent.name, title=title, applies_when=when, body=body
            )
            write(path, mended)
        elif what == "title":
            token = str(meta.get("title", "")).split(" ", 1)[0]
            write(path, parse(text).with_meta(title=f"{token} {WORDS[words % 12]}").render())
        elif what == "applies_when":
            when = f"the {WORDS[words % 12]} is {WORDS[(words >> 4) % 12]}"
            write(path, parse(text).with_meta(applies_when=when).render())
        else:
            write(path, text.replace("## Content\n", f"## Content\nAlso {WORDS[words % 12]}.\n"))
        self.commit(f"edit {path.name}: {what}")

    def retire(self, pick: int) -> None:
        path = self._pick(pick)
        if path is not None and front(read(path)):
            self.retire_path(path)

    def retire_path(self, path: Path) -> None:
        retired = parse(read(path)).with_meta(
            status="retired", retired_by="human:bo", retired="2026-12-06",
            retired_reason="no longer holds",
        )  # fmt: skip
        write(path, retired.render())
        self.commit(f"retire {path.name}")

    def supersede(self, pick: int, by: int) -> None:
        path, successor = self._pick(pick), self._pick(by)
        if path is None or successor is None or not front(read(path)):
            return
        flipped = parse(read(path)).with_meta(status="superseded", superseded_by=successor.stem)
        write(path, flipped.render())
        self.commit(f"supersede {path.name}")

    def delete(self, pick: int) -> None:
        path = self._pick(pick)
        if path is not None:
            self.delete_path(path)

    def delete_path(self, path: Path) -> None:
        self.g("rm", "-q", str(path))
        self.commit(f"delete {path.name}")

    def move(self, pick: int, kind: int, retype: bool) -> None:
        """To another type's folder, its type changed with it (retype) or not (then it is
        at no entry's place of its own: unreadable, and named in a warning)."""
        path = self._pick(pick)
        if path is None:
            return
        to = self.work / self.dir / "entries" / TYPES[kind % len(TYPES)] / path.name
        if to.exists() or to.is_symlink():
            return
        to.parent.mkdir(parents=True, exist_ok=True)
        self.g("mv", str(path), str(to))
        if retype and front(read(to)):
            write(to, parse(read(to)).with_meta(type=to.parent.name).render())
        self.commit(f"move {path.name} to {to.parent.name}")

    def copy(self, pick: int, kind: int, words: int) -> None:
        """A second file holding the entry's id, in another type's folder, of that type and
        with another applies_when: two files hold one id, the last in path order answers."""
        path = self._pick(pick)
        if path is None or not front(read(path)):
            return
        to = self.work / self.dir / "entries" / TYPES[kind % len(TYPES)] / path.name
        if to == path:
            return
        to.parent.mkdir(parents=True, exist_ok=True)
        when = f"a copy about {WORDS[words % 12]}"
        copied = parse(read(path)).with_meta(type=to.parent.name, applies_when=when)
        write(to, copied.render())
        self.commit(f"copy {path.name} to {to.parent.name}")

    def unshare(self, pick: int, how: str) -> None:
        """Of an id two files hold, the one that answers for it (the last in path order)
        deleted, retired or moved out of an entry's place: the other file's entry answers."""
        held: dict[str, list[Path]] = {}
        for found in self.entries():
            held.setdefault(Path(found).name, []).append(self.work / found)
        shared = sorted(paths[-1] for paths in held.values() if len(paths) > 1)
        if not shared:
            return
        path = shared[pick % len(shared)]
        if how == "delete":
            self.delete_path(path)
        elif how == "retire" and front(read(path)):
            self.retire_path(path)
        else:
            self.odd_path(path, "nested")

    def damage(self, pick: int, new: bool) -> None:
        """A file at an entry's place that is no entry: a new one, or an entry overwritten."""
        if new:
            path = self.work / self.dir / "entries/method/local-method-20261205-notes.md"
            path.parent.mkdir(parents=True, exist_ok=True)
        else:
            found = self._pick(pick)
            if found is None:
                return
            path = found
        write(path, "no front matter here\n")
        self.commit(f"damage {path.name}")

    def odd(self, pick: int, how: str) -> None:
        """An entry's file made odd: executable (still an entry), a link in its place with the
        entry's own bytes as the link's target (the same blob, another mode: unreadable), in
        a folder below its type's, or straight under entries/ (neither is an entry's place), or
        renamed (the id it holds is not its place's: unreadable)."""
        path = self._pick(pick)
        if path is not None:
            self.odd_path(path, how)

    def odd_path(self, path: Path, how: str) -> None:
        relative = path.relative_to(self.work).as_posix()
        if how == "executable":
            self.g("update-index", "--chmod=+x", relative)
            path.chmod(0o755)
        elif how == "link":
            blob = self.g("rev-parse", f"HEAD:{relative}").strip()
            self.g("update-index", "--cacheinfo", f"120000,{blob},{relative}")
            path.unlink()
            self.g("checkout", "--", relative)  # the link git now holds, in the checkout too
        elif how == "misnamed":
            if path.with_name(f"{path.stem}-old.md").exists():
                return
            self.g("mv", relative, str(path.with_name(f"{path.stem}-old.md")))
        else:
            entries = self.work / self.dir / "entries"
            to = entries / path.parent.name / "old" if how == "nested" else entries
            if (to / path.name).exists():
                return
            to.mkdir(parents=True, exist_ok=True)
            self.g("mv", relative, str(to / path.name))
        self.commit(f"odd {path.name}: {how}")

    def folder(self) -> None:
        """memory.dir changed, the memory folder moved with it."""
        to = "memory" if self.dir == DEFAULT_DIR else DEFAULT_DIR
        self.g("mv", self.dir, to)
        (self.work / ".gitmem.toml").write_text(f'[memory]\ndir = "{to}"\n')
        self.commit(f"the memory moves to {to}")

    def reset(self, back: int) -> None:
        """main forced back to an earlier commit, never before `gitmem init`'s."""
        chain = self.g("rev-list", "--first-parent", "HEAD").split()[:-2]
        if len(chain) > 1:
            self.g("reset", "-q", "--hard", chain[1 + back % (len(chain) - 1)])

    def merge(self, kind: int, words: int, main_too: bool) -> None:
        """A side branch's entry merged into main (two parents), main having moved or not."""
        self.g("checkout", "-q", "-b", "side")
        self.add(kind, words, 2)
        self.g("checkout", "-q", "main")
        if main_too:
            self.touch(0, False)
        self.g("merge", "-q", "--no-ff", "--no-commit", "side", check=False)
        self.commit("Merge branch 'side'")  # INDEX.md regenerated, any conflict in it resolved
        self.g("branch", "-q", "-D", "side")

    def touch(self, which: int, delete: bool) -> None:
        """A commit of code an entry cites: changed, deleted, or brought back."""
        path = self.work / CITED[which % len(CITED)]
        if delete and path.exists():
            self.g("rm", "-q", str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{path.read_text() if path.exists() else ''}change {self.n}\n")
            self.n += 1
        self.commit(f"code: {path.name}")

    def prune(self) -> None:
        """What no ref reaches pruned: trees the cache remembers among them after a reset."""
        self.g("reflog", "expire", "--expire=now", "--all")
        self.g("gc", "-q", "--prune=now")

    def look_at(self, back: int) -> None:
        """A recall at an older commit of main (`--ref`), warm and cold alike."""
        chain = self.g("rev-list", "--first-parent", "HEAD").split()
        self.compare(chain[back % len(chain)])

    # -- the invariant

    def queries(self, ref: str) -> list[list[str]]:
        """Every entry's own word, ranked without the gate; the words of the entries at ref
        (titles and applies_when, gated and explained); the whole vocabulary, ranked; and a
        question the memory has no answer to."""
        own = [
            ["--min-score", "0", "-k", "1000", "--explain", " ".join(self.tokens[at : at + size])]
            for size in [MAX_QUERY_TERMS]  # a longer query's words beyond it are not read
            for at in range(0, len(self.tokens), size)
        ]
        asked: list[list[str]] = [
            *own,
            ["-k", "100", "--min-score", "0", "--explain", " ".join(WORDS)],
            ["--explain", UNRELATED],
        ]
        for _, (_, title) in sorted(admitted(self.work, ref, self.dir).items())[:2]:
            asked.append(["--explain", title.split(" ", 1)[-1]])
        return asked

    def ask(
        self, ref: str | None, queries: list[list[str]], process: bool = False
    ) -> list[tuple[str, str]]:
        """Each query's output and warnings; the first asked of `gitmem` in a process of its
        own when process is set (the update a user's recall makes), the rest in-process."""
        at = ["--ref", ref] if ref is not None else []
        answers = []
        for query in queries:
            if process:
                alone = run_gitmem(self.work, "recall", "--format", "json", *at, *query)
                assert alone.returncode == 0, alone.stderr
                answers.append((alone.stdout, alone.stderr))
                process = False
                continue
            done = run(self.work, "recall", "--format", "json", *at, *query)
            assert done.exit_code == 0, done.output
            answers.append((done.stdout, done.stderr))
        return answers

    def compare(self, ref: str | None = None) -> None:
        """The warm cache's answers (brought up by the diff, then read warm) against a cold
        build's at the same commit, and against the model; `gitmem index --check`."""
        self.looks += 1
        commit = self.g("rev-parse", ref or "HEAD").strip()
        queries = self.queries(commit)
        warm = self.ask(ref, queries, process=True)
        # the first query's process brought the cache up (or built it); the next ones, and
        # the first asked again, read it warm without opening the repository
        again = self.ask(ref, queries[:1])
        kept = self.work / ".git/gitmem"
        aside = self.work.parent / "warm-gitmem"
        kept.rename(aside)
        try:
            cold = self.ask(ref, queries)
        finally:
            shutil.rmtree(kept, ignore_errors=True)
            aside.rename(kept)
        for query, w, c in zip(queries, warm, cold, strict=True):
            assert w == c, (query, w, c)
        assert again[0] == cold[0], (queries[0], again[0], cold[0])
        model = admitted(self.work, commit, self.dir)
        assert self.dir == memory_dir(self.work, "HEAD")
        chunks = -(-len(self.tokens) // MAX_QUERY_TERMS)  # the first queries: entries' own words
        hits = [hit for out, _ in warm[:chunks] for hit in json.loads(out)["entries"]]
        assert {h["id"]: (h["path"], h["title"]) for h in hits} == model, (hits, model)
        assert len(hits) == len(model)
        if ref is None:
            checked = run(self.work, "index", "--check")
            assert checked.exit_code == 0, checked.output


STEP = st.one_of(
    st.tuples(st.just("add"), st.integers(0, 2), st.integers(0, 0xFFFF), st.integers(0, 2)),
    st.tuples(st.just("bulk"), st.integers(0, 2), st.integers(0, 0xFFFF)),
    st.tuples(st.just("admit"), st.integers(0, 2), st.integers(0, 0xFFFF), st.integers(0, 2)),
    st.tuples(
        st.just("edit"),
        st.integers(0, 9),
        st.sampled_from(["title", "applies_when", "body"]),
        st.integers(0, 255),
    ),
    st.tuples(st.just("retire"), st.integers(0, 9)),
    st.tuples(st.just("supersede"), st.integers(0, 9), st.integers(0, 9)),
    st.tuples(st.just("delete"), st.integers(0, 9)),
    st.tuples(st.just("move"), st.integers(0, 9), st.integers(0, 2), st.booleans()),
    st.tuples(st.just("copy"), st.integers(0, 9), st.integers(0, 2), st.integers(0, 11)),
    st.tuples(st.just("unshare"), st.integers(0, 9), st.sampled_from(["delete", "retire", "move"])),
    st.tuples(st.just("damage"), st.integers(0, 9), st.booleans()),
    st.tuples(
        st.just("odd"),
        st.integers(0, 9),
        st.sampled_from(["executable", "link", "nested", "loose", "misnamed"]),
    ),
    st.tuples(st.just("folder")),
    st.tuples(st.just("reset"), st.integers(0, 9)),
    st.tuples(st.just("merge"), st.integers(0, 2), st.integers(0, 0xFFFF), st.booleans()),
    st.tuples(st.just("touch"), st.integers(0, 1), st.booleans()),
    st.tuples(st.just("prune")),
    st.tuples(st.just("look_at"), st.integers(0, 9)),
)


def template(base: Path) -> Path:
    """A repository with gitmem's memory, a cited source file and two admitted entries."""
    work = set_up_memory(new_repo(base / "template"))
    moves = Moves(work)
    moves.touch(1, False)
    moves.add(0, 0o1234, 0)
    moves.add(1, 0o4321, 1)
    return work


@pytest.fixture
def keyword_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITMEM_SEMANTIC", "false")


@pytest.fixture
def made(tmp_path: Path, keyword_only: None) -> Path:
    """The template, made once for every example of a test (each example copies it)."""
    return template(tmp_path)


def copy_of(made: Path, base: Path) -> Moves:
    work = base / "work"
    shutil.copytree(made, work, symlinks=True)
    shutil.rmtree(work / ".git/gitmem", ignore_errors=True)  # no cache: it grows with the moves
    moves = Moves(work)
    moves.tokens = [title.split()[0] for _, title in admitted(work, "HEAD", DEFAULT_DIR).values()]
    moves.n = 100  # past the template's
    return moves


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(st.tuples(STEP, st.booleans()), min_size=1, max_size=STEPS))
def test_a_recall_from_the_updated_cache_answers_as_a_cold_build(
    tmp_path_factory: pytest.TempPathFactory, made: Path, steps: list[tuple[tuple[Any, ...], bool]]
) -> None:
    """After each step whose flag is set (and after the last), the warm recall equals the
    cold one and the model; a step without a look leaves the next update a longer diff."""
    base = tmp_path_factory.mktemp("moves")
    try:
        moves = copy_of(made, base)
        moves.compare()  # the cache's first build
        for (name, *args), look in steps:
            getattr(moves, str(name))(*args)
            if look:
                moves.compare()
        moves.compare()
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_every_move_keeps_the_cache_equal_to_a_cold_build(
    tmp_path_factory: pytest.TempPathFactory, made: Path
) -> None:
    """A fixed sequence through every step, so each is exercised on every run."""
    moves = copy_of(made, tmp_path_factory.mktemp("fixed"))
    moves.compare()
    moves.admit(1, 0o777, 0)
    moves.compare()
    moves.edit(0, "title", 5)
    moves.edit(1, "applies_when", 7)
    moves.edit(2, "body", 9)
    moves.compare()
    moves.copy(0, 1, 3)
    moves.compare()
    moves.unshare(0, "retire")  # the copy in method/ retired: the decision/ file answers
    moves.compare()
    moves.copy(0, 2, 4)
    moves.unshare(0, "delete")
    moves.compare()
    moves.copy(0, 1, 5)
    moves.unshare(0, "move")
    moves.compare()
    moves.move(1, 2, True)
    moves.move(2, 0, False)
    moves.compare()
    moves.damage(0, True)
    moves.compare()
    moves.odd(1, "executable")
    moves.odd(2, "link")
    moves.compare()
    moves.odd(1, "nested")
    moves.odd(2, "loose")
    moves.odd(0, "misnamed")
    moves.compare()
    moves.bulk(1, 77)
    moves.compare()
    moves.supersede(0, 1)
    moves.retire(1)
    moves.compare()
    moves.touch(0, False)
    moves.touch(1, True)
    moves.compare()
    moves.merge(2, 0o3333, True)
    moves.compare()
    moves.folder()
    moves.compare()
    moves.look_at(3)
    moves.delete(0)
    moves.compare()
    moves.reset(2)
    moves.compare()
    moves.add(2, 0o555, 1)
    moves.prune()
    moves.compare()
    moves.folder()
    moves.compare()
    assert moves.looks == 21
