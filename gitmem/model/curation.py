"""Amend and retire: the two in-place changes of an admitted entry, as pure functions of text.

An entry changes after admission in three ways only, each through a reviewed candidate and its
admit merge: supersession (a successor flips it to superseded), amendment and retirement.

- **Amend** (`gitmem propose --amend ID`): a candidate `candidates/<ID>-amend.md` (then
  `-amend-2`, …; the start of an ID near the longest an id may be is cut: `curation_id`)
  holds the entry's text corrected, with `amends: ID`. Its admit merge (message
  `gitmem: amend <candidate id>`) rewrites `entries/<type>/<ID>.md` to the candidate's fields
  and sections, keeping what identifies the entry and its lineage (IMMUTABLE: id, type, source,
  created, the admission fields, supersedes) and appending the merge's date to `amended`, a
  list of dates, oldest first (a list, not the latest date: the entry shows how often it was
  corrected without a look at the log). `amended_by` names who admitted the latest amendment,
  so the gate can hold it to the admitter rules as it holds `admitted_by`.
  The candidate also records `drafted_from`, the git blob id of the entry's file it was
  drafted from. An amendment carries the whole entry, so admitted after another amendment of
  the same entry it would undo that one unseen (`drafted_from_another`).
- **Retire** (`gitmem propose --retire ID --reason TEXT`): a candidate `candidates/<ID>-retire.md`
  holds the entry's text with `retires: ID` and `retired_reason`. Its admit merge (message
  `gitmem: retire <candidate id>`) changes the entry's status to `retired` and adds
  `retired_by`, `retired` (the date) and `retired_reason`; nothing else. The file stays as a
  tombstone: a removal is history too, and the id is never admitted again.

Only admitted entries are amended or retired: a superseded entry is history, a retired one a
tombstone. The history judge (gitmem.gate.history) accepts such an edit on the memory branch
only when the result is exactly what these functions make from the entry and the candidate.
"""

from __future__ import annotations

from typing import Final

from gitmem.model.entry import Entry
from gitmem.model.names import MAX_ID_LENGTH

#: What an amendment never changes: the entry's identity, provenance and lineage.
IMMUTABLE: Final = (
    "id",
    "type",
    "source",
    "created",
    "status",
    "admitted_by",
    "admitted",
    "supersedes",
    "superseded_by",
)
#: Fields gitmem sets on an entry after its admission (never in a candidate).
AFTER_ADMISSION: Final = ("amended", "amended_by", "retired", "retired_by", "retired_reason")
#: The amend candidate's record of the entry's text it was drafted from (a git blob id).
DRAFTED_FROM: Final = "drafted_from"
#: The suffixes of an amend and a retire candidate's id, after the entry's id.
AMEND_SUFFIX: Final = "-amend"
RETIRE_SUFFIX: Final = "-retire"


#: What a cut id leaves free for the suffix a taken id gets (`-2` … `-999`).
_SUFFIX_ROOM: Final = 4


def curation_id(target_id: str, suffix: str) -> str:
    """The id of an amend or retire candidate of target_id (suffix AMEND_SUFFIX or
    RETIRE_SUFFIX): `<ID>-amend`, `<ID>-retire`. An id near MAX_ID_LENGTH left no room for
    the suffix, and its entry could be neither amended nor retired (the candidate's id broke
    the schema); its start is cut then, to leave room for the suffix and a `-N` after it.
    Nothing reads the target from the candidate's id: `amends:` / `retires:` name it."""
    if len(target_id) + len(suffix) <= MAX_ID_LENGTH:
        return target_id + suffix
    return target_id[: MAX_ID_LENGTH - len(suffix) - _SUFFIX_ROOM].rstrip("-") + suffix


def may_be_curation_id(entry_id: str) -> bool:
    """Whether an id has the shape of an amend or retire candidate's (`<ID>-amend`,
    `<ID>-retire-2`): such a candidate leaves no entry of its own id once admitted."""
    head, _, last = entry_id.rpartition("-")
    stem = head if last.isdigit() else entry_id
    return stem.endswith((AMEND_SUFFIX, RETIRE_SUFFIX))


