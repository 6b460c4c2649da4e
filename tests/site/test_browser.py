"""The site in a real headless browser (Debian's chromium, driven through chromedriver by
selenium): every page renders without console errors, filtering and search work and rank as
recall ranks, an entry holding script runs nothing, axe-core finds no accessibility violation,
pages fit a phone, and the keyboard reaches everything.

Screenshots are never written into the repository. Chromium runs with a fresh profile and the
flags that keep it off the (closed) network.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from clirunner import PROPOSE, admit, ok, run
from npmpkgs import AXE, fetch
from recall_corpus import corpus
from recall_queries import MATCHING, NO_MATCH, SITUATIONS
from site_fixture import SiteRepo, site_repo

from gitmem.recall.engine import Index
from gitmem.site import build, search

from conftest import git

__all__ = ["site_repo"]  # the fixture

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--window-size=1280,1024",
)
WEB = "https://github.com/acme/shop"

webdriver = pytest.importorskip("selenium.webdriver")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        message = "chromium and chromium-driver are not installed (apt-get install them)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from selenium.webdriver.chrome.service import Service

    profile = tmp_path_factory.mktemp("chromium-profile")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingOptions", {"browser": "ALL"})
    env = dict(os.environ, HOME=str(profile), XDG_CONFIG_HOME=str(profile))
    service = Service(CHROMEDRIVER, env=env)
    driver = webdriver.Chrome(service=service, options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def site(site_repo: SiteRepo, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    ok(run(site_repo.path, "site", "--out", str(out), "--web", WEB))
    return out


def _open(driver: object, path: Path, query: str = "") -> list[dict[str, object]]:
    """Load a page; the console messages it logged."""
    driver.get_log("browser")  # type: ignore[attr-defined]
    driver.get(path.as_uri() + query)  # type: ignore[attr-defined]
    return list(driver.get_log("browser"))  # type: ignore[attr-defined]


def _fits_a_phone(driver: object, pages: tuple[Path, ...]) -> None:
    """Each page, opened 390 px wide, has nothing that scrolls sideways."""
    driver.set_window_size(390, 844)  # type: ignore[attr-defined]
    try:
        for page in pages:
            _open(driver, page)
            overflow = driver.execute_script(  # type: ignore[attr-defined]
                "return document.documentElement.scrollWidth - window.innerWidth"
            )
            assert overflow <= 0, (page.name, overflow)
    finally:
        driver.set_window_size(1280, 1024)  # type: ignore[attr-defined]


def _visible_ids(driver: object) -> list[str]:
    return list(
        driver.execute_script(  # type: ignore[attr-defined]
            "return Array.from(document.querySelectorAll('#entries > li'))"
            ".filter(li => !li.hidden).map(li => li.dataset.id)"
        )
    )


def _search(driver: object, text: str) -> None:
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.ID, "f-q")  # type: ignore[attr-defined]
    box.clear()
    box.send_keys(text)


def test_every_page_renders_without_console_errors(browser: object, site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 9
    for page in pages:
        logs = _open(browser, page)
        assert logs == [], (page.name, logs)
        title = browser.title  # type: ignore[attr-defined]
        assert title.endswith("· gitmem"), page.name
        assert (
            browser.execute_script(  # type: ignore[attr-defined]
                "return document.querySelectorAll('h1').length"
            )
            == 1
        )


def test_an_entry_holding_script_runs_nothing(
    browser: object, site: Path, site_repo: SiteRepo
) -> None:
    from selenium.webdriver.common.by import By

    page = site / "entries" / f"{site_repo.hostile}.html"
    assert _open(browser, page) == []
    state = browser.execute_script(  # type: ignore[attr-defined]
        "return [typeof window.pwned, document.title,"
        " Array.from(document.scripts).map(s => s.getAttribute('src')),"
        " Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href'))]"
    )
    assert state[0] == "undefined"
    assert "pwned" not in state[1]
    assert state[2] == ["../site.js"]
    assert not [h for h in state[3] if h.strip().lower().startswith(("javascript", "data", "vb"))]
    prose = browser.find_element(By.CSS_SELECTOR, ".prose")  # type: ignore[attr-defined]
    assert "<script>" in prose.text or "script" in prose.text
    for link in browser.find_elements(By.CSS_SELECTOR, ".prose a"):  # type: ignore[attr-defined]
        assert link.get_attribute("href").startswith(("https://", "http://", "mailto:"))
    # click where the dangerous links were: text now, nothing happens
    for element in browser.find_elements(By.CSS_SELECTOR, ".prose p"):  # type: ignore[attr-defined]
        element.click()
    assert browser.execute_script("return typeof window.pwned") == "undefined"  # type: ignore[attr-defined]


#: A field value that tries to leave its attribute and the drawing it sits in: an element of
#: its own, and a refresh that takes the reader to a page of the author's choosing.
BREAKOUT = (
    '"/></a></g></svg><p id="pwned">INJECTED</p>'
    '<meta http-equiv="refresh" content="0;url=https://example.org/"><svg><g class="x'
)


def _forge(repo: Path, path: str, text: str) -> None:
    """Commit a file straight to main, past the hooks, as someone who skips them would."""
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", f"forge {path}")


def _entry(entry_id: str, **fields: str) -> str:
    """An entry's text with these front-matter fields (each YAML-quoted) over a plain one's."""
    meta = {
        "id": entry_id,
        "type": "decision",
        "status": "admitted",
        "title": "Forged past the hooks",
        "applies_when": "never",
        "source": "human:mallory",
        "created": "2026-12-01",
        **fields,
    }
    front = "".join(f"{key}: {json.dumps(value)}\n" for key, value in meta.items())
    return f"---\n{front}---\n\n## Context\n\n## Content\nx\n\n## Evidence\n"


def _stays_put(driver: object, page: Path) -> None:
    """The page neither grew an element of the entry's making nor went elsewhere."""
    time.sleep(0.5)  # a refresh of 0 seconds fires after the load
    assert driver.current_url == page.as_uri()  # type: ignore[attr-defined]
    assert driver.execute_script(  # type: ignore[attr-defined]
        "return [document.getElementById('pwned'),"
        " document.querySelector('meta[http-equiv=refresh]')]"
    ) == [None, None]


