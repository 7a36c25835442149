"""The search's child process (``python -m pathloom.search.child``): a coverage-guided search on
the real code, as Pynguin's and fuzzers' searches are, after symbolic execution.

Request (JSON on stdin): the file, the target, the budget in seconds, the seed, the module-level
names to reset (``globals``), the arcs and outcomes symbolic execution's inputs already covered,
and those inputs. The child builds a shape per parameter from the type hints (``shapes``), seeds a
pool with the module's constants and the symbolic inputs' parts (``seeds``), then until the budget
is spent: takes an input of the corpus (the symbolic inputs, then every input kept) and mutates
one or two of its arguments, or generates a fresh one; runs it on the real function with a line
tracer (``replay.run_one``, 1 s per call); keeps it when it covers an arc or gives an outcome
(returned value kind; exception type and line) not covered before. A tenth of the candidates,
where the target tests a parameter's type itself, give that parameter a value outside its
annotation (``validation``); such an input is kept labelled (``outside``: the parameter) and
never seeds further mutations. An input whose arguments
cannot be built (a constructor that raises on them) is no input of the function and is skipped.
Answer (JSON, last line of stdout): ``runs``, ``kept`` (each: ``inputs`` and the observation) and
``skipped`` (why the target cannot be searched, or null).

Invariant: every kept input is in the JSON value encoding, generated before the call (a call
that mutates its arguments does not change what the test will build), and the parent replays it
again in a fresh process before it becomes a test (``driver``).
"""

from __future__ import annotations

import inspect
import json
import random
import signal
import sys
import time
import typing
from typing import Any

from pathloom.encoding.values import decode_inputs, json_safe
from pathloom.frontend.contracts import enforce
from pathloom.replay import load, on_alarm, run_one
from pathloom.report.test_selection import outcome_key
from pathloom.search.seeds import module_pool
from pathloom.search.shapes import NewShape, NotSearchable, Pool, Shape, shape_of, unannotated_shape
from pathloom.search.validation import outside_shape, type_checked

JSON = Any

CALL_TIMEOUT_S = 1.0  # per call of the target: past it, the input is dropped
MAX_KEPT = 200  # inputs kept per target
MAX_REPEATS = 2000  # candidates in a row already tried: the search space is exhausted


def parameter_shapes(module: Any, target: str) -> tuple[dict[str, Shape], dict[str, Shape]]:
    """A shape per parameter the search passes (``self`` of a method: its class, built by its
    constructor); a parameter with a default and no annotation keeps its default, one with
    neither is an int or a str. And, for the parameters whose type the target's own code
    tests, the shape of values outside their annotation (``validation``). Raises
    ``NotSearchable``."""
    namespace = vars(module)
    cls_name, _, method = target.rpartition(".")
    if cls_name:
        cls = namespace.get(cls_name)
        if not isinstance(cls, type):
            raise NotSearchable(f"{target}: no class {cls_name} in the module")
        raw = inspect.getattr_static(cls, method, None)
        if isinstance(raw, property):
            raise NotSearchable(f"{target}: a property")
        function = getattr(cls, method)
        needs_self = method != "__init__" and not isinstance(raw, (staticmethod, classmethod))
    else:
        function, needs_self = namespace.get(target), False
    if not callable(function):
        raise NotSearchable(f"{target}: not a function of the module")
    if inspect.iscoroutinefunction(function) or inspect.isasyncgenfunction(function):
        raise NotSearchable(f"{target}: an async function (its calls only make coroutines)")
    try:
        hints = typing.get_type_hints(function)
        parameters = list(inspect.signature(function).parameters.values())
    except Exception as exc:  # noqa: BLE001 - a hint that does not resolve
        raise NotSearchable(f"{target}: its annotations ({exc})") from None
    shapes: dict[str, Shape] = {}
    outside: dict[str, Shape] = {}
    checked = type_checked(function)
    if needs_self:
        receiver = shape_of(cls, namespace, f"{target}: self")
        if not isinstance(receiver, NewShape):
            raise NotSearchable(f"{target}: self of {cls_name}")
        shapes["self"] = receiver
    for p in parameters[1:] if needs_self or (cls_name and method == "__init__") else parameters:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name in hints:
            shapes[p.name] = shape_of(hints[p.name], namespace, f"{target}: parameter {p.name}")
            other = outside_shape(hints[p.name]) if p.name in checked else None
            if other is not None:
                outside[p.name] = other
        elif p.default is p.empty:
            shapes[p.name] = unannotated_shape()
    return shapes, outside


