"""The grammar coverage table (``grammar.py``) holds: every ast node class has a row or a
reason, every row behaves as its status says in every engine, and the random-program
generator writes every modelled row but the listed gaps."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from pathloom.cli import main
from tests.conformance.grammar import (
    CUT,
    ENGINES,
    MODELLED,
    NOT_NODES,
    NOT_YET_FUZZED,
    REFUSED,
    ROWS,
    module_source,
)
from tests.differential.progen import FEATURES

ABSTRACT = {
    ast.AST,
    ast.mod,
    ast.stmt,
    ast.expr,
    ast.expr_context,
    ast.boolop,
    ast.operator,
    ast.unaryop,
    ast.cmpop,
    ast.excepthandler,
    ast.type_ignore,
    ast.pattern,
    ast.slice,
}
DEPRECATED = {
    "Num",
    "Str",
    "Bytes",
    "NameConstant",
    "Ellipsis",
    "Index",
    "ExtSlice",
    "Suite",
    "AugLoad",
    "AugStore",
    "Param",
}
# the one-line refusal, after the analysed file's path
REFUSAL = re.compile(r"(?:^|/)rows\.py:\d+:\d+: unsupported: [^\n]+$")


def concrete_node_classes() -> set[str]:
    """The names of the concrete ast node classes of the running Python."""
    seen: set[type] = set()
    todo = [ast.AST]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return {c.__name__ for c in seen if c not in ABSTRACT and c.__name__ not in DEPRECATED and c.__module__ == "ast"}


def test_every_ast_node_has_a_row() -> None:
    concrete = concrete_node_classes()
    covered = {row.node for row in ROWS}
    assert sorted(concrete - covered - NOT_NODES) == [], "ast classes with neither a row nor a reason"
    assert sorted(NOT_NODES - concrete) == [], "NOT_NODES names that are no ast class"
    assert sorted(NOT_NODES & covered) == [], "classes both in NOT_NODES and the node of a row"
    assert sorted(covered - concrete) == [], "rows whose node is no concrete ast class"
    names = [row.name for row in ROWS]
    assert sorted({n for n in names if names.count(n) > 1}) == [], "duplicate row names"


def test_rows_use_their_node() -> None:
    wrong = []
    for row in ROWS:
        tree = ast.parse(row.source)
        defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if len(tree.body) != 1 or len(defs) != 1 or defs[0].name != row.name:
            wrong.append(f"{row.name}: the source is not one top-level function of that name")
        if not any(type(n).__name__ == row.node for n in ast.walk(tree)):
            wrong.append(f"{row.name}: no {row.node} node in the source")
        if row.status not in (MODELLED, REFUSED, CUT):
            wrong.append(f"{row.name}: status {row.status!r}")
        if row.status == REFUSED and (not row.refused_by or not set(row.refused_by) <= set(ENGINES)):
            wrong.append(f"{row.name}: refused_by {row.refused_by!r}")
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_row_behaves_as_its_status_says(engine: str, tmp_path: Path) -> None:
    path, out = tmp_path / "rows.py", tmp_path / f"{engine}.json"
    path.write_text(module_source(), encoding="utf-8")
    code = main(
        ["explore", str(path), "--engine", engine, "--verify", "--json", str(out), "--quiet", "--timeout", "20", "--max-iterations", "4", "--max-list-len", "3"]
    )
    assert code != 3, f"{engine}: exit code 3 (a replay mismatch or an internal error)"
    results = {entry["target"].split("::")[-1]: entry for entry in json.loads(out.read_text(encoding="utf-8"))}
    wrong = []
    for row in ROWS:
        entry = results.get(row.name)
        if entry is None:
            wrong.append(f"{row.name}: no entry in the JSON")
            continue
        status, error = entry.get("status"), entry.get("error") or ""
        if row.status == REFUSED and engine in row.refused_by:
            if status != "unsupported" or not REFUSAL.search(error):
                wrong.append(f"{row.name}: expected refused, got {status!r} {error!r}")
        elif row.status == CUT:
            cuts = [p["reason"] for p in entry.get("paths", ()) if p["outcome"] == "cut" and p["cut"] == "unsupported"]
            if status != "incomplete" or not cuts or not all(str(r).startswith("unsupported: ") for r in cuts):
                wrong.append(f"{row.name}: expected a path cut at the unmodelled form, got {status!r} {error!r} {cuts!r}")
        elif status not in ("complete", "incomplete"):
            wrong.append(f"{row.name}: expected modelled, got {status!r} {error!r}")
    assert wrong == [], f"{engine}: {len(wrong)} row(s) not as their status says:\n" + "\n".join(wrong)


def test_modelled_rows_are_fuzzed() -> None:
    modelled = {row.name: row for row in ROWS if row.status == MODELLED}
    unfuzzed = [name for name, row in modelled.items() if row.fuzz not in FEATURES and name not in NOT_YET_FUZZED]
    assert unfuzzed == [], "modelled rows neither fuzzed (a progen feature tag) nor listed in NOT_YET_FUZZED"
    stale = sorted(n for n in NOT_YET_FUZZED if n not in modelled or modelled[n].fuzz is not None)
    assert stale == [], "NOT_YET_FUZZED names that are no modelled row without a fuzz tag"
    tagged_refused = [row.name for row in ROWS if row.status in (REFUSED, CUT) and row.fuzz is not None]
    assert tagged_refused == [], "refused rows with a fuzz tag"