def test_a_forged_status_in_a_lineage_stays_text(
    browser: object, memory: Path, tmp_path: Path
) -> None:
    """The lineage drawing put an entry's status into a class attribute unescaped: a status
    forged past the hooks closed the drawing, added elements, and its refresh took the
    reader to another site."""
    entry_id = admit(memory, PROPOSE)
    forged = "local-decision-20261201-forged-status"
    _forge(
        memory,
        f".gitmem/entries/decision/{forged}.md",
        _entry(forged, status="superseded" + BREAKOUT, superseded_by=entry_id),
    )
    admitted = next((memory / ".gitmem" / "entries").rglob(f"{entry_id}.md"))
    text = admitted.read_text().replace("tags:", f"supersedes: [{forged}]\ntags:", 1)
    _forge(memory, str(admitted.relative_to(memory)), text)
    out = tmp_path / "site"
    ok(run(memory, "site", "--out", str(out)))
    page = out / "entries" / f"{entry_id}.html"
    assert '<svg class="lineage"' in page.read_text()
    _open(browser, page)
    _stays_put(browser, page)


def test_a_bidirectional_control_in_a_field_reorders_nothing_around_it(
    browser: object, memory: Path, tmp_path: Path
) -> None:
    """A right-to-left override (U+202E) in a field forged past the hooks (the gate refuses
    it: HIDDEN-UNICODE) ran on to the end of its paragraph: "by human:eve on 2026-12-01, in
    commit …" read right to left after the name, the date before "on". A control character,
    bidirectional control or zero-width character is now shown as its escape, \\u202e, as
    the terminal commands show it to a reviewer."""
    from selenium.webdriver.common.by import By

    forged = "local-decision-20261201-forged-admitter"
    _forge(
        memory,
        f".gitmem/entries/decision/{forged}.md",
        _entry(forged, admitted_by="human:eve\u202e", admitted="2026-12-01"),
    )
    out = tmp_path / "site"
    ok(run(memory, "site", "--out", str(out)))
    page = out / "entries" / f"{forged}.html"
    assert _open(browser, page) == []
    dd = next(
        e
        for e in browser.find_elements(By.CSS_SELECTOR, "dl.fields dd")  # type: ignore[attr-defined]
        if e.text.startswith("by human:eve")
    )
    left = browser.execute_script(  # type: ignore[attr-defined]
        "const node = arguments[0].firstChild, text = node.data;"
        "return arguments[1].map(word => {"
        " const range = document.createRange(), at = text.indexOf(word);"
        " range.setStart(node, at); range.setEnd(node, at + word.length);"
        " return range.getBoundingClientRect().left; });",
        dd,
        [" on ", "2026-12-01"],
    )
    assert left[0] < left[1], left
    assert "\u202e" not in dd.text and "human:eve\\u202e on 2026-12-01" in dd.text


