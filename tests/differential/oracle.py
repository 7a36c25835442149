"""Run a generated program in CPython and record what happened, in a comparable form.

``run_in_cpython(program, inputs)`` returns an :class:`Observed` whose
``(outcome, exception, line, returned)`` tuple is what a differential test compares
against pathloom's prediction for the path those inputs take:

* ``outcome``   -- "return" | "raise" | "timeout"
* ``exception`` -- exception type name (``"ZeroDivisionError"``), None unless "raise"
* ``line``      -- 1-based line, in the generated module, of the innermost traceback
                   frame that belongs to the module (None unless "raise")
* ``returned``  -- JSON-compatible return value (None unless "return"):
                   int/bool/str/None/float as is, list -> list, tuple -> {"$tuple": [...]},
                   an instance as ``encoding.values.encode_python`` writes it (``$object``)

Inputs of a program with input objects (``progen_heap``) are JSON object graphs
(``{"$object": "Node", "$id": 1, ...}``, ``{"$ref": 1}``), and a ``Callable`` input
(``progen_breadth``) is a lookup table (``{"$table": [[k, v], ...], "default": d}``): they
are rebuilt with ``encoding.values.decode_inputs`` in the fresh module, as pathloom's replay
does.

Use :meth:`Observed.matches` (or compare :meth:`Observed.key`) rather than ``==`` on
``returned`` when bool-vs-int matters: in Python ``True == 1``.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import signal
import sys
import threading
import time
import types
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:  # avoid importing progen at runtime (it may be imported under two names)
    from .progen import GeneratedProgram

__all__ = ["GENERATED_FILENAME", "Observed", "run_in_cpython", "run_source", "to_json_value"]

GENERATED_FILENAME = "<pathloom-generated>"
_SERIAL = itertools.count()


@dataclass(frozen=True)
class Observed:
    outcome: str  # "return" | "raise" | "timeout"
    exception: str | None = None
    line: int | None = None
    returned: Any = None
    # diagnostics only (exception message, timeout note); not part of equality. Named like
    # pathloom.replay.Observed.detail so pathloom.replay.mismatch() accepts this class too.
    detail: str | None = field(default=None, compare=False)

    def as_tuple(self) -> tuple[str, str | None, int | None, Any]:
        return (self.outcome, self.exception, self.line, self.returned)

    def key(self) -> tuple[str, str | None, int | None, str]:
        """Hashable, type-exact form (``True`` and ``1`` differ): compare keys."""
        return (self.outcome, self.exception, self.line, _canonical(self.returned))

    def matches(
        self,
        outcome: str,
        exception: str | None = None,
        line: int | None = None,
        returned: Any = None,
        *,
        check_line: bool = True,
        check_returned: bool = True,
    ) -> bool:
        """Type-exact comparison with a predicted ``(outcome, exception, line, returned)``.

        ``returned`` may be given as a raw Python value or already JSON-converted.
        """
        if outcome != self.outcome or exception != self.exception:
            return False
        if check_line and line != self.line:
            return False
        if check_returned and _canonical(to_json_value(returned)) != _canonical(self.returned):
            return False
        return True

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "exception": self.exception,
            "line": self.line,
            "returned": self.returned,
            "detail": self.detail,
        }


def to_json_value(value: Any) -> Any:
    """int/bool/str/None/float as is; list -> list; tuple -> {"$tuple": [...]}."""
    if value is None or isinstance(value, (bool, int, str, float)):
        return value
    if isinstance(value, list):
        return [to_json_value(v) for v in value]
    if isinstance(value, tuple):
        return {"$tuple": [to_json_value(v) for v in value]}
    if isinstance(value, dict):
        if len(value) == 1 and "$tuple" in value:  # already converted
            return {"$tuple": [to_json_value(v) for v in value["$tuple"]]}
        return {str(k): to_json_value(v) for k, v in value.items()}
    from pathloom.encoding.values import encode_python

    return encode_python(value)  # an instance: fields, shared and cyclic references


def _canonical(value: Any) -> str:
    def fix(v: Any) -> Any:  # NaN != NaN; make it comparable
        if isinstance(v, float) and math.isnan(v):
            return {"$float": "nan"}
        if isinstance(v, list):
            return [fix(x) for x in v]
        if isinstance(v, dict):
            return {k: fix(x) for k, x in v.items()}
        return v

    # default=str: ints beyond the JSON-safe range are fine; anything odd becomes text
    return json.dumps(fix(value), sort_keys=True, default=str)


class _OracleTimeout(BaseException):
    """Raised from the SIGALRM handler; BaseException so `except Exception` won't eat it."""


