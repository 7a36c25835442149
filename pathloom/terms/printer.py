"""Readable text for terms, used in ``repr`` and in reports; never parsed back.

Invariant: the text's length is linear in the number of distinct subterms. Terms are DAGs
(interned, so a subterm is shared wherever it recurs): a MultiSE path condition written as a
tree can be exponentially long (a guard's ite-encoding over 3,720 steps of a fuzzed program
did not finish printing in two minutes). A term whose tree has at most :data:`TREE_LIMIT`
nodes is written as a tree; a larger one as ``let @1 = ...; @2 = ... in ...``, each shared
subterm written once and referred to by name. Both are written without recursion, so deep
terms are fine too.
"""

from __future__ import annotations

from collections.abc import Callable

from pathloom.terms.expr import Arg, Term, postorder

__all__ = ["TREE_LIMIT", "show"]

#: Terms whose tree (shared subterms counted at every use) has more nodes are written with
#: their shared subterms named.
TREE_LIMIT = 250

_INFIX = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "floordiv": "//",
    "mod": "%",
    "eq": "==",
    "lt": "<",
    "le": "<=",
    "str_lt": "<",
    "str_le": "<=",
    "and": "and",
    "or": "or",
    "concat": "+",
    "fadd": "+",
    "fsub": "-",
    "fmul": "*",
    "fdiv": "/",
    "itruediv": "/",
}
_CALLS = {
    "len": "len",
    "to_code": "ord",
    "from_code": "chr",
    "substr": "substr",
    "int_str": "str",
    "fabs": "abs",
    "fsqrt": "sqrt",
    "i2f": "float",
    "f2i": "int",
    "fisnan": "isnan",
    "fisinf": "isinf",
}
_POWERS = {"pow2": 2}  # op -> base: written as ``(base ** n)``


def show(term: Arg) -> str:
    """The term as Python-like text."""
    if not isinstance(term, Term):
        return repr(term)
    order = postorder(term)
    if _tree_size_over(order, TREE_LIMIT):
        return _show_shared(order)
    text, _ = _render(order, {})
    return text


def _node_text(term: Term, arg: Callable[[Arg], str]) -> str:
    """One node's text, its arguments' texts given by ``arg``."""
    op, args = term.op, term.args
    if op == "sym":
        return str(args[0])
    if op in _INFIX:
        return f"({arg(args[0])} {_INFIX[op]} {arg(args[1])})"
    if op == "neg" or op == "fneg":
        return f"-{arg(args[0])}"
    if op in _POWERS:
        return f"({_POWERS[op]} ** {arg(args[0])})"
    if op == "not":
        return f"not {arg(args[0])}"
    if op == "ite":
        return f"({arg(args[1])} if {arg(args[0])} else {arg(args[2])})"
    if op == "at":
        return f"{arg(args[0])}[{arg(args[1])}]"
    if op == "contains":
        return f"({arg(args[1])} in {arg(args[0])})"
    if op in ("prefixof", "suffixof"):
        method = "startswith" if op == "prefixof" else "endswith"
        return f"{arg(args[1])}.{method}({arg(args[0])})"
    if op == "str_class":
        return f"{arg(args[0])}.{args[1]}()"
    if op in ("replace", "count"):
        return f"{arg(args[0])}.{op}({', '.join(arg(a) for a in args[1:])})"
    if op == "ascii_case":
        return f"{arg(args[0])}.{args[1]}()"
    if op == "re_member":
        return f"(re.{args[3]}({args[1]!r}, {arg(args[0])}{', ' + str(args[2]) if args[2] else ''}) is not None)"
    if op == "int_syntax":
        return f"is_int_literal({arg(args[0])})"
    if op == "indexof":
        return f"{arg(args[0])}.find({arg(args[1])})"
    return f"{_CALLS.get(op, op)}({', '.join(arg(a) for a in args)})"


def _children(term: Term) -> list[Term]:
    return [a for a in term.args if isinstance(a, Term)]  # a symbol's only argument is its name


def _tree_size_over(order: list[Term], limit: int) -> bool:
    """Whether the tree of the term whose ``postorder`` is ``order`` has more than ``limit``
    nodes (sizes capped at ``limit + 1``, so the count stays small)."""
    size: dict[Term, int] = {}
    for term in order:
        size[term] = min(limit + 1, 1 + sum(size[c] for c in _children(term)))
    return size[order[-1]] > limit


def _render(order: list[Term], names: dict[Term, str]) -> tuple[str, list[tuple[str, str]]]:
    """The text of the term whose ``postorder`` is ``order``, in which the named
    subterms appear by name, and the named subterms' own texts (definitions before their
    uses)."""
    text: dict[Term, str] = {}
    definitions: list[tuple[str, str]] = []

    def arg(a: Arg) -> str:
        if not isinstance(a, Term):
            try:
                return repr(a)
            except ValueError:  # an int too long for CPython's decimal text
                return hex(a)  # type: ignore[arg-type]
        return names.get(a) or text[a]

    for term in order:
        text[term] = _node_text(term, arg)
        if term in names:
            definitions.append((names[term], text[term]))
    return text[order[-1]], definitions


def _show_shared(order: list[Term]) -> str:
    uses: dict[Term, int] = {}
    for term in order:
        for child in _children(term):
            uses[child] = uses.get(child, 0) + 1
    names: dict[Term, str] = {}
    for term in order:
        if uses.get(term, 0) > 1 and term.op != "sym":
            names[term] = f"@{len(names) + 1}"
    body, definitions = _render(order, names)
    if not definitions:
        return body
    return "let " + "; ".join(f"{name} = {text}" for name, text in definitions) + " in " + body
