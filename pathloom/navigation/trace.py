"""Replay with a line trace: run inputs on the real code in CPython (a child process, as
``pathloom.replay``) and record, for each, the lines of the analysed function that ran and the
exceptions raised in it, so that a ``reachable`` verdict is one CPython confirmed.

The function is the source span ``[first, last]`` of its ``def`` (nested comprehensions are
inside it); a frame counts when its code is in the analysed file within that span. Request and
answer are JSON (no pickle, no eval).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

JSON = Any


@dataclass(frozen=True)
class Trace:
    outcome: str  # return | raise | timeout | error (of the call, as pathloom.replay observes it)
    lines: frozenset[int]
    raised: frozenset[tuple[str, int]]  # (exception type, line) raised in or through the function
    detail: str | None = None


def trace(filename: str, target: str, span: tuple[int, int], inputs: list[dict[str, JSON]], timeout_s: float = 5.0) -> list[Trace]:
    if not inputs:
        return []
    from pathloom.encoding.values import json_safe

    request = json.dumps({"file": os.path.abspath(filename), "target": target, "span": list(span), "inputs": json_safe(inputs), "timeout": timeout_s})
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2]) + os.pathsep + env.get("PYTHONPATH", "")
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pathloom.navigation.trace"],
            input=request,
            check=False,
            capture_output=True,
            text=True,
            timeout=timeout_s * len(inputs) + 30,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return [Trace("timeout", frozenset(), frozenset(), "replay process timed out")] * len(inputs)
    if proc.returncode != 0:
        detail = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
        return [Trace("error", frozenset(), frozenset(), detail)] * len(inputs)
    answers = json.loads(proc.stdout.strip().splitlines()[-1])
    return [Trace(a["outcome"], frozenset(a["lines"]), frozenset((e, ln) for e, ln in a["raised"]), a.get("detail")) for a in answers]


# ---------------------------------------------------------------- the child process


def _tracer(path: str, span: tuple[int, int], lines: set[int], raised: set[tuple[str, int]]) -> Callable[..., Any]:
    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            lines.add(frame.f_lineno)
        elif event == "exception":
            raised.add((arg[0].__name__, frame.f_lineno))
        return local

    def global_(frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        if os.path.abspath(code.co_filename) == path and span[0] <= code.co_firstlineno <= span[1]:
            return local
        return None

    return global_


def _child_main() -> None:
    from pathloom.replay import load, on_alarm, run_one

    request = json.loads(sys.stdin.read())
    path, span = request["file"], (request["span"][0], request["span"][1])
    signal.signal(signal.SIGALRM, on_alarm)
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # the analysed code's prints must not mix with the answer
    module = load(path)
    answers = []
    for inputs in request["inputs"]:
        lines: set[int] = set()
        raised: set[tuple[str, int]] = set()
        sys.settrace(_tracer(path, span, lines, raised))
        try:
            observed = run_one(module, path, request["target"], inputs, request["timeout"])
        finally:
            sys.settrace(None)
        answers.append({"outcome": observed["outcome"], "lines": sorted(lines), "raised": sorted(raised), "detail": observed.get("detail")})
    sys.stdout = real_stdout
    sys.stdout.write("\n" + json.dumps(answers) + "\n")


if __name__ == "__main__":
    _child_main()