OUTSIDE_SHARE = 0.1  # of the candidates, with one argument outside its annotation (when any can be)


def candidate(
    shapes: dict[str, Shape], outside: dict[str, Shape], corpus: list[dict[str, JSON]], rng: random.Random, pool: Pool
) -> tuple[dict[str, JSON], str | None]:
    """The next input to try, and the parameter given a value outside its annotation (or None)."""
    if outside and rng.random() < OUTSIDE_SHARE:
        chosen = dict(rng.choice(corpus)) if corpus else {name: shape.generate(rng, pool) for name, shape in shapes.items()}
        name = rng.choice(sorted(outside))
        chosen[name] = outside[name].generate(rng, pool)
        return {n: chosen[n] for n in shapes if n in chosen}, name
    return _well_typed(shapes, corpus, rng, pool), None


def _well_typed(shapes: dict[str, Shape], corpus: list[dict[str, JSON]], rng: random.Random, pool: Pool) -> dict[str, JSON]:
    if corpus and shapes and rng.random() < 0.75:
        chosen = dict(rng.choice(corpus))
        for _ in range(rng.choice((1, 1, 1, 2))):
            name = rng.choice(list(shapes))
            chosen[name] = shapes[name].mutate(chosen.get(name), rng, pool)
        return {name: chosen[name] for name in shapes if name in chosen}
    return {name: shape.generate(rng, pool) for name, shape in shapes.items()}


def search(request: dict[str, Any]) -> dict[str, JSON]:
    path, target = request["file"], request["target"]
    deadline = time.monotonic() + float(request["budget"])
    module = load(path)
    enforce(module, path)  # contracts checked as the engines check them (frontend.contracts)
    try:
        shapes, outside = parameter_shapes(module, target)
    except NotSearchable as exc:
        return {"runs": 0, "kept": [], "skipped": str(exc)}
    namespace = vars(module)
    inputs = [dict(i) for i in request["inputs"]]
    with open(path, encoding="utf-8") as f:
        pool = module_pool(f.read(), inputs)
    rng = random.Random(request["seed"])
    covered = {(a, b) for a, b in request["arcs"]}
    outcomes = {tuple(o) for o in request["outcomes"]}
    corpus = [i for i in inputs if set(i) == set(shapes)]
    tried: set[str] = set()
    kept: list[dict[str, JSON]] = []
    runs = repeats = 0
    while time.monotonic() < deadline and len(kept) < MAX_KEPT and repeats < MAX_REPEATS:
        chosen, outside_name = candidate(shapes, outside, corpus, rng, pool)
        key = json.dumps(json_safe(chosen), sort_keys=True)
        if key in tried:
            repeats += 1
            continue
        tried.add(key)
        repeats = 0
        try:
            decode_inputs(chosen, namespace)
        except Exception:  # noqa: BLE001 - not an input of the function (a constructor refused it)
            continue
        answer = run_one(module, path, target, chosen, CALL_TIMEOUT_S, request.get("globals"), arcs=True)
        runs += 1
        if answer["outcome"] not in ("return", "raise"):
            continue
        arcs = {(a, b) for a, b in answer["arcs"]}
        outcome = outcome_key(answer["outcome"], answer.get("returned"), answer.get("exception"), answer.get("line"))
        if arcs - covered or outcome not in outcomes:
            kept.append({"inputs": chosen, **answer, "outside": outside_name})
            covered |= arcs
            outcomes.add(outcome)
            if outside_name is None:  # the corpus stays well typed: mutations of it are too
                corpus.append(chosen)
    return {"runs": runs, "kept": kept, "skipped": None}


def _child_main() -> None:
    request = json.loads(sys.stdin.read())
    signal.signal(signal.SIGALRM, on_alarm)
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # the analysed code's prints must not mix with the answer
    answer = search(request)
    sys.stdout = real_stdout
    sys.stdout.write("\n" + json.dumps(json_safe(answer)) + "\n")


if __name__ == "__main__":
    _child_main()
