"""``--sarif`` (issue 30, item 6): a SARIF 2.1.0 log valid against the official schema, one rule
per bug kind, repository-relative URIs, the counterexample in the message, the path as a code
flow, fingerprints stable under edits elsewhere in the file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pathloom.cli import main

SCHEMA = json.loads((Path(__file__).parent.parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))

SOURCE = """\
def ratio(a: int, b: int) -> int:
    if a > 10:
        return a // b
    return 0


def pct(x: int) -> int:
    y = min(x, 100)
    assert y != 100
    return y


def raw(b: bytearray) -> int:
    return len(b)
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / ".git").mkdir()  # the repository root the URIs are relative to
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "calc.py").write_text(SOURCE, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "src")
    yield tmp_path


def _sarif(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(SCHEMA).validate(data)  # the official SARIF 2.1.0 schema
    return data


def test_bugs_as_a_valid_sarif_log(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "calc.py", "--sarif", "out.sarif"]) == 1
    capsys.readouterr()
    run = _sarif(repo / "src" / "out.sarif")["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["PL001", "PL002"]
    results = run["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results] == [("PL002", 3), ("PL001", 9)]
    division, assertion = results
    assert division["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "src/calc.py", "uriBaseId": "%SRCROOT%"}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repo.resolve().as_uri() + "/"
    assert "ZeroDivisionError raised in ratio" in division["message"]["text"] and "counterexample: ratio(a=11, b=0)" in division["message"]["text"]
    assert "assertion failed in pct" in assertion["message"]["text"] and "pct(x=" in assertion["message"]["text"]
    steps = [s["location"]["physicalLocation"]["region"]["startLine"] for s in division["codeFlows"][0]["threadFlows"][0]["locations"]]
    assert steps == [2, 3]  # the lines CPython runs on the counterexample
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert len(notes) == 1 and "calc.py::raw: not analysed" in notes[0]["message"]["text"]


def test_fingerprints_survive_edits_elsewhere(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "calc.py", "--sarif", "before.sarif"]) == 1
    (repo / "src" / "calc.py").write_text("import math\n\n\n" + SOURCE, encoding="utf-8")  # every line moves by 3
    assert main(["check", "calc.py", "--sarif", "after.sarif"]) == 1
    capsys.readouterr()
    before, after = (_sarif(repo / "src" / name)["runs"][0]["results"] for name in ("before.sarif", "after.sarif"))
    assert [r["partialFingerprints"] for r in before] == [r["partialFingerprints"] for r in after]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in after] == [6, 12]


def test_several_files_and_jobs_give_one_log(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "src" / "more.py").write_text("def head(xs: list[int]) -> int:\n    return xs[0]\n", encoding="utf-8")
    assert main(["check", ".", "--sarif", "one.sarif"]) == 1
    assert main(["check", ".", "--sarif", "two.sarif", "--jobs", "2"]) == 1
    capsys.readouterr()
    one, two = (_sarif(repo / "src" / name)["runs"][0] for name in ("one.sarif", "two.sarif"))
    keys = [(r["ruleId"], r["message"]["text"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in one["results"]]
    assert keys == [(r["ruleId"], r["message"]["text"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in two["results"]]
    assert {k[2] for k in keys} == {"src/calc.py", "src/more.py"} and any("IndexError raised in head" in k[1] for k in keys)
