"""``re.fullmatch``/``match``/``search`` of a literal pattern on a symbolic str, through the
engines (``semantics.regex``): the no-match case is symbolic, a match is CPython's, and every
reported input replays in CPython with the predicted outcome."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source

SOURCE = '''
import re
from re import search

WORD = re.compile(r"[a-z]+", re.IGNORECASE)


def digits(s: str) -> int:
    if re.fullmatch(r"\\d+", s) is None:
        return 0
    return 1


def word(s: str) -> int:
    m = WORD.match(s)
    if m is None:
        return 0
    return 1


def found(s: str) -> int:
    if search(r"(?:ab|c)$", s, flags=re.ASCII):
        return 1
    return 0


def backref(s: str) -> int:
    if re.search(r"(.)\\1", s) is None:
        return 0
    return 1
'''


def _paths(result: dict[str, object]) -> list[dict[str, object]]:
    return result["paths"]  # type: ignore[return-value]


def _returned(result: dict[str, object]) -> set[object]:
    return {p["returned"] for p in _paths(result) if p["outcome"] == "return"}


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", ["digits", "word", "found"])
def test_no_match_is_symbolic_and_a_match_is_cpythons(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "rx.py", target, engine, "--timeout", "60")
    assert _returned(result) == {0, 1}
    sites = result["stats"]["concretizations"]  # type: ignore[index]
    assert all("re." in str(site) for site in sites), sites


def test_a_pattern_outside_the_subset_runs_in_cpython(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "rx.py", "backref", "dse", "--timeout", "60")
    assert 0 in _returned(result) and not result["complete"]  # pinned values only
    assert any("search()" in str(site) for site in result["stats"]["concretizations"])  # type: ignore[index]


def test_the_planted_bug_of_is_yes_is_found(capsys: pytest.CaptureFixture[str]) -> None:
    corpus = Path(__file__).parents[1] / "quality" / "corpus" / "regex.py"
    assert main(["check", f"{corpus}::is_yes", "--timeout", "60"]) == 1
    assert "AssertionError at line" in capsys.readouterr().out
