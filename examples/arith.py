"""Everyday arithmetic: Python's floor division and modulo, recursion, loops, lambdas."""

LIMIT = 100


def fizzbuzz(n: int) -> str:
    if n % 15 == 0:
        return "FizzBuzz"
    if n % 3 == 0:
        return "Fizz"
    if n % 5 == 0:
        return "Buzz"
    return "number"


def average(total: int, count: int) -> int:
    return total // count


def safe_ratio(a: int, b: int) -> int:
    try:
        return a // b
    except ZeroDivisionError:
        return 0


def factorial(n: int) -> int:
    if n < 0:
        raise ValueError("negative")
    if n <= 1:
        return 1
    return n * factorial(n - 1)


def collatz_steps(n: int) -> int:
    assert n > 0, "positive inputs only"
    steps = 0
    while n != 1 and steps < 4:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def clamp(x: int) -> int:
    return max(-LIMIT, min(x, LIMIT))


def apply(op: str, x: int, y: int) -> int:
    if op == "add":
        f = lambda a, b: a + b  # noqa: E731
    elif op == "mul":
        f = lambda a, b: a * b  # noqa: E731
    else:
        f = abs_diff
    return f(x, y)


def abs_diff(a: int, b: int) -> int:
    return abs(a - b)


def sign_label(x: int, strict: bool) -> str:
    label = "zero"
    if x > 0 and strict:
        label = "positive"
    elif x < 0 or not strict:
        label = "negative or lenient"
    return label
