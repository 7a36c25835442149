"""The codebase workflow end to end (issue 30, done-when 1): a package with relative imports,
an icontract postcondition, a deal contract, a PEP 316 contract and an assert, checked as a
directory with ``--jobs 2 --sarif``: exactly its bugs, a SARIF log valid against the official
schema; the unchanged rerun served from the cache with the same answers; the same package by
module name. (How much faster the warm run is: ``benchmarks/workflow.py``, not a timed test; the package
is ``benchmarks/workflow_shop``.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from pathloom.cli import main

from .projects import project_at

SCHEMA = json.loads((Path(__file__).parent.parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))

SHOP_DIR = Path(__file__).resolve().parents[2] / "benchmarks" / "workflow_shop"  # shared with benchmarks/workflow.py
SHOP = {
    str(p.relative_to(SHOP_DIR)): p.read_text(encoding="utf-8")
    for p in sorted(SHOP_DIR.rglob("*"))
    if p.is_file() and not any(part.startswith((".", "__pycache__")) for part in p.relative_to(SHOP_DIR).parts)
}
# (target, line of the failure): icontract ensure; deal post (price <= 0); PEP 316 post of
# util.cents (price < 0); the assert (parts == 3; parts == 0 is a ZeroDivisionError)
EXPECTED = {
    ("shop/pricing.py::discount", 7),
    ("shop/pricing.py::total", 15),
    ("shop/util.py::cents", 2),
    ("shop/pricing.py::share", 22),
    ("shop/pricing.py::share", 23),
}


@pytest.fixture
def shop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with project_at(tmp_path, SHOP, monkeypatch, package="shop") as root:
        yield root


def _bugs(path: str) -> set[tuple[str, int]]:
    return {(entry["target"], bug["line"]) for entry in json.loads(Path(path).read_text()) for bug in entry["bugs"]}


def test_a_package_checked_as_a_directory_in_two_jobs_gives_exactly_its_bugs(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "shop", "--jobs", "2", "--sarif", "cold.sarif", "--json", "cold.json"]) == 1
    cold = capsys.readouterr().out
    assert _bugs("cold.json") == EXPECTED
    log = json.loads(Path("cold.sarif").read_text())
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    results = log["runs"][0]["results"]
    assert {
        (r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results
    } == {(target.split("::")[0], line) for target, line in EXPECTED}

    assert main(["check", "shop", "--jobs", "2", "--sarif", "warm.sarif", "--json", "warm.json"]) == 1
    warm = capsys.readouterr().out
    assert warm.count("from the cache (") == 2 and warm.splitlines()[-1].endswith("from the cache")
    assert _bugs("warm.json") == EXPECTED and json.loads(Path("warm.sarif").read_text()) == log
    assert [line for line in warm.splitlines() if "from the cache" not in line] == [line for line in cold.splitlines() if not line.startswith("pathloom: ")]

    assert main(["check", "shop.pricing", "shop.util", "--json", "named.json", "--no-cache"]) == 1
    assert _bugs("named.json") == EXPECTED
