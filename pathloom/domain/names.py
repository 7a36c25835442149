"""The builtin names the supported subset knows, and the builtin exception hierarchy."""

from __future__ import annotations

BUILTIN_FUNCTIONS = frozenset({"len", "abs", "min", "max", "ord", "chr", "range", "print", "bool", "int", "isinstance", "super"})

# builtin exception class -> its base class
EXCEPTION_BASES: dict[str, str | None] = {
    "BaseException": None,
    "Exception": "BaseException",
    "ArithmeticError": "Exception",
    "ZeroDivisionError": "ArithmeticError",
    "OverflowError": "ArithmeticError",
    "LookupError": "Exception",
    "IndexError": "LookupError",
    "KeyError": "LookupError",
    "ValueError": "Exception",
    "TypeError": "Exception",
    "AttributeError": "Exception",
    "NameError": "Exception",
    "UnboundLocalError": "NameError",
    "AssertionError": "Exception",
    "RuntimeError": "Exception",
    "RecursionError": "RuntimeError",
    "NotImplementedError": "RuntimeError",
}

BUILTIN_NAMES = BUILTIN_FUNCTIONS | frozenset(EXCEPTION_BASES) | frozenset({"None", "True", "False"})


# builtins never run in CPython on the analysed code's behalf: they read input, touch files,
# evaluate code, or answer with values (identities, salted hashes) that differ between the
# analysis and a later run of the real code
NEVER_RUN = frozenset(
    {
        "input",
        "open",
        "breakpoint",
        "help",
        "exit",
        "quit",
        "eval",
        "exec",
        "compile",
        "globals",
        "locals",
        "vars",
        "__import__",
        "setattr",
        "delattr",
        "id",
        "hash",
        "memoryview",
        "dir",
    }
)

# modules whose functions answer differently from one call to the next (or read the outside
# world): a value one run of them gave predicts nothing, so they are never run
NONDETERMINISTIC_MODULES = frozenset(
    {
        "random",
        "_random",
        "secrets",
        "uuid",
        "time",
        "datetime",
        "os",
        "socket",
        "subprocess",
        "threading",
        "multiprocessing",
        "tempfile",
        "shutil",
        "sys",
    }
)

CACHE_ARGUMENTS = "%arguments"  # first operand of ``%cache_plain`` when the others are a cached call's arguments
