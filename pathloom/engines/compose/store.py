"""The persistent summary store: memoization trees in SQLite (stdlib ``sqlite3``), as JSON.

Two kinds of rows, both keyed by a SHA-256 of everything that decides their content:

- ``tree``: the memoization tree of a summarized function (or the note that its exploration
  alone rejected it, so a warm run does not explore it again). Key: the function's file and
  qualname, the source of its ``def``, the module's top-level statements other than
  definitions (the constants it may read), the same for every function it can reach (its
  callees' hashes), the options that change trees (loop and depth bounds, concretizations),
  the format and pathloom's version. A change to a caller leaves its callees' keys as they
  were, so their trees are reused.
- ``run``: the tree of a complete exploration of a target (every path finished: no bound,
  timeout or unknown cut it), whose leaves hold the full model of each path. Key: the target,
  the source of the file and of every linked module, all options that change results, the
  format and version. An unchanged rerun replays these leaves with the solver off.

Invariants: rows are written in one transaction each (``INSERT OR REPLACE``) and read
whole, so a concurrent run sees the old row or the new one, never a mix; SQLite's own locking
serializes writers (``timeout``: a writer waits for the other). Nothing read is trusted: a
row that does not parse as the expected JSON is ignored (and recomputed), never evaluated.
Writing a row is linear in its term DAG and stops at the caller's deadline or Ctrl-C (the
row is then not written).
"""

from __future__ import annotations

import ast
import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pathloom.engines.compose.tree import MemoTree, tree_from_json, tree_to_json
from pathloom.frontend.module import Module
from pathloom.options import Options
from pathloom.terms.serialize import SerializationStopped

FORMAT = 5  # 4: a tree's terms in one shared table (serialize.TermTable); 5: ints past 2**53 as hex

_SCHEMA = """
CREATE TABLE IF NOT EXISTS summaries (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    file TEXT NOT NULL,
    qualname TEXT NOT NULL,
    body TEXT NOT NULL,
    leaves INTEGER NOT NULL,
    created REAL NOT NULL,
    used REAL NOT NULL,
    hits INTEGER NOT NULL DEFAULT 0
)
"""


def pathloom_version() -> str:
    try:
        from importlib.metadata import version

        return version("pathloom")
    except Exception:  # noqa: BLE001 - not installed (run from a checkout): the format alone
        return "unknown"


@dataclass(frozen=True)
class Row:
    kind: str
    file: str
    qualname: str
    leaves: int
    created: float
    used: float
    hits: int


def _digest(parts: Iterable[object]) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(json.dumps(part, sort_keys=True, default=str).encode())
        h.update(b"\0")
    return h.hexdigest()


def _source_of(module: Module, qualname: str) -> str:
    node = module.function_defs.get(qualname)
    if node is None:
        return f"<no source: {qualname}>"
    return ast.get_source_segment(module.source, node) or ast.dump(node)


def module_environment(module: Module) -> str:
    """The module's top-level statements other than function and class definitions."""
    kept = [stmt for stmt in module.tree.body if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return "\n".join(ast.get_source_segment(module.source, stmt) or ast.dump(stmt) for stmt in kept)


def class_definitions(module: Module) -> str:
    """The module's class definitions (an object formal's tree reads the fields they declare)."""
    kept = [stmt for stmt in module.tree.body if isinstance(stmt, ast.ClassDef)]
    return "\n".join(ast.get_source_segment(module.source, stmt) or ast.dump(stmt) for stmt in kept)


def tree_key(module: Module, qualname: str, reachable: Iterable[str], options: Options) -> str:
    """The key of ``qualname``'s tree: its source and the sources of what it can reach, the
    classes, and the options a tree depends on (bounds, the heap model)."""
    return _digest(
        [
            "tree",
            FORMAT,
            pathloom_version(),
            str(Path(module.filename).resolve()),
            qualname,
            module_environment(module),
            class_definitions(module),
            [(q, _source_of(module, q)) for q in sorted(set(reachable) | {qualname})],
            options.max_iterations,
            options.max_depth,
            options.max_concretizations,
            options.max_list_len,
            options.max_str_len,
            options.heap,
            options.max_objects,
        ]
    )


def run_key(module: Module, target: str, options: Options) -> str:
    """The key of a target's complete run: the whole file, its linked modules, the options."""
    linked = sorted((name, m.source) for name, m in module.linked.items())
    return _digest(
        [
            "run",
            FORMAT,
            pathloom_version(),
            str(Path(module.filename).resolve()),
            target,
            module.source,
            linked,
            options.max_iterations,
            options.max_depth,
            options.max_list_len,
            options.max_str_len,
            options.max_dict_len,
            options.max_paths,
            options.max_concretizations,
            options.preconditions,
            options.strategy,
            options.seed,
            options.solver_layers,
            options.target_heuristic,
            options.heap,
            options.max_objects,
        ]
    )


class SummaryStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(str(self.path), timeout=30.0)
        with self.conn:
            self.conn.execute(_SCHEMA)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> SummaryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ rows

    def load(self, key: str, kind: str) -> tuple[bool, MemoTree | None]:
        """(found, tree): a stored tree, or ``(True, None)`` for a function stored as not
        summarizable; ``(False, None)`` when there is no usable row."""
        row = self.conn.execute("SELECT body FROM summaries WHERE key = ? AND kind = ?", (key, kind)).fetchone()
        if row is None:
            return False, None
        try:
            data: Any = json.loads(row[0])
            tree = None if data is None else tree_from_json(data)
        except (ValueError, TypeError):
            return False, None  # a damaged row: recomputed and overwritten
        with self.conn:
            self.conn.execute("UPDATE summaries SET hits = hits + 1, used = ? WHERE key = ?", (time.time(), key))
        return True, tree

    def save(self, key: str, kind: str, file: str, qualname: str, tree: MemoTree | None, stop: Callable[[], bool] | None = None) -> bool:
        """Write the row; ``False`` (nothing written) when ``stop`` answered true while the
        tree was being serialized (the store is a cache: the tree is built again next time)."""
        try:
            body = json.dumps(None if tree is None else tree_to_json(tree, stop))
        except SerializationStopped:
            return False
        now = time.time()
        leaves = 0 if tree is None else len(tree.leaves)
        with self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO summaries (key, kind, file, qualname, body, leaves, created, used, hits) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)",
                (key, kind, file, qualname, body, leaves, now, now),
            )
        return True

    def rows(self) -> list[Row]:
        found = self.conn.execute("SELECT kind, file, qualname, leaves, created, used, hits FROM summaries ORDER BY file, qualname, kind").fetchall()
        return [Row(*r) for r in found]

    def clear(self) -> int:
        with self.conn:
            return self.conn.execute("DELETE FROM summaries").rowcount
