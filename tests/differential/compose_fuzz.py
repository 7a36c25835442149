"""Compose against DSE on the generated compose programs, as a command: many seeds, one
summary (the test runs a few seeds of each generator through the same ``problems``).

    python -m tests.differential.compose_fuzz --objects --seeds 0:500

``--objects``: ``compose_object_programs`` (helpers of input objects), else
``compose_programs`` (helpers of ints, strs and int lists). For each seed: DSE and compose
(no store) on the program's ``f``; a problem is a disagreement (``compare.agree``: outcomes,
coverage, predictions), a difference in completeness, an input of compose that does not
replay in CPython, a replayed callee that left its leaf, a replay fallback, or a crash. Prints
each failing seed and a summary line with the programs, the calls summarized and replayed,
and both engines' solver calls and time (their ``stats``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import traceback
from pathlib import Path

from pathloom.api import explore
from pathloom.compare import agree
from pathloom.options import Options
from pathloom.replay import verify
from pathloom.results import Exploration

from .compose_object_programs import compose_object_program
from .compose_programs import compose_program

PROGRAM_OPTIONS: dict[str, object] = {"timeout": 60, "max_list_len": 3, "max_str_len": 3}
OBJECT_OPTIONS: dict[str, object] = {"timeout": 60, "max_iterations": 4}


def run_both(path: Path, options: dict[str, object]) -> tuple[Exploration, Exploration]:
    dse = explore(str(path), "f", Options(engine="dse", **options))  # type: ignore[arg-type]
    composed = explore(str(path), "f", Options(engine="compose", **options))  # type: ignore[arg-type]
    return dse, composed


def problems(path: Path, dse: Exploration, composed: Exploration) -> list[str]:
    found = [str(p) for p in agree(dse, composed)]
    if composed.complete != dse.complete:
        found.append(f"complete: dse {dse.complete}, compose {composed.complete}")
    found += [f"replay: {m}" for m in verify(composed, str(path), "f")]
    for key in ("replay_divergences", "replay_fallbacks"):
        if composed.stats[key]:
            found.append(f"{key}: {composed.stats[key]}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.differential.compose_fuzz")
    parser.add_argument("--objects", action="store_true", help="compose_object_programs (else compose_programs)")
    parser.add_argument("--seeds", default="0:100", help="START:STOP (STOP excluded)")
    args = parser.parse_args(argv)
    start, stop = (int(x) for x in args.seeds.split(":"))
    generate, options = (compose_object_program, OBJECT_OPTIONS) if args.objects else (compose_program, PROGRAM_OPTIONS)
    failing = summarized = replayed = inline = dse_calls = compose_calls = 0
    dse_time = compose_time = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(start, stop):
            path = Path(tmp) / f"program{seed}.py"
            path.write_text(generate(seed))
            try:
                dse, composed = run_both(path, options)
                found = problems(path, dse, composed)
                dse_time += float(dse.stats["time_s"])  # type: ignore[arg-type]
                compose_time += float(composed.stats["time_s"])  # type: ignore[arg-type]
                dse_calls += int(dse.stats["solver_calls"])  # type: ignore[call-overload]
                compose_calls += int(composed.stats["solver_calls"])  # type: ignore[call-overload]
                summarized += len(composed.stats["summarized"])  # type: ignore[arg-type]
                replayed += int(composed.stats["sub_method_invocations"])  # type: ignore[call-overload]
                inline += int(composed.stats["inline_calls"])  # type: ignore[call-overload]
            except Exception:  # noqa: BLE001 - a crash is a finding
                found = ["crash: " + traceback.format_exc(limit=3)]
            if found:
                failing += 1
                print(f"seed {seed}: {'; '.join(found)[:2000]}", flush=True)
    print(
        f"{'compose_object_programs' if args.objects else 'compose_programs'} seeds {start}..{stop - 1}: {stop - start} programs, "
        f"{failing} failing; {summarized} functions summarized, {replayed} calls replayed, {inline} inline; "
        f"DSE {dse_calls} solver calls {dse_time:.1f}s, compose {compose_calls} solver calls {compose_time:.1f}s"
    )
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
