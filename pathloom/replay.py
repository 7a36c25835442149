"""The replay check: run reported inputs on the real code in CPython and compare outcomes.

The inputs run in a child process (``python -m pathloom.replay``) with a time limit per call,
so user code can neither hang nor corrupt the analyzer. The request and the answer are JSON
(no pickle, no eval). An observation is the outcome (``return``, ``raise``, ``timeout``,
``error``), the exception type, the line of the innermost traceback frame in the target file,
and the returned value encoded by ``encoding.values.encode_python``. A reported path whose
prediction differs from the observation is an engine bug.
"""

from __future__ import annotations

import inspect
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pathloom.encoding.values import decode_inputs, encode_python, json_safe, long_int
from pathloom.frontend.contracts import enforce
from pathloom.results import Bug, Exploration, PathResult

JSON = Any

REPLAY_TIMEOUT_S = 5.0  # per input: past it, CPython's answer is a timeout
MIN_CALL_S = 0.05  # a call given less of a replay's budget than this is not run
NOT_RUN = "not run: the replay's time budget was spent"


@dataclass(frozen=True)
class Observed:
    outcome: str  # return | raise | timeout | error
    exception: str | None = None
    line: int | None = None
    returned: JSON = None
    detail: str | None = None
    message: str | None = None  # str() of the exception raised
    arcs: list[list[int]] | None = None  # (line, next line) pairs run in the target's file, when asked
    trace: list[int] | None = None  # the lines run in the target's file, in order (the first MAX_TRACE), when asked
    chain: list[list[Any]] | None = None  # a raise outside the target's file: [file, line, function] from the target's call down to the raise


def replay(
    filename: str,
    target: str,
    inputs: list[dict[str, JSON]],
    timeout_s: float = REPLAY_TIMEOUT_S,
    module_globals: dict[str, JSON] | None = None,
    arcs: bool = False,
    budget_s: float | None = None,
    hash_seed: str | None = None,
    trace: bool = False,
) -> list[Observed]:
    """Run each of ``inputs`` on ``target``, each call after the module-level names of
    ``module_globals`` (the ones the code rebinds with ``global``) are set to their values;
    ``arcs``: also record the arcs each call ran in the target's file (``Observed.arcs``);
    ``budget_s``: the calls together get at most that long (from the child's start), each
    at most ``timeout_s``; the inputs left when it is spent are not run (``Observed("timeout",
    detail=NOT_RUN)``); ``hash_seed``: the child's ``PYTHONHASHSEED`` (else the caller's
    environment decides); ``trace``: also record the lines each call ran in the target's file,
    in order (``Observed.trace``)."""
    if not inputs:
        return []
    request = json.dumps(
        {
            "file": os.path.abspath(filename),
            "target": target,
            "inputs": json_safe(inputs),
            "timeout": timeout_s,
            "globals": json_safe(module_globals or {}),
            "arcs": arcs,
            "trace": trace,
            "budget": budget_s,
        }
    )
    env = dict(os.environ)
    package_root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = package_root + os.pathsep + env.get("PYTHONPATH", "")
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = hash_seed
    total = (timeout_s * len(inputs) if budget_s is None else budget_s) + 30  # + the child's start-up
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pathloom.replay"],
            input=request,
            capture_output=True,
            text=True,
            timeout=total,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return [Observed("timeout", detail="replay process timed out")] * len(inputs)
    if proc.returncode != 0:
        detail = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
        return [Observed("error", detail=detail)] * len(inputs)
    answers = json.loads(proc.stdout.strip().splitlines()[-1])
    return [Observed(**a) for a in answers]


def _as_number(value: JSON) -> JSON:
    """A non-finite float written as ``{"$float": "inf"}`` and a long int written as
    ``{"$int": "0x..."}`` (``encoding.values``) as the number."""
    if isinstance(value, dict) and value.keys() == {"$float"} and isinstance(value["$float"], str):
        return float(value["$float"])
    found = long_int(value)
    return value if found is None else found


def json_equal(a: JSON, b: JSON) -> bool:
    """Equality that keeps bool, int and float apart (``True == 1`` is not a match); floats
    match when both are NaN or they are equal with the same sign (``-0.0`` is not ``0.0``:
    CPython tells them apart, ``1 / x``, and the JSON text keeps the sign)."""
    a, b = _as_number(a), _as_number(b)
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (a == b and math.copysign(1.0, a) == math.copysign(1.0, b)) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def mismatch(path: PathResult, observed: Observed) -> str | None:
    """Why ``observed`` contradicts the prediction of ``path`` (None when they agree)."""
    if path.outcome == "return":
        if observed.outcome != "return":
            return f"predicted return {shown(path.returned)}, CPython {_describe(observed)}"
        if not json_equal(path.returned, observed.returned):
            return f"predicted return {shown(path.returned)}, CPython returned {shown(observed.returned)}"
        return None
    if path.outcome == "raise":
        return raise_mismatch(path.exception, path.line, path.kind, path.message, observed)
    return None


