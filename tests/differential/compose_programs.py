"""Random programs whose shape is what compositional symbolic execution cares about.

progen's programs seldom call a helper that can be summarized; these do, on purpose: two or
three branching helpers over ints and strs (nested conditionals, early returns, explicit
raises, implicit ZeroDivisionError, loops over ``range``, a bounded recursion, calls of lower
helpers, helpers that stop being summarizable because they read a module-level list, helpers
that read a ``list[int]`` argument: loops over it, guarded and unguarded indexing with its
IndexError), called from an entry
point several times: on the inputs, on expressions of them, on constants, in a loop, inside
``try``, in conditions, on the same arguments twice. Deterministic: a program is a function
of its seed.
"""

from __future__ import annotations

import random

INT_PARAMS = ("a", "b")
ENTRY_PARAMS = ("x", "y", "z")


class _Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.helpers: list[tuple[str, str]] = []  # (name, kind): "ii" (two ints), "s" (a str), "l" (a list[int] and an int)

    def const(self) -> int:
        return self.r.randint(-5, 9)

    def int_expr(self, names: tuple[str, ...]) -> str:
        a, b = self.r.choice(names), self.r.choice(names)
        return self.r.choice([a, f"{a} + {b}", f"{a} - {self.const()}", f"2 * {a}", f"{a} - {b}", str(self.const())])

    def cond(self, names: tuple[str, ...]) -> str:
        op = self.r.choice(["<", "<=", ">", ">=", "==", "!="])
        return f"{self.int_expr(names)} {op} {self.int_expr(names)}"

    def helper_call(self, names: tuple[str, ...], below: int | None = None) -> str | None:
        choices = self.helpers if below is None else self.helpers[:below]
        ints = [h for h, kind in choices if kind == "ii"]
        if not ints:
            return None
        return f"{self.r.choice(ints)}({self.int_expr(names)}, {self.int_expr(names)})"

    def int_helper(self, index: int) -> str:
        name = f"g{index}"
        lines = [f"def {name}(a: int, b: int) -> int:"]
        style = self.r.choice(["nested", "chain", "loop", "recursive", "calls", "raises", "list", "while"])
        if style == "nested":
            lines += [
                f"    if {self.cond(INT_PARAMS)}:",
                f"        if {self.cond(INT_PARAMS)}:",
                f"            return {self.int_expr(INT_PARAMS)}",
                f"        b = {self.int_expr(INT_PARAMS)}",
                "    else:",
                f"        a = {self.int_expr(INT_PARAMS)}",
                f"    if {self.cond(INT_PARAMS)}:",
                "        return a",
                "    return b",
            ]
        elif style == "chain":
            lines += [
                f"    if {self.cond(INT_PARAMS)}:",
                f"        return {self.const()}",
                f"    elif {self.cond(INT_PARAMS)}:",
                f"        return {self.int_expr(INT_PARAMS)}",
                f"    return {self.int_expr(INT_PARAMS)}",
            ]
        elif style == "loop":
            lines += [
                "    t = 0",
                f"    for i in range(min(a, {self.r.randint(1, 4)})):",
                f"        if i + b > {self.const()}:",
                "            t += i",
                "        else:",
                "            t -= 1",
                "    return t",
            ]
        elif style == "recursive":
            lines += [
                f"    if a <= 0 or a > {self.r.randint(1, 4)}:",
                "        return b",
                f"    if b > {self.const()}:",
                f"        return {name}(a - 1, b - 1) + 1",
                f"    return {name}(a - {self.r.choice([1, 2])}, b)",
            ]
        elif style == "calls":
            call = self.helper_call(INT_PARAMS, below=index) or "a"
            lines += [f"    c = {call}", f"    if c > {self.const()}:", "        return c - b", f"    return {self.int_expr(INT_PARAMS)}"]
        elif style == "raises":
            lines += [
                f"    if {self.cond(INT_PARAMS)}:",
                '        raise ValueError("bad")',
                f"    return {self.const()} // ({self.int_expr(INT_PARAMS)})" if self.r.random() < 0.6 else f"    return {self.int_expr(INT_PARAMS)}",
            ]
        elif style == "while":  # a symbolic loop: the loop bound cuts some of its leaves
            lines += ["    t = 0", "    while a > b:", "        a -= 1", "        t += 1", "    return t"]
        else:  # reads a module-level list: not summarizable, always run inline
            lines += [f"    if {self.cond(INT_PARAMS)}:", "        return TABLE[0] + a", "    return b"]
        self.helpers.append((name, "ii"))
        return "\n".join(lines)

    def str_helper(self, index: int) -> str:
        name = f"g{index}"
        letter = self.r.choice("ab")
        lines = [
            f"def {name}(s: str) -> int:",
            f"    if len(s) > {self.r.randint(0, 2)}:",
            f"        if s[0] == {letter!r}:",
            "            return 1",
            "        return 2",
            f"    if s == {letter!r}:",
            "        return 3",
            "    return 0",
        ]
        self.helpers.append((name, "s"))
        return "\n".join(lines)

    def list_helper(self, index: int) -> str:
        """A helper over a ``list[int]`` and an int: summarized, the list read only."""
        name = f"g{index}"
        lines = [f"def {name}(xs: list[int], a: int) -> int:"]
        style = self.r.choice(["count", "index", "guarded", "early"])
        if style == "count":
            lines += ["    n = 0", "    for v in xs:", f"        if v > a + {self.const()}:", "            n += 1", "    return n"]
        elif style == "index":  # IndexError when a is out of range
            lines += [f"    if xs[a] > {self.const()}:", "        return xs[a]", "    return len(xs)"]
        elif style == "guarded":
            lines += [f"    if len(xs) > {self.r.randint(0, 2)} and xs[0] {self.r.choice(['<', '==', '>'])} a:", "        return a", "    return -len(xs)"]
        else:
            lines += ["    for i in range(len(xs)):", f"        if xs[i] == a - {self.r.randint(0, 2)}:", "            return i", "    return -1"]
        self.helpers.append((name, "l"))
        return "\n".join(lines)

    def list_call(self, names: tuple[str, ...]) -> str | None:
        lists = [h for h, kind in self.helpers if kind == "l"]
        if not lists:
            return None
        arg = self.r.choice(["v", "v", f"[{self.int_expr(names)}, {self.int_expr(names)}]", "v[1:]"])
        return f"{self.r.choice(lists)}({arg}, {self.int_expr(names)})"

    def entry(self) -> str:
        names = ENTRY_PARAMS
        lines = ["def f(x: int, y: int, z: int, w: str, v: list[int]) -> int:", "    r = 0"]
        for _ in range(self.r.randint(2, 4)):
            kind = self.r.choice(["plain", "plain", "same_twice", "loop", "try", "cond", "str", "const"])
            call = (self.list_call(names) if self.r.random() < 0.4 else None) or self.helper_call(names) or "x"
            if kind == "plain":
                lines.append(f"    r += {call}")
            elif kind == "same_twice":
                lines += [f"    r += {call}", f"    r += {call}"]
            elif kind == "loop":
                h = call.split("(")[0]
                again = f"{h}(v, x + i)" if (h, "l") in self.helpers else f"{h}(x + i, y)"
                lines += [f"    for i in range({self.r.randint(2, 4)}):", f"        r += {again}" if "(" in call else "        r += i"]
            elif kind == "try":
                lines += ["    try:", f"        r += {call}", "    except ValueError:", "        r -= 100", "    except ZeroDivisionError:", "        r -= 200"]
            elif kind == "cond":
                lines += [f"    if {call} > {self.const()}:", "        r += 1", "    else:", "        r -= 1"]
            elif kind == "str":
                strs = [h for h, k in self.helpers if k == "s"]
                lines.append(f"    r += {strs[0]}(w)" if strs else f"    r += {call}")
            else:
                h = call.split("(")[0]
                first = f"[{self.const()}, {self.const()}]" if (h, "l") in self.helpers else str(self.const())
                lines.append(f"    r += {h}({first}, {self.const()})" if "(" in call else "    r += 1")
        lines += [f"    if r > {self.const()}:", "        return r", "    return -r"]
        return "\n".join(lines)


def compose_program(seed: int) -> str:
    """The source of one random program (entry point ``f``)."""
    gen = _Gen(seed)
    parts = ["TABLE = [3, 4]"]
    count = gen.r.randint(2, 3)
    for i in range(count):
        roll = gen.r.random()
        parts.append(gen.str_helper(i) if roll < 0.2 else gen.list_helper(i) if roll < 0.45 else gen.int_helper(i))
    parts.append(gen.entry())
    return "\n\n\n".join(parts) + "\n"
