"""`gitmem mcp`: the project memory as Model Context Protocol tools, served over stdio.

An agent asks for precedents (`memory_recall`), proposes what it learned (`memory_push`), and
reads what is pending or admitted (`memory_candidates`, `memory_show`).  Each tool is a thin
call into the same core the command line uses, so an agent meets exactly the rules a person
meets: a proposal is validated by `gitmem.lifecycle.propose` and lands as one commit on a new branch
`gitmem/<id>` from the main branch's tip.  Nothing here writes the main branch, the working
tree, the staging index or HEAD; admitting stays a person's (or an audit's) decision.

The workspace is opened afresh on every call, from the folder the server was started in:
the repository may change between two calls (a person admits, fetches, switches branches), and
an answer must describe it as it is now.

Failures never end the server.  An expected failure (a `GitmemError`: a rule refused the
candidate, an unknown id, not a repository) comes back as a tool error (`isError`) whose text
is the core's own message, rule lines `path:line: RULE-ID message` included, so the agent can
read it and correct its call.  Arguments that do not fit a tool's input schema are refused the
same way by the SDK.  Anything unexpected is logged with its traceback on stderr (which MCP
clients keep as the server's log) and reported as a tool error naming the exception.

The module is named after the noun users see (`gitmem mcp`); absolute imports keep
`import mcp` below pointing at the SDK, not at this file.
"""

from __future__ import annotations

import inspect
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

import gitmem
from gitmem.errors import GitmemError
from gitmem.model.proposal import ProposalFields, specs

if TYPE_CHECKING:
    from gitmem.repo.workspace import Workspace

__all__ = [
    "NO_PRECEDENT",
    "TOOLS",
    "CandidateItem",
    "CandidatesResult",
    "PushResult",
    "RecallResult",
    "RecalledEntry",
    "build_server",
    "serve",
]

logger = logging.getLogger(__name__)

TOOLS: Final = ("memory_recall", "memory_push", "memory_candidates", "memory_show")
NO_PRECEDENT: Final = "no precedent in the project memory"

Step = Literal["spec", "plan", "batch", "correction", "audit"]

INSTRUCTIONS: Final = """\
gitmem keeps this project's reviewed memory: decisions, methods, code structure and mistakes,
admitted by people. Before a step of work, call memory_recall with the situation in your own
words (and the step: spec, plan, batch, correction or audit); an empty answer means there is no
precedent. When you learn something worth keeping, call memory_push with source
"verdict:<the stop that taught you>": it becomes a candidate on its own branch for a person to
review; it never changes the main branch or the working tree."""


# ---------------------------------------------------------------------------------------------
# what the tools return (published as output schemas)


class RecalledEntry(BaseModel):
    """One admitted entry that answers the query."""

    id: str
    type: str
    title: str
    applies_when: str = Field(description="The situation in which the lesson applies.")
    score: float = Field(description="Relevance in 0..1; 1 = every query word is in the title.")
    path: str = Field(description="The entry's file in the repository.")
    stale_commits: int = Field(
        description="Commits that touched the entry's cited files since it was admitted "
        "(0 = fresh); when above 0 the entry may be stale."
    )
    missing_files: list[str] = Field(description="Cited files that no longer exist.")
    freshness: str = Field(
        description="Empty when fresh, else what to know before relying on it "
        '("may be stale: …", "cites missing file …").'
    )


class RecallResult(BaseModel):
    entries: list[RecalledEntry] = Field(description="Best first; empty when nothing applies.")
    note: str | None = Field(
        None, description="Set when nothing matched: there is no precedent to follow."
    )


class PushResult(BaseModel):
    id: str = Field(description="The candidate's id; `memory_show` reads it back.")
    branch: str = Field(description="The branch holding the candidate's one commit.")
    commit: str
    warnings: list[str] = Field(description="Rule warnings that did not refuse the candidate.")
    next: str = Field(description="What happens to the candidate now.")


class CandidateItem(BaseModel):
    id: str
    title: str
    branch: str = Field(description="Its branch, local (gitmem/<id>) or remote-tracking.")
    valid: bool = Field(description="True when admission would accept it as it stands now.")
    problems: list[str] = Field(description="Rule lines `path:line: RULE-ID message`.")


class CandidatesResult(BaseModel):
    candidates: list[CandidateItem] = Field(description="Pending candidates, by id.")


# ---------------------------------------------------------------------------------------------
# the server


@contextmanager
def _answering(tool: str, turn: threading.Lock) -> Iterator[None]:
    """Answer one call at a time, and turn every failure into a tool error the agent can read;
    the server keeps serving.

    The SDK runs each call in a worker thread, so a client sending calls in parallel would run
    the core concurrently in one process; the core is written for one command at a time (it
    guards against other processes with compare-and-swap and file locks), so calls take turns.
    """
    try:
        with turn:
            yield
    except ToolError:
        raise
    except GitmemError as exc:
        raise ToolError(exc.message) from None
    except Exception as exc:
        logger.exception("gitmem mcp: %s failed unexpectedly", tool)
        raise ToolError(
            f"unexpected error ({type(exc).__name__}: {exc}); the traceback is in the "
            "server's log (its stderr). Please report it."
        ) from exc


