"""YAML for entries, loaded only when it is needed: front matter the quick readers cannot
read (gitmem.model.entry's fast reader takes what gitmem writes), and writing values out.

Importing PyYAML and python-frontmatter is a tenth of a process that judges a push of one
candidate, which needs neither: gitmem.model.entry imports this module inside the functions that
use it, and this module imports nothing of the parser's (no cycle).
"""

from __future__ import annotations

from typing import Any

import frontmatter.default_handlers
import yaml

from gitmem.model.fields import FRONT_MATTER_END
from gitmem.model.problem import EntryError

#: python-frontmatter's splitter, for the front matter that does not open with a plain line
HANDLER = frontmatter.default_handlers.YAMLHandler(fm_boundary=FRONT_MATTER_END)

_BaseLoader: Any = getattr(yaml, "CBaseLoader", yaml.BaseLoader)


#: The tags a node may carry: those every YAML loader gives text, lists and mappings, which is
#: what gitmem reads them as.
_PLAIN_TAGS = frozenset(f"tag:yaml.org,2002:{kind}" for kind in ("str", "seq", "map"))


class StrictLoader(_BaseLoader):  # type: ignore[misc]
    """Every scalar read as a string (BaseLoader, in C where libyaml is there), duplicate keys
    refused, anchors/aliases refused (a node met twice is an alias), and tags refused but
    those of text, lists and mappings (`!!str` changes nothing).

    BaseLoader ignores a tag: `title: !!binary aGk=` was read as the text `aGk=`, and
    `!!int`, `!!timestamp`, `!!python/name:…` or a custom `!tag` passed as their text too,
    where another tool reading the same entry (yaml.safe_load, a site generator, an agent's
    YAML library) builds bytes, a number, a date, or refuses it, and an unsafe loader runs
    code. The entry means one thing to every reader or is refused: a design choice, as gitmem
    itself never writes a tag."""

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        if node in self.constructed_objects or node in self.recursive_objects:
            raise yaml.constructor.ConstructorError(
                None, None, "anchors and aliases are not allowed", node.start_mark
            )
        if node.tag not in _PLAIN_TAGS:
            raise yaml.constructor.ConstructorError(
                None, None, f"the tag {_shown(node.tag)} is not allowed", node.start_mark
            )
        return super().construct_object(node, deep=deep)

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        if not isinstance(node, yaml.MappingNode):
            return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise yaml.constructor.ConstructorError(
                    None, None, "keys must be plain text", key_node.start_mark
                )
            key = key_node.value
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key '{key}'", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=True)  # type: ignore[no-any-return]


def _shown(tag: str) -> str:
    """A tag as an author writes it (`!!binary`, `!custom`), cut short."""
    short = "!!" + tag.removeprefix("tag:yaml.org,2002:") if tag.startswith("tag:yaml") else tag
    return repr(short if len(short) <= 60 else short[:59] + "…")


class Dumper(yaml.SafeDumper):
    """SafeDumper without the timestamp resolver, so dates are written plain, as in the design."""


Dumper.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for ch, resolvers in yaml.SafeDumper.yaml_implicit_resolvers.items()
}


_RESOLVER = yaml.resolver.Resolver()
_TEXT_TAGS = ("tag:yaml.org,2002:str", "tag:yaml.org,2002:timestamp")


def reads_as_text(value: str) -> bool:
    """True when YAML's usual loaders read the plain value as text (dates included), not as a
    number, a boolean or null."""
    return _RESOLVER.resolve(yaml.ScalarNode, value, (True, False)) in _TEXT_TAGS  # type: ignore[no-untyped-call]


def dump(value: str | list[str], *, allow_unicode: bool) -> str:
    """One value in YAML flow style (lists as `[a, b]`), quoted only where YAML needs it."""
    dumped = yaml.dump(
        value,
        Dumper=Dumper,
        allow_unicode=allow_unicode,
        default_flow_style=True,
        width=2**31 - 1,
        explicit_end=False,
    )
    return dumped.removesuffix("\n...\n").removesuffix("\n")


def read(fm_text: str) -> dict[str, Any]:
    """The front matter as YAML reads it, strings only; EntryError saying where it is not."""
    try:
        meta = yaml.load(fm_text, Loader=StrictLoader)  # a BaseLoader: strings only
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 2
        problem = exc.problem or exc.context or "invalid YAML"
        raise EntryError(
            "FRONT-MATTER", f"front matter is not valid YAML ({problem}): fix the YAML", line
        ) from None
    except (yaml.YAMLError, RecursionError) as exc:
        raise EntryError(
            "FRONT-MATTER", f"front matter is not valid YAML ({type(exc).__name__})", 2
        ) from None
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        kind = "a list" if isinstance(meta, list) else "a single value"
        raise EntryError(
            "FRONT-MATTER",
            f"front matter is {kind}, not a mapping: write one 'field: value' per line",
            2,
        )
    return meta
