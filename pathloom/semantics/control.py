"""How control moves, written once for every engine: where a raised exception is reported and
of which kind, which block handles it, how loop iterations are counted and when the loop and
call-depth bounds cut a path, and when a call is a certain infinite recursion.

Engines keep their own representation of frames (one list of frames per path; frame
locations of a merged state) and ask these functions what to do: ``call_decision`` says what a
call does before its callee runs (enter it, raise RecursionError, or cut the path at the depth
bound), ``raise_decision`` where a raised exception goes (the exception, line and kind as the
program sees them, and the handler that catches it or none: the path ends), ``stop_reason``
whether the main loop stops; each engine applies the decision to its own frames. The texts
and kinds of the bound reasons live here so that every engine reports the same cut.

Invariants: a re-raise (``raise`` without a value, or ``raise e`` of the exception being
handled) keeps the line of the original raise; a bare re-raise keeps its kind, ``raise e``
is explicit. The line of a raise is a line of the target file: an exception raised in a
function of a linked module is reported at the line of the innermost target-file frame (the
call into it), as the innermost traceback frame in the target file shows. Loop counts are per frame: a back edge adds one to its loop header's count,
entering a loop from outside resets it, and only the loops enclosing the target block are
kept. A path is cut by the loop bound only at a decision with more than one feasible side, and
a ``for`` loop over a sequence of known length (``sequences.items_left``) only past its end.
"""

from __future__ import annotations

import builtins
import itertools
import os
import sys
import time
from dataclasses import dataclass
from pathlib import PurePath
from typing import Callable, Iterable, Mapping, Sequence

from pathloom import cuts, interrupt
from pathloom.cuts import CutCause, CutReason
from pathloom.errors import Unsupported
from pathloom.frontend import ir
from pathloom.domain.outcome import RuntimeUnsupported
from pathloom.domain.values import ExcVal, Message, Ref
from pathloom.terms.expr import Term

HandledInfo = tuple[ExcVal, int, str]  # the exception being handled, its line and kind

RECURSION_ERROR = ExcVal("RecursionError", ("maximum recursion depth exceeded",))


def raise_origin(exc: ExcVal, handled: HandledInfo | None, term: ir.Raise) -> tuple[int, str]:
    """(line, kind) of the exception a ``Raise`` terminator raises."""
    if handled is not None and exc == handled[0]:
        return handled[1], handled[2] if term.value is None else "explicit"
    return term.loc.line, term.kind


def line_in_target_file(functions: Sequence[ir.Function], line: int, current_line: Callable[[int], int | None]) -> int:
    """The reported line of an exception raised at ``line`` in the innermost of the frames
    running ``functions`` (outermost first); ``current_line(i)`` is the line frame ``i`` runs."""
    if not functions or functions[-1].foreign_file is None:
        return line
    for i in range(len(functions) - 2, -1, -1):
        if functions[i].foreign_file is None:
            return current_line(i) or line
    return line


GENERATOR_STOP = ExcVal("RuntimeError", ("generator raised StopIteration",))


def leaving_generators(
    functions: Sequence[ir.Function], handler_depth: int, exc: ExcVal, line: int, kind: str, current_line: Callable[[int], int | None]
) -> tuple[ExcVal, int, str]:
    """The exception that reaches the handler in frame ``handler_depth`` (-1: none) when
    ``exc`` is raised in the innermost of the frames running ``functions``: a StopIteration
    leaving a generator's frame becomes ``RuntimeError('generator raised StopIteration')``
    (PEP 479), raised where the generator was resumed (the line its consumer runs; None for
    the explored generator itself, whose consumer is outside the file)."""
    if exc.cls != "StopIteration":
        return exc, line, kind
    for i in range(len(functions) - 1, handler_depth, -1):
        if functions[i].generator:
            if i == 0:  # the explored generator itself: its consumer (list(), the replay's) is no line of the file
                return GENERATOR_STOP, None, "implicit"  # type: ignore[return-value]
            consumer = current_line(i - 1)
            return GENERATOR_STOP, line_in_target_file(functions[:i], consumer if consumer is not None else line, current_line), "implicit"
    return exc, line, kind


def concretization_site(function: ir.Function, line: int | None, operation: str) -> str:
    """The key under which an operation run in CPython is counted: ``line N: op``, with the
    file's name first for a function of a linked module."""
    where = f"line {line}" if function.foreign_file is None else f"{PurePath(function.foreign_file).name} line {line}"
    return f"{where}: {operation}"


