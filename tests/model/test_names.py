"""Names gitmem gives and reads: the candidate a ref names."""

from __future__ import annotations

import pytest

from gitmem.model.names import candidate_id_of


@pytest.mark.parametrize(
    ("ref", "entry_id"),
    [
        ("refs/heads/gitmem/p-method-20261129-a", "p-method-20261129-a"),
        ("refs/remotes/origin/gitmem/p-method-20261129-a", "p-method-20261129-a"),
        ("refs/remotes/up-stream/gitmem/x", "x"),
        # a branch that merely ends in /gitmem/<id>, which anyone who may push a branch makes
        ("refs/remotes/origin/aaa/gitmem/x", None),
        ("refs/remotes/gitmem/x", None),  # a remote named gitmem, its branch x
        ("refs/heads/main", None),
        ("refs/tags/gitmem/x", None),
        ("refs/heads/aaa/gitmem/x", None),
    ],
)
def test_the_candidate_a_ref_names(ref: str, entry_id: str | None) -> None:
    """The one reading of a candidate branch's ref, local or remote-tracking, that pending
    candidates, the agents' hook and "did you mean" share."""
    assert candidate_id_of(ref) == entry_id
