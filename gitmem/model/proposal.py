"""What a proposer gives: the fields of a proposal, one type for every way in.

`gitmem propose` (flags, `--from FILE`, `$EDITOR`, `--edit OLD`), the MCP tool `memory_push`
and the curation commands (import, harvest, hygiene) all hand the lifecycle a ProposalFields.
The fields are declared once, here, each with the help text people and agents read: the
command line makes one option of each (gitmem.cli.propose) and the MCP server one tool
argument of each (gitmem.agents.mcp_server), so the two can never offer different fields.

The fields gitmem sets itself (id, status, created, the admission fields) are not among them;
a draft file that carries fields the schema does not know keeps them in `extra`, so the
schema refuses them by name rather than gitmem dropping them unseen.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from gitmem.errors import RuleError, UsageError
from gitmem.model.entry import Entry, EntryError, decode, parse
from gitmem.model.fields import field_line
from gitmem.model.markdown import fenced

#: Fields gitmem writes itself: a draft's values for them are dropped, never proposed.
SET_BY_GITMEM: Final = (
    "id",
    "status",
    "created",
    "admitted_by",
    "admitted",
    "superseded_by",
    "amended",
    "amended_by",
    "retired",
    "retired_by",
    # set by propose --amend / --retire from their own options
    "retired_reason",
    "amends",
    "drafted_from",
    "retires",
)
#: The fields that hold the body's sections rather than front matter.
BODY_FIELDS: Final = ("context", "content", "evidence")


def _one(help: str, *, required: bool = False) -> Any:
    return field(default=None, metadata={"help": help, "required": required, "many": False})


def _many(help: str, *, flag: str) -> Any:
    return field(default=(), metadata={"help": help, "required": False, "many": True, "flag": flag})


@dataclass(frozen=True)
class FieldSpec:
    """One proposal field as a command-line option or a tool argument presents it."""

    name: str
    help: str
    required: bool
    many: bool  # a list (a repeatable option), else one line of text
    flag: str  # the command-line option, `--tag` for tags

    @property
    def option(self) -> str:
        return f"--{self.flag}"


@dataclass(frozen=True)
class ProposalFields:
    """The fields of one proposal; None (or an empty list) means "not given"."""

    type: str | None = _one(
        "decision, method, code-structure, mistake (or a project type).", required=True
    )
    title: str | None = _one("One line: the lesson's name.", required=True)
    applies_when: str | None = _one(
        "One line: the situation in which the lesson applies.", required=True
    )
    content: str | None = _one("The lesson itself (Markdown; ## Content).", required=True)
    context: str | None = _one("Why this came up (## Context).")
    evidence: str | None = _one("Commits, measurements, links that back it (## Evidence).")
    tags: tuple[str, ...] = _many("Lower-case slugs.", flag="tag")
    files: tuple[str, ...] = _many("Repository paths the lesson is about.", flag="file")
    supersedes: tuple[str, ...] = _many(
        "Ids of admitted entries this one replaces.", flag="supersedes"
    )
    source: str | None = _one(
        "Who proposes: human:NAME (default: human:<git user.name>), audit:FILE, "
        "verdict:<the work stop that taught it> (agents; method and decision), import:PATH."
    )
    rationale: str | None = _one("decision: why.")
    correction: str | None = _one("mistake (required): what to do instead.")
    detection_signal: str | None = _one("mistake (required): how to notice it happening.")
    evidence_batches: tuple[str, ...] = _many(
        "audit-sourced mistake: the batches where the gap recurred.", flag="evidence-batch"
    )
    #: front-matter fields of a draft file that are none of the above (the schema judges them)
    extra: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for spec in specs():
            value = getattr(self, spec.name)
            _require_shape(spec, value)
            if spec.many:  # lists from JSON or a caller's dict, tuples from click
                object.__setattr__(self, spec.name, tuple(value or ()))

    @classmethod
    def from_mapping(cls, fields: Mapping[str, Any]) -> ProposalFields:
        """From a mapping of field names (a caller's dict, an entry's front matter): the
        known fields set, what gitmem sets itself dropped, anything else kept as extra."""
        known = {spec.name for spec in specs()}
        given = {k: v for k, v in fields.items() if k in known and v is not None}
        extra = {k: v for k, v in fields.items() if k not in known and k not in SET_BY_GITMEM}
        return cls(**given, extra=extra)

    @classmethod
    def from_entry(cls, entry: Entry) -> ProposalFields:
        """The fields of an entry's text (a draft file, or an old entry a successor starts
        from), sections included."""
        return cls.from_mapping(
            {**entry.meta, "context": entry.context, "content": entry.content,
             "evidence": entry.evidence}
        )  # fmt: skip

    @classmethod
    def from_text(cls, text: str, name: str | None = None) -> ProposalFields:
        """The fields of an entry file's text; a text that does not parse says where (in the
        file called name, when there is one)."""
        try:
            entry = parse(text)
        except EntryError as exc:
            raise _draft_error(exc, name) from None
        try:
            return cls.from_entry(entry)
        except ShapeError as exc:  # a field of the wrong kind: named where it stands
            line = field_line(text, exc.field)
            raise _draft_error(EntryError("SCHEMA", exc.message, line), name) from None

    def given(self) -> dict[str, Any]:
        """Every field that has a value (lists as lists), extra fields included."""
        out: dict[str, Any] = dict(self.extra)
        for spec in specs():
            value = getattr(self, spec.name)
            if value not in (None, "", ()):
                out[spec.name] = list(value) if spec.many else value
        return out

    def over(self, base: ProposalFields) -> ProposalFields:
        """base with every field given here put over it (flags over a draft file)."""
        mine = {k: v for k, v in self.given().items() if k not in self.extra}
        return dataclasses.replace(base, **mine, extra={**base.extra, **self.extra})

    def require(self) -> None:
        """Refuse a proposal without the fields every candidate needs, naming them."""
        missing = [s.option for s in specs() if s.required and not getattr(self, s.name)]
        if missing:
            raise UsageError(
                f"missing {', '.join(missing)}: a candidate needs a type, a title, when it "
                "applies and its content"
            )
        self.require_closed_fences()

    def require_closed_fences(self) -> None:
        """Refuse a section whose code fence never closes, naming it: the fence swallows
        every section after it, and the entry's own rule then said "missing section
        '## Evidence'" to an author who had given the evidence. A RuleError (exit 1), as
        that rule's was, so a batch (import, harvest) counts the one note invalid and goes on."""
        for spec in specs():
            text = getattr(self, spec.name) if spec.name in BODY_FIELDS else None
            if not isinstance(text, str):
                continue
            marks = list(fenced([*text.splitlines(), ""]))
            if marks[-1][1]:
                opening = next(line for line, inside in marks if inside).strip()
                marker = opening[: len(opening) - len(opening.lstrip(opening[0]))]
                raise RuleError(
                    f"{spec.option} opens a code fence ({marker}) that it never closes: "
                    "end the code with a line of the same fence, or the sections after it "
                    "read as code"
                )


