"""Independent checks of ``reach`` verdicts, in CPython: where a call raises, and whether any
input of a small bounded domain reaches a target (exhaustive DSE over the same domain is the
other cross-check, in the tests)."""

from __future__ import annotations

import importlib.util
import itertools
import json
import signal
import sys
import traceback
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from pathloom.cli import main


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"reach_subject_{abs(hash(str(path)))}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def raise_line(path: Path, function: str, inputs: dict[str, Any]) -> int | None:
    """The line of ``path`` where calling ``function(**inputs)`` raised (None: it returned)."""
    try:
        getattr(load(path), function)(**inputs)
    except Exception as exc:  # noqa: BLE001 - any exception of the subject is an observation
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
        return frames[-1].lineno if frames else None
    return None


def lines_run(path: Path, function: str, inputs: dict[str, Any]) -> set[int]:
    """The lines of ``path`` that ran during ``function(**inputs)``."""
    module = load(path)
    seen: set[int] = set()

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if Path(frame.f_code.co_filename) == path:
            if event == "line":
                seen.add(frame.f_lineno)
            return tracer
        return None

    sys.settrace(tracer)
    try:
        getattr(module, function)(**inputs)
    except Exception:  # noqa: BLE001,S110 - the lines run are the observation
        pass
    finally:
        sys.settrace(None)
    return seen


class _Overran(BaseException):
    pass


def _overran(signum: int, frame: Any) -> None:
    raise _Overran()


def reaching(path: Path, function: str, line: int, domain: Iterable[dict[str, Any]], limit_s: float = 2.0) -> list[dict[str, Any]]:
    """The inputs of ``domain`` whose call raises at ``line``; a call running longer than
    ``limit_s`` fails the check (the subjects are meant to end for every input)."""
    module = load(path)
    found = []
    previous = signal.signal(signal.SIGALRM, _overran)
    try:
        for inputs in domain:
            signal.setitimer(signal.ITIMER_REAL, limit_s)
            try:
                getattr(module, function)(**inputs)
            except _Overran:
                raise AssertionError(f"{function}({inputs}) ran longer than {limit_s}s") from None
            except Exception as exc:  # noqa: BLE001
                frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
                if frames and frames[-1].lineno == line:
                    found.append(inputs)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)
    return found


def int_grid(names: list[str], low: int, high: int) -> Iterable[dict[str, int]]:
    for values in itertools.product(range(low, high), repeat=len(names)):
        yield dict(zip(names, values))


def reach_json(tmp_path: Path, source: str, function: str, *args: str, name: str = "subject.py") -> tuple[int, dict[str, Any], Path]:
    """``pathloom reach FILE::function ARGS --json`` on ``source``: (exit code, JSON, file)."""
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    out = tmp_path / f"{function}.json"
    code = main(["reach", f"{path}::{function}", *args, "--json", str(out)])
    return code, json.loads(out.read_text()), path
