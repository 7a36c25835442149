"""Programs for the loop-navigation benchmark (``benchmarks/navigation.py``): the example of
Figure 1 of Obdržálek and Trtík, "Efficient Loop Navigation for Symbolic Execution", and
programs written after the descriptions of its nine benchmarks (the paper gives no code).
Each function has one target: its ``raise`` (``reach --asserts``). The first line of each
docstring says whether the target is reachable."""


def fig1(A: list[int], B: list[int]) -> None:
    """reachable: 13 to 15 ones in A, then twos in B making a + b == 23."""
    assert len(A) == 15 and len(B) == 15
    a = 0
    b = 0
    for i in range(15):
        if A[i] == 1:
            a += 1
    for j in range(15):
        if B[j] == 2:
            b += 1
    if a > 12 and a + b == 23:
        raise ValueError("target")


def fig1_unreachable(A: list[int], B: list[int]) -> None:
    """unreachable: a counts at most 15 ones, so a > 17 never holds."""
    assert len(A) == 15 and len(B) == 15
    a = 0
    b = 0
    for i in range(15):
        if A[i] == 1:
            a += 1
    for j in range(15):
        if B[j] == 2:
            b += 1
    if a > 17 and a + b == 23:
        raise ValueError("target")


def hello(s: str) -> None:
    """reachable: s contains "Hello"."""
    hellos = 0
    i = 0
    while i + 5 <= len(s):
        if s[i] == "H" and s[i + 1] == "e" and s[i + 2] == "l" and s[i + 3] == "l" and s[i + 4] == "o":
            hellos += 1
        i += 1
    if hellos > 0:
        raise ValueError("Hello")


def hw(s: str) -> None:
    """reachable: s contains "Hello" and "World"."""
    hellos = 0
    worlds = 0
    i = 0
    while i + 5 <= len(s):
        if s[i] == "H" and s[i + 1] == "e" and s[i + 2] == "l" and s[i + 3] == "l" and s[i + 4] == "o":
            hellos += 1
        if s[i] == "W" and s[i + 1] == "o" and s[i + 2] == "r" and s[i + 3] == "l" and s[i + 4] == "d":
            worlds += 1
        i += 1
    if hellos > 0 and worlds > 0:
        raise ValueError("Hello World")


def hwm(s: str) -> None:
    """reachable: s contains "Hello", "World", "At" and "Microsoft!"."""
    hellos = 0
    worlds = 0
    ats = 0
    microsofts = 0
    i = 0
    while i < len(s):
        if i + 5 <= len(s) and s[i] == "H" and s[i + 1] == "e" and s[i + 2] == "l" and s[i + 3] == "l" and s[i + 4] == "o":
            hellos += 1
        if i + 5 <= len(s) and s[i] == "W" and s[i + 1] == "o" and s[i + 2] == "r" and s[i + 3] == "l" and s[i + 4] == "d":
            worlds += 1
        if i + 2 <= len(s) and s[i] == "A" and s[i + 1] == "t":
            ats += 1
        if i + 10 <= len(s) and s[i] == "M" and s[i + 1] == "i" and s[i + 2] == "c" and s[i + 3] == "r" and s[i + 4] == "o" \
                and s[i + 5] == "s" and s[i + 6] == "o" and s[i + 7] == "f" and s[i + 8] == "t" and s[i + 9] == "!":
            microsofts += 1
        i += 1
    if hellos > 0 and worlds > 0 and ats > 0 and microsofts > 0:
        raise ValueError("Hello World At Microsoft!")


def doif(A: list[int]) -> None:
    """reachable: an action per item, by its value; x == 30 after 20 items (ten 2s, ten 1s)."""
    assert len(A) == 20
    x = 0
    for i in range(20):
        if A[i] == 1:
            x += 1
        elif A[i] == 2:
            x += 2
        else:
            x -= 1
    if x == 30:
        raise ValueError("target")


def doifex(A: list[int], B: list[int]) -> None:
    """reachable: two scanning loops with branching in sequence."""
    assert len(A) == 12 and len(B) == 12
    x = 0
    for i in range(12):
        if A[i] == 1:
            x += 1
        elif A[i] == 2:
            x += 3
    y = 0
    for j in range(12):
        if B[j] == 1:
            y += 2
        elif B[j] == 2:
            y -= 1
    if x == 25 and y == x - 30:
        raise ValueError("target")


def eqcnt(A: list[int], n: int) -> None:
    """reachable: nested loops; count, set in the outer scope, grows in the inner loop."""
    assert len(A) == 6
    count = 0
    i = 0
    while i < n:
        for j in range(6):
            if A[j] == i:
                count += 1
        i += 1
    if count == 5:
        raise ValueError("target")


def eqcntex(A: list[int]) -> None:
    """unreachable: two EQCNTs in sequence, with explicit trip counts; an item equals at most
    one of 0..5, so c1 + c2 <= 4."""
    assert len(A) == 4
    c1 = 0
    for i in range(3):
        for j in range(4):
            if A[j] == i:
                c1 += 1
    c2 = 0
    for i in range(3):
        for j in range(4):
            if A[j] == i + 3:
                c2 += 1
    if c1 + c2 > 4:
        raise ValueError("target")


def one_loop(n: int) -> None:
    """unreachable: i goes 0, 4, 8, ... and is never 15, whatever n."""
    i = 0
    while i < n:
        i += 4
    if i == 15:
        raise ValueError("target")


def two_loops(n: int) -> None:
    """unreachable: the second loop runs up to the value of the first; j stays even."""
    i = 0
    while i < n:
        i += 4
    j = 0
    while j < i:
        j += 2
    if j == 15:
        raise ValueError("target")
