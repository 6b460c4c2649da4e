"""What the fused gate reads of a hit's body: the entry file's Markdown after its front matter,
without the section headings, read at the recalled commit from the opened repository or from
git itself (an agent's hook), and nothing where no file is."""

from __future__ import annotations

from pathlib import Path

from gitmem.model.fields import MAX_ENTRY_BYTES
from gitmem.recall.engine import Hit
from gitmem.recall.semantic import entry_body
from gitmem.recall.service import bodies
from gitmem.repo.gitcli import History as GitHistory
from gitmem.repo.store import Store

from conftest import git

ENTRY = (
    "---\r\nid: x\r\ntitle: Queue the nightly export\r\n---\r\n"
    "## Context\r\nEvery Friday the export times out halfway.\r\n\r\n"
    "## Content\r\nRun it from a queue, in pages.\r\n### A detail\r\nline\r\n"
    "#hashtag stays: no space after the marks\r\n"
)


def test_the_body_is_the_markdown_after_the_front_matter_without_headings() -> None:
    body = entry_body(ENTRY.encode())
    assert body == (
        "Every Friday the export times out halfway.\n\nRun it from a queue, in pages.\nline\n"
        "#hashtag stays: no space after the marks"
    )
    assert entry_body(None) is None
    assert entry_body(b"---\nid: x\n---\n") == ""
    assert entry_body(b"---\nid: x\nno end of front matter") == ""
    assert entry_body(b"plain text, no front matter") == "plain text, no front matter"
    assert entry_body(b"\xff\xfe not UTF-8 \xc3") == "\ufffd\ufffd not UTF-8 \ufffd"


def _repo(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "repo"
    entry = repo / ".gitmem" / "entries" / "method" / "x.md"
    entry.parent.mkdir(parents=True)
    entry.write_bytes(ENTRY.encode())
    (repo / "big.md").write_bytes(b"a" * (MAX_ENTRY_BYTES + 10))
    git(tmp_path, "init", "-q", str(repo))
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "entries")
    return repo, git(repo, "rev-parse", "HEAD").strip()


def test_both_readers_read_a_file_at_a_commit_and_nothing_else(tmp_path: Path) -> None:
    repo, commit = _repo(tmp_path)
    readers = [Store.open(repo), GitHistory(repo)]
    for reader in readers:
        assert reader.read_file(commit, ".gitmem/entries/method/x.md", MAX_ENTRY_BYTES) == (
            ENTRY.encode()
        )
        assert reader.read_file(commit, ".gitmem/entries/method/gone.md", MAX_ENTRY_BYTES) is None
        assert reader.read_file(commit, ".gitmem/entries", MAX_ENTRY_BYTES) is None
        big = reader.read_file(commit, "big.md", MAX_ENTRY_BYTES) or b""
        assert len(big) == MAX_ENTRY_BYTES + 1
        hit = Hit("x", "method", "Queue the nightly export", "", ".gitmem/entries/method/x.md", 1)
        assert bodies(reader, commit)(hit) == entry_body(ENTRY.encode())