def exception_message(exc: ExcVal, model: Mapping[str, object]) -> str | None:
    """What ``str(exception)`` gives in CPython, for the path's model: a builtin exception
    class formats its arguments itself (``KeyError('')`` shows ``''``), other classes as
    ``BaseException.__str__`` does (one argument: its str; several: the tuple); a ``Message``
    is formatted with its values. None when an argument is not a plain value."""
    from pathloom.terms.evaluate import evaluate

    if exc.text is not None:
        return exc.text
    memo: dict[Term, object] = {}

    def value(v: object) -> object:
        if isinstance(v, Term):
            return evaluate(v, model, memo)  # type: ignore[arg-type]
        if isinstance(v, Message):
            return v.template.format(*(value(x) for x in v.values))
        if isinstance(v, tuple):
            return tuple(value(x) for x in v)
        return v

    args = tuple(value(a) for a in exc.args)
    if not all(a is None or isinstance(a, (bool, int, float, str, tuple)) for a in args):
        return None
    cls = getattr(builtins, exc.cls, None)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        cls = BaseException  # an exception class of the code: BaseException.__str__
    return str(cls(*args))


@dataclass(frozen=True)
class RaiseDecision:
    """Where a raise goes: ``exc``, ``line`` and ``kind`` as the program sees them, and
    ``handler``, the (frame index, handler label) that catches it, or None: the path ends
    raising it."""

    exc: ExcVal
    line: int
    kind: str
    handler: tuple[int, int] | None


def raise_decision(
    functions: Sequence[ir.Function], labels: Sequence[int], exc: ExcVal, line: int, kind: str, current_line: Callable[[int], int | None]
) -> RaiseDecision:
    """Where ``exc``, raised at ``line`` in the innermost of the frames running ``functions``
    (outermost first, each at block ``labels[i]``), goes: its line in the target file, the
    handler of the innermost frame whose block has one, and the exception that reaches it
    (PEP 479 on the way out of a generator). ``current_line(i)`` is the line frame ``i`` runs."""
    line = line_in_target_file(functions, line, current_line)
    found = handler_depth(f.blocks[label] for f, label in zip(functions, labels))
    exc, line, kind = leaving_generators(functions, found[0] if found else -1, exc, line, kind, current_line)
    return RaiseDecision(exc, line, kind, found)


def call_decision(repeats_caller: bool, frames: int, max_depth: int) -> ExcVal | CutCause | None:
    """What a call from ``frames`` active frames does before its callee runs: raise
    ``RECURSION_ERROR`` at the call when it certainly repeats its caller forever
    (``repeats_its_caller``), else cut the path when it goes past the call-depth bound (the
    cause), else None: enter the callee."""
    if repeats_caller:
        return RECURSION_ERROR
    if depth_exceeded(frames, max_depth):
        return depth_cut_reason(max_depth)
    return None


def handler_depth(blocks: Iterable[ir.Block]) -> tuple[int, int] | None:
    """(frame index, handler label) of the innermost frame whose current block has a handler,
    given the current blocks of the frames from the outermost to the innermost."""
    found = None
    for i, block in enumerate(blocks):
        if block.handler is not None:
            found = (i, block.handler)
    return found


def loop_counts_after(function: ir.Function, counts: Mapping[int, int], target: int, back_edge: bool) -> dict[int, int]:
    """The loop iteration counts of a frame after a jump to ``target``."""
    enclosing = function.blocks[target].loops
    updated = dict(counts)
    if back_edge:
        updated[target] = updated.get(target, 0) + 1
    elif enclosing[-1:] == (target,):
        updated[target] = 0
    return {h: updated[h] for h in enclosing if h in updated}


# a loop over a sequence of known length runs to its end, up to this many iterations (a list the
# loop appends to keeps growing; a larger --max-iterations lifts it)
MAX_SEQUENCE_ITERATIONS = 1000


def loop_bound_reached(counts: Mapping[int, int], max_iterations: int, items_left: Callable[[], Mapping[int, int]] | None = None) -> int | None:
    """The bound a frame has reached on an enclosing loop (None: none): ``max_iterations``
    iterations, except a ``for`` loop whose iterator has ``items_left()[header]`` more items (a
    known number: a constant table, a tuple, a range of int bounds), which runs to its end, up
    to ``MAX_SEQUENCE_ITERATIONS``. ``items_left`` is asked only once a count reaches
    ``max_iterations``."""
    left: Mapping[int, int] | None = None
    for header, count in counts.items():
        if count < max_iterations:
            continue
        if left is None:
            left = items_left() if items_left is not None else {}
        bound = max_iterations
        if header in left:
            bound = max(bound, min(count + left[header] + 1, MAX_SEQUENCE_ITERATIONS))
        if count >= bound:
            return bound
    return None


