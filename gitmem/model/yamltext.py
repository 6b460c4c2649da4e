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


class StrictLoader(_BaseLoader):  # type: ignore[misc]
    """Every scalar read as a string (BaseLoader, in C where libyaml is there), duplicate keys
    refused, and anchors/aliases refused: a node met twice is an alias."""

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        if node in self.constructed_objects or node in self.recursive_objects:
            raise yaml.constructor.ConstructorError(
                None, None, "anchors and aliases are not allowed", node.start_mark
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
