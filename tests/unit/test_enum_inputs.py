"""Enum-typed and frozen dataclass parameters of the explored function
(``engines.enum_inputs``, ``Entry._object``), in every engine: an Enum input is one of the
members, chosen by the solver, reported ``{"$enum": C, "member": M}`` and passed as ``C.M`` by
the replay and the generated tests; a frozen dataclass input is built by its constructor from
symbolic arguments (``{"$new": P, ...}``), and assigning one of its fields raises CPython's
``FrozenInstanceError``."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.engines.registry import engine_names

from .verified import explore_source, refusal

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    import enum
    from dataclasses import dataclass, FrozenInstanceError


    class Color(enum.Enum):
        RED = 1
        GREEN = enum.auto()
        BLUE = "b"
        CRIMSON = 1  # an alias of RED: no member of its own


    class Level(enum.IntEnum):
        LOW = 1
        HIGH = 2


    class Mode(enum.StrEnum):
        READ = enum.auto()
        WRITE = "w"


    class Perm(enum.Flag):
        R = 1
        W = 2


    def pick(c: Color, lv: Level, m: Mode) -> str:
        if c is Color.RED:
            return c.name
        if c == Color.GREEN and lv > 1:
            return str(c.value) + str(lv)
        if m == "w":
            return m.name + m
        return str(c.value)


    def flags(p: Perm) -> int:
        return 1


    @dataclass(frozen=True)
    class P:
        x: int
        y: int = 0


    def frozen(p: P, v: int) -> int:
        if p.x > p.y:
            return 1
        if v > 2:
            p.y = v
        return p.y


    def in_list(ps: list[P]) -> int:
        return ps[0].x if ps else 0


    def fresh(v: int) -> int:
        p = P(v)
        try:
            p.x = 3
        except FrozenInstanceError:
            return -1
        return p.x
""")


def _explore(tmp_path: Path, target: str, engine: str) -> dict[str, object]:
    return explore_source(tmp_path, SOURCE, "enums.py", target, engine, "--timeout", "20")


@pytest.mark.parametrize("engine", ENGINES)
def test_every_member_is_an_input(tmp_path: Path, engine: str) -> None:
    result = _explore(tmp_path, "pick", engine)
    assert result["complete"]
    paths = result["paths"]
    colors = {p["inputs"]["c"]["member"] for p in paths}  # type: ignore[attr-defined,index]
    assert {p["inputs"]["c"]["$enum"] for p in paths} == {"Color"}  # type: ignore[attr-defined,index]
    returned = {p["returned"] for p in paths}  # type: ignore[attr-defined,index]
    assert "RED" in returned and "22" in returned and "WRITEw" in returned  # each replayed in CPython (--verify)
    if engine != "multise":  # multise merges paths of one outcome: fewer witnesses
        assert colors == {"RED", "GREEN", "BLUE"}  # the alias CRIMSON is RED


@pytest.mark.parametrize("engine", ENGINES)
def test_a_frozen_dataclass_input_is_built_by_its_constructor(tmp_path: Path, engine: str) -> None:
    result = _explore(tmp_path, "frozen", engine)
    paths = result["paths"]
    assert all(p["inputs"]["p"]["$new"] == "P" for p in paths)  # type: ignore[attr-defined,index]
    exceptions = {p.get("exception") for p in paths}  # type: ignore[attr-defined]
    assert "FrozenInstanceError" in exceptions and None in exceptions


@pytest.mark.parametrize("engine", ENGINES)
def test_assigning_a_field_of_a_frozen_instance_raises(tmp_path: Path, engine: str) -> None:
    result = _explore(tmp_path, "fresh", engine)
    returned = [p["returned"] for p in result["paths"] if p["outcome"] == "return"]  # type: ignore[attr-defined,index]
    assert returned and set(returned) == {-1}  # others are cut where P(v) is run in CPython


def test_a_flag_input_and_a_frozen_input_object_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "enums.py"
    path.write_text(SOURCE, encoding="utf-8")
    for engine in ENGINES:
        line = refusal(path, "flags", engine, capsys)
        assert re.search(r"enums\.py:\d+:11: unsupported: input of type Perm, a Flag", line), line
        line = refusal(path, "in_list", engine, capsys)  # the replay could not set its fields
        assert re.search(r"enums\.py:\d+:1: unsupported: input object of class P, whose fields its constructor alone sets", line), line


@pytest.mark.parametrize("target", ["pick", "frozen"])
def test_generated_tests_pass_the_members_and_instances(tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    source = tmp_path / "enums.py"
    source.write_text(SOURCE, encoding="utf-8")
    tests = tmp_path / f"test_{target}.py"
    assert main(["explore", f"{source}::{target}", "--tests", str(tests), "--quiet", "--timeout", "20"]) in (0, 1)
    capsys.readouterr()
    text = tests.read_text(encoding="utf-8")
    assert ("_module.Color.GREEN" in text) if target == "pick" else ("_module.P(" in text)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tests)], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    output = proc.stdout + proc.stderr
    assert re.search(r"\d+ passed", output) and not re.search(r"\d+ (failed|errors?)", output), output
