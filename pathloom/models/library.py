"""Models of library functions and str methods, written in the Python the frontend lowers.

A call the analysed code makes to one of the functions below's originals (``math.gcd``,
``calendar.isleap``, ``str.split``...) is analysed as a call of the model when
``semantics.library_models`` says the arguments are ones the model is written for (their kinds
and count); any other call runs the original in CPython on pinned values, as before. The model is
lowered like the user's own code (a linked module, ``frontend.linker.library_model``), so every
engine explores its branches symbolically: the lengths and positions ``split`` finds, the
remainders of Euclid's loop. This is what CrossHair does with its Python-level models of
builtins; here the models are plain functions of the analysed subset.

Invariant: for the arguments ``semantics.library_models`` hands it, each model returns an equal
value of the same type, or raises the same exception type with the same message, as the CPython
function it stands for (``tests/unit/test_library_models.py`` checks that with Hypothesis on
concrete values, and end to end through the engines). The models must not use anything that is
itself modelled here.
"""


def isleap(year: int) -> bool:
    """``calendar.isleap``: the Gregorian rule."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def gcd(a: int, b: int) -> int:
    """``math.gcd(a, b)`` of two ints: Euclid's algorithm on the absolute values."""
    a = abs(a)
    b = abs(b)
    while b:
        a, b = b, a % b
    return a


def str_split(s: str, sep: str | None = None, maxsplit: int = -1) -> list[str]:
    """``s.split(sep, maxsplit)``: a negative ``maxsplit`` is no limit."""
    if sep is None:
        return _split_whitespace(s, maxsplit)
    if sep == "":
        raise ValueError("empty separator")
    parts: list[str] = []
    while maxsplit != 0:
        i = s.find(sep)
        if i < 0:
            break
        parts.append(s[:i])
        s = s[i + len(sep) :]
        maxsplit -= 1
    parts.append(s)
    return parts


def _split_whitespace(s: str, maxsplit: int) -> list[str]:
    """``s.split()``: runs of ``str.isspace`` characters separate, none at either end; after
    ``maxsplit`` splits the rest of ``s`` is the last part, its leading whitespace dropped."""
    parts: list[str] = []
    i = 0
    n = len(s)
    while True:
        while i < n and s[i].isspace():
            i += 1
        if i == n:
            return parts
        if maxsplit == 0:
            parts.append(s[i:])
            return parts
        j = i
        while j < n and not s[j].isspace():
            j += 1
        parts.append(s[i:j])
        i = j
        maxsplit -= 1


def str_partition(s: str, sep: str) -> tuple[str, str, str]:
    """``s.partition(sep)``."""
    if sep == "":
        raise ValueError("empty separator")
    i = s.find(sep)
    if i < 0:
        return (s, "", "")
    return (s[:i], sep, s[i + len(sep) :])


def accumulate(iterator, func=None):  # type: ignore[no-untyped-def]
    """``itertools.accumulate(iterable, func)`` (no ``initial``), consumed item by item: the
    lowering inlines it into its consuming loop (``frontend.lowering.generators``) and hands it
    ``iter(iterable)``, made at the call as CPython's ``accumulate`` makes it. ``func`` is None
    (``+``, as ``PyNumber_Add``) or a builtin the lowering checked (``max``, ``min``), which
    never raises ``StopIteration`` (a generator would turn that into RuntimeError; CPython's
    ``accumulate`` passes it on)."""
    started = False
    total = None
    for item in iterator:
        if not started:
            total = item
            started = True
        elif func is None:
            total = total + item
        else:
            total = func(total, item)
        yield total
