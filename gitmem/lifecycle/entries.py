"""Entries on the main branch, found by id: what proposing, admitting and reading look up."""

from __future__ import annotations

from gitmem.model.entry import Entry, EntryError
from gitmem.model.names import is_entry_id
from gitmem.repo.snapshot import read_entry
from gitmem.repo.store import Store, TreeItem


def find_entry(
    store: Store, memory_tree: str | None, entry_id: str
) -> tuple[TreeItem, Entry] | None:
    """The file entries/<type>/<id>.md and its parsed entry, looking in every type folder."""
    if memory_tree is None or not is_entry_id(entry_id):
        return None
    entries_tree = store.subtree(memory_tree, "entries")
    if entries_tree is None:
        return None
    for folder in store.folders(entries_tree):
        item = store.item(entries_tree, f"{folder}/{entry_id}.md")
        if item is not None:
            try:
                parsed = read_entry(store, item)
            except EntryError:
                continue
            return TreeItem(f"entries/{folder}/{entry_id}.md", item.oid, item.mode), parsed
    return None


def unreadable_entry(
    store: Store, memory_tree: str | None, entry_id: str
) -> tuple[str, EntryError] | None:
    """The file entries/<type>/<id>.md that is there but is no readable entry (it does not
    parse, it is too large: read_entry), and why: what `show` names instead of saying the id
    is unknown (find_entry passes such a file by)."""
    if memory_tree is None or not is_entry_id(entry_id):
        return None
    entries_tree = store.subtree(memory_tree, "entries")
    for folder in store.folders(entries_tree) if entries_tree is not None else ():
        item = store.item(entries_tree or "", f"{folder}/{entry_id}.md")
        if item is not None:
            try:
                read_entry(store, item)
            except EntryError as exc:
                return f"entries/{folder}/{entry_id}.md", exc
    return None
