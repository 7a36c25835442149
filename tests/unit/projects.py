"""A small project written into a test's directory, made the working directory, and its
package forgotten afterwards (each test imports its own)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def project_at(tmp_path: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch, package: str = "pkg") -> Iterator[Path]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for module in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[module]
