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

A successor (`gitmem propose --edit OLD`, a candidate with `supersedes: [OLD]`) is no in-place
change, but it too carries a whole text drafted from OLD's: admitted after an amendment of OLD,
it superseded the corrected entry with a copy of the text from before the correction, which
was then out of use, unseen. So it records `drafted_from` too, as a list: the blob id of each
superseded entry's file it was drafted from (one per entry of `supersedes`; gitmem propose
writes it for every successor, whichever way it came in). The same rule,
`drafted_from_another`, refuses both, in admit, `gitmem candidates` and the server's judge.
Admission keeps neither record (`as_admitted`, `amended`): it says how a candidate was
drafted, not what the entry holds.

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
#: A candidate's record of the entry texts it was drafted from (git blob ids): an amend
#: candidate's one blob id, a successor's list of them (one per entry it supersedes).
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
    """Whether an amend candidate or a successor was drafted from another text of an entry it
    replaces (its amended entry, or one it supersedes) than the one the memory branch holds
    (entry_blob, the file's git blob id there): admitted, an amendment would write its whole
    draft over the entry, and a successor would supersede the entry with a copy of its older
    text; either undoes what changed since, unseen.

    Two records say what it was drafted from. `drafted_from`, which `gitmem propose --amend`
    and `--edit` write, holds whatever happens to the branch later; the entry's file on the
    candidate's branch (branch_blob; None when it holds none) is all a candidate written by
    hand, or by a gitmem before `drafted_from`, has. The file alone passed a branch that
    merged the memory branch in after the other amendment (a forge's "update branch", which
    branch protection can require of every pull request): the merge brings the new text onto
    the branch while the candidate keeps the old. Either record naming another text refuses
    (a successor's `drafted_from` that lists no blob id of this entry's file names another)."""
    recorded = candidate.meta.get(DRAFTED_FROM)
    if recorded is not None and entry_blob not in _blob_ids(recorded):
        return True
    return branch_blob is not None and branch_blob != entry_blob


def _blob_ids(recorded: object) -> frozenset[str]:
    """The blob ids a `drafted_from` names: an amend candidate's one, a successor's list."""
    if isinstance(recorded, list | tuple):
        return frozenset(str(oid) for oid in recorded)
    return frozenset({str(recorded)})


def replaced_by(candidate: Entry) -> tuple[str, ...]:
    """The ids of the entries whose text a candidate carries and its admission replaces: the
    entry an amendment rewrites, the entries a successor supersedes; none for a retirement,
    which carries no text of its entry and is admitted over any amendment."""
    kind = kind_of(candidate)
    if kind == AMEND:
        return (target_of(candidate),)
    return candidate.supersedes if kind == "admit" else ()


def reviewed(candidate: Entry) -> Entry:
    """What of a candidate its admission keeps: all but `drafted_from`, a record of how it
    was drafted rather than of what holds (the schema allows it on a candidate only)."""
    return candidate.with_meta(**{DRAFTED_FROM: None})


def as_admitted(candidate: Entry, by: str, date: str) -> Entry:
    """The new entry an admit merge writes of a candidate admitted by `by` on date: what
    admission keeps of it (reviewed) with the admission fields."""
    return reviewed(candidate).with_meta(status="admitted", admitted_by=by, admitted=date)


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
