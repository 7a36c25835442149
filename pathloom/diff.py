"""`pathloom diff OLD NEW`: the inputs on which two versions of a function behave differently.

Behaviour is what a caller sees: the returned value, the exception raised (its type and
message) and the arguments after the call (a mutation). For each pair of functions (``FILE::f``
against ``FILE::g``, or every top-level function two files both define, with the same
parameters) pathloom writes a *product program*, as the self-composition of relational
verification does: the two files are copied beside it as modules ``pathloom_diff_old_<token>`` and
``pathloom_diff_new_<token>`` (a token per run), and the product function, with the old function's parameters, gives
each version its own deep copy of every argument, calls both, catches what each raises, and
asserts that the outcomes, the values and the arguments after the calls are equal. Exploring it
(any engine) is exploring both versions together; a failed assert is a difference, with the
input that shows it; a complete exploration with no failed assert proves the versions agree on
every input within the bounds (``--max-list-len`` and the rest, as for ``check``).

Invariant: every difference reported was run in CPython: the input is replayed on the real
old and new functions (``replay``) and reported with both answers only when they differ there;
a difference the engines predict that CPython does not show is an internal inconsistency
(exit 3), never reported. Where it departs from CrossHair's ``diffbehavior``: the search is
symbolic over both versions at once (CrossHair samples paths), and an exhaustive exploration is
reported as complete.
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import sys
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pathloom.api import explore
from pathloom.errors import Unsupported, UsageError
from pathloom.frontend.contracts import deep_copy_of
from pathloom.frontend.module import load_module
from pathloom.options import Options
from pathloom.replay import Observed, replay
from pathloom.results import Exploration

PRODUCT = "pathloom_diff"  # the product module; the versions are PRODUCT_old_<token>, PRODUCT_new_<token> (a name no earlier run imported)


@dataclass(frozen=True)
class Pair:
    old_file: str
    old_name: str
    new_file: str
    new_name: str
    params: tuple[tuple[str, ast.expr | None], ...]  # the old function's parameters and annotations


@dataclass(frozen=True)
class Difference:
    pair: Pair
    inputs: dict[str, object]
    what: str  # the product's failed assert: a different exception, value, or argument after the call
    old: Observed
    new: Observed


def add_parser(sub: Any) -> None:
    p = sub.add_parser("diff", help="find inputs on which two versions of a function differ (value, exception, argument mutation)")
    p.add_argument("old", help="OLD.py::function, or OLD.py: every top-level function NEW.py has too")
    p.add_argument("new", help="NEW.py::function, or NEW.py")
    p.add_argument("--engine", default="dse", help="exploration engine (compose, dse, multise)")
    p.add_argument("--timeout", type=float, default=60.0, help="wall seconds per function pair (default 60)")
    p.add_argument("--max-list-len", type=int, default=4, help="symbolic length bound of list inputs")
    p.add_argument("--max-iterations", type=int, default=10, help="symbolic decisions per loop per path")
    p.add_argument("--json", metavar="FILE", default=None, help="write the differences as JSON to FILE ('-': stdout)")


def diff_command(args: argparse.Namespace) -> int:
    """Exit 1 when a difference is found, 0 when every pair was explored completely and none
    was, 2 when some pair could not be explored completely and none was, 3 on an engine's
    difference that CPython does not show."""
    pairs = _pairs(args.old, args.new)
    options = Options(engine=args.engine, timeout=args.timeout, max_list_len=args.max_list_len, max_iterations=args.max_iterations)
    options.validate()
    differences: list[Difference] = []
    incomplete = inconsistent = 0
    rows: list[dict[str, object]] = []
    say = _quiet if args.json == "-" else print  # JSON on stdout: nothing else there
    with tempfile.TemporaryDirectory(prefix="pathloom-diff-") as work:
        product = _write_product(Path(work), pairs)
        module = load_module(str(product))
        for pair in pairs:
            label = f"{pair.old_file}::{pair.old_name} vs {pair.new_file}::{pair.new_name}"
            try:
                exploration = explore(module, pair.old_name, options)
            except Unsupported as exc:
                say(f"{label}: not explored: {exc.one_line()}")
                incomplete += 1
                rows.append(
                    {"old": f"{pair.old_file}::{pair.old_name}", "new": f"{pair.new_file}::{pair.new_name}", "status": "unsupported", "differences": []}
                )
                continue
            found, unconfirmed = _confirmed(pair, exploration, product)
            differences += found
            inconsistent += len(unconfirmed)
            complete = exploration.complete and exploration.stopped_by is None
            incomplete += not complete
            status = "differ" if found else ("same (complete)" if complete else "no difference found (incomplete)")
            say(f"{label}: {status}; {len(exploration.paths)} path(s){'' if complete else ', INCOMPLETE'}")
            for d in found:
                say(f"  differs on {_shown(d.inputs)}: {d.what}; old {_answer(d.old)}, new {_answer(d.new)}")
            for inputs in unconfirmed:
                print(f"  pathloom: internal inconsistency: predicted a difference on {_shown(inputs)} that CPython does not show", file=sys.stderr)
            rows.append(
                {
                    "old": f"{pair.old_file}::{pair.old_name}",
                    "new": f"{pair.new_file}::{pair.new_name}",
                    "status": "differ" if found else ("same" if complete else "incomplete"),
                    "complete": complete,
                    "differences": [{"inputs": d.inputs, "what": d.what, "old": _json_answer(d.old), "new": _json_answer(d.new)} for d in found],
                }
            )
    if args.json:
        text = json.dumps(rows, indent=2, default=str)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
    if inconsistent:
        return 3
    return 1 if differences else (2 if incomplete else 0)


def _quiet(*args: object, **kwargs: object) -> None:
    pass


# ---------------------------------------------------------------- pairs and the product


def _split(text: str) -> tuple[str, str | None]:
    file, sep, name = text.partition("::")
    if not Path(file).is_file():
        raise UsageError(f"pathloom diff: no such file: {file}")
    return file, (name if sep else None)


def _functions(file: str) -> dict[str, ast.FunctionDef]:
    try:
        tree = ast.parse(Path(file).read_text(encoding="utf-8"), file)
    except SyntaxError as exc:
        raise UsageError(f"pathloom diff: {file}: cannot parse: {exc.msg}") from None
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            raise UsageError(f"pathloom diff: {file}:{node.lineno}: a relative import (the two versions are analysed as standalone modules)")
    return {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}


def _params(node: ast.FunctionDef) -> tuple[tuple[str, ast.expr | None], ...]:
    args = node.args
    if args.vararg or args.kwarg or args.posonlyargs:
        raise UsageError(f"pathloom diff: {node.name}: *args, **kwargs or positional-only parameters")
    return tuple((a.arg, a.annotation) for a in [*args.args, *args.kwonlyargs])


def _pairs(old: str, new: str) -> list[Pair]:
    old_file, old_name = _split(old)
    new_file, new_name = _split(new)
    olds, news = _functions(old_file), _functions(new_file)
    if (old_name is None) != (new_name is None):
        raise UsageError("pathloom diff: give FILE::function twice, or two files")
    names = [(old_name, new_name)] if old_name is not None and new_name is not None else [(n, n) for n in olds if n in news]
    pairs = []
    for o, n in names:
        if o not in olds or n not in news:
            raise UsageError(f"pathloom diff: no top-level function {o if o not in olds else n!r} in {old_file if o not in olds else new_file}")
        old_params, new_params = _params(olds[o]), _params(news[n])
        if [p for p, _ in old_params] != [p for p, _ in new_params]:
            print(
                f"{old_file}::{o} vs {new_file}::{n}: not compared: the parameters differ ({', '.join(p for p, _ in old_params)} / {', '.join(p for p, _ in new_params)})"
            )
            continue
        pairs.append(Pair(old_file, o, new_file, n, old_params))
    if not pairs:
        raise UsageError("pathloom diff: no function pair to compare (the files share no top-level function with the same parameters)")
    return pairs


def _copy(name: str, annotation: ast.expr | None) -> str:
    value = deep_copy_of(name, annotation)
    if value is None:
        shown = ast.unparse(annotation) if annotation is not None else "no annotation"
        raise UsageError(
            f"pathloom diff: parameter {name} ({shown}): each version needs its own copy, known only for immutable types and lists, dicts and sets of them"
        )
    return ast.unparse(value)


def _product_function(pair: Pair) -> str:
    signature = ", ".join(f"{p}: {ast.unparse(a)}" if a is not None else p for p, a in pair.params)
    lines = [f"def {pair.old_name}({signature}) -> None:"]
    for side in ("old", "new"):
        lines += [f"    {side}_{p} = {_copy(p, a)}" for p, a in pair.params]
    for side, module, name in (("old", "_old", pair.old_name), ("new", "_new", pair.new_name)):
        call = ", ".join(f"{p}={side}_{p}" for p, _ in pair.params)
        lines += [
            "    try:",
            f"        {side}_value = {module}.{name}({call})",
            f"        {side}_raised = None",
            "    except Exception as exc:",
            f"        {side}_value = None",
            f"        {side}_raised = (type(exc).__name__, str(exc))",
        ]
    lines += ["    assert old_raised == new_raised, 'a different exception'", "    assert old_value == new_value, 'a different value'"]
    lines += [f"    assert old_{p} == new_{p}, 'a different {p} after the call'" for p, _ in pair.params]
    return "\n".join(lines)


def _write_product(work: Path, pairs: list[Pair]) -> Path:
    token = uuid.uuid4().hex[:12]
    old, new = f"{PRODUCT}_old_{token}", f"{PRODUCT}_new_{token}"
    shutil.copyfile(pairs[0].old_file, work / f"{old}.py")
    shutil.copyfile(pairs[0].new_file, work / f"{new}.py")
    header = f'"""The product of two versions (pathloom diff)."""\n\nimport {old} as _old\nimport {new} as _new\n'
    product = work / f"{PRODUCT}_{token}.py"
    product.write_text(header + "\n\n" + "\n\n\n".join(_product_function(p) for p in pairs) + "\n", encoding="utf-8")
    return product


# ---------------------------------------------------------------- confirmation


def _confirmed(pair: Pair, exploration: Exploration, product: Path) -> tuple[list[Difference], list[dict[str, object]]]:
    """The engines' differences CPython shows (the product run on each input in CPython fails
    its assert too), each with the real old and new functions' answers; and the inputs of
    those CPython does not show."""
    candidates = [b.inputs for b in exploration.distinct_bugs if b.inputs is not None and b.exception == "AssertionError"]
    if not candidates:
        return [], []
    checked = replay(str(product), pair.old_name, candidates)
    shown = [(inputs, seen.message or "") for inputs, seen in zip(candidates, checked) if seen.outcome == "raise" and seen.exception == "AssertionError"]
    unconfirmed = [inputs for inputs, seen in zip(candidates, checked) if not (seen.outcome == "raise" and seen.exception == "AssertionError")]
    olds = replay(pair.old_file, pair.old_name, [i for i, _ in shown])
    news = replay(pair.new_file, pair.new_name, [i for i, _ in shown])
    found = [Difference(pair, inputs, what, old, new) for (inputs, what), old, new in zip(shown, olds, news)]
    return found, unconfirmed


def _shown(inputs: dict[str, object]) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in inputs.items())


def _answer(observed: Observed) -> str:
    said = {"return": f"returns {json.dumps(observed.returned)}", "raise": f"raises {observed.exception}({json.dumps(observed.message)})"}
    return said.get(observed.outcome, f"{observed.outcome} ({observed.detail})")


def _json_answer(observed: Observed) -> dict[str, object]:
    return {"outcome": observed.outcome, "returned": observed.returned, "exception": observed.exception, "message": observed.message}
