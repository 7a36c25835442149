"""Differential fuzzing of ``reach --asserts`` on random programs with loops.

Usage: python -m tests.differential.reach_fuzz [--count N] [--seed S] [--timeout S] [--progress N]

Seven programs in ten have int inputs ``n`` and ``m``, one to three loops (``while`` with arithmetic
or geometric steps whose trip count depends on the inputs, ``for`` over ``range``, a loop
nested in another), branches inside them, and one ``raise`` behind a condition on the loop variables.
A verdict is wrong when a ``reachable`` input does not raise at the target in CPython, or
when a target claimed ``unreachable`` is reached by some input of the grid
``n, m in [-6, 40)`` run in CPython. The other three in ten scan a str ``s`` character by
character (``str_program``), counting matches of conjunctions of item tests (some
contradictory); their unreachable claims are checked on every str of up to 5 characters over
``a``, ``b``, ``c`` and ``z`` (and ``reach`` runs with ``--max-str-len 5``). ``unknown`` is counted, never wrong. Programs are
deterministic in the seed; every loop ends for every input (each ``while`` adds a positive
step to the variable it compares with an input).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterable
from pathlib import Path

from pathloom.frontend.module import load_module
from pathloom.navigation.reach import ReachOptions, reach_targets
from pathloom.navigation.targets import assert_targets, statement_lines
from pathloom.options import Options
from tests.unit.reach_checks import int_grid, raise_line, reaching

GRID = (-6, 40)
CHARS = ("a", "b", "c")
STR_LEN = 5  # the str programs' --max-str-len, and the longest str of their check grid
STR_SHARE = 0.3  # of the programs: scans of a str
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


def _char_test(rng: random.Random, offset: int) -> str:
    index = "i" if offset == 0 else f"i + {offset}"
    return f"s[{index}] {rng.choice(['==', '==', '!='])} {rng.choice(CHARS)!r}"


def str_program(rng: random.Random) -> str:
    """A scan of ``s`` character by character (``while i + w <= len(s)``, w the widest window
    its tests read), counters bumped behind conjunctions of item tests, some of which
    contradict (the chain pruning's case), and one ``raise`` behind a condition on them."""
    width = rng.randint(1, 3)
    counters = ["p", "q", "r"][: rng.randint(1, 3)]
    body = ["    " + " = ".join(counters) + " = 0", "    i = 0", f"    while i + {width} <= len(s):"]
    for name in counters:
        tests = [_char_test(rng, rng.randrange(width)) for _ in range(rng.randint(1, 3))]
        body += [f"        if {' and '.join(tests)}:", f"            {name} += {rng.randint(1, 2)}"]
    body.append(f"        i += {rng.choice([1, 1, 2])}")
    target = " and ".join(f"{name} {rng.choice(['>', '==', '>='])} {rng.randint(0, 3)}" for name in rng.sample(counters, rng.randint(1, len(counters))))
    body += [f"    if {target}:", "        raise ValueError('target')", "    return " + " + ".join(counters)]
    return "def f(s: str) -> int:\n" + "\n".join(body) + "\n"


def str_grid() -> Iterable[dict[str, str]]:
    """Every str of at most ``STR_LEN`` characters over ``CHARS`` and one character none of
    the programs tests."""
    for length in range(STR_LEN + 1):
        for chars in itertools.product(CHARS + ("z",), repeat=length):
            yield {"s": "".join(chars)}


def check(source: str, folder: Path, index: int, timeout: float) -> tuple[str, str]:
    """(verdict, problem: empty when the verdict is right or unknown)."""
    path = folder / f"prog_{index}.py"
    path.write_text(source, encoding="utf-8")
    module = load_module(str(path))
    targets = assert_targets(module.function("f"), statement_lines(module.function_defs["f"]))
    [target] = [t for t in targets if t.kind == "raise"]
    strs = "s: str" in source
    options = Options(timeout=timeout, max_iterations=30, max_str_len=STR_LEN)
    run = reach_targets(module, "f", [target], options, ReachOptions())
    [verdict] = run.verdicts
    if run.mismatches:
        return verdict.verdict, "; ".join(run.mismatches)
    if verdict.verdict == "reachable" and raise_line(path, "f", verdict.inputs or {}) != target.line:
        return verdict.verdict, f"input {verdict.inputs} does not raise at line {target.line}"
    if verdict.verdict == "unreachable":
        found = reaching(path, "f", target.line, str_grid() if strs else int_grid(["n", "m"], *GRID))
        if found:
            return verdict.verdict, f"claimed unreachable ({verdict.reason}), but {found[0]} reaches it"
    return verdict.verdict, ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--progress", type=int, default=100, help="print a progress line every N programs")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts: dict[str, int] = {}
    by_kind: dict[tuple[str, str], int] = {}
    wrong = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(args.count):
            kind = "str" if rng.random() < STR_SHARE else "int"
            source = str_program(rng) if kind == "str" else program(rng)
            verdict, problem = check(source, Path(tmp), index, args.timeout)
            counts[verdict] = counts.get(verdict, 0) + 1
            by_kind[kind, verdict] = by_kind.get((kind, verdict), 0) + 1
            if problem:
                wrong += 1
                print(f"WRONG program {index}: {problem}\n{textwrap.indent(source, '    ')}", flush=True)
            if (index + 1) % args.progress == 0:
                print(f"[{time.monotonic() - started:8.1f}s] {index + 1} programs: {counts}, {wrong} wrong", flush=True)
    print(
        f"{args.count} programs (seed {args.seed}): {counts}, {wrong} wrong verdict(s); by kind: "
        + ", ".join(f"{kind} {verdict} {n}" for (kind, verdict), n in sorted(by_kind.items()))
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