def test_a_long_address_or_identifier_keeps_the_page_one_column_on_a_phone(
    browser: object, memory: Path, tmp_path: Path
) -> None:
    """Titles, fields and code broke anywhere, but an entry's prose and the list's hook and
    source did not: a build log's address in Evidence, an identifier as the hook or a long
    name made the page scroll sideways at 390 px (by 530, 370 and 670 px)."""
    long = "https://ci.example.com/org/repo/actions/runs/1234567890123/job/98765432109/logs/raw"
    identifier = "a_long_identifier_name_that_goes_on_without_any_break_for_eighty_characters"
    args = ["propose", "--type", "method", "--title", "Link the build log"]
    args += ["--applies-when", identifier, "--content", f"See {long}.", "--evidence", long]
    entry_id = admit(memory, [*args, "--source", "human:" + "A" * 120])
    out = tmp_path / "site"
    ok(run(memory, "site", "--out", str(out)))
    assert "human:" + "A" * 120 in (out / "entries.html").read_text()
    _fits_a_phone(browser, (out / "entries.html", out / "entries" / f"{entry_id}.html"))


def test_filters(browser: object, site: Path, site_repo: SiteRepo) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    entries = site / "entries.html"
    assert _open(browser, entries) == []
    everything = _visible_ids(browser)
    assert len(everything) == 4
    Select(browser.find_element(By.ID, "f-type")).select_by_value("decision")  # type: ignore[attr-defined]
    assert sorted(_visible_ids(browser)) == sorted([site_repo.first, site_repo.successor])
    Select(browser.find_element(By.ID, "f-status")).select_by_value("superseded")  # type: ignore[attr-defined]
    assert _visible_ids(browser) == [site_repo.first]
    shown = browser.find_element(By.ID, "shown").text  # type: ignore[attr-defined]
    assert shown == "1 entry"
    _open(browser, entries, "?stale=1")
    assert _visible_ids(browser) == [site_repo.first]
    _open(browser, entries, "?tag=security")
    assert sorted(_visible_ids(browser)) == sorted([site_repo.secrets, site_repo.hostile])
    _open(browser, entries, "?source=human&type=method")
    assert _visible_ids(browser) == [site_repo.secrets]