def raise_mismatch(exception: str | None, line: int | None, kind: str | None, message: str | None, observed: Observed) -> str | None:
    """Why ``observed`` contradicts a predicted raise of ``exception`` at ``line`` (the message
    too for an implicit exception, when CPython's is the same in every run)."""
    if observed.outcome != "raise" or observed.exception != exception or observed.line != line:
        return f"predicted {exception} at line {line}, CPython {_describe(observed)}"
    if kind == "implicit" and deterministic_message(observed.message) and portable_message(message) != observed.message:
        return f"predicted {exception}: {message!r}, CPython's message is {observed.message!r}"
    return None


SHOWN_CHARS = 300  # of a value in a mismatch message


def shown(value: JSON) -> str:
    """A JSON value for a one-line message: an int past CPython's 4,300 decimal digits in hex
    (``repr`` of it raises), and at most ``SHOWN_CHARS`` characters."""
    text = repr(json_safe(value))
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


MAIN_FILE = "<__main__ file>"


def portable_message(message: str | None) -> str | None:
    """``message`` with the running interpreter's ``__main__`` file named ``MAIN_FILE``
    (``cannot import name 'G' from '__main__' (/path)``): the analysis, the replay and the
    user's own run each have another ``__main__``, so only the rest of the text is compared."""
    if message is None:
        return None
    main_file = getattr(sys.modules.get("__main__"), "__file__", None)
    if isinstance(main_file, str):
        for name in {main_file, os.path.abspath(main_file), os.path.realpath(main_file)}:
            message = message.replace(name, MAIN_FILE)
    # an import from a __main__ without a file (an embedded interpreter, a pytest-xdist worker)
    return message.replace("from '__main__' (unknown location)", f"from '__main__' ({MAIN_FILE})")


def deterministic_message(message: str | None) -> bool:
    """A message that is the same in every run (no memory address in it)."""
    return message is not None and re.search(r"0x[0-9a-fA-F]{4,}", message) is None


def _describe(observed: Observed) -> str:
    if observed.outcome == "return":
        return f"returned {shown(observed.returned)}"
    if observed.outcome == "raise":
        return f"raised {observed.exception} at line {observed.line}"
    return f"{observed.outcome} ({observed.detail})"


def verify(exploration: Exploration, filename: str, target: str, timeout_s: float = REPLAY_TIMEOUT_S) -> list[tuple[PathResult, str]]:
    """Replay every finished path; return the mismatches."""
    checked = [p for p in exploration.paths if p.outcome in ("return", "raise") and p.inputs is not None]
    observed = replay(filename, target, [p.inputs for p in checked], timeout_s, exploration.module_globals)  # type: ignore[misc]
    problems = []
    for path, obs in zip(checked, observed):
        why = mismatch(path, obs)
        if why is not None:
            problems.append((path, why))
    return problems


MAX_OBSERVED = 100  # cut paths per target whose inputs are run for a test (observe_for_tests)


def observe_for_tests(exploration: Exploration, filename: str, target: str, timeout_s: float = REPLAY_TIMEOUT_S, cut_budget_s: float | None = None) -> int:
    """Run in CPython, recording the arcs each run covers in the target's file
    (``exploration.arcs``, by path index), the inputs of the finished paths and of the cut
    paths (the first ``MAX_OBSERVED`` of those, within ``cut_budget_s`` together: a path cut by
    the timeout may loop forever, and each would take ``timeout_s``); keep, in
    ``exploration.observed``, each cut path's that returned or raised: a path a bound, a
    timeout or an unsupported construct stopped still has an input, and what CPython does on
    it is a test (pathloom predicts nothing there, so nothing is compared). Returns how many
    cut paths were kept."""
    runnable = [(i, p) for i, p in enumerate(exploration.paths) if p.inputs is not None and p.outcome in ("return", "raise", "cut")]
    finished = [(i, p) for i, p in runnable if p.outcome != "cut"]
    cut = [(i, p) for i, p in runnable if p.outcome == "cut"][:MAX_OBSERVED]
    observed = replay(filename, target, [p.inputs for _, p in finished], timeout_s, exploration.module_globals, arcs=True, hash_seed=OBSERVED_SALT)  # type: ignore[misc]
    if cut and (cut_budget_s is None or cut_budget_s > MIN_CALL_S):
        inputs = [p.inputs for _, p in cut]
        observed += replay(filename, target, inputs, timeout_s, exploration.module_globals, arcs=True, budget_s=cut_budget_s, hash_seed=OBSERVED_SALT)  # type: ignore[arg-type]
    for (index, path), obs in zip(finished + cut, observed):
        if obs.arcs is not None:
            exploration.arcs[index] = frozenset((a, b) for a, b in obs.arcs)
        if path.outcome == "cut" and obs.outcome in ("return", "raise"):
            exploration.observed[index] = {
                "outcome": obs.outcome,
                "exception": obs.exception,
                "line": obs.line,
                "returned": obs.returned,
                "message": obs.message,
            }
    return len(exploration.observed)


