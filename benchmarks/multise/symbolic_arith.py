"""Symbolic arithmetic: build an expression tree (objects) from a token list, simplify it,
evaluate it at ``x``.

Tokens in postfix order: -1 the variable, -2 '+', -3 '*', -4 '-', items >= 0 constants
(anything else is a lexical error).  Simplification folds constants and removes x+0, x*1,
x*0, x-0 and x-x.  Returns the node count of the simplified tree plus 100 times its value at
``x`` modulo 7; a malformed program raises ValueError.
"""


class Expr:
    def __init__(self, kind: int, value: int, left: "Expr", right: "Expr") -> None:
        self.kind = kind  # 0 const, 1 var, 2 add, 3 mul, 4 sub
        self.value = value
        self.left = left
        self.right = right

    def size(self) -> int:
        if self.kind <= 1:
            return 1
        return 1 + self.left.size() + self.right.size()

    def evaluate(self, x: int) -> int:
        if self.kind == 0:
            return self.value
        if self.kind == 1:
            return x
        a = self.left.evaluate(x)
        b = self.right.evaluate(x)
        if self.kind == 2:
            return a + b
        if self.kind == 3:
            return a * b
        return a - b


def const(v: int) -> Expr:
    return Expr(0, v, None, None)


def is_const(e: Expr, v: int) -> bool:
    return e.kind == 0 and e.value == v


def same(a: Expr, b: Expr) -> bool:
    if a.kind != b.kind:
        return False
    if a.kind == 0:
        return a.value == b.value
    if a.kind == 1:
        return True
    return same(a.left, b.left) and same(a.right, b.right)


def make(kind: int, a: Expr, b: Expr) -> Expr:
    if a.kind == 0 and b.kind == 0:
        if kind == 2:
            return const(a.value + b.value)
        if kind == 3:
            return const(a.value * b.value)
        return const(a.value - b.value)
    if kind == 2:
        if is_const(a, 0):
            return b
        if is_const(b, 0):
            return a
    elif kind == 3:
        if is_const(a, 0) or is_const(b, 0):
            return const(0)
        if is_const(a, 1):
            return b
        if is_const(b, 1):
            return a
    else:
        if is_const(b, 0):
            return a
        if same(a, b):
            return const(0)
    return Expr(kind, 0, a, b)


def symbolic_arith(toks: list[int], x: int) -> int:
    stack = []
    for t in toks:
        if t >= 0:
            stack.append(const(t))
        elif t == -1:
            stack.append(Expr(1, 0, None, None))
        elif t >= -4:
            if len(stack) < 2:
                raise ValueError("operator needs two operands")
            b = stack.pop()
            a = stack.pop()
            stack.append(make(-t, a, b))
        else:
            raise ValueError("bad token")
    if len(stack) != 1:
        raise ValueError("malformed expression")
    e = stack.pop()
    if e.evaluate(x) == e.evaluate(x + 1):
        return e.size()
    return -e.size()