def test_search_ranks_as_recall_does(
    browser: object, site: Path, site_repo: SiteRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITMEM_SEMANTIC", "false")  # the browser ranks by keywords
    _open(browser, site / "entries.html")
    for query in ("pygit2 hooks", "untrusted markdown script", "secrets scanner tokens"):
        _search(browser, query)
        recalled = json.loads(
            ok(run(site_repo.path, "recall", query, "--format", "json", "-k", "10")).output
        )
        assert _visible_ids(browser) == [hit["id"] for hit in recalled], query
        assert recalled
    _search(browser, "kubernetes helm chart upgrade")
    assert _visible_ids(browser) == []
    assert "no admitted entry matches" in browser.find_element("id", "shown").text  # type: ignore[attr-defined]


def test_a_long_query_of_words_that_add_no_term_is_answered_at_once(
    browser: object, site: Path
) -> None:
    """The search looked back over the whole query before each word (is it the first of a
    sentence?), and only MAX_QUERY_TERMS terms stopped it: stop words add none, so a query
    of 20,000 characters of them (pasted, or a link's `?q=`) took a third of a second a
    keystroke, quadratic in its length. Each word now looks back only to the word before."""
    assert _open(browser, site / "entries.html") == []
    elapsed, hits = browser.execute_script(  # type: ignore[attr-defined]
        "const idx = window.GITMEM_SEARCH, query = 'a '.repeat(10000);"
        "const start = performance.now(); let hits = 0;"
        "for (let n = 0; n < 3; n++) hits += window.gitmemSearch(idx, query).length;"
        "return [performance.now() - start, hits];"
    )
    assert hits == 0
    assert elapsed < 300, elapsed  # three times: 1,000 ms and more before, 30 ms now


def test_search_agrees_with_the_engine_on_the_labelled_queries(
    browser: object, tmp_path: Path
) -> None:
    """On the labelled set (tests/recall_corpus.py, 121 entries, and its 127 questions), the
    browser's top five against the engine's, as `gitmem recall` answers without the extra."""
    docs = corpus()
    index = Index.build(docs)
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "search.js").write_bytes(search.script(search.build(docs, [""] * len(docs))))
    (folder / "site.js").write_bytes(build.asset("site.js"))
    (folder / "page.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>q</title>'
        '<script src="site.js"></script><script src="search.js"></script></head>'
        "<body><main><h1>q</h1></main></body></html>\n"
    )
    assert _open(browser, folder / "page.html") == []
    queries = [q for q, _ in MATCHING] + [q for q, _ in SITUATIONS] + list(NO_MATCH)
    answers = browser.execute_script(  # type: ignore[attr-defined]
        "const idx = window.GITMEM_SEARCH;"
        "return arguments[0].map(q => window.gitmemSearch(idx, q).slice(0, 5)"
        ".map(h => [idx.docs[h[0]][0], h[1]]));",
        queries,
    )
    same_top5 = same_top1 = same_scores = 0
    for query, answer in zip(queries, answers, strict=True):
        engine = [(h.id, h.score) for h in index.search(query, k=5)]
        browser_ids = [a[0] for a in answer]
        same_top5 += browser_ids == [e[0] for e in engine]
        same_top1 += browser_ids[:1] == [e[0] for e in engine][:1]
        same_scores += [round(a[1], 4) for a in answer] == [e[1] for e in engine]
    n = len(queries)
    print(
        f"\nbrowser vs engine on {n} labelled queries: same top 5 {same_top5 / n:.3f}, "
        f"same top 1 {same_top1 / n:.3f}, same scores {same_scores / n:.3f}"
    )
    assert same_top1 / n >= 0.95
    assert same_top5 / n >= 0.9