class ShapeError(RuleError):
    """A field's value of the wrong kind (_require_shape), with the field it is of."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name


def _require_shape(spec: FieldSpec, value: Any) -> None:
    """Refuse a value of the wrong kind, naming the field as `gitmem check` does: a list field
    holds a list of text, any other field text. A draft's YAML can give any shape, and the
    proposal used to make one fit: `title: {a: b}` was proposed as the text "{'a': 'b'}",
    `tags: hooks` as the tags h, o, o, k, s, `tags: {hooks: x}` as the tag hooks, where
    `gitmem check` and the server refuse the same file."""
    if value is None:
        return
    if not spec.many:
        if not isinstance(value, str):
            raise ShapeError(spec.name, f"{spec.name}: expected text, got {_kind_of(value)}")
        return
    if not isinstance(value, list | tuple):
        raise ShapeError(spec.name, f"{spec.name}: expected a list, got {_kind_of(value)}")
    for number, item in enumerate(value):
        if not isinstance(item, str):
            message = f"{spec.name}.{number}: expected text, got {_kind_of(item)}"
            raise ShapeError(spec.name, message)


def _kind_of(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "a list"
    return "a mapping" if isinstance(value, Mapping) else "text"


def specs() -> tuple[FieldSpec, ...]:
    """The proposal fields in the order tools and help list them."""
    return _SPECS


_SPECS: Final = tuple(
    FieldSpec(
        f.name,
        f.metadata["help"],
        f.metadata["required"],
        f.metadata["many"],
        f.metadata.get("flag", f.name.replace("_", "-")),
    )
    for f in dataclasses.fields(ProposalFields)
    if f.metadata
)


def decode_draft(data: bytes, name: str) -> str:
    """The text of the entry file called name, read as every gate reads one: a NUL byte is
    BINARY, bytes that are not UTF-8 are ENCODING (each a RuleError in check's words), a BOM
    and CRLF are normalised."""
    try:
        return decode(data)
    except EntryError as exc:
        raise _draft_error(exc, name) from None


def _draft_error(exc: EntryError, name: str | None) -> RuleError:
    """A draft's problem as a check line (`path:line: RULE message`) when the file is named."""
    if name is None:
        return RuleError(f"{exc.rule} line {exc.line or '?'}: {exc.message}")
    where = f"{name}:{exc.line}" if exc.line is not None else name
    return RuleError(f"{where}: {exc.rule} {exc.message}")