#: The commit message verbs of the two merges (`gitmem: amend <candidate id>`).
AMEND: Final = "amend"
RETIRE: Final = "retire"


def kind_of(candidate: Entry) -> str:
    """What admitting a candidate does: "amend", "retire", or "admit" (a new entry)."""
    if "amends" in candidate.meta:
        return AMEND
    if "retires" in candidate.meta:
        return RETIRE
    return "admit"


def target_of(candidate: Entry) -> str:
    """The id of the entry an amend or retire candidate changes ("" for a new entry)."""
    return str(candidate.meta.get("amends") or candidate.meta.get("retires") or "")


def amend_draft(target: Entry, candidate_id: str) -> Entry:
    """The candidate an amendment of target starts from: its text, as a candidate."""
    return target.with_meta(
        id=candidate_id,
        status="candidate",
        admitted_by=None,
        admitted=None,
        amended=None,
        amended_by=None,
        supersedes=None,
        amends=target.id,
    )


def retire_draft(target: Entry, candidate_id: str, reason: str) -> Entry:
    """The candidate that retires target: its text, as a candidate, with the reason."""
    return amend_draft(target, candidate_id).with_meta(
        amends=None, retires=target.id, retired_reason=reason
    )


def drafted_from_another(candidate: Entry, entry_blob: str, branch_blob: str | None) -> bool:
    """Whether an amend candidate was drafted from another text of its entry than the one
    the memory branch holds (entry_blob, the file's git blob id there): admitted, it would
    write its whole draft over the entry and undo what changed since, unseen.

    Two records say what it was drafted from. `drafted_from`, which `gitmem propose --amend`
    writes, holds whatever happens to the branch later; the entry's file on the candidate's
    branch (branch_blob; None when it holds none) is all a candidate written by hand, or by
    a gitmem before `drafted_from`, has. The file alone passed a branch that merged the
    memory branch in after the other amendment (a forge's "update branch", which branch
    protection can require of every pull request): the merge brings the new text onto the
    branch while the candidate keeps the old. Either record naming another text refuses."""
    recorded = candidate.meta.get(DRAFTED_FROM)
    if recorded is not None and str(recorded) != entry_blob:
        return True
    return branch_blob is not None and branch_blob != entry_blob


def changed_immutable(target: Entry, candidate: Entry) -> list[str]:
    """The fields an amend candidate changes that an amendment may not: type, source and
    created (a candidate has its own id and status, and no admission fields or lineage)."""
    return [n for n in ("type", "source", "created") if target.meta.get(n) != candidate.meta.get(n)]


def amended(target: Entry, candidate: Entry, by: str, date: str) -> Entry:
    """The entry once the amend candidate is admitted by `by` on `date`: the candidate's
    fields and sections, target's IMMUTABLE fields, `amended` grown by date."""
    meta = {
        k: v
        for k, v in candidate.meta.items()
        if k not in IMMUTABLE and k not in AFTER_ADMISSION and k not in ("amends", DRAFTED_FROM)
    }
    meta.update({k: target.meta[k] for k in IMMUTABLE if k in target.meta})
    dates = [str(d) for d in target.meta.get("amended") or []]
    meta["amended"] = [*dates, date]
    meta["amended_by"] = by
    return Entry(meta, candidate.context, candidate.content, candidate.evidence)


def retired(target: Entry, reason: str, by: str, date: str) -> Entry:
    """The tombstone once a retire candidate with this reason is admitted by `by` on date."""
    return target.with_meta(status="retired", retired_by=by, retired=date, retired_reason=reason)


def state_note(entry: Entry) -> str:
    """What a reader must know of an entry's life after admission, in one line: "retired on
    DATE by WHO: REASON" for a tombstone, "amended DATE, DATE by WHO" for a corrected entry,
    "" otherwise (list, show, the MCP server and the site print it)."""
    if entry.status == "retired":
        return (
            f"retired on {entry.meta.get('retired', '?')} by {entry.meta.get('retired_by', '?')}: "
            f"{entry.meta.get('retired_reason', '')}"
        )
    dates = [str(d) for d in entry.meta.get("amended") or []]
    if dates:
        return f"amended {', '.join(dates)} by {entry.meta.get('amended_by', '?')}"
    return ""