OBSERVED_SALT = "0"  # the str hash salt of the runs whose answers tests assert: the same answers on every run
# The salts such an answer is checked under (drop_hash_dependent). Two strs in a set come out
# in either order with odds near one half under a salt, so an order that follows the salt
# escapes all 24 with odds near 2**-24; eight salts (1/256) once let a flaky test through.
HASH_SEEDS = tuple(str(salt) for salt in range(1, 25))
SALT_WORKERS = 4  # child processes run at once: each is mostly start-up (about 0.06 s) and waiting
MIN_SALT_S = 0.5  # each salt's run gets at least this long (the child's start-up and imports included)


def same_answer(answer: dict[str, JSON], observed: Observed) -> bool:
    """Whether ``observed`` is the recorded ``answer`` (``outcome``, ``returned`` or
    ``exception`` and ``line``) of an earlier run of the same input."""
    if observed.outcome != answer["outcome"]:
        return False
    if answer["outcome"] == "return":
        return json_equal(answer.get("returned"), observed.returned)
    return bool(answer.get("exception") == observed.exception and answer.get("line") == observed.line)


def drop_hash_dependent(exploration: Exploration, filename: str, target: str, budget_s: float | None = None) -> int:
    """Run again, in a child process under each of ``HASH_SEEDS`` (``PYTHONHASHSEED``, the
    salt of str and bytes hashes), each input whose test would assert what CPython did rather
    than what pathloom predicted (``exploration.observed``, ``exploration.searched``), and
    leave out of both the ones whose answer changes: a generated test runs under a random
    salt, so an answer that follows it (a set of strs iterated, ``set.pop``) is no test. An
    input the budget (``budget_s``, for all the runs together) left unrun stays. Returns how
    many were left out (``exploration.hash_dependent``)."""
    indices = sorted(exploration.observed)
    inputs = [exploration.paths[i].inputs or {} for i in indices] + [found["inputs"] for found in exploration.searched]
    answers = [exploration.observed[i] for i in indices] + list(exploration.searched)
    if not inputs:
        return 0
    stable = [True] * len(inputs)
    share = None if budget_s is None else max(budget_s * SALT_WORKERS / len(HASH_SEEDS), MIN_SALT_S)

    def run(seed: str) -> list[Observed]:
        return replay(filename, target, inputs, module_globals=exploration.module_globals, budget_s=share, hash_seed=seed)

    with ThreadPoolExecutor(max_workers=SALT_WORKERS) as pool:
        for observed in pool.map(run, HASH_SEEDS):
            for k, (answer, obs) in enumerate(zip(answers, observed)):
                if obs.detail != NOT_RUN and not same_answer(answer, obs):
                    stable[k] = False
    for i, keep in zip(indices, stable):
        if not keep:
            del exploration.observed[i]
    exploration.searched = [found for found, keep in zip(exploration.searched, stable[len(indices) :]) if keep]
    dropped = stable.count(False)
    exploration.hash_dependent += dropped
    return dropped


def trace_bugs(exploration: Exploration, filename: str, target: str, timeout_s: float = REPLAY_TIMEOUT_S) -> None:
    """Run the input of each distinct bug in CPython, recording the lines it runs in the
    target's file in order (``Bug.trace``: the bug's path, for SARIF's code flow), where CPython
    raises the bug's exception at the bug's line; the other bugs keep no trace."""
    bugs = [b for b in exploration.distinct_bugs if b.inputs is not None]
    if not bugs:
        return
    observed = replay(filename, target, [b.inputs for b in bugs], timeout_s, exploration.module_globals, trace=True)  # type: ignore[misc]
    for bug, obs in zip(bugs, observed):
        if obs.outcome == "raise" and obs.exception == bug.exception and obs.line == bug.line:
            bug.trace = tuple(obs.trace) if obs.trace else bug.trace
            _record_chain(bug, obs)


