"""Differential fuzzing of ``reach --asserts`` on random programs with loops.

Usage: python -m tests.differential.reach_fuzz [--count N] [--seed S] [--timeout S]

Each program has int inputs ``n`` and ``m``, one to three loops (``while`` with arithmetic
or geometric steps whose trip count depends on the inputs, ``for`` over ``range``, a loop
nested in another), branches inside them, and one ``raise`` behind a condition on the loop variables.
A verdict is wrong when a ``reachable`` input does not raise at the target in CPython, or
when a target claimed ``unreachable`` is reached by some input of the grid
``n, m in [-6, 40)`` run in CPython. ``unknown`` is counted, never wrong. Programs are
deterministic in the seed; every loop ends for every input (each ``while`` adds a positive
step to the variable it compares with an input).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import textwrap
from pathlib import Path

from pathloom.frontend.module import load_module
from pathloom.navigation.reach import ReachOptions, reach_targets
from pathloom.navigation.targets import assert_targets, statement_lines
from pathloom.options import Options
from tests.unit.reach_checks import int_grid, raise_line, reaching

GRID = (-6, 40)
OPS = ("<", "<=", ">", ">=", "==", "!=")


def _cond(rng: random.Random, names: list[str]) -> str:
    left = rng.choice(names)
    right = rng.choice(names + [str(rng.randint(-3, 20))] * 2)
    if rng.random() < 0.3:
        left = f"{left} + {rng.choice(names)}"
    return f"{left} {rng.choice(OPS)} {right}"


def _while(rng: random.Random, var: str, bound: str, others: list[str], indent: str) -> list[str]:
    step = rng.randint(1, 5)
    others = [name for name in others if name != var]  # only the step changes the loop variable
    lines = [f"{indent}while {var} < {bound}:"]
    if rng.random() < 0.6:
        other = rng.choice(others)
        lines += [f"{indent}    if {_cond(rng, [var] + others)}:", f"{indent}        {other} += {rng.randint(-2, 3)}"]
        if rng.random() < 0.5:
            lines += [f"{indent}    else:", f"{indent}        {other} += {rng.randint(-2, 3)}"]
    lines.append(f"{indent}    {var} += {step}")
    return lines


def _for(rng: random.Random, others: list[str], indent: str, index: str) -> list[str]:
    other = rng.choice(others)
    lines = [f"{indent}for {index} in range({rng.choice([str(rng.randint(0, 6)), 'm % 5 if m > 0 else 0'])}):"]
    if rng.random() < 0.5:
        lines += [f"{indent}    if {_cond(rng, [index] + others)}:", f"{indent}        {other} += {rng.randint(-2, 3)}"]
    else:
        lines.append(f"{indent}    {other} += {rng.randint(-1, 3)}")
    return lines


def program(rng: random.Random) -> str:
    body = [f"    a = {rng.randint(-3, 3)}", f"    b = {rng.randint(-3, 3)}", f"    c = {rng.randint(0, 3)}", f"    g = {rng.randint(1, 3)}"]
    for k in range(rng.randint(1, 3)):
        shape = rng.random()
        if shape < 0.15:
            body += [f"    while g < {rng.choice(['n', 'm'])}:", f"        g *= {rng.randint(2, 3)}"]
        elif shape < 0.5:
            body += _while(rng, rng.choice(["a", "c"]), rng.choice(["n", "m", "n + m"]), ["b", "a", "c"], "    ")
        elif shape < 0.8:
            body += _for(rng, ["a", "b", "c"], "    ", f"i{k}")
        else:
            body.append(f"    for i{k} in range({rng.randint(1, 4)}):")
            body += _while(rng, "c", rng.choice(["n", "m"]), ["a", "b"], "        ")
    target = f"{rng.choice(['a', 'b', 'c', 'g'])} {rng.choice(OPS)} {rng.randint(-4, 24)}"
    if rng.random() < 0.6:
        target += f" and {_cond(rng, ['a', 'b', 'c', 'n'])}"
    body += [f"    if {target}:", "        raise ValueError('target')", "    return a + b + c + g"]
    return "def f(n: int, m: int) -> int:\n" + "\n".join(body) + "\n"


def check(source: str, folder: Path, index: int, timeout: float) -> tuple[str, str]:
    """(verdict, problem: empty when the verdict is right or unknown)."""
    path = folder / f"prog_{index}.py"
    path.write_text(source, encoding="utf-8")
    module = load_module(str(path))
    targets = assert_targets(module.function("f"), statement_lines(module.function_defs["f"]))
    [target] = [t for t in targets if t.kind == "raise"]
    run = reach_targets(module, "f", [target], Options(timeout=timeout, max_iterations=30), ReachOptions())
    [verdict] = run.verdicts
    if run.mismatches:
        return verdict.verdict, "; ".join(run.mismatches)
    if verdict.verdict == "reachable" and raise_line(path, "f", verdict.inputs or {}) != target.line:
        return verdict.verdict, f"input {verdict.inputs} does not raise at line {target.line}"
    if verdict.verdict == "unreachable":
        found = reaching(path, "f", target.line, int_grid(["n", "m"], *GRID))
        if found:
            return verdict.verdict, f"claimed unreachable ({verdict.reason}), but {found[0]} reaches it"
    return verdict.verdict, ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=5.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts: dict[str, int] = {}
    wrong = 0
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(args.count):
            source = program(rng)
            verdict, problem = check(source, Path(tmp), index, args.timeout)
            counts[verdict] = counts.get(verdict, 0) + 1
            if problem:
                wrong += 1
                print(f"WRONG program {index}: {problem}\n{textwrap.indent(source, '    ')}", flush=True)
    print(f"{args.count} programs (seed {args.seed}): {counts}, {wrong} wrong verdict(s)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
