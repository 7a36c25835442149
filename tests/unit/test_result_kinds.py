"""Path outcomes and raise kinds are closed sets (``results.PathOutcome``, ``RaiseKind``):
equal to and written as their text, and any other value is refused when a result is made."""

from __future__ import annotations

import json

import pytest

from pathloom.results import PathOutcome, PathResult, RaiseKind


def test_outcomes_are_their_text() -> None:
    result = PathResult("raise", {"x": 1}, exception="ValueError", kind="assert")  # type: ignore[arg-type]
    assert result.outcome is PathOutcome.RAISE and result.kind is RaiseKind.ASSERT
    assert result.outcome == "raise" and f"{result.kind}" == "assert" and result.is_bug
    assert json.dumps([result.outcome, result.kind]) == '["raise", "assert"]'


def test_any_other_outcome_or_kind_is_refused() -> None:
    with pytest.raises(ValueError):
        PathResult("returned", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        PathResult(PathOutcome.RAISE, None, kind="oops")  # type: ignore[arg-type]