def confirm_bugs(exploration: Exploration, filename: str, target: str, timeout_s: float = REPLAY_TIMEOUT_S) -> tuple[list[tuple[Bug, str]], list[Bug]]:
    """Replay the input of each distinct bug of ``exploration`` in CPython: (the bugs CPython
    contradicts, each with why; the bugs it gave no answer for within ``timeout_s``)."""
    bugs = [b for b in exploration.distinct_bugs if b.inputs is not None]
    if not bugs:
        return [], []
    observed = replay(filename, target, [b.inputs for b in bugs], timeout_s, exploration.module_globals)  # type: ignore[misc]
    contradicted, unanswered = [], []
    for bug, obs in zip(bugs, observed):
        if obs.outcome == "timeout":
            unanswered.append(bug)
            continue
        why = raise_mismatch(bug.exception, bug.line, bug.kind, bug.message, obs)
        if why is not None:
            contradicted.append((bug, why))
        else:
            _record_chain(bug, obs)
    return contradicted, unanswered


def _record_chain(bug: Bug, observed: Observed) -> None:
    """``bug.chain``: where CPython raised it, outside the target's file, and the calls there."""
    if observed.chain:
        bug.chain = tuple((str(f), int(n), str(name)) for f, n, name in observed.chain)


# ---------------------------------------------------------------- the child process


def load(path: str) -> Any:
    """The module as the analyser imported it: by its package path inside a package (so its
    relative imports work), else under a name unique to its path."""
    from pathloom.frontend.realmodule import import_real

    return import_real(path, keep_path=True, analyser=False)  # it runs the user's code, no analysis


class _Timeout(BaseException):
    pass


def on_alarm(signum: int, frame: Any) -> None:
    raise _Timeout()


def _consumed(function: Any, args: dict[str, Any]) -> Any:
    """``function(**args)``; for a generator function, ``list()`` of it: pathloom's outcome
    of a generator target is what consuming it whole gives (its items, or what it raised)."""
    value = call_with(function, args)
    return list(value) if inspect.isgeneratorfunction(function) else value


