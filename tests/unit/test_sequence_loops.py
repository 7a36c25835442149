"""A ``for`` loop over a sequence of known length (a module's constant table, a tuple, a str
constant, a range of int bounds) runs to its end instead of being cut by ``--max-iterations``
(a 13-entry table was cut at 10); a loop whose length depends on the inputs is still cut, and
a list the loop keeps growing is cut at ``control.MAX_SEQUENCE_ITERATIONS``. Every input is
replayed in CPython."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.api import explore
from pathloom.engines.registry import engine_names
from pathloom.options import Options
from pathloom.replay import verify
from pathloom.semantics import control
from tests.unit.verified import explore_source

SOURCE = """
TABLE = [(1, "I"), (4, "IV"), (5, "V"), (9, "IX"), (10, "X"), (40, "XL"), (50, "L"),
         (90, "XC"), (100, "C"), (400, "CD"), (500, "D"), (900, "CM"), (1000, "M")]
CODES = (3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7)


def lookup(k: int) -> int:
    for i, (value, _) in enumerate(TABLE):
        if value == k:
            return i
    return -1


def position(k: int) -> int:
    n = 0
    for code in CODES:
        if code == k:
            return n
        n += 1
    return -1


def letter(s: str) -> int:
    for i, c in enumerate("abcdefghijklm"):
        if c == s:
            return i
    return -1


def counted(k: int) -> int:
    for i in range(15):
        if i == k:
            return i
    return -1


def up_to(n: int) -> int:
    t = 0
    for i in range(n):
        if i % 2 == 0:
            t += 1
    return t
"""


@pytest.mark.parametrize("engine", engine_names())
def test_loops_over_known_sequences_run_to_their_end(tmp_path: Path, engine: str) -> None:
    for target, last in (("lookup", 12), ("position", 13), ("letter", 12), ("counted", 14)):
        result = explore_source(tmp_path, SOURCE, "tables.py", target, engine)
        assert result["complete"], target
        returned = sorted(p["returned"] for p in result["paths"])  # type: ignore[union-attr,index]
        assert returned[-1] == last and -1 in returned, target


@pytest.mark.parametrize("engine", engine_names())
def test_a_loop_whose_length_is_an_input_is_still_cut(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "tables.py", "up_to", engine)
    assert not result["complete"]
    assert any("loop iteration bound 10 reached" in (p.get("reason") or "") for p in result["paths"])  # type: ignore[union-attr]


GROWING = """
def grow(x: int) -> int:
    xs = [0]
    for v in xs:
        if v == x:
            return v
        xs.append(v + 1)
    return -1
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_list_the_loop_grows_is_cut_at_the_sequence_cap(tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(control, "MAX_SEQUENCE_ITERATIONS", 25)
    program = tmp_path / "grow.py"
    program.write_text(GROWING)
    exploration = explore(str(program), "grow", Options(engine=engine, timeout=60))
    assert not exploration.complete
    reasons = {p.reason for p in exploration.paths if p.outcome == "cut"}
    assert reasons == {"loop iteration bound 25 reached (--max-iterations)"}
    assert sorted(p.returned for p in exploration.paths if p.outcome == "return") == list(range(25))
    assert verify(exploration, str(program), "grow") == []