def _innermost_line(exc: BaseException, filename: str) -> int | None:
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _can_use_alarm() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def run_source(
    source: str,
    entry: str,
    args: list[Any] | Callable[[dict[str, Any]], list[Any]],
    timeout_s: float = 2.0,
    filename: str = GENERATED_FILENAME,
) -> Observed:
    """Exec ``source`` as a fresh module and call ``entry(*args)`` under a time limit
    (``args`` may be a function of the module's namespace: arguments built from its classes).

    The module is compiled without this file's ``__future__`` flags (with them, annotations
    would be strings, which changes what ``@dataclass`` does) and is in ``sys.modules``
    while it runs, as an imported module is.
    """
    # a SyntaxError here is a generator bug: let it out
    code = compile(source, filename, "exec", dont_inherit=True)
    module = types.ModuleType(f"pathloom_generated_{next(_SERIAL)}")
    namespace: dict[str, Any] = module.__dict__
    namespace["__builtins__"] = __builtins__
    sys.modules[module.__name__] = module

    result: Observed | None = None
    use_alarm = _can_use_alarm()
    old_handler = None
    old_trace = None
    if use_alarm:

        def on_alarm(signum, frame):
            raise _OracleTimeout()

        old_handler = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout_s)
    else:  # not on the main thread: poll a deadline from a line tracer
        deadline = time.monotonic() + timeout_s

        def tracer(frame, event, arg):
            if time.monotonic() > deadline:
                raise _OracleTimeout()
            return tracer

        old_trace = sys.gettrace()
        sys.settrace(tracer)
    try:
        try:
            exec(code, namespace)
            values = args(namespace) if callable(args) else args
            value = namespace[entry](*values)
            result = Observed("return", returned=to_json_value(value))
        except _OracleTimeout:
            raise
        except Exception as exc:  # noqa: BLE001 - the program's own exception
            result = Observed(
                "raise",
                exception=type(exc).__name__,
                line=_innermost_line(exc, filename),
                detail=str(exc),
            )
        finally:
            if use_alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
            else:
                sys.settrace(old_trace)
    except _OracleTimeout:
        if result is None:  # (the alarm may fire just after the call finished)
            result = Observed("timeout", detail=f"no result within {timeout_s}s")
    finally:
        if use_alarm:
            signal.signal(signal.SIGALRM, old_handler)
        sys.modules.pop(module.__name__, None)
    assert result is not None
    return result


def run_in_cpython(program: "GeneratedProgram", inputs: Mapping[str, Any], timeout_s: float = 2.0) -> Observed:
    """Run ``program.entry`` on ``inputs`` (keyed by param name) in this interpreter.

    Inputs are deep-copied first, so list arguments the program mutates do not change
    the caller's values; ``{"$same": name}`` is the same list object as the argument of the
    earlier parameter ``name``. Arguments are passed positionally in ``program.params`` order.
    """
    missing = [name for name, _ in program.params if name not in inputs]
    if missing:
        raise KeyError(f"missing inputs for {missing}")
    if _has_objects(inputs):
        ordered = {name: inputs[name] for name, _ in program.params}

        def build(namespace: dict[str, Any]) -> list[Any]:
            from pathloom.encoding.values import decode_inputs

            return list(decode_inputs(ordered, namespace).values())

        return run_source(program.source, program.entry, build, timeout_s=timeout_s)
    copied: dict[str, Any] = {}
    for name, _ in program.params:  # {"$same": "xs"}: the very list given for xs (aliasing)
        value = inputs[name]
        copied[name] = copied[value["$same"]] if isinstance(value, dict) and "$same" in value else copy.deepcopy(value)
    args = [copied[name] for name, _ in program.params]
    return run_source(program.source, program.entry, args, timeout_s=timeout_s)


def _has_objects(value: Any) -> bool:
    """Inputs ``decode_inputs`` rebuilds: input objects, ``Callable`` inputs (a
    ``{"$table": ..., "default": d}`` lookup table, passed as pathloom's lambda), Enum members
    (``$enum``) and objects built by their constructor (``$new``: a frozen dataclass)."""
    if isinstance(value, dict):
        return "$object" in value or "$table" in value or "$enum" in value or "$new" in value or any(_has_objects(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_objects(v) for v in value)
    return False