def test_accessibility(
    browser: object, site: Path, site_repo: SiteRepo, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """axe-core, injected into each kind of page, finds no WCAG 2.1 A/AA violation."""
    axe = (fetch(AXE, tmp_path_factory.getbasetemp() / "npm") / "axe.min.js").read_text()
    pages = [
        (site / "index.html", ""),
        (site / "entries.html", ""),
        (site / "entries.html", "?q=pygit2+hooks"),
        (site / "entries" / f"{site_repo.first}.html", ""),
        (site / "entries" / f"{site_repo.hostile}.html", ""),
        (site / "candidates" / f"{site_repo.stray}.html", ""),
        (site / "refused.html", ""),
    ]
    for page, query in pages:
        _open(browser, page, query)
        browser.execute_script(axe)  # type: ignore[attr-defined]
        result = browser.execute_async_script(  # type: ignore[attr-defined]
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {runOnly: {type: 'tag', values: "
            "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
            ".then(r => done(r.violations.map(v => [v.id, v.nodes.map(n => n.html)])))"
            ".catch(e => done([['axe failed', [String(e)]]]));"
        )
        assert result == [], (page.name, query, result)


def test_phone_and_keyboard(browser: object, site: Path, site_repo: SiteRepo) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    pages = ("index.html", "entries.html", f"entries/{site_repo.first}.html", "refused.html")
    _fits_a_phone(browser, tuple(site / page for page in pages))
    _open(browser, site / "entries.html")
    body = browser.find_element(By.TAG_NAME, "body")  # type: ignore[attr-defined]
    body.send_keys(Keys.TAB)
    active = browser.switch_to.active_element  # type: ignore[attr-defined]
    assert active.get_attribute("class") == "skip"
    active.send_keys(Keys.ENTER)
    body.send_keys("/")
    assert browser.switch_to.active_element.get_attribute("id") == "f-q"  # type: ignore[attr-defined]
    browser.switch_to.active_element.send_keys("pygit2")  # type: ignore[attr-defined]
    assert _visible_ids(browser)[0] in (site_repo.successor, site_repo.first)


def test_a_link_whose_address_reads_otherwise_once_decoded_leads_nowhere(
    browser: object, memory: Path, tmp_path: Path
) -> None:
    """A link was judged by its address decoded and stripped, then kept as written:
    `%23/../../x` judged a fragment and `%68ttp:/../x` a web address, but a browser reads
    both as a relative path, whose dot parts took the reader out of the site (to another
    site on the host, or any file of the reader's disk) under a link judged harmless. Such a
    link is now text."""
    from selenium.webdriver.common.by import By

    forged = "local-decision-20261201-forged-links"
    text = _entry(forged).replace(
        "## Content\nx\n",
        "## Content\n[fragment](%23/../../../../outside.html), "
        "[web](%68ttp:/../../../../outside.html), [padded](%20#/../../outside.html), "
        "![image](%23/../../../outside.png), [ok](#fields)\n",
    )
    _forge(memory, f".gitmem/entries/decision/{forged}.md", text)
    out = tmp_path / "site"
    ok(run(memory, "site", "--out", str(out), "--web", WEB))
    page = out / "entries" / f"{forged}.html"
    assert _open(browser, page) == []
    prose = browser.find_elements(By.CSS_SELECTOR, ".prose")[1]  # type: ignore[attr-defined]
    assert "fragment, web, padded, image: image, ok" in prose.text
    hrefs = [a.get_attribute("href") for a in prose.find_elements(By.TAG_NAME, "a")]
    assert hrefs == [page.as_uri() + "#fields"], hrefs


@contextlib.contextmanager
def _served(folder: Path) -> Iterator[str]:
    """folder served over HTTP on the loopback address, as a web host serves the site (some
    addresses read otherwise there than from file://); the address of its root."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Nothing on the test's output."""


def test_a_web_address_that_names_no_host_leads_nowhere(
    browser: object, memory: Path, tmp_path: Path
) -> None:
    """`http:../../x` was judged a web address, but a browser reads an http: address with no
    host as a path on the page's own host when the page came by http: (https: on GitHub
    Pages): the link took the reader to another site on the host that served this one, and
    from file:// to a host named `..`. Such a link is now text."""
    from selenium.webdriver.common.by import By

    forged = "local-decision-20261201-forged-hostless"
    text = _entry(forged).replace(
        "## Content\nx\n",
        "## Content\n[up](http:../../outside.html), [root](http:/outside.html), "
        "[secure](https:../../outside.html), ![image](http:../../outside.png), "
        "[ok](http://example.org/x)\n",
    )
    _forge(memory, f".gitmem/entries/decision/{forged}.md", text)
    site = tmp_path / "host" / "site"
    ok(run(memory, "site", "--out", str(site), "--web", WEB))
    (site.parent / "outside.html").write_text("<!DOCTYPE html><title>another site</title>")
    with _served(site.parent) as root:
        page = f"{root}site/entries/{forged}.html"
        browser.get(page)  # type: ignore[attr-defined]
        prose = browser.find_elements(By.CSS_SELECTOR, ".prose")[1]  # type: ignore[attr-defined]
        assert "up, root, secure, image: image, ok" in prose.text
        hrefs = [a.get_attribute("href") for a in prose.find_elements(By.TAG_NAME, "a")]
    assert hrefs == ["http://example.org/x"], hrefs


def test_a_link_of_blank_words_shows_its_address(
    browser: object, memory: Path, tmp_path: Path
) -> None:
    """A link whose words are blank (no-break spaces, ideographic spaces, braille blanks)
    drew a stretch of empty space in the text that a click on took the reader to an address
    the page never showed. Such a link now shows its address."""
    forged = "local-decision-20261201-forged-blank-links"
    blank = "&nbsp;" * 12
    text = _entry(forged).replace(
        "## Content\nx\n",
        f"## Content\nbefore [{blank}](https://example.org/a) [\u3000\u3000](https://example.org/b)"
        " [\u2800\u2800\u2800](https://example.org/c) [](https://example.org/d) "
        "[` `](https://example.org/e) [words](https://example.org/f) after\n",
    )
    _forge(memory, f".gitmem/entries/decision/{forged}.md", text)
    out = tmp_path / "site"
    ok(run(memory, "site", "--out", str(out), "--web", WEB))
    page = out / "entries" / f"{forged}.html"
    assert _open(browser, page) == []
    links = browser.execute_script(  # type: ignore[attr-defined]
        "return Array.from(document.querySelectorAll('.prose a')).map(a =>"
        " [a.getAttribute('href'), a.innerText.replace(/[\\s\\u2800]/g, '')])"
    )
    assert [href for href, _ in links] == [f"https://example.org/{c}" for c in "abcdef"]
    assert [shown for _, shown in links][:5] == [f"https://example.org/{c}" for c in "abcde"]
    assert links[5][1] == "words"


def test_a_heading_in_an_entry_ranks_below_the_pages_own(
    browser: object, memory: Path, tmp_path: Path
) -> None:
    """An entry's `# heading` (or one underlined with ===) was a second h1 beside the page's
    title, which a reader and a screen reader's list of headings took for the page's own:
    `# Admitted, passes every rule` on a page of a retired entry. An entry's headings now
    start at h3, below the page's sections."""
    forged = "local-decision-20261201-forged-headings"
    text = _entry(forged).replace(
        "## Content\nx\n",
        "## Content\n# Admitted, passes every rule\n\nx\n\nChecks\n======\n\npasses every rule\n",
    )
    _forge(memory, f".gitmem/entries/decision/{forged}.md", text)
    out = tmp_path / "site"
    ok(run(memory, "site", "--out", str(out)))
    page = out / "entries" / f"{forged}.html"
    assert _open(browser, page) == []
    headings = browser.execute_script(  # type: ignore[attr-defined]
        "return ['h1', 'h2', 'h3'].map(h => Array.from(document.querySelectorAll(h))"
        ".map(e => e.textContent))"
    )
    assert headings == [
        ["Forged past the hooks"],
        ["Fields", "Context", "Content", "Evidence"],
        ["Admitted, passes every rule", "Checks"],
    ], headings


def test_a_forged_status_gives_its_badge_or_box_no_class_of_the_page(
    browser: object, memory: Path, tmp_path: Path
) -> None:
    """An entry's status was its badge's and its lineage box's class, escaped but split at
    its spaces: a status forged past the hooks as `superseded skip` took the skip link's
    class, which moves the badge off the page (a superseded entry read as one with no
    status), and `superseded current` drew an older entry's box as the one the page is
    about. A status the site does not know is now the class `unknown`."""
    older, newer = "local-decision-20261201-forged-older", "local-decision-20261201-forged-newer"
    _forge(
        memory,
        f".gitmem/entries/decision/{older}.md",
        _entry(older, status="superseded current skip", superseded_by=newer),
    )
    text = _entry(newer, status="admitted skip", title="Forged, newer")
    _forge(
        memory,
        f".gitmem/entries/decision/{newer}.md",
        text.replace("status:", f"supersedes: [{older}]\nstatus:", 1),
    )
    out = tmp_path / "site"
    ok(run(memory, "site", "--out", str(out)))
    for page in (out / "entries.html", out / "entries" / f"{older}.html"):
        assert _open(browser, page) == []
        lefts = browser.execute_script(  # type: ignore[attr-defined]
            "return Array.from(document.querySelectorAll('main .badge'))"
            ".map(b => b.getBoundingClientRect().left)"
        )
        assert lefts and min(lefts) >= 0, (page.name, lefts)
    page = out / "entries" / f"{newer}.html"
    assert _open(browser, page) == []
    current = browser.execute_script(  # type: ignore[attr-defined]
        "return Array.from(document.querySelectorAll('svg.lineage rect.current'))"
        ".map(r => r.parentNode.querySelector('text').textContent)"
    )
    assert current == ["Forged, newer"], current


def test_a_tag_holding_a_space_lists_its_entry_under_no_other_tag(
    browser: object, memory: Path, tmp_path: Path
) -> None:
    """The list's script read an entry's tags as one string parted at spaces: a tag forged
    past the hooks as `x hooks` listed its entry under the filter `hooks`, among the entries
    that hold that tag. The tags are now parted by a character no tag holds on the page."""
    entry_id = admit(memory, PROPOSE)  # tagged hooks
    forged = "local-decision-20261201-forged-tag"
    text = _entry(forged).replace("status:", 'tags: ["x hooks", "a\\u001fhooks"]\nstatus:', 1)
    _forge(memory, f".gitmem/entries/decision/{forged}.md", text)
    out = tmp_path / "site"
    ok(run(memory, "site", "--out", str(out)))
    entries = out / "entries.html"
    assert _open(browser, entries, "?tag=hooks") == []
    assert _visible_ids(browser) == [entry_id]
    _open(browser, entries, "?tag=x%20hooks")
    assert _visible_ids(browser) == [forged]
