"""Labelled recall questions over tests/recall_corpus.py, worded as a developer or agent would ask.

MATCHING: a question and the ids that count as a right answer (any one of them in the top five
is a hit at 5). The questions paraphrase the situation; none copies a title.
SITUATIONS: the same, described in the asker's own words, sharing few words with the entry:
what the semantic extra is for.
NO_MATCH: plausible questions about topics the corpus does not cover: recall must return nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from gitmem.recall.engine import Hit

MATCHING: list[tuple[str, frozenset[str]]] = [
    (q, frozenset(ids.split()))
    for q, ids in [
        ("how do we keep API keys out of memory files", "secrets-scan"),
        ("should code in a hook shell out to the git binary", "pygit2-hooks"),
        (
            "my commit check sees the old version of a file when I run git commit -a",
            "staged-index",
        ),
        ("server side hook says object not found for the commits being pushed", "quarantine"),
        ("a unit test only fails shortly before midnight", "clock-tests"),
        ("renaming a column in the orders table without downtime", "migrations"),
        ("the payment request timed out, is it safe to send it again", "retries"),
        ("which time zone should order timestamps be saved in", "utc"),
        ("invoice total is one cent wrong", "money-floats"),
        ("switch off a new feature in production without redeploying", "feature-flags"),
        ("follow one request through the logs of the web app and the workers", "json-logs"),
        ("deep pages of the orders API are slow and skip items", "cursor-pagination"),
        ("customer was charged the old price after an editor changed it", "cache-invalidation"),
        ("the admin page fires hundreds of SQL queries", "n-plus-one"),
        ("where should output be printed when I add a new gitmem command", "thin-cli"),
        ("what exit status should a wrong option produce", "exit-codes"),
        ("which module is allowed to open the repository with pygit2", "store-module pygit2-hooks"),
        ("hook startup is slow because of imports", "lazy-imports"),
        ("merge conflict in the generated index file of the memory", "regenerate-index"),
        ("two concurrent admissions and one merge commit got lost", "ref-cas"),
        ("invisible right-to-left characters hidden in an entry", "bidi"),
        ("a pattern match takes minutes on one long line of input", "redos"),
        ("test passed on my machine because of my global git configuration", "test-isolation"),
        ("breaking change to a JSON field that partners consume", "api-versions"),
        ("an indirect dependency released a broken version and the build failed", "lockfile"),
        ("our container image is more than a gigabyte", "docker-multistage"),
        ("someone could forge payment succeeded callbacks", "webhooks"),
        ("brute force password guessing on the sign in page", "login-rate-limit"),
        ("where do I put a new asynchronous task for the shop", "jobs-layout"),
        ("customers received the order confirmation email twice", "duplicate-emails"),
        ("where are the front matter fields of an entry defined", "schemas"),
        ("can an environment variable override the project's configuration", "settings-precedence"),
        ("IndexError when a product search finds nothing", "empty-results"),
        ("should the back office be written in React", "htmx"),
        ("review takes days on my big change", "small-prs"),
        ("how do we publish a new version of the package", "releases"),
        ("cited files are reported missing only on Windows", "windows-paths utf8-encoding"),
        ("cloning takes ages because of large test data", "big-fixtures"),
        ("where is the search index for recall stored", "recall-cache"),
        (
            "bring notes my coding assistant kept locally into the shared memory",
            "import-agent-memory",
        ),
        ("how many audit batches before a mistake is proposed", "audit-threshold"),
        ("UnicodeDecodeError when reading files on Windows", "utf8-encoding"),
        ("why did we move off Jenkins for pipelines", "cloud-platform-003"),
        (
            "how do people sign in to the platform's components",
            "cloud-platform-006 cloud-platform-022",
        ),
        ("where are docker images stored", "cloud-platform-007 cloud-platform-046"),
        ("what name should a new cluster get", "cloud-platform-009"),
        (
            "do staging and production workloads share one cluster",
            "cloud-platform-012 cloud-platform-036",
        ),
        ("how do we check that a running cluster works with automated tests", "cloud-platform-013"),
        (
            "why not use a managed kubernetes offering like GKE",
            "cloud-platform-014 cloud-platform-022",
        ),
        ("naming style for variables in terraform", "cloud-platform-017"),
        ("do we still accept TLS 1.0 connections", "cloud-platform-035"),
        ("can I deploy AWS Lambda functions on the platform", "cloud-platform-037"),
        ("restrict outgoing internet traffic from the VPC", "cloud-platform-039"),
        ("add worker nodes automatically when pods are pending", "cloud-platform-047"),
        ("where do per-environment tfvars files go", "govuk-aws-0017 govuk-aws-0010"),
        ("should we run postgres ourselves on EC2 machines", "govuk-aws-0018"),
        ("who renews our SSL certificates and where is TLS terminated", "govuk-aws-0021"),
        ("encrypting sensitive values used by terraform", "govuk-aws-0023"),
        ("moving off MongoDB to a managed database", "govuk-aws-0038 govuk-aws-0028"),
        ("health check URL when several apps share one instance", "govuk-aws-0037"),
        (
            "IP address range of the staging network",
            "govuk-aws-0033 govuk-aws-0003 cloud-platform-043",
        ),
        ("share uploaded files between backend machines", "govuk-aws-0030"),
        ("which AWS region do we host in", "govuk-aws-0002"),
        ("hosted Redis instead of running our own", "govuk-aws-0025 govuk-aws-0029"),
        ("collect metrics with prometheus", "cloud-platform-026"),
        (
            "developers want to look at their team's resources in the AWS console",
            "cloud-platform-027 cloud-platform-024",
        ),
    ]
]

SITUATIONS: list[tuple[str, frozenset[str]]] = [
    (q, frozenset(ids.split()))
    for q, ids in [
        ("stop credentials leaking into the notes agents read", "secrets-scan"),
        ("spawning a process per call makes our hooks slow", "pygit2-hooks"),
        ("flaky test that depends on today's date", "clock-tests"),
        ("customer billed twice after a timeout", "retries"),
        ("rounding problem with currency amounts", "money-floats"),
        ("kill switch for a risky release", "feature-flags"),
        ("shoppers see outdated data after an edit", "cache-invalidation"),
        ("too many database round trips when listing records", "n-plus-one"),
        ("lost update when two processes move the branch at once", "ref-cas"),
        ("catastrophic backtracking in a pattern", "redos"),
        ("make the container smaller", "docker-multistage"),
        ("spoofed notifications from the payment gateway", "webhooks"),
        ("attackers trying leaked passwords against accounts", "login-rate-limit"),
        ("same mail delivered two times", "duplicate-emails"),
        ("daylight saving broke the daily report", "utc"),
        ("keeping old clients working when the response changes", "api-versions"),
        ("huge diffs are hard to get approved", "small-prs"),
        ("the clone is enormous because of sample files", "big-fixtures"),
        ("changing a table while the old release still runs", "migrations"),
        ("where should console output happen in the command layer", "thin-cli"),
        ("text that renders differently from what it contains", "bidi"),
        ("local developer settings made a test pass", "test-isolation"),
        ("slow to start because of heavy libraries", "lazy-imports"),
        ("cannot grep logs by order number", "json-logs"),
        ("listing endpoint repeats items while new ones arrive", "cursor-pagination"),
        ("throw away the single page app idea", "htmx"),
        ("path separator differences between operating systems", "windows-paths"),
        ("accented characters crash file reading", "utf8-encoding"),
        ("single sign on for the team into the cloud console", "cloud-platform-024"),
        ("block old insecure protocol versions", "cloud-platform-035"),
        ("egress filtering for the network", "cloud-platform-039"),
        ("one cluster for every environment or several", "cloud-platform-012 cloud-platform-036"),
        ("managed relational database rather than self hosted", "govuk-aws-0018"),
        ("automatic renewal of https certificates", "govuk-aws-0021"),
        ("keep private config values encrypted in a separate repo", "govuk-aws-0023"),
    ]
]

NO_MATCH: list[str] = [
    "how do we configure Kafka consumer group rebalancing",
    "which GraphQL client does the mobile app use",
    "how to train the recommendation model on GPUs",
    "iOS push notification certificates expired",
    "what font does the marketing site use",
    "Rust borrow checker lifetime errors in the parser",
    "how to localise the shop into German and French",
    "Android app crashes when the screen rotates",
    "set up Elixir Phoenix channels for live chat",
    "SEO meta descriptions for product pages",
    "A/B testing of newsletter subject lines",
    "Spark job runs out of memory during the shuffle",
    "who is on the on-call rota over the holidays",
    "clustering keys for the Snowflake analytics warehouse",
    "screen reader labels for the accessibility audit",
    "use WebAssembly to resize images in the browser",
    "physics tick rate of the game engine",
    "which Bluetooth library for the wearable device",
    "gradient boosting hyperparameters for churn prediction",
    "GDPR retention period for support chat transcripts",
    "translate the README into Japanese",
    "Unity shader compile times are too long",
    "driver for the warehouse label printer",
    "Swift concurrency actors in the iPhone app",
    "how often do we rotate the database password",
    "umbrella Helm chart with subcharts",
]


def quality(search: Callable[[str], list[Hit]]) -> dict[str, float]:
    """hit@1 and hit@5 over MATCHING, SITUATIONS and both; the share of NO_MATCH left empty."""
    figures: dict[str, float] = {}
    for name, questions in (
        ("matching", MATCHING),
        ("situations", SITUATIONS),
        ("all", MATCHING + SITUATIONS),
    ):
        ranked = [([h.id for h in search(q)], right) for q, right in questions]
        figures[f"{name} hit@1"] = sum(bool(ids) and ids[0] in r for ids, r in ranked) / len(ranked)
        figures[f"{name} hit@5"] = sum(any(i in r for i in ids) for ids, r in ranked) / len(ranked)
    figures["no-match empty"] = sum(not search(q) for q in NO_MATCH) / len(NO_MATCH)
    return figures
