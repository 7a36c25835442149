"""A bug raised inside another module of the project is located where CPython raises it, with
the call chain from the target (issue 30, item 6): in the text report, the problem-matcher
line, the JSON (``raised_at``, ``call_chain``) and SARIF (the location, ``relatedLocations``).
A bug raised in the target's own file, or inside the standard library, keeps the target's line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from pathloom.cli import main

from .projects import project_at

SCHEMA = json.loads((Path(__file__).parent.parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))

FILES = {
    "pyproject.toml": "",
    "pkg/__init__.py": "",
    "pkg/helpers.py": "def ratio(a: int, b: int) -> int:\n    scale = 10\n    return scale * a // b\n",
    "pkg/stats.py": (
        "import json\n"
        "\n"
        "from .helpers import ratio\n"
        "\n"
        "\n"
        "def average(total: int, count: int) -> int:\n"
        "    if total < 0:\n"
        "        return 0\n"
        "    return ratio(total, count)\n"
        "\n"
        "\n"
        "def local(n: int) -> int:\n"
        "    return 10 // n\n"
        "\n"
        "\n"
        "def parse(text: str) -> int:\n"
        "    if text == 'x':\n"
        "        return json.loads(text)\n"
        "    return 0\n"
    ),
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with project_at(tmp_path, FILES, monkeypatch) as root:
        yield root


def test_a_bug_raised_in_another_module_is_located_there_with_its_call_chain(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "pkg/stats.py", "--json", "out.json", "--sarif", "out.sarif"]) == 1
    out = capsys.readouterr().out
    assert "raised at pkg/helpers.py:3 in ratio, called from pkg/stats.py:9 in average" in out
    assert "\npkg/helpers.py:3:1: error: ZeroDivisionError raised in ratio, called from average (pkg/stats.py:9)" in out
    bugs = {e["target"].rsplit("::", 1)[1]: e["bugs"] for e in json.loads(Path("out.json").read_text())}
    (average,) = bugs["average"]
    assert average["line"] == 9 and average["inputs"]["count"] == 0
    assert [(Path(f["file"]).name, f["line"], f["function"]) for f in average["call_chain"]] == [("stats.py", 9, "average"), ("helpers.py", 3, "ratio")]
    assert average["raised_at"] == average["call_chain"][-1]
    (local,) = bugs["local"]
    assert "call_chain" not in local and local["line"] == 13  # raised in the target's own file
    (parse,) = bugs["parse"]
    assert parse["exception"] == "JSONDecodeError" and "call_chain" not in parse  # raised inside the standard library
    assert "\npkg/stats.py:18:1: error: JSONDecodeError raised in parse" in out

    log = json.loads(Path("out.sarif").read_text())
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    (result,) = [r for r in log["runs"][0]["results"] if r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "ratio"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "pkg/helpers.py"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    (call,) = result["relatedLocations"]
    assert call["physicalLocation"]["artifactLocation"]["uri"] == "pkg/stats.py" and call["physicalLocation"]["region"]["startLine"] == 9
    assert call["message"]["text"] == "average calls ratio"
