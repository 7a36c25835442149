"""Calculator parser: evaluate a token list; items >= 0 are numbers, negative items operators.

Grammar (recursive descent, usual precedence):  expr := term (('+'|'-') term)*,
term := factor ('*' factor)*,  factor := NUMBER | '(' expr ')'.  Token codes: -1 '+',
-2 '-', -3 '*', -4 '(', -5 ')'; any other negative code is a lexical error.  Malformed input
raises ValueError.  Paths share the parser position and most partial results.
"""

PLUS = -1
MINUS = -2
TIMES = -3
LPAREN = -4
RPAREN = -5


class Parser:
    def __init__(self, toks: list[int]) -> None:
        self.toks = toks
        self.pos = 0

    def peek(self) -> int:
        if self.pos < len(self.toks):
            return self.toks[self.pos]
        return -100

    def advance(self) -> int:
        t = self.peek()
        self.pos += 1
        return t

    def expr(self) -> int:
        value = self.term()
        while self.peek() == PLUS or self.peek() == MINUS:
            op = self.advance()
            rhs = self.term()
            if op == PLUS:
                value = value + rhs
            else:
                value = value - rhs
        return value

    def term(self) -> int:
        value = self.factor()
        while self.peek() == TIMES:
            self.advance()
            value = value * self.factor()
        return value

    def factor(self) -> int:
        t = self.advance()
        if t >= 0:
            return t
        if t == LPAREN:
            value = self.expr()
            if self.advance() != RPAREN:
                raise ValueError("expected )")
            return value
        raise ValueError("expected a number or (")


def calc_parser(toks: list[int]) -> int:
    p = Parser(toks)
    value = p.expr()
    if p.pos != len(toks):
        raise ValueError("trailing tokens")
    return value
