"""The result cache (``pathloom.cache``, issue 30 item 4): a run over several files serves each
file whose source, imported project modules, options and pathloom are unchanged from
``.pathloom/cache.sqlite``, says so, and gives what the analysis gave; a change to a module
reruns it and every file that imports it; ``--no-cache`` runs everything."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pathloom.cli import main

from .projects import project_at

FILES = {
    "pyproject.toml": "",
    "pkg/__init__.py": "",
    "pkg/core.py": "def clamp(x: int, lo: int, hi: int) -> int:\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x\n",
    "pkg/sub/__init__.py": "",
    "pkg/sub/use.py": "from ..core import clamp\n\n\ndef pct(x: int) -> int:\n    y = clamp(x, 0, 100)\n    assert y != 100\n    return y\n",
    "pkg/alone.py": "def double(x: int) -> int:\n    return 2 * x\n",
}
RUN = ["check", "pkg", "--json", "out.json", "--tests", "generated", "--sarif", "out.sarif"]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with project_at(tmp_path, FILES, monkeypatch) as root:
        yield root


def _run(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, set[str]]:
    """The exit code, stdout, and the files said to come from the cache."""
    code = main([*RUN, *extra])
    out = capsys.readouterr().out
    cached = {line.split(": ")[1] for line in out.splitlines() if line.endswith("--no-cache runs it again)")}
    return code, out, cached


def _report(out: str) -> list[str]:
    return [line for line in out.splitlines() if not line.startswith("pathloom:")]


def test_an_unchanged_rerun_is_served_from_the_cache_and_gives_the_same_results(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, first, cached = _run(capsys)
    assert code == 1 and cached == set()  # pct's assert fails for x >= 100
    assert (project / ".pathloom" / "cache.sqlite").is_file() and (project / ".pathloom" / ".gitignore").read_text().strip().endswith("*")
    entries, sarif = json.loads(Path("out.json").read_text()), Path("out.sarif").read_text()
    tests = {p.name: p.read_text() for p in Path("generated").iterdir()}
    for path in Path("generated").iterdir():
        path.unlink()  # written again from the cache
    again, second, cached = _run(capsys)
    assert again == 1 and cached == {"pkg/core.py", "pkg/sub/use.py", "pkg/alone.py"}
    assert _report(second) == _report(first)
    assert second.splitlines()[-1].endswith("; 3 from the cache")
    assert json.loads(Path("out.json").read_text()) == entries and Path("out.sarif").read_text() == sarif
    assert {p.name: p.read_text() for p in Path("generated").iterdir()} == tests
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "generated"], capture_output=True, text=True, cwd=project)
    assert run.returncode == 0 and " failed" not in run.stdout, run.stdout


def test_a_changed_module_reruns_it_and_its_importers_only(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run(capsys)
    core = project / "pkg" / "core.py"
    core.write_text(core.read_text().replace("if x > hi:\n        return hi", "if x >= hi:\n        return hi - 1"))  # pct's assert can no longer fail
    code, _, cached = _run(capsys)
    assert cached == {"pkg/alone.py"}  # core.py changed, and sub/use.py imports it (relatively)
    assert code == 0
    assert _run(capsys)[2] == {"pkg/core.py", "pkg/sub/use.py", "pkg/alone.py"}


def test_other_options_or_no_cache_run_the_analysis_again(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run(capsys)
    assert _run(capsys, "--max-iterations", "5")[2] == set()  # another key
    assert _run(capsys, "--no-cache")[2] == set()
    assert _run(capsys)[2] == {"pkg/core.py", "pkg/sub/use.py", "pkg/alone.py"}
