"""``re.fullmatch``/``match``/``search`` of a literal pattern on a symbolic str, through the
engines (``semantics.regex``): the no-match case is symbolic, a match is CPython's, and every
reported input replays in CPython with the predicted outcome."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source

SOURCE = """
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


def version(s: str) -> int:
    m = re.fullmatch(r"v?(\\d+)\\.(?P<minor>\\d+)", s)
    if not m:
        return -1
    major, minor = m.group(1, "minor")
    if major == "1" and minor == "٢":
        return 3
    if m.groups() == ("2", "0") and m.span(2) == (2, 3):
        return 2
    return 1


def user(s: str) -> int:
    m = re.match(r"([a-z]+)@", s)
    if m is None:
        return 0
    if m.group(1) == "bob" and m.start() == 0:
        return 2
    return 1


def indexed(s: str) -> int:
    m = re.fullmatch(r"(\\d)-(\\w)", s)
    if m is None:
        return 0
    if m[1] == "٣" and m[2] == "_" and m[0] == s:
        return 2
    return 1


def matched(s: str) -> object:
    return re.match(r"(a+)b", s)


def tail(s: str) -> str:
    m = re.search(r"(a+)b", s)
    if m is None:
        return ""
    return m.group(1)
"""


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


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target, returned", [("version", {-1, 1, 2, 3}), ("user", {0, 1, 2}), ("indexed", {0, 1, 2})])
def test_groups_are_substrings(tmp_path: Path, engine: str, target: str, returned: set[int]) -> None:
    result = explore_source(tmp_path, SOURCE, "rx.py", target, engine, "--timeout", "60")
    assert _returned(result) == returned  # '1.٢', '2.0' and 'bob@' found through the groups' terms
    assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", ["matched", "tail"])
def test_a_match_used_otherwise_is_cpythons_object(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "rx.py", target, engine, "--timeout", "60")
    assert len(_paths(result)) >= 2  # replayed by explore_source: the real Match, its group


CORPUS = Path(__file__).parents[1] / "quality" / "corpus" / "regex.py"


@pytest.mark.parametrize("target, line", [("is_yes", 124), ("username_ok", 37), ("phone_extension", 54), ("signed_int", 140)])
def test_the_planted_bugs_are_found(capsys: pytest.CaptureFixture[str], target: str, line: int) -> None:
    assert main(["check", f"{CORPUS}::{target}", "--timeout", "30"]) == 1
    assert f"AssertionError at line {line}" in capsys.readouterr().out


@pytest.mark.parametrize("target", ["is_zip_code", "is_clock_time"])
def test_bug_free_targets_are_complete(capsys: pytest.CaptureFixture[str], target: str) -> None:
    assert main(["check", f"{CORPUS}::{target}", "--timeout", "60"]) == 0
    assert "complete; 0 bug(s)" in capsys.readouterr().out
