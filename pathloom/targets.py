"""What the targets on the command line name: Python files and the functions in them.

A target is ``FILE.py`` (every function and method of the file), ``FILE.py::name``, a
directory (every ``.py`` file under it, recursively, in sorted order), or a module name as
``python -m`` would find it from the working directory (``pkg.mod``, ``pkg.mod::name``; a
package name is its directory). Under a directory, hidden folders (``.git``, ``.venv``),
``__pycache__``, ``site-packages``, folders named ``test``/``tests``, and the files pytest
or setuptools run (``test_*.py``, ``*_test.py``, ``conftest.py``, ``setup.py``) are left out;
``--exclude GLOB`` leaves out more (matched against the path relative to the directory given,
and against the file name). A file named on its own is always taken.

Invariant: every target text resolves to at least one file, or the run stops with a
``UsageError`` that names the text; each file appears once, in the order the targets were
first given (a file given twice, or under two directories, keeps its first place).
"""

from __future__ import annotations

import fnmatch
import importlib.util
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pathloom.errors import UsageError

_SKIPPED_FOLDERS = {"__pycache__", "site-packages", "test", "tests", "node_modules"}
_SKIPPED_FILES = ("test_*.py", "*_test.py", "conftest.py", "setup.py")


@dataclass(frozen=True)
class Target:
    """One file to analyse: the functions ``names`` of it, or every one (``names`` None)."""

    file: str
    names: tuple[str, ...] | None


def resolve(texts: Sequence[str], exclude: Sequence[str] = ()) -> list[Target]:
    """The files ``texts`` name, in order, each once, with the functions named in each (see
    the invariant): ``a.py::f a.py::g`` is one target of two names, ``a.py::f a.py`` all of
    ``a.py``."""
    order: list[str] = []
    given: dict[str, str] = {}  # a file's real path: its path as first given
    names: dict[str, list[str] | None] = {}  # None: the whole file
    for text in texts:
        for file, name in _resolve_one(text, exclude):
            key = os.path.realpath(file)
            if key not in names:
                order.append(key)
                given[key], names[key] = file, []
            chosen = names[key]
            if name is None:
                names[key] = None
            elif chosen is not None and name not in chosen:
                chosen.append(name)
    return [Target(given[key], None if names[key] is None else tuple(names[key] or ())) for key in order]


def _resolve_one(text: str, exclude: Sequence[str]) -> list[tuple[str, str | None]]:
    path_text, separator, name = text.partition("::")
    if separator and not name:
        raise UsageError(f"{text}: no function named after '::' (FILE.py::function or FILE.py::Class.method)")
    named = name or None
    path = Path(path_text)
    if path.is_dir():
        if named is not None:
            raise UsageError(f"{text}: a directory has no '::name' (name a file: DIR/FILE.py::{name})")
        files = python_files(path, exclude)
        if not files:
            raise UsageError(f"{path_text}: no Python files under this directory (tests, hidden folders and --exclude left out)")
        return [(str(f), None) for f in files]
    if path.exists() or path_text.endswith((".py", ".pyw")) or os.sep in path_text or "/" in path_text:
        return [(path_text, named)]  # a file (load_module says if it is missing or not Python)
    return _module_targets(path_text, named, exclude, text)


def python_files(directory: Path, exclude: Sequence[str] = ()) -> list[Path]:
    """The ``.py`` files under ``directory`` that are analysed (see the module docstring)."""
    found: list[Path] = []
    for root, folders, files in os.walk(directory):
        folders[:] = sorted(d for d in folders if not d.startswith(".") and d not in _SKIPPED_FOLDERS and not _excluded(Path(root, d), directory, exclude))
        for file in sorted(files):
            path = Path(root, file)
            if file.endswith(".py") and not any(fnmatch.fnmatch(file, p) for p in _SKIPPED_FILES) and not _excluded(path, directory, exclude):
                found.append(path)
    return found


def _excluded(path: Path, directory: Path, exclude: Sequence[str]) -> bool:
    relative = path.relative_to(directory).as_posix()
    return any(fnmatch.fnmatch(relative, glob) or fnmatch.fnmatch(path.name, glob) for glob in exclude)


def _module_targets(dotted: str, name: str | None, exclude: Sequence[str], text: str) -> list[tuple[str, str | None]]:
    """The file of the module ``dotted`` as ``python -m`` finds it (the working directory first
    on ``sys.path``); a package is its directory."""
    if not all(part.isidentifier() for part in dotted.split(".")):
        raise UsageError(f"{text}: no such file, directory or module")
    saved = list(sys.path)
    sys.path.insert(0, os.getcwd())
    try:
        spec = importlib.util.find_spec(dotted)
    except (ImportError, ValueError) as exc:  # a parent package that does not import
        raise UsageError(f"{text}: cannot find module {dotted}: {type(exc).__name__}: {exc}") from None
    finally:
        sys.path[:] = saved
    if spec is None or spec.origin in (None, "built-in", "frozen") or not str(spec.origin).endswith(".py"):
        raise UsageError(f"{text}: no such file, directory or module (a module name needs its Python source)")
    origin = Path(str(spec.origin))
    if origin.is_relative_to(Path.cwd()):  # shown as the user would write it
        origin = origin.relative_to(Path.cwd())
    if spec.submodule_search_locations is not None and origin.name == "__init__.py":  # a package
        if name is not None:
            return [(str(origin), name)]
        return [(str(f), None) for f in python_files(origin.parent, exclude)]
    return [(str(origin), name)]
