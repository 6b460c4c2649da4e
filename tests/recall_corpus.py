"""The labelled recall corpus: 79 real architecture decision records and 41 written entries.

The records (tests/data/recall/adr-entries.json, MIT licensed, see the README beside it) are
keyed by their source (`cloud-platform-012`, `govuk-aws-0018`); the written entries describe a
small web shop and the tooling around it, keyed by a short name (`secrets-scan`). Each becomes
a recall `Doc` whose id is its key; tests/recall_queries.py asks questions about them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from gitmem.recall.engine import Doc

DATA = Path(__file__).parent / "data" / "recall" / "adr-entries.json"

# key, type, title, applies_when, tags, context, content, evidence
_WRITTEN: list[tuple[str, str, str, str, tuple[str, ...], str, str, str]] = [
    (
        "secrets-scan",
        "method",
        "Scan entries for secrets before admission",
        "adding a check that runs on memory entries before they are admitted",
        ("security", "secrets", "review"),
        "Entries are copied into prompts and read by every agent. A token pasted into a lesson "
        "is leaked to everyone who recalls it, and git history keeps it even after a fix.",
        "Run the secret scanner on every candidate in the pre-receive hook and in CI, on every "
        "commit of the push, not only the tip. Match provider token formats, private key "
        "blocks, connection strings with passwords and high-entropy strings near words like "
        "password or token. Report the rule and the position, never the value itself.",
        "A candidate carrying a cloud access key was refused in CI before any clone fetched it.",
    ),
    (
        "pygit2-hooks",
        "decision",
        "Use pygit2, not subprocess git, inside hooks",
        "writing code that runs inside a git hook",
        ("hooks", "performance", "pygit2"),
        "Each hook call spawned several git processes to read refs and blobs.",
        "Read objects and refs through pygit2 in-process. Spawning one git process per call "
        "costs more than the whole check on a small push.",
        "The pre-commit hook went from 240 ms to 35 ms on a repository of 2,000 entries.",
    ),
    (
        "staged-index",
        "mistake",
        "Pre-commit read .git/index instead of GIT_INDEX_FILE",
        "a pre-commit hook inspects what is being committed",
        ("hooks", "git", "pre-commit"),
        "With `git commit -a` or `git commit <path>` git stages into a temporary index file "
        "named by GIT_INDEX_FILE, not into .git/index.",
        "The hook validated the old staged content and let a broken entry through. Open the "
        "repository with RepositoryOpenFlag.FROM_ENV or read GIT_INDEX_FILE. Correction: read "
        "the index git is committing. Detection signal: a hook passes on commit -a but the same "
        "file fails gitmem check afterwards.",
        "Reproduced with a test that commits with -a and expects the hook to refuse.",
    ),
    (
        "quarantine",
        "mistake",
        "Pre-receive could not see pushed objects in quarantine",
        "writing a server-side hook that reads the pushed commits",
        ("hooks", "git", "pre-receive"),
        "During pre-receive, new objects live in a quarantine directory named by "
        "GIT_OBJECT_DIRECTORY and GIT_ALTERNATE_OBJECT_DIRECTORIES.",
        "Opening the repository plainly failed with 'object not found' for every pushed "
        "commit. Open it from the environment so the quarantined objects are visible, and strip "
        "GIT_* variables before running git on any other repository.",
        "Every push to the test server was rejected until the fix.",
    ),
    (
        "clock-tests",
        "mistake",
        "Tests that read the wall clock failed around midnight",
        "a test depends on today's date or the current time",
        ("testing", "flaky", "time"),
        "The nightly CI run failed once a week on tests that compared a created date with "
        "date.today().",
        "Pass the clock in as an argument or freeze time in the test; never call now() deep in "
        "the code under test. Correction: inject the time. Detection signal: a failure that "
        "only happens near midnight or at month end.",
        "Four flaky failures in a month disappeared after injecting the clock.",
    ),
    (
        "migrations",
        "method",
        "Write reversible schema migrations and run them before deploying code",
        "changing the database schema of the shop",
        ("database", "migrations", "deployment"),
        "A deploy that renamed a column broke the running version during the rollout.",
        "Each migration has a down step. Add columns first, deploy code that writes both, "
        "backfill, then drop the old column in a later release (expand and contract). Migrations "
        "run as a separate step before the new code starts.",
        "No downtime in the last twelve schema changes.",
    ),
    (
        "retries",
        "method",
        "Retry only idempotent calls, with exponential backoff and jitter",
        "calling the payment provider or another HTTP service that can time out",
        ("http", "resilience", "retries"),
        "A naive retry loop charged a customer twice when the first request timed out after "
        "succeeding.",
        "Retry GET and PUT freely; retry POST only with an idempotency key the provider honours. "
        "Back off exponentially with random jitter and give up after a deadline, not a count.",
        "Duplicate charges stopped; retry storms during the provider's outage were damped.",
    ),
    (
        "utc",
        "decision",
        "Store timestamps in UTC and convert only for display",
        "storing or comparing dates and times",
        ("time", "timezones", "database"),
        "Orders placed during the daylight saving change were reported on the wrong day.",
        "Every timestamp is stored as timezone-aware UTC. Conversion to the customer's zone "
        "happens in the templates and the CSV export only.",
        "The report mismatch in March vanished after the change.",
    ),
    (
        "money-floats",
        "mistake",
        "Floats for prices produced invoices off by a cent",
        "doing arithmetic on prices, totals or taxes",
        ("money", "rounding", "invoices"),
        "Invoice totals summed binary floating point values.",
        "Totals drifted by one cent on large baskets. Use integer cents or Decimal with an "
        "explicit rounding mode, and round once at the end. Correction: convert prices to "
        "Decimal at the boundary. Detection signal: totals that differ from the sum shown to "
        "the customer.",
        "Accounting found 37 invoices off by 0.01.",
    ),
    (
        "feature-flags",
        "method",
        "Ship risky changes dark behind a feature flag",
        "releasing a change that may need to be switched off quickly",
        ("release", "feature-flags"),
        "Rolling back a deploy took twenty minutes while checkout was broken.",
        "Put risky behaviour behind a flag that defaults off, turn it on for staff, then a "
        "share of customers, then everyone. Remove the flag and the dead branch within two "
        "sprints of full rollout.",
        "The new checkout was switched off in seconds when a bug appeared.",
    ),
    (
        "json-logs",
        "decision",
        "Log structured JSON lines carrying a request id",
        "adding logging to a service or a background job",
        ("logging", "observability"),
        "Free-text logs could not be searched by order or request.",
        "Every log line is one JSON object with timestamp, level, event name and the request "
        "id propagated from the incoming header, so one request can be followed across the web "
        "process and the workers.",
        "Incident time to diagnosis dropped noticeably.",
    ),
    (
        "cursor-pagination",
        "decision",
        "Paginate list endpoints with opaque cursors, not offsets",
        "adding an API endpoint that returns a long list",
        ("api", "pagination", "performance"),
        "Offset pagination skipped and repeated orders while new ones arrived, and deep pages "
        "were slow.",
        "List endpoints return a next cursor encoding the last seen sort key; clients pass it "
        "back. The database uses an index on the sort key instead of scanning past the offset.",
        "Page 500 of orders went from 4 s to 20 ms.",
    ),
    (
        "cache-invalidation",
        "mistake",
        "Cached product prices stayed stale after an update",
        "caching data that editors can change",
        ("caching", "redis", "prices"),
        "Product pages were cached in Redis for an hour.",
        "An editor lowered a price and customers were charged the old one at checkout. Delete "
        "the cache key in the same transaction hook that saves the product, and never compute "
        "a charge from cached data. Correction: invalidate on write. Detection signal: "
        "customer complaints that the page and the basket disagree.",
        "Refunds issued to 12 customers.",
    ),
    (
        "n-plus-one",
        "mistake",
        "The order list ran one query per row",
        "rendering a list of records with related objects through the ORM",
        ("orm", "performance", "database"),
        "The admin order list loaded each order's customer lazily.",
        "A page of 100 orders ran 101 queries. Use select_related or prefetch_related and "
        "assert the query count in a test. Correction: prefetch relations. Detection signal: "
        "query count growing with page size.",
        "The page went from 3 s to 150 ms.",
    ),
    (
        "thin-cli",
        "code-structure",
        "cli.py only parses, calls one core function and prints",
        "adding a command to the command line interface",
        ("cli", "click", "architecture"),
        "Early commands mixed printing, git access and validation in the click callbacks.",
        "gitmem/cli.py parses arguments, calls one core function with explicit arguments and "
        "prints what it returns. The core never imports click and never prints; it returns "
        "values or raises GitmemError subclasses.",
        "The core became testable without CliRunner.",
    ),
    (
        "exit-codes",
        "code-structure",
        "One exception base, GitmemError, maps failures to exit codes",
        "raising an error from gitmem's core",
        ("errors", "exit-codes", "cli"),
        "Different commands exited with different codes for the same kind of failure.",
        "GitmemError carries its exit code: RuleError exits 1, UsageError 2, anything "
        "unexpected 3 with a hint where the log is. Only the click group converts an exception "
        "into an exit; no traceback reaches a user for an expected failure.",
        "gitmem/errors.py.",
    ),
    (
        "store-module",
        "code-structure",
        "gitmem/store.py is the only module that imports pygit2",
        "reading or writing git objects, refs or the index from gitmem",
        ("git", "pygit2", "architecture"),
        "pygit2 calls were spread across modules, each opening the repository its own way.",
        "store.py wraps repository access: opening from the environment inside hooks, reading "
        "trees and blobs, writing commits and moving refs. Other modules receive plain values.",
        "Swapping the repository opening flags became a one-line change.",
    ),
    (
        "lazy-imports",
        "method",
        "Import heavy modules lazily to keep hooks fast",
        "a command or hook starts slowly",
        ("performance", "startup", "imports"),
        "Every commit paid 300 ms for importing jsonschema and the MCP library.",
        "Import heavy modules inside the functions that need them. Measure with python -X "
        "importtime and keep the no-op hook path under 100 ms.",
        "A commit touching no memory file now costs 40 ms.",
    ),
    (
        "regenerate-index",
        "method",
        "Never merge INDEX.md as text; regenerate it",
        "two branches both changed the generated memory index",
        ("git", "merge", "generated-files"),
        "Two admissions touched neighbouring lines and the text merge produced a file that "
        "matched neither tree.",
        "Resolve any conflict on INDEX.md by running gitmem index; hooks install a merge "
        "driver that does it. Generated files are a pure function of the tree.",
        "No stale index since the merge driver was installed.",
    ),
    (
        "ref-cas",
        "method",
        "Move refs by compare-and-swap and retry when main moved",
        "updating the main branch from a tool without a working tree",
        ("git", "concurrency", "refs"),
        "Two admissions at once overwrote each other's merge commit.",
        "Write the new commit, then update the ref only if it still points at the commit read "
        "first; otherwise rebuild on the new tip and try again a bounded number of times.",
        "A stress test of 20 parallel admissions keeps all 20.",
    ),
    (
        "bidi",
        "mistake",
        "Hidden bidirectional control characters slipped past review",
        "reviewing text that agents or contributors wrote",
        ("unicode", "security", "review"),
        "An entry contained a right-to-left override that made a command read differently in "
        "the review view.",
        "Reject zero-width and bidirectional control characters in entries. Correction: strip "
        "or refuse them at check time. Detection signal: text whose rendered order differs "
        "from its byte order.",
        "Trojan Source style attack reproduced in a test.",
    ),
    (
        "redos",
        "mistake",
        "A backtracking regular expression hung the scanner on crafted input",
        "writing a regular expression that runs on untrusted text",
        ("regex", "performance", "security"),
        "A nested quantifier in a password pattern took minutes on a 50 KB line of repeated "
        "characters.",
        "Use RE2, which runs in linear time, cap the input size, and add a property test with "
        "hostile input and a generous time bound. Correction: RE2 patterns. Detection signal: "
        "CPU pinned on one check.",
        "The same input now takes 4 ms.",
    ),
    (
        "test-isolation",
        "method",
        "Isolate HOME and git config in every test",
        "writing a test that runs git or reads user settings",
        ("testing", "git", "fixtures"),
        "A test passed on one laptop because of the developer's global git config.",
        "An autouse fixture blanks the global and system git config, sets a fixed author and "
        "points HOME below a regular file so anything writing there fails loudly.",
        "tests/conftest.py.",
    ),
    (
        "api-versions",
        "decision",
        "Version the public REST API in the URL path",
        "changing a response format that partners depend on",
        ("api", "versioning", "compatibility"),
        "A renamed field broke a partner's integration overnight.",
        "Public endpoints live under /v1/, /v2/; a breaking change gets a new version, and the "
        "old one stays for six months with a Sunset header.",
        "Partner breakages stopped.",
    ),
    (
        "lockfile",
        "method",
        "Pin dependencies with a lock file and update them weekly",
        "adding or upgrading a third-party package",
        ("dependencies", "supply-chain"),
        "An unpinned transitive dependency released a broken version on a Friday.",
        "Every install uses the lock file with hashes. A bot opens one pull request a week "
        "with updates; CI must pass before merging.",
        "No surprise breakage since.",
    ),
    (
        "docker-multistage",
        "method",
        "Build images in two stages to keep them small",
        "writing a Dockerfile for a service",
        ("docker", "images", "containers"),
        "The shop image was 1.4 GB with compilers and caches inside.",
        "Compile wheels in a builder stage, copy only the virtual environment and the app into "
        "a slim runtime stage, run as a non-root user.",
        "Image down to 180 MB; pulls take seconds.",
    ),
    (
        "webhooks",
        "method",
        "Verify webhook signatures with a constant-time comparison",
        "receiving callbacks from the payment provider",
        ("security", "webhooks", "payments"),
        "Anyone who knew the URL could post a fake 'payment succeeded' event.",
        "Compute the HMAC of the raw body with the shared secret and compare with "
        "hmac.compare_digest; reject events older than five minutes to stop replays.",
        "Fake events are rejected with 401.",
    ),
    (
        "login-rate-limit",
        "decision",
        "Rate limit login attempts per account and per address",
        "protecting the login form",
        ("security", "authentication", "rate-limiting"),
        "Credential stuffing produced thousands of attempts an hour.",
        "Allow five failures per account per fifteen minutes and fifty per client address, "
        "with a growing delay; show the same message whether the account exists or not.",
        "Attack traffic fell off within a day.",
    ),
    (
        "jobs-layout",
        "code-structure",
        "Background jobs live in worker/ and are idempotent by job id",
        "adding a background task to the shop",
        ("jobs", "queue", "architecture"),
        "Jobs were scattered across views and retried unpredictably.",
        "Each job is a function in worker/jobs/ taking plain arguments and a job id; it records "
        "completion by id so a retry after a crash does nothing twice.",
        "worker/jobs/__init__.py lists every job.",
    ),
    (
        "duplicate-emails",
        "mistake",
        "A retried job sent every order confirmation twice",
        "sending email or other side effects from a job",
        ("email", "jobs", "retries"),
        "The mail job timed out after the provider accepted the message, and the queue retried it.",
        "Customers got two confirmations. Write outgoing mail to an outbox table in the same "
        "transaction as the order, and send from the outbox with a unique message id. "
        "Correction: transactional outbox. Detection signal: duplicate message ids in the "
        "provider's log.",
        "Support tickets about double emails stopped.",
    ),
    (
        "schemas",
        "code-structure",
        "The JSON Schemas are the single source of truth for entry fields",
        "adding or changing a field of a memory entry",
        ("schema", "validation", "entries"),
        "Field rules were duplicated in the parser, the docs and the validator, and drifted.",
        "schemas/entry.schema.json defines the front matter; the code validates against it, "
        "ships it in the wheel and the README documents it from there.",
        "One change, one place.",
    ),
    (
        "settings-precedence",
        "code-structure",
        "Settings: environment over the user's file over the project's file",
        "reading a configuration value in gitmem",
        ("settings", "configuration"),
        "Users could not override a project's choice locally.",
        "settings.py merges .gitmem.toml or [tool.gitmem], then the user's config file, then "
        "GITMEM_* variables. An invalid stored value is set aside with one warning naming the "
        "file and key, and the default applies.",
        "gitmem/settings.py.",
    ),
    (
        "empty-results",
        "mistake",
        "The search endpoint crashed on an empty result",
        "handling the result of a query that may find nothing",
        ("api", "errors", "search"),
        "The code took results[0] to build the 'did you mean' line.",
        "Searching for a product that did not exist returned a 500. Handle the empty case "
        "first and test it. Correction: guard empty lists. Detection signal: IndexError in the "
        "error tracker from the search view.",
        "Eleven such errors a day before the fix.",
    ),
    (
        "htmx",
        "decision",
        "Render pages on the server with htmx instead of a single-page app",
        "building a new screen of the shop's back office",
        ("frontend", "htmx", "architecture"),
        "The team is three back-end developers; a React app doubled the build tooling.",
        "Back-office screens are Django templates with htmx for partial updates. A client-side "
        "framework needs a written case.",
        "Two screens shipped in the time one React screen took.",
    ),
    (
        "small-prs",
        "method",
        "Keep pull requests under about 400 changed lines",
        "preparing changes for code review",
        ("review", "pull-requests", "process"),
        "Large pull requests waited days for review and hid bugs.",
        "Split work into reviewable steps: refactor first, behaviour change next, each with "
        "its tests. Stack dependent pull requests rather than growing one.",
        "Median review time fell from two days to four hours.",
    ),
    (
        "releases",
        "method",
        "Tag releases from main only after CI passes",
        "publishing a new version of the package",
        ("release", "ci", "changelog"),
        "A release was tagged from a local branch with an unpushed fix.",
        "Releases are tagged on main by the release workflow once CI is green; the changelog "
        "is assembled from fragments with scriv.",
        "Every published version now matches a commit on main.",
    ),
    (
        "windows-paths",
        "mistake",
        "Backslashes in Windows paths broke the files check",
        "comparing repository paths with paths from the file system",
        ("windows", "paths", "portability"),
        "The files field lists paths with forward slashes; on Windows pathlib produced "
        "backslashes.",
        "Every cited file was reported missing on Windows. Convert with PurePath.as_posix() "
        "before comparing. Correction: normalise to posix. Detection signal: checks that pass "
        "on Linux and fail only on Windows.",
        "CI on windows-latest catches it now.",
    ),
    (
        "big-fixtures",
        "mistake",
        "Committed binary fixtures made the repository huge",
        "adding test data files to the repository",
        ("testing", "fixtures", "repository-size"),
        "Tests needed sample images and a database dump.",
        "Clones grew to 900 MB. Generate fixtures in the test from a seed, or fetch them in CI "
        "from a package. Correction: generated fixtures. Detection signal: clone time and "
        "pack size growing release after release.",
        "Rewrote history once and added a size check.",
    ),
    (
        "recall-cache",
        "code-structure",
        "The recall index is a cache in the git directory keyed by tree id",
        "working on memory search or its cache",
        ("recall", "cache", "search"),
        "Rebuilding the search index on every query was too slow for agents.",
        "The index lives under the git directory, shared by worktrees, keyed by the memory "
        "tree's object id and updated from the tree diff. A corrupt cache is set aside and "
        "rebuilt; it never fails a recall.",
        "Warm recall answers in milliseconds.",
    ),
    (
        "import-agent-memory",
        "method",
        "Lift agents' own memory notes into candidates once",
        "bringing notes an AI assistant kept locally into the shared memory",
        ("agents", "import", "candidates"),
        "Useful lessons sat in one developer's assistant notes where nobody else saw them.",
        "gitmem import claude reads the agent memory files and proposes each item as a method "
        "candidate with source import:<path>; a topic already pending, admitted or refused is "
        "skipped, an item with a secret is reported and writes nothing.",
        "Thirty notes became eight admitted methods after review.",
    ),
    (
        "audit-threshold",
        "decision",
        "Audit mistakes need three distinct batches before they are proposed",
        "harvesting lessons from audit verdict files",
        ("audit", "mistakes", "harvest"),
        "Single audit findings produced noisy one-off candidates.",
        "A mistake is proposed only when its gap recurs in at least three distinct batches, "
        "listed in evidence_batches; code-structure findings need one.",
        "Candidate volume fell by two thirds, acceptance rose.",
    ),
    (
        "utf8-encoding",
        "mistake",
        "Opening files without an encoding broke on Windows",
        "reading or writing text files in Python",
        ("encoding", "windows", "portability"),
        "open() without encoding uses the locale's code page on Windows.",
        "Entries with accented names failed with UnicodeDecodeError. Always pass "
        "encoding='utf-8'; ruff's PLW1514 rule finds the missing ones. Correction: explicit "
        "encoding. Detection signal: UnicodeDecodeError only on Windows.",
        "Fixed in 14 places.",
    ),
]


def _body(context: str, content: str, evidence: str) -> str:
    return f"## Context\n{context}\n\n## Content\n{content}\n\n## Evidence\n{evidence}\n"[:2000]


@cache
def corpus() -> tuple[Doc, ...]:
    """Every labelled entry as a recall Doc (ids are the keys above and the records' keys)."""
    docs = [
        Doc(
            id=key,
            type=kind,
            title=title,
            applies_when=applies_when,
            tags=tags,
            body=_body(context, content, evidence),
            path=f".gitmem/entries/{kind}/{key}.md",
        )
        for key, kind, title, applies_when, tags, context, content, evidence in _WRITTEN
    ]
    for record in json.loads(DATA.read_text(encoding="utf-8")):
        docs.append(
            Doc(
                id=record["key"],
                type=record["type"],
                title=record["title"],
                applies_when=record["applies_when"],
                tags=tuple(record["tags"]),
                body=_body(record["context"], record["decision"], record["consequences"]),
                path=f".gitmem/entries/{record['type']}/{record['key']}.md",
            )
        )
    return tuple(docs)
