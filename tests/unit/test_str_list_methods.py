"""``str.startswith``/``endswith``/``find``/``index``, ``list.count``/``index``/``reverse``/``copy``/``clear``/``extend``/``insert``, ``list(str)``, ``sorted(str)`` and ``reversed()`` consumed whole are modelled
(``semantics.strings``, ``semantics.aggregates``): explored without concretization, every
path's input replayed in CPython (``--verify``), in both engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.verified import copy_program, explore_verified
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())


@pytest.fixture
def program(tmp_path: Path) -> Path:
    return copy_program("str_list_methods.py", tmp_path)


def _explored(program: Path, target: str, engine: str) -> dict:  # type: ignore[type-arg]
    result = explore_verified(program, target, engine)
    assert result["complete"] and not result["stats"]["concretizations"], result["stats"]  # type: ignore[index]
    return result


@pytest.mark.parametrize("engine", ENGINES)
def test_startswith_and_endswith_reach_every_branch(program: Path, engine: str) -> None:
    result = _explored(program, "classify", engine)
    assert {p["returned"] for p in result["paths"]} == {1, 2, 3}  # type: ignore[union-attr]


@pytest.mark.parametrize("engine", ENGINES)
def test_find_and_index_of_a_substring(program: Path, engine: str) -> None:
    result = _explored(program, "locate", engine)
    returned = {p["returned"] for p in result["paths"] if p["outcome"] == "return"}  # type: ignore[union-attr]
    assert -1 in returned and 0 in returned and any(r >= 20 for r in returned)  # not found, found at 0, at 2 or later
    result = _explored(program, "strict", engine)
    raised = [p for p in result["paths"] if p["outcome"] == "raise"]  # type: ignore[union-attr]
    assert [(p["exception"], p["message"]) for p in raised] == [("ValueError", "substring not found")]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["position", "flag_position", "word_position"])
def test_list_index_raises_cpythons_value_error(program: Path, engine: str, target: str) -> None:
    result = _explored(program, target, engine)
    raised = [p for p in result["paths"] if p["outcome"] == "raise"]  # type: ignore[union-attr]
    assert raised and all(p["exception"] == "ValueError" and p["message"].endswith(" is not in list") for p in raised)
    assert any(p["outcome"] == "return" for p in result["paths"])  # type: ignore[union-attr]


@pytest.mark.parametrize("engine", ENGINES)
def test_list_of_a_str_reversed_and_sorted(program: Path, engine: str) -> None:
    result = _explored(program, "letters", engine)
    returned = {p["returned"] for p in result["paths"]}  # type: ignore[union-attr]
    assert "yx" in returned and "" in returned and any(isinstance(r, str) and len(r) == 3 for r in returned)


@pytest.mark.parametrize("engine", ENGINES)
def test_list_copy_clear_and_reverse_arguments(program: Path, engine: str) -> None:
    result = _explored(program, "copies", engine)
    raised = [p for p in result["paths"] if p["outcome"] == "raise"]  # type: ignore[union-attr]
    assert [(p["exception"], p["message"]) for p in raised] == [("TypeError", "list.reverse() takes no arguments (1 given)")]
    assert len([p for p in result["paths"] if p["outcome"] == "return"]) >= 2  # type: ignore[union-attr]  (2 items; fewer)


@pytest.mark.parametrize("engine", ENGINES)
def test_list_extend_is_modelled(program: Path, engine: str) -> None:
    result = _explored(program, "extended", engine)
    returned = {p["returned"] for p in result["paths"]}  # type: ignore[union-attr]
    assert -2 not in returned and -1 not in returned and 6 in returned  # 6: both lists empty


@pytest.mark.parametrize("engine", ENGINES)
def test_a_copy_of_a_list_of_merged_lengths(program: Path, engine: str) -> None:
    result = explore_verified(program, "evens_copied", engine, "--max-iterations", "4")
    assert {p["returned"] for p in result["paths"] if p["outcome"] == "return"} >= {0, 2}  # type: ignore[union-attr]


@pytest.mark.parametrize("engine", ENGINES)
def test_list_insert_at_a_symbolic_index(program: Path, engine: str) -> None:
    result = _explored(program, "inserted", engine)
    assert {p["returned"] for p in result["paths"] if p["outcome"] == "return"} == {0, 1, 2, 3}  # type: ignore[union-attr]
    overflow = {p["message"] for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr]
    assert overflow == {"Python int too large to convert to C ssize_t"}  # an index beyond a C ssize_t


@pytest.mark.parametrize("engine", ENGINES)
def test_sorted_str_and_reversed_consumed_whole(program: Path, engine: str) -> None:
    result = _explored(program, "reordered", engine)
    returned = [p["returned"] for p in result["paths"]]  # type: ignore[union-attr]
    assert any(r.startswith("r") for r in returned) and any(len(r) >= 4 and not r.startswith("r") for r in returned)
