"""Readable text for terms, used in ``repr`` and in reports; never parsed back.

Invariant: the text's length is linear in the number of distinct subterms. Terms are DAGs
(interned, so a subterm is shared wherever it recurs): a MultiSE path condition written as a
tree can be exponentially long (a guard's ite-encoding over 3,720 steps of a fuzzed program
did not finish printing in two minutes). A term whose tree has at most :data:`TREE_LIMIT`
nodes is written as a tree; a larger one as ``let @1 = ...; @2 = ... in ...``, each shared
subterm written once and referred to by name. Both are written without recursion, so deep
terms are fine too, and in time linear in the text: each node's text is a list of pieces, its
arguments' texts written in place rather than concatenated at every level. A text longer than
:data:`MAX_CHARS` is cut there and says so: writing it is bounded, whatever the term.
"""

from __future__ import annotations

from collections.abc import Callable

from pathloom.terms.expr import Arg, Term, postorder

__all__ = ["MAX_CHARS", "TREE_LIMIT", "show"]

#: Terms whose tree (shared subterms counted at every use) has more nodes are written with
#: their shared subterms named.
TREE_LIMIT = 250
#: Characters of text at most (a path condition of thousands of steps is cut short).
MAX_CHARS = 20_000

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


def show(term: Arg, limit: int = MAX_CHARS) -> str:
    """The term as Python-like text, cut after ``limit`` characters (and then saying so)."""
    if not isinstance(term, Term):
        return repr(term)
    order = postorder(term)
    names = _shared_names(order) if _tree_size_over(order, TREE_LIMIT) else {}
    return _render(order, names, limit)


Piece = str | Term  # a term in a node's pieces stands for its text (or its name)


def _node_pieces(term: Term, arg: Callable[[Arg], Piece]) -> list[Piece]:
    """One node's text as pieces, its arguments' given by ``arg``: the text is their
    concatenation, each argument's written in place (so that writing it is linear in the
    text's length: a chain of ``and`` built by concatenating strings was quadratic)."""
    op, args = term.op, term.args

    def call(name: str, rest: tuple[Arg, ...]) -> list[Piece]:
        pieces: list[Piece] = [f"{name}("]
        for k, a in enumerate(rest):
            pieces += [", ", arg(a)] if k else [arg(a)]
        return [*pieces, ")"]

    if op == "sym":
        return [str(args[0])]
    if op in _INFIX:
        return ["(", arg(args[0]), f" {_INFIX[op]} ", arg(args[1]), ")"]
    if op == "neg" or op == "fneg":
        return ["-", arg(args[0])]
    if op in _POWERS:
        return [f"({_POWERS[op]} ** ", arg(args[0]), ")"]
    if op == "not":
        return ["not ", arg(args[0])]
    if op == "ite":
        return ["(", arg(args[1]), " if ", arg(args[0]), " else ", arg(args[2]), ")"]
    if op == "at":
        return [arg(args[0]), "[", arg(args[1]), "]"]
    if op == "contains":
        return ["(", arg(args[1]), " in ", arg(args[0]), ")"]
    if op in ("prefixof", "suffixof"):
        method = "startswith" if op == "prefixof" else "endswith"
        return [arg(args[1]), f".{method}(", arg(args[0]), ")"]
    if op in ("str_class", "ascii_case"):
        return [arg(args[0]), f".{args[1]}()"]
    if op in ("replace", "count"):
        return [arg(args[0]), ".", *call(op, args[1:])]
    if op == "re_member":
        flags = ", " + str(args[2]) if args[2] else ""
        return [f"(re.{args[3]}({args[1]!r}, ", arg(args[0]), f"{flags}) is not None)"]
    if op == "int_syntax":
        return ["is_int_literal(", arg(args[0]), ")"]
    if op == "indexof":
        return [arg(args[0]), ".find(", arg(args[1]), ")"]
    return call(_CALLS.get(op, op), args)


def _children(term: Term) -> list[Term]:
    return [a for a in term.args if isinstance(a, Term)]  # a symbol's only argument is its name


def _tree_size_over(order: list[Term], limit: int) -> bool:
    """Whether the tree of the term whose ``postorder`` is ``order`` has more than ``limit``
    nodes (sizes capped at ``limit + 1``, so the count stays small)."""
    size: dict[Term, int] = {}
    for term in order:
        size[term] = min(limit + 1, 1 + sum(size[c] for c in _children(term)))
    return size[order[-1]] > limit


def _literal(a: Arg) -> str:
    try:
        return repr(a)
    except ValueError:  # an int too long for CPython's decimal text
        return hex(a)  # type: ignore[arg-type]


def _render(order: list[Term], names: dict[Term, str], limit: int) -> str:
    """The text of the term whose ``postorder`` is ``order``: the named subterms (each
    defined once, before its uses, in ``let ... in``) appear by name, the others in place;
    written piece by piece, and stopped past ``limit`` characters."""
    pieces = {term: _node_pieces(term, lambda a: a if isinstance(a, Term) else _literal(a)) for term in order}
    out: list[str] = []
    written = 0

    def write(root: Term, inline_root: bool) -> bool:
        """Write ``root``'s text; False once ``limit`` is passed."""
        nonlocal written
        stack: list[Piece] = list(reversed(pieces[root])) if inline_root else [root]
        while stack:
            piece = stack.pop()
            if isinstance(piece, Term):
                name = names.get(piece)
                if name is not None:
                    piece = name
                else:
                    stack.extend(reversed(pieces[piece]))
                    continue
            out.append(piece)
            written += len(piece)
            if written > limit:
                return False
        return True

    definitions = [t for t in order if t in names]
    complete = True
    if definitions:
        out.append("let ")
        for k, term in enumerate(definitions):
            out.append(f"{'; ' if k else ''}{names[term]} = ")
            complete = write(term, True)
            if not complete:
                break
        if complete:
            out.append(" in ")
    if complete:
        complete = write(order[-1], order[-1] not in names)
    text = "".join(out)
    return text if complete else f"{text[:limit]} ... (cut: longer than {limit} characters)"


def _shared_names(order: list[Term]) -> dict[Term, str]:
    """The subterms used more than once (symbols aside), named ``@1``, ``@2``, ... in
    postorder (so each definition comes before its uses)."""
    uses: dict[Term, int] = {}
    for term in order:
        for child in _children(term):
            uses[child] = uses.get(child, 0) + 1
    names: dict[Term, str] = {}
    for term in order:
        if uses.get(term, 0) > 1 and term.op != "sym":
            names[term] = f"@{len(names) + 1}"
    return names
