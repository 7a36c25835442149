"""The pure parts of benchmarks/peers.py: which modules it takes, and its summary table."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import peers  # noqa: E402


def test_modules_are_the_files_that_define_something(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from .a import f\n")
    (package / "a.py").write_text("def f(x: int) -> int:\n    return x\n")
    (package / "sub" / "b.py").write_text("class C:\n    def m(self) -> None: ...\n    def n(self) -> None: ...\n")
    (package / "sub" / "consts.py").write_text("X = 1\n")
    found = peers.find_modules(str(tmp_path), ["pkg"])
    assert [(m.name, m.callables) for m in found] == [("pkg.a", 1), ("pkg.sub.b", 2)]


def test_the_table_sums_over_the_modules_with_branches() -> None:
    rows = [
        peers.Row("m1", 10, {"pathloom": peers.Outcome("pathloom", "ok", 3.0, 4, 4, 0, 0, 8), "pynguin": peers.Outcome("pynguin", "ok", 60.0, 2, 1, 1, 0, 5)}),
        peers.Row("m2", None, {"pathloom": peers.Outcome("pathloom", "no tests"), "pynguin": peers.Outcome("pynguin", "ok", 60.0, 1, 1, 0, 0, 0)}),
    ]
    lines = peers.table(rows, ["pathloom", "pynguin"], markdown=True)
    text = "\n".join(lines)
    assert "| branches covered | 8 / 10 | 5 / 10 |" in text
    assert "| branch coverage | 80.0% | 50.0% |" in text
    assert "| modules with >= 1 passing test | 1 / 2 | 2 / 2 |" in text
    assert "| tests passed / failed / errors | 4 / 0 / 0 | 2 / 1 / 0 |" in text


def test_a_dotted_import_as_is_written_as_the_module_it_names() -> None:
    """``import algorithms.array.delete_nth as module_0`` binds the function ``delete_nth``
    (the package's ``__init__`` star-imports it over the submodule's name): every Pynguin test
    of that module failed, so its tests are evaluated with the module itself."""
    source = "import pytest\nimport algorithms.array.delete_nth as module_0\n\n\ndef test_case_0():\n    module_0.delete_nth([], 1)\n"
    fixed = peers.module_imports_fixed(source)
    assert "module_0 = importlib.import_module('algorithms.array.delete_nth')" in fixed and fixed.startswith("import importlib\n")
    assert peers.module_imports_fixed("import os\nfrom a.b import c\n") == "import os\nfrom a.b import c\n"
