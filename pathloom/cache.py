"""The result cache: a file's analysis served again when nothing it depends on has changed.

A run over several files analyses each file in a child process (``jobs``); what a child gave
back (its stdout and stderr, its JSON entries, its SARIF log, its pytest file and its exit
code) is stored in SQLite, in ``.pathloom/cache.sqlite`` at the project root (beside the
compose engine's summary store, ``engines.compose.location``; the folder gets a
``.gitignore``), under a key that hashes everything the answer depends on:

- pathloom's version, a hash of its own source files (an edited checkout is another
  pathloom) and the Python version;
- the command, the file's path, the functions asked for, and every option of the run as the
  child receives it (``jobs.passed_options``), whether tests and SARIF are written;
- the file's source and the sources of the modules of the project it imports, transitively
  (every ``import``/``from`` that resolves to a ``.py`` file under the file's package root or
  the project root): the linker follows calls into exactly such modules;
- the installed distributions and their versions (a library upgrade can change what the
  code does).

Where it departs from the issue's per-target key: the unit is the file, as for ``--jobs``, so
editing one function of a file reruns the whole file (the key is a superset of every target's
dependencies: never stale, less incremental). A result is stored only when its child ended by
itself with exit 0, 1 or 2 (not killed, not interrupted, no internal inconsistency).

Invariant: nothing read back is evaluated: the rows are text and JSON, parsed as data.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import sqlite3
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from pathloom.engines.compose.location import default_store_path
from pathloom.version import installed_version

CACHE_NAME = "cache.sqlite"
SCHEMA = 1  # bumped when a row's meaning changes: older rows are never read


@dataclass(frozen=True)
class Stored:
    """What one file's child gave back."""

    stdout: str
    stderr: str
    entries: list[object]
    sarif: str | None
    tests: str | None
    code: int


def cache_path(analysed: str) -> Path:
    """The cache of the project of ``analysed`` (a file or directory)."""
    return default_store_path(analysed).parent / CACHE_NAME


class ResultCache:
    """The SQLite table of stored results, opened for one run."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        ignore = path.parent / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# pathloom's caches: not for version control\n*\n", encoding="utf-8")
        self.db = sqlite3.connect(str(path), timeout=10)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, schema INTEGER, stdout TEXT, stderr TEXT, entries TEXT, sarif TEXT, tests TEXT, code INTEGER)"
        )
        self.db.commit()

    def get(self, key: str) -> Stored | None:
        row = self.db.execute("SELECT stdout, stderr, entries, sarif, tests, code FROM results WHERE key = ? AND schema = ?", (key, SCHEMA)).fetchone()
        if row is None:
            return None
        try:
            entries = json.loads(row[2])
        except ValueError:
            return None
        return Stored(row[0], row[1], entries if isinstance(entries, list) else [], row[3], row[4], int(row[5]))

    def put(self, key: str, stored: Stored) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (key, SCHEMA, stored.stdout, stored.stderr, json.dumps(stored.entries), stored.sarif, stored.tests, stored.code),
        )
        self.db.commit()

    def close(self) -> None:
        self.db.close()


def key(command: str, options: list[str], file: str, names: list[str] | None, tests: bool, sarif: bool) -> str:
    """The key of one file's result (see the module's docstring)."""
    digest = hashlib.sha256()
    head = {
        "pathloom": installed_version(),
        "pathloom_source": _own_source(),
        "python": sys.version,
        "command": command,
        "file": str(Path(file).resolve()),
        "names": names,
        "options": options,
        "tests": tests,
        "sarif": sarif,
        "distributions": _distributions(),
    }
    digest.update(json.dumps(head, sort_keys=True).encode())
    for path in sorted(_sources(Path(file).resolve())):
        digest.update(str(path).encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"<unreadable>")
    return digest.hexdigest()


@functools.cache
def _own_source() -> str:
    """A hash of pathloom's own ``.py`` files (read once per process)."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@functools.cache
def _distributions() -> tuple[str, ...]:
    """Every installed distribution as ``name==version``, sorted (read once per process)."""
    found = {f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions() if d.metadata["Name"]}
    return tuple(sorted(found))


def _roots(file: Path) -> list[Path]:
    """Where the file's absolute imports are looked up: above its top package (the file's own
    directory when it is in none), and the project root."""
    top = file.parent
    while (top / "__init__.py").exists() and top.parent != top:
        top = top.parent
    roots = [top]
    project = default_store_path(file).parent.parent
    if project not in roots:
        roots.append(project)
    return roots


def _sources(file: Path) -> set[Path]:
    """The file and the project modules it imports, transitively."""
    roots = _roots(file)
    seen: set[Path] = set()
    todo = [file]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
            continue
        for name in _imported(tree, path):
            todo += [p for p in _module_files(name, roots) if p not in seen]
    return seen


def _imported(tree: ast.Module, path: Path) -> list[str]:
    """The dotted names the module imports (relative ones made absolute against its package),
    with ``pkg.name`` for each ``from pkg import name`` (a submodule, perhaps)."""
    package = _package_of(path)
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join([*parts, *([base] if base else [])])
            names += [base] + [f"{base}.{a.name}" if base else a.name for a in node.names]
    return [n for n in names if n]


def _package_of(path: Path) -> str:
    parts: list[str] = []
    directory = path.parent
    while (directory / "__init__.py").exists() and directory.parent != directory:
        parts.insert(0, directory.name)
        directory = directory.parent
    return ".".join(parts)


def _module_files(name: str, roots: list[Path]) -> list[Path]:
    """The project files a dotted module name is (each package on the way, and the module)."""
    found: list[Path] = []
    parts = name.split(".")
    for root in roots:
        for i in range(1, len(parts) + 1):
            base = root.joinpath(*parts[:i])
            for candidate in (base.with_suffix(".py"), base / "__init__.py"):
                if candidate.is_file():
                    found.append(candidate.resolve())
    return found
