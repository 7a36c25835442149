"""PL/0-style parser: recursive descent over a token list, returning the number of statements.

Token codes: 1 ident, 2 number, 3 ':=', 4 '+', 5 '-', 6 '*', 7 '(', 8 ')', 9 'begin',
10 'end', 11 ';', 12 'if', 13 'then', 14 'while', 15 'do', 16 '<', 17 '='; anything else is
a lexical error.  Grammar (a PL/0 subset):

    program    := statement
    statement  := ident ':=' expression
                | 'begin' statement { ';' statement } 'end'
                | 'if' condition 'then' statement
                | 'while' condition 'do' statement
                | (empty)
    condition  := expression ('<' | '=') expression
    expression := ['+'|'-'] term { ('+'|'-') term }
    term       := factor { '*' factor }
    factor     := ident | number | '(' expression ')'

A syntax error raises ValueError (``SyntaxError`` would be a builtin class name clash);
a lexical error raises LookupError.  Paths share the parser position and statement counts.
"""

IDENT = 1
NUMBER = 2
BECOMES = 3
PLUS = 4
MINUS = 5
TIMES = 6
LPAREN = 7
RPAREN = 8
BEGIN = 9
END = 10
SEMI = 11
IF = 12
THEN = 13
WHILE = 14
DO = 15
LESS = 16
EQUAL = 17
EOF = 0


class Pl0Parser:
    def __init__(self, toks: list[int]) -> None:
        self.toks = toks
        self.pos = 0
        self.statements = 0

    def sym(self) -> int:
        if self.pos < len(self.toks):
            t = self.toks[self.pos]
            if t < 1 or t > 17:
                raise LookupError("bad token")
            return t
        return EOF

    def expect(self, t: int) -> None:
        if self.sym() != t:
            raise ValueError("unexpected token")
        self.pos += 1

    def factor(self) -> None:
        s = self.sym()
        if s == IDENT or s == NUMBER:
            self.pos += 1
        elif s == LPAREN:
            self.pos += 1
            self.expression()
            self.expect(RPAREN)
        else:
            raise ValueError("factor expected")

    def term(self) -> None:
        self.factor()
        while self.sym() == TIMES:
            self.pos += 1
            self.factor()

    def expression(self) -> None:
        s = self.sym()
        if s == PLUS or s == MINUS:
            self.pos += 1
        self.term()
        s = self.sym()
        while s == PLUS or s == MINUS:
            self.pos += 1
            self.term()
            s = self.sym()

    def condition(self) -> None:
        self.expression()
        s = self.sym()
        if s != LESS and s != EQUAL:
            raise ValueError("relation expected")
        self.pos += 1
        self.expression()

    def statement(self) -> None:
        s = self.sym()
        if s == IDENT:
            self.pos += 1
            self.expect(BECOMES)
            self.expression()
            self.statements += 1
        elif s == BEGIN:
            self.pos += 1
            self.statement()
            while self.sym() == SEMI:
                self.pos += 1
                self.statement()
            self.expect(END)
        elif s == IF:
            self.pos += 1
            self.condition()
            self.expect(THEN)
            self.statement()
            self.statements += 1
        elif s == WHILE:
            self.pos += 1
            self.condition()
            self.expect(DO)
            self.statement()
            self.statements += 1


def pl0_parser(toks: list[int]) -> int:
    p = Pl0Parser(toks)
    p.statement()
    if p.sym() != EOF:
        raise ValueError("end of program expected")
    return p.statements