def push_signature() -> inspect.Signature:
    """memory_push's arguments: one per proposal field (gitmem.model.proposal, where the
    command line's `gitmem propose` options come from too), each with its description; the
    SDK publishes them as the tool's input schema and validates every call against it."""
    params = []
    for spec in specs():
        kind: Any = list[str] if spec.many else str
        if not spec.required:
            kind = kind | None
        described = Annotated[kind, Field(description=spec.help)]
        params.append(
            inspect.Parameter(
                spec.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty if spec.required else None,
                annotation=described,
            )
        )
    return inspect.Signature(params, return_annotation=PushResult)


def _recall_types(types: list[str] | None, step: Step | None) -> list[str] | None:
    """The types to recall: those given, plus those the step needs (`gitmem recall --step`);
    None (every type) when neither narrows it."""
    picked = list(types or [])
    if step is not None:
        from gitmem.recall.engine import STEP_TYPES

        picked.extend(t for t in STEP_TYPES[step] if t not in picked)
    return picked or None


def build_server(path: str | Path | None = None) -> MCPServer:
    """The MCP server answering for the repository at or above path (default: the current
    folder, taken once now so a later change of folder does not move it)."""
    root = Path(path if path is not None else Path.cwd()).absolute()

    turn = threading.Lock()

    def workspace() -> Workspace:
        from gitmem.repo.workspace import open_workspace

        return open_workspace(root)

    server: MCPServer = MCPServer(
        name="gitmem",
        title="gitmem project memory",
        version=gitmem.__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(annotations=read_only)
    def memory_recall(
        query: Annotated[str, Field(description="The situation or question, in your own words.")],
        k: Annotated[int, Field(ge=1, le=50, description="At most this many entries.")] = 5,
        types: Annotated[
            list[str] | None,
            Field(description="Only these types: decision, method, code-structure, mistake."),
        ] = None,
        step: Annotated[
            Step | None,
            Field(
                description="The work step asking; recalls the types it needs (spec: decision, "
                "method; plan: decision, code-structure; batch and audit: code-structure, "
                "mistake; correction: mistake), added to `types`."
            ),
        ] = None,
    ) -> RecallResult:
        """Recall admitted entries of the project memory that apply to a situation, best first.

        Never a candidate or a superseded entry. An empty list with a note means the memory
        holds no precedent for it: do not force one. Each entry says whether the files it cites
        changed since admission (stale_commits) or are gone (missing_files).
        """
        with _answering("memory_recall", turn):
            from gitmem.recall.service import recall

            found = recall(workspace(), query, k=k, types=_recall_types(types, step))
            entries = [
                RecalledEntry(
                    id=r.id,
                    type=r.type,
                    title=r.title,
                    applies_when=r.applies_when,
                    score=round(r.score, 3),
                    path=r.path,
                    stale_commits=r.stale_commits,
                    missing_files=list(r.missing_files),
                    freshness=r.freshness,
                )
                for r in found
            ]
            return RecallResult(entries=entries, note=None if entries else NO_PRECEDENT)

    def memory_push(**given: Any) -> PushResult:
        """Propose a memory entry: validate it, then commit it as a candidate on a new branch
        gitmem/<id> from the main branch, for a person to review and admit.

        Never writes the main branch, the working tree, the staging index or HEAD. When a rule
        refuses it (a secret, a missing or malformed field, a duplicate topic), the error lists
        each rule as `path:line: RULE-ID message`: fix those fields and call again.
        """
        with _answering("memory_push", turn):
            from gitmem.lifecycle.propose import propose

            ws = workspace()
            proposal = propose(ws, ProposalFields.from_mapping(given))
            return PushResult(
                id=proposal.id,
                branch=proposal.branch,
                commit=proposal.commit,
                warnings=[*ws.settings.warnings, *(str(w) for w in proposal.warnings)],
                next=f"a person reviews it: `gitmem show {proposal.id}`, then "
                f"`gitmem admit {proposal.id}` or `gitmem refuse {proposal.id}`",
            )

    memory_push.__signature__ = push_signature()  # type: ignore[attr-defined]
    server.tool(annotations=ToolAnnotations(destructive_hint=False, open_world_hint=False))(
        memory_push
    )

    @server.tool(annotations=read_only)
    def memory_candidates() -> CandidatesResult:
        """List the pending candidates with their titles and whether admission would accept
        them now (the rules they break, if any)."""
        with _answering("memory_candidates", turn):
            from gitmem.lifecycle.candidates import review

            items = [
                CandidateItem(
                    id=r.candidate.id,
                    title=r.title,
                    branch=r.candidate.branch,
                    valid=not r.errors,
                    problems=[str(p) for p in r.problems],
                )
                for r in review(workspace())
            ]
            return CandidatesResult(candidates=items)

    @server.tool(annotations=read_only, structured_output=False)
    def memory_show(
        id: Annotated[str, Field(description="An entry's or a pending candidate's id.")],
    ) -> str:
        """The full text of an admitted entry or a pending candidate: front matter (status,
        type, applies_when, files…) and its Context, Content and Evidence."""
        with _answering("memory_show", turn):
            from gitmem.lifecycle import read as memory

            _, entry = memory.show(workspace(), id)
            return entry.render()

    return server


def serve(path: str | Path | None = None) -> None:
    """Serve the tools over stdio until the client disconnects (`gitmem mcp`)."""
    build_server(path).run("stdio")
