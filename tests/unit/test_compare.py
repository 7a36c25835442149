"""``compare.agree``: engines must predict the same outcome for every reported input, not only
report the same kinds of outcome."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from pathloom.api import explore
from pathloom.compare import ComparisonCut, agree
from pathloom.frontend.module import parse_module
from pathloom.options import Options

SOURCE = """
def f(x: int) -> int:
    if x > 3:
        return x * 2
    if x < -5:
        return 10 // (x + 6)
    return 7
"""


def _both() -> tuple:  # type: ignore[type-arg]
    dse = explore(parse_module(SOURCE, "prog.py"), "f", Options(engine="dse"))
    multise = explore(parse_module(SOURCE, "prog.py"), "f", Options(engine="multise"))
    return dse, multise


def test_the_engines_agree_on_every_prediction() -> None:
    dse, multise = _both()
    assert agree(dse, multise) == []


def test_a_different_returned_value_is_a_disagreement() -> None:
    dse, multise = _both()
    doubled = next(i for i, p in enumerate(multise.paths) if p.outcome == "return" and p.returned not in (7, None))
    wrong = replace(multise.paths[doubled], predict=lambda env: -1, returned=-1)
    multise.paths[doubled] = wrong
    problems = agree(dse, multise)
    assert any("returns" in problem for problem in problems), problems


def test_a_different_exception_message_is_a_disagreement() -> None:
    dse, multise = _both()
    i = next(i for i, p in enumerate(dse.paths) if p.outcome == "raise")
    dse.paths[i] = replace(dse.paths[i], message="something else")
    problems = agree(dse, multise)
    assert any("messages differ" in problem for problem in problems), problems


def test_a_passed_deadline_gives_no_verdict_instead_of_running_on() -> None:
    dse, multise = _both()
    with pytest.raises(ComparisonCut):
        agree(dse, multise, deadline=time.monotonic() - 1)
    assert agree(dse, multise, deadline=time.monotonic() + 60) == []