def for_loop_iterators(function: ir.Function, counts: Mapping[int, int]) -> dict[int, str]:
    """The iterator variable of each enclosing loop (by header) that is a ``for`` loop."""
    found = {}
    for header in counts:
        term = function.blocks[header].terminator
        if isinstance(term, ir.ForIter):
            found[header] = term.it
    return found


def loop_cut_reason(max_iterations: int) -> CutCause:
    return CutCause(CutReason.LOOP_BOUND, f"loop iteration bound {max_iterations} reached (--max-iterations)")


def depth_cut_reason(max_depth: int) -> CutCause:
    return CutCause(CutReason.DEPTH_BOUND, f"call depth bound {max_depth} reached (--max-depth)")


def max_paths_reason(max_paths: int) -> CutCause:
    return CutCause(CutReason.MAX_PATHS, f"max-paths bound {max_paths} reached (--max-paths)")


def depth_exceeded(frames: int, max_depth: int) -> bool:
    """Whether a call from ``frames`` active frames goes past the call-depth bound."""
    return frames >= max_depth


def plain_arguments(args: tuple[object, ...]) -> bool:
    """Arguments that alone decide a call: no heap references (the callee could read changed
    records), only values the analysis compares exactly (literals and terms, hash-consed)."""

    def plain(v: object) -> bool:
        if isinstance(v, tuple):
            return all(plain(x) for x in v)
        return not isinstance(v, Ref) and (v is None or isinstance(v, (bool, int, str, float, Term)))

    return all(plain(a) for a in args)


def repeats_its_caller(caller_qualname: str, caller_args: tuple[object, ...] | None, caller_in_try: bool, qualname: str, args: tuple[object, ...]) -> bool:
    """A call of ``qualname`` from a frame of the same function entered with the same plain
    arguments, outside any ``try``: it repeats forever, so CPython raises RecursionError at
    this call (the innermost frame of its traceback executes this line)."""
    return (
        caller_qualname == qualname
        and caller_args is not None
        and not caller_in_try
        and len(args) == len(caller_args)
        and plain_arguments(args)
        and _same(args, caller_args)
    )


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    return all(x is y if isinstance(x, Term) else type(x) is type(y) and x == y for x, y in zip(a, b))


def stop_reason(deadline: float | None) -> CutCause | None:
    """Why an engine's main loop stops before its next step: ``timeout`` once ``deadline``
    (``time.monotonic()``) has passed, ``interrupted`` after a Ctrl-C whose KeyboardInterrupt
    was swallowed, ``memory`` once the process is past its memory bound; None to go on."""
    if deadline is not None and time.monotonic() > deadline:
        return cuts.TIMEOUT
    if interrupt.requested():
        return cuts.INTERRUPTED
    if memory_exceeded():
        return cuts.MEMORY
    return None


# The bound on the process's resident memory, in MiB: past it the exploration stops with a
# ``memory`` cut (reported, the other targets go on). A loop that copies a list it keeps growing
# (``for v in xs: xs.append(len(xs + [1]))``: CPython itself never ends) keeps every copy in
# the path's heap, quadratic in the iterations, and reached 11 GB before its timeout in a
# fuzzing run; the timeout alone does not bound memory.
MAX_RSS_MB = int(os.environ.get("PATHLOOM_MAX_RSS_MB", "8192"))
_memory_checks = itertools.count()


def memory_exceeded() -> bool:
    """The process's resident memory is past ``MAX_RSS_MB`` (read on one call in 1,024)."""
    if next(_memory_checks) & 1023:
        return False
    return _resident_mb() > MAX_RSS_MB


def _resident_mb() -> float:
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):  # not Linux: the peak, which only grows
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


def unsupported_at(function: ir.Function, default_file: str, loc: ir.Loc, exc: RuntimeUnsupported) -> Unsupported:
    """The one-line refusal for what the semantics met at run time and does not model: at the
    instruction's location in the function's own file (a linked module's, or the target's)."""
    return Unsupported(function.foreign_file or default_file, loc.line, loc.col, str(exc))