def call_with(function: Any, args: dict[str, Any]) -> Any:
    """``function(**args)``, but its positional-only parameters passed by position, in order
    (the inputs name every parameter); one that is no input (no annotation, a default: the
    analysis took the default) passes its default, so that the later ones keep their places."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # no signature: every input by keyword
        return function(**args)
    rest = dict(args)
    positional = []
    for p in parameters:
        if p.kind is not inspect.Parameter.POSITIONAL_ONLY or (p.name not in rest and p.default is inspect.Parameter.empty):
            break
        positional.append(rest.pop(p.name) if p.name in rest else p.default)
    return function(*positional, **rest)


MAX_TRACE = 500  # lines of a call's trace kept (``Observed.trace``)


class ArcRecorder:
    """Records the arcs run in one file, as coverage.py names them: ``(line, next line)``
    within a frame, ``(-first line, line)`` on entering a code object and ``(line, -first
    line)`` on leaving it (a return, a raise out of it, a generator's yield); and the lines
    run, in order (the first ``MAX_TRACE``)."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.arcs: set[tuple[int, int]] = set()
        self.lines: list[int] = []
        self._last: dict[int, int] = {}  # frame id -> last line run

    def __enter__(self) -> ArcRecorder:
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.settrace(None)

    def _global(self, frame: Any, event: str, arg: Any) -> Any:
        if event != "call" or frame.f_code.co_filename != self.filename:
            return None
        self._last[id(frame)] = -frame.f_code.co_firstlineno
        return self._local

    def _local(self, frame: Any, event: str, arg: Any) -> Any:
        key = id(frame)
        if event == "line":
            self.arcs.add((self._last.get(key, -frame.f_code.co_firstlineno), frame.f_lineno))
            self._last[key] = frame.f_lineno
            if len(self.lines) < MAX_TRACE:
                self.lines.append(frame.f_lineno)
        elif event == "return":
            self.arcs.add((self._last.pop(key, frame.f_lineno), -frame.f_code.co_firstlineno))
        return self._local


def run_one(
    module: Any,
    path: str,
    target: str,
    inputs: dict[str, JSON],
    timeout: float,
    module_globals: dict[str, JSON] | None = None,
    arcs: bool = False,
    trace: bool = False,
) -> dict[str, JSON]:
    """The observation of one call (``Observed``'s fields); ``arcs``: with the arcs it ran in
    ``path``; ``trace``: with the lines it ran there, in order."""
    if not arcs and not trace:
        return _run_one(module, path, target, inputs, timeout, module_globals)
    recorder = ArcRecorder(getattr(module, "__file__", None) or path)
    with recorder:
        answer = _run_one(module, path, target, inputs, timeout, module_globals)
    if arcs:
        answer["arcs"] = sorted([a, b] for a, b in recorder.arcs)
    if trace:
        answer["trace"] = recorder.lines
    return answer


def _run_one(module: Any, path: str, target: str, inputs: dict[str, JSON], timeout: float, module_globals: dict[str, JSON] | None) -> dict[str, JSON]:
    namespace = vars(module)
    namespace.update(decode_inputs(module_globals or {}, namespace))  # the values every path starts from
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        args = decode_inputs(inputs, namespace)
        if target.endswith(".__init__"):
            value = getattr(module, target.split(".")[0])(**args)
        elif "." in target and "self" not in args:  # a static or class method: called on the class
            cls_name, method = target.split(".", 1)
            value = _consumed(getattr(getattr(module, cls_name), method), args)
        elif "." in target:
            cls_name, method = target.split(".", 1)
            self_obj = args.pop("self")
            if isinstance(inspect.getattr_static(type(self_obj), method, None), property):
                value = getattr(self_obj, method)  # a property target: read
            else:
                value = _consumed(getattr(self_obj, method), args)
        else:
            value = _consumed(getattr(module, target), args)
        signal.setitimer(signal.ITIMER_REAL, 0)
        return {"outcome": "return", "returned": encode_python(value)}
    except _Timeout:
        return {"outcome": "timeout", "detail": f"no answer within {timeout}s"}
    except BaseException as exc:  # noqa: BLE001 - user code may raise anything
        signal.setitimer(signal.ITIMER_REAL, 0)
        frames = traceback.extract_tb(exc.__traceback__)
        line = None
        for frame in frames:
            if os.path.abspath(frame.filename) == path:
                line = frame.lineno
        try:
            message: str | None = portable_message(str(exc))
        except Exception:  # noqa: BLE001 - a broken __str__
            message = None
        return {"outcome": "raise", "exception": type(exc).__name__, "line": line, "message": message, "chain": _chain(frames, path)}


def _chain(frames: traceback.StackSummary, path: str) -> list[list[Any]] | None:
    """For an exception raised outside the target's file ``path``: the frames from the target's
    call down to the innermost frame of the user's code (not the standard library's nor an
    installed package's), each ``[file, line, function]``; None when it is raised in ``path``."""
    own = [f for f in frames if not _library_file(f.filename)]
    start = next((i for i, f in enumerate(own) if os.path.abspath(f.filename) == path), None)
    if start is None or os.path.abspath(own[-1].filename) == path:
        return None
    return [[os.path.abspath(f.filename), f.lineno, f.name] for f in own[start:]]


def _library_file(filename: str) -> bool:
    """Code of the standard library, an installed package, pathloom or a frozen module."""
    real = os.path.abspath(filename)
    return (
        filename.startswith("<")
        or "site-packages" in real
        or real.startswith(os.path.dirname(os.__file__))
        or real.startswith(str(Path(__file__).resolve().parent))
    )


def _child_main() -> None:
    started = time.monotonic()
    request = json.loads(sys.stdin.read())
    path = request["file"]
    signal.signal(signal.SIGALRM, on_alarm)
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # the analyzed code's prints must not mix with the answer
    module = load(path)
    enforce(module, path)  # contracts checked as the engines check them (frontend.contracts)
    arcs, trace = bool(request.get("arcs")), bool(request.get("trace"))
    end = None if request.get("budget") is None else started + float(request["budget"])
    answers = []
    for inputs in request["inputs"]:
        left = math.inf if end is None else end - time.monotonic()
        if left < MIN_CALL_S:
            answers.append({"outcome": "timeout", "detail": NOT_RUN})
            continue
        answers.append(run_one(module, path, request["target"], inputs, min(float(request["timeout"]), left), request.get("globals"), arcs, trace))
    sys.stdout = real_stdout
    sys.stdout.write("\n" + json.dumps(json_safe(answers)) + "\n")


if __name__ == "__main__":
    _child_main()
