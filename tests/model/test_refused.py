"""refused.md: what a row is, what is not one, and the near-matches a proposal is warned of:
a refused topic reworded (another order, other forms of its words, function words dropped, a
compound written together, a typo) is found; another topic that shares a word is not.
bench/refused.py measures the near-matches on labelled pairs."""

from __future__ import annotations

import pytest

from gitmem.index.indexmd import topic_of_title
from gitmem.model import refused
from gitmem.model.refused import HEADER, Refusal, near, parse, parse_row


def topic(title: str) -> str:
    return topic_of_title(title)


@pytest.mark.parametrize(
    ("refused_title", "proposed"),
    [
        ("Store the orders in Mongo DB", "Keep orders in MongoDB"),  # issue 14's rewording
        ("Store the orders in Mongo DB", "Orders are stored in MongoDB"),
        ("Retry payments with idempotency keys", "Idempotency keys for payment retries"),
        ("Retry payments with idempotency keys", "Retry payments with idempotancy keys"),
        ("Use pygit2 inside hooks", "Using pygit2 inside the hooks"),
    ],
)
def test_a_reworded_refused_topic_is_near(refused_title: str, proposed: str) -> None:
    refusals = {topic(refused_title): refused.Refusal(topic(refused_title), "no", "x", "d", "b", 7)}
    found = refused.near(topic(proposed), refusals)
    assert found is not None and found.line == 7
    assert refused.similarity(topic(proposed), topic(refused_title)) >= refused.NEAR_MATCH


@pytest.mark.parametrize(
    ("refused_title", "proposed"),
    [
        ("Use pygit2 inside hooks", "Build the admit merge commit with pygit2"),
        ("Regenerate INDEX.md instead of merging it as text", "INDEX.md lines are sorted by id"),
        ("Store the orders in Mongo DB", "Store sessions in Redis"),
    ],
)
def test_another_topic_sharing_a_word_is_not_near(refused_title: str, proposed: str) -> None:
    refusals = {topic(refused_title): refused.Refusal(topic(refused_title), "no", "x", "d", "b", 7)}
    assert refused.near(topic(proposed), refusals) is None


def test_the_same_topic_is_not_a_near_match_and_empty_topics_score_nothing() -> None:
    same = topic("Store the orders in Mongo DB")
    assert refused.near(same, {same: refused.Refusal(same, "no", "x", "d", "b", 1)}) is None
    assert refused.similarity("the-of", "store-orders") == 0.0


def test_one_typo_means_one_edit_in_a_long_word() -> None:
    assert refused._one_typo("idempotency", "idempotancy")
    assert refused._one_typo("idempotency", "idempotenyc")
    assert refused._one_typo("idempotency", "idempotenc")
    assert not refused._one_typo("idempotency", "idempotnacy")
    assert not refused._one_typo("stores", "stared")  # short words: one letter is a new word


ROW = Refusal("use-sqlite-index", "keep derived data out of git", "shop-x", "2026-11-30", "b", 0)


def test_the_header_and_separator_rows_are_no_refusals() -> None:
    assert parse(HEADER) == {}
    assert parse_row("| topic | reason | id | date | by |") is None
    assert parse_row("| --- | --- | --- | --- | --- |") is None
    assert parse_row("|:---|---:|:-:|---|---|") is None


@pytest.mark.parametrize(
    "line",
    [
        "| only | four | cells | here |",
        "| one | two | three | four | five | six |",
        "|  | empty topic | id | 2026-11-30 | human:b |",
        "prose, not a row",
        "",
        "|",
        "||||||",
        "| a \\| b | c |",
        "topic | reason | id | 2026-11-30 | human:b",  # five cells, but no table row
    ],
)
def test_a_malformed_row_is_skipped_never_an_error(line: str) -> None:
    assert parse_row(line) is None
    text = refused.append(None, ROW) + line + "\n"
    assert list(parse(text)) == ["use-sqlite-index"]


def test_rows_round_trip_with_bars_and_backslashes_and_the_first_refusal_wins() -> None:
    odd = Refusal("a-b", "why | not \\ this", "id-1", "2026-12-01", "human:c", 0)
    text = refused.append(refused.append(None, odd), ROW)
    text = refused.append(text, Refusal("a-b", "later", "id-2", "2026-12-02", "human:d", 0))
    found = parse(text)
    assert list(found) == ["a-b", "use-sqlite-index"]
    assert found["a-b"].reason == "why | not \\ this" and found["a-b"].id == "id-1"
    assert found["a-b"].line == HEADER.count("\n") + 1
    assert text.startswith(HEADER)


def test_append_keeps_the_existing_bytes_and_ends_a_last_line_without_newline() -> None:
    assert refused.append("# mine", ROW).startswith("# mine\n| use-sqlite-index |")


def test_a_near_topic_is_named_and_an_equal_or_distant_one_is_not() -> None:
    refusals = parse(refused.append(None, ROW))
    close = near("use-sqlite-indexes", refusals)
    assert close is not None and close.topic == "use-sqlite-index"
    assert near("use-sqlite-index", refusals) is None  # equal: that is a refusal, not a warning
    assert near("render-the-site-statically", refusals) is None
    assert near("anything", {}) is None


def test_an_equal_topic_does_not_hide_a_close_one_after_it() -> None:
    text = refused.append(None, Refusal("use-sqlite-index", "r", "i", "d", "b", 0))
    text = refused.append(text, Refusal("use-sqlite-indexes", "r", "i", "d", "b", 0))
    close = near("use-sqlite-index", parse(text))
    assert close is not None and close.topic == "use-sqlite-indexes"


def test_the_nearest_of_several_close_topics_wins() -> None:
    text = refused.append(None, Refusal("cache-the-index", "r", "i", "d", "b", 0))
    text = refused.append(text, Refusal("cache-the-index-on-disk-daily", "r", "i", "d", "b", 0))
    best = near("cache-the-index-on-disk", parse(text))
    assert best is not None and best.topic == "cache-the-index-on-disk-daily"


def test_describe_says_when_who_and_why() -> None:
    assert ROW.describe() == "refused on 2026-11-30 by b: keep derived data out of git"


def test_similarity_counts_each_word_once_and_a_typo_only_in_a_long_word() -> None:
    assert refused.similarity("the", "of") == 0.0  # nothing but function words on both sides
    assert refused.similarity("store-the-orders", "store-orders") == 1.0
    assert refused.similarity("keyboard-keyboarz", "keyboard") == 2 / 3  # one match, not two
    assert refused.similarity("keyboarx-keyboarz", "keyboard") == 2 / 3  # two typos of one
    assert refused.similarity("idempotancy", "idempotency") == 1.0
    assert refused.similarity("cache", "cachx") == 0.0  # a short word: another word


def test_words_written_apart_are_joined_where_the_other_side_writes_them_together() -> None:
    assert refused._joined(["keep", "mongo", "db", "now"], {"mongodb"}) == [
        "keep",
        "mongodb",
        "now",
    ]
    assert refused._joined(["data", "base", "url", "now"], {"databaseurl"}) == [
        "databaseurl",
        "now",
    ]
    assert refused._joined(["a", "b"], {"c"}) == ["a", "b"]


def test_one_typo_is_one_edit_or_one_swap_of_neighbours() -> None:
    assert refused._one_typo("abcdefg", "abcdegf")  # neighbours swapped
    assert not refused._one_typo("abcdefg", "agcdefb")  # a swap of letters apart
    assert not refused._one_typo("abcdef", "abcdefgh")  # two letters more
    assert not refused._one_typo("cache", "cachx")  # too short to tell a typo
