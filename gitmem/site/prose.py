"""An entry's Markdown as safe HTML: nothing an entry holds ever runs in a reader's browser.

markdown-it-py renders CommonMark (a well-kept parser, tested against the spec, rather than a
hand-written one), with raw HTML off (a `<script>` or `<img onerror>` in an entry is shown as
text), no linkify and no typographer. After parsing, every link is judged again here:

- `http:`, `https:` and `mailto:` links are kept, with rel="nofollow noopener noreferrer";
- `#fragment` links are kept;
- a relative link (a path in the repository, as entries cite code) points at the file on the
  forge at the site's commit when the repository's web address is known, else it becomes text;
- anything else (`javascript:`, `data:`, `vbscript:`, `file:`, any other scheme, however it is
  spelled, escaped or padded) becomes text: the link's words stay, the address goes;
- so does an address that is one of the kept kinds only once decoded (`%23/../x`,
  `%68ttp:…`): a browser reads it as written, a relative path that leaves the site;
- and an `http:` or `https:` address that names no host (`https:../../x`): a browser reads
  it as a path on the page's own host when the page was served by that scheme.

A kept link whose words show nothing (spaces of any kind, none at all) shows its address, so
no click on what reads as empty space leads anywhere unseen.

Images are never loaded (the site is self-contained and makes no request an entry chose): an
image becomes a link to its address when that address is allowed, else its alt text.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.token import Token

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
_REL = "nofollow noopener noreferrer"
#: what a browser strips from either end of an address: C0 controls and the space
_IGNORED = "".join(map(chr, range(0x21)))
#: the braille pattern blank, drawn as a space though no space; what else draws as nothing
#: (a zero-width space, a filler) is shown as its escape on the page (gitmem.site.build)
_BLANK = "\u2800"


_MD = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})


def link_kind(href: str) -> str:
    """'safe' (an allowed absolute address), 'fragment', 'relative', or 'unsafe'."""
    # what a browser ignores before the scheme: ASCII whitespace and control characters, and
    # percent-escapes markdown-it may have added
    cleaned = "".join(ch for ch in unquote(href) if ord(ch) > 0x20 and ord(ch) != 0x7F)
    if not cleaned:
        return "unsafe"
    # the kind is the one the browser sees in the address as written: `%23/../../x` or
    # `%68ttp:/../x` read as `#…` or `http:…` once cleaned, but a browser reads them as a
    # relative path, which its dot parts took out of the site (to another site on the host,
    # or a file on the reader's disk) under a link judged a fragment or a web address
    raw = href.lstrip(_IGNORED)
    if cleaned.startswith("#"):
        return "fragment" if raw.startswith("#") else "unsafe"
    if cleaned.startswith("//") or cleaned.startswith("\\"):
        return "unsafe"  # scheme-relative: another host chosen by the entry
    try:
        scheme = urlsplit(cleaned).scheme.lower()
    except ValueError:
        return "unsafe"
    if ":" in cleaned.split("/", 1)[0] and not scheme:
        return "unsafe"
    if not scheme:
        return "relative"
    if scheme not in SAFE_SCHEMES:
        return "unsafe"
    try:
        written = urlsplit(raw)
    except ValueError:
        return "unsafe"
    if written.scheme.lower() != scheme:
        return "unsafe"
    if scheme != "mailto" and not (raw[len(scheme) + 1 :].startswith("//") and written.netloc):
        # `https:../../x` names no host: a browser reads it against the page's own address
        # when the scheme is the page's (a site on GitHub Pages: another site on its host,
        # under a link judged a web address), and as a host named `..` otherwise
        return "unsafe"
    return "safe"


def render(
    text: str,
    *,
    entry_path: str = "",
    file_url: Callable[[str], str | None] | None = None,
) -> str:
    """HTML for one section of an entry. entry_path is the entry's repository path (relative
    links are resolved from its folder); file_url gives the address of a repository path, or
    None (the link becomes text).

    A heading in the section ranks below the section's own (an `h2`): an entry's `# Title`
    (the sections hold no level-2 heading, gitmem.model.entry.split_sections) was a second h1,
    which a reader and a screen reader's list of headings took for the page's title; it is
    h3 now, as is `###`, and `####` and below keep their level."""
    env: dict[str, object] = {}
    tokens = _MD.parse(text, env)
    for token in tokens:
        if token.type == "inline" and token.children:
            token.children = _judge_links(token.children, entry_path, file_url)
        elif token.type in ("heading_open", "heading_close"):
            token.tag = f"h{max(3, int(token.tag[1:]))}"
    return str(_MD.renderer.render(tokens, _MD.options, env))


def _resolve(
    href: str, entry_path: str, file_url: Callable[[str], str | None] | None
) -> str | None:
    if file_url is None:
        return None
    path, _, fragment = href.partition("#")
    path = unquote(path.split("?", 1)[0])
    if not path:
        return None
    # from the repository's root when it starts with /, as a forge reads it; the dot parts
    # resolved here in both cases (the browser would resolve them against the address)
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(entry_path), path))
    joined = joined.lstrip("/")
    if joined in ("", ".", "..") or joined.startswith("../"):
        return None
    url = file_url(joined)
    if url is None:
        return None
    return url + (f"#{fragment}" if fragment else "")


def _judge_links(
    children: list[Token], entry_path: str, file_url: Callable[[str], str | None] | None
) -> list[Token]:
    out: list[Token] = []
    stack: list[int | None] = []  # for each open link: where it opens in out, None: not kept
    for token in children:
        if token.type == "link_open":
            href = str(token.attrGet("href") or "")
            kind = link_kind(href)
            target: str | None = href
            if kind == "relative":
                target = _resolve(href, entry_path, file_url)
            elif kind == "unsafe":
                target = None
            if target is None:
                stack.append(None)
                continue
            token.attrSet("href", target)
            if kind != "fragment":
                token.attrSet("rel", _REL)
            stack.append(len(out))
            out.append(token)
        elif token.type == "link_close":
            start = stack.pop() if stack else len(out)
            if start is not None:
                if start < len(out) and not _shows_text(out[start + 1 :]):
                    href = str(out[start].attrGet("href") or "")
                    out.append(Token("text", "", 0, content=href))
                out.append(token)
        elif token.type == "image":
            out.extend(_image(token, entry_path, file_url))
        else:
            out.append(token)
    return out


def _shows_text(tokens: list[Token]) -> bool:
    """Whether a link's words show anything: `[&nbsp;&nbsp;](https://…)`, or `[](…)`, was a
    link of blank words, which a reader clicking on what looked like empty space in the text
    followed to an address they never saw; such a link now shows its address."""
    return any(
        not ch.isspace() and ch != _BLANK
        for t in tokens
        if t.type in ("text", "code_inline")
        for ch in t.content
    )


def _image(
    token: Token, entry_path: str, file_url: Callable[[str], str | None] | None
) -> list[Token]:
    """An image as a link to it (never loaded), or its alt text when the address is not
    allowed."""
    src = str(token.attrGet("src") or "")
    alt = token.content or "image"
    kind = link_kind(src)
    target: str | None = src if kind in ("safe", "fragment") else None
    if kind == "relative":
        target = _resolve(src, entry_path, file_url)
    text = Token("text", "", 0, content=f"image: {alt}")
    if target is None:
        return [text]
    opening = Token("link_open", "a", 1, attrs={"href": target, "rel": _REL})
    return [opening, text, Token("link_close", "a", -1)]
