"""refused.md's near-matches: a refused topic reworded (another order, other forms of its
words, function words dropped, a compound written together, a typo) is found; another topic
that shares a word is not. bench/refused.py measures it on labelled pairs."""

from __future__ import annotations

import pytest

from gitmem.index.indexmd import topic_of_title
from gitmem.model import refused


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
