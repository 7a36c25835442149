"""Classes: accounts, stacks, shapes, context managers, try/finally, suppress.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

from contextlib import suppress


class InsufficientFunds(Exception):
    pass


class Account:
    def __init__(self, balance: int) -> None:
        self.balance = balance

    def deposit(self, amount: int) -> None:
        if amount < 0:
            raise ValueError("negative deposit")
        self.balance += amount

    def withdraw(self, amount: int) -> None:
        if amount > self.balance:
            raise InsufficientFunds(f"balance {self.balance}, wanted {amount}")
        self.balance -= amount


def transfer(a_balance: int, b_balance: int, amount: int) -> tuple[int, int]:
    assert a_balance >= 0 and b_balance >= 0 and amount >= 0
    a, b = Account(a_balance), Account(b_balance)
    a.withdraw(amount)
    b.deposit(amount)
    assert a.balance + b.balance == a_balance + b_balance
    assert a.balance >= 0
    return a.balance, b.balance


class BoundedStack:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.items: list[int] = []

    def push(self, item: int) -> None:
        if len(self.items) > self.capacity:
            raise OverflowError("stack full")
        self.items.append(item)

    def pop(self) -> int:
        if not self.items:
            raise IndexError("pop from empty stack")
        return self.items.pop()

    def __len__(self) -> int:
        return len(self.items)


def stack_ops(ops: list[int]) -> int:
    assert len(ops) <= 5
    stack = BoundedStack(3)
    for op in ops:
        if op > 0:
            stack.push(op)
        elif len(stack):
            stack.pop()
    assert len(stack) <= 3  # BUG: push compares with > instead of >= (ops=[1, 1, 1, 1])
    return len(stack)


class Rectangle:
    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height

    def area(self) -> int:
        return self.width * self.height

    def scaled(self, k: int) -> "Rectangle":
        return Rectangle(self.width * k, self.height * k)


def scaled_area(w: int, h: int, k: int) -> int:
    assert w >= 0 and h >= 0 and k >= 1
    r = Rectangle(w, h).scaled(k)
    assert r.area() == w * h * k * k
    assert r.area() >= Rectangle(w, h).area()
    return r.area()


class Temperature:
    def __init__(self, celsius: int) -> None:
        self.celsius = celsius

    def fahrenheit(self) -> int:
        return self.celsius * 9 // 5 + 32

    @staticmethod
    def from_fahrenheit(f: int) -> "Temperature":
        return Temperature((f - 32) * 5 // 9)


def round_trip(celsius: int) -> int:
    assert -100 <= celsius <= 100
    f = Temperature(celsius).fahrenheit()
    back = Temperature.from_fahrenheit(f)
    assert back.celsius == celsius  # BUG: integer division loses precision (celsius=1)
    return back.celsius


class Ledger:
    def __init__(self, balance: int) -> None:
        self.balance = balance

    def apply(self, delta: int) -> None:
        self.balance += delta
        if self.balance < 0:
            raise ValueError("overdrawn")


class Transaction:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.saved = ledger.balance

    def __enter__(self) -> Ledger:
        return self.ledger

    def __exit__(self, exc_type: object, exc: object, tb: object) -> bool:
        if exc_type is not None:
            self.ledger.balance = self.saved
            return True
        return False


def apply_updates(balance: int, updates: list[int]) -> int:
    assert balance >= 0 and len(updates) <= 4
    ledger = Ledger(balance)
    for u in updates:
        with Transaction(ledger) as tx:
            tx.apply(u)
    assert ledger.balance >= 0
    return ledger.balance


class Tracker:
    def __init__(self) -> None:
        self.depth = 0


class Batch:
    def __init__(self, tracker: Tracker) -> None:
        self.tracker = tracker

    def __enter__(self) -> Tracker:
        self.tracker.depth += 1
        return self.tracker

    def __exit__(self, exc_type: object, exc: object, tb: object) -> bool:
        if exc_type is None:
            self.tracker.depth -= 1
        return True


def process_batches(items: list[int]) -> int:
    assert len(items) <= 4
    tracker = Tracker()
    total = 0
    for x in items:
        with Batch(tracker):
            if x < 0:
                raise ValueError("negative item")
            total += x
    assert tracker.depth == 0  # BUG: __exit__ skips the cleanup after an error (items=[-1])
    return total


def safe_ratio(a: int, b: int) -> int:
    assert a >= 0
    result = 0
    with suppress(ZeroDivisionError):
        result = a // b
    assert result == 0 or b != 0
    return result


def first_number(words: list[str]) -> int:
    assert len(words) <= 4
    value = -1
    for w in words:
        with suppress(ValueError):
            value = int(w)
            break
    assert value >= -1  # BUG: negative numbers parse too (words=['-5'])
    return value


class Connection:
    def __init__(self) -> None:
        self.is_open = False
        self.sent = 0

    def open(self) -> None:
        self.is_open = True

    def send(self, query: int) -> None:
        if not self.is_open:
            raise RuntimeError("closed")
        if query < 0:
            raise ValueError("bad query")
        self.sent += 1

    def close(self) -> None:
        self.is_open = False


def run_queries(queries: list[int]) -> int:
    assert len(queries) <= 4
    conn = Connection()
    conn.open()
    try:
        for q in queries:
            conn.send(q)
    finally:
        conn.close()
    assert not conn.is_open
    assert conn.sent == len(queries)
    return conn.sent


def retry(attempts: int, fail_first: int) -> int:
    assert 1 <= attempts <= 5 and 0 <= fail_first <= 5
    tries = 0
    cleanups = 0
    succeeded = False
    for i in range(attempts):
        try:
            tries += 1
            if i < fail_first:
                continue
            succeeded = True
            break
        finally:
            cleanups += 1
    assert cleanups == tries
    assert succeeded  # BUG: gives up when every attempt fails (attempts=1, fail_first=1)
    return tries


class Shape:
    def area(self) -> int:
        return 0

    def describe(self) -> str:
        return f"{type(self).__name__} of area {self.area()}"


class Square(Shape):
    def __init__(self, side: int) -> None:
        self.side = side

    def area(self) -> int:
        return self.side * self.side


class Rect(Shape):
    def __init__(self, w: int, h: int) -> None:
        self.w = w
        self.h = h

    def area(self) -> int:
        return self.w * self.h


def total_area(sides: list[int]) -> int:
    assert all(s >= 0 for s in sides) and len(sides) <= 4
    shapes: list[Shape] = [Square(s) if i % 2 == 0 else Rect(s, s + 1) for i, s in enumerate(sides)]
    total = sum(shape.area() for shape in shapes)
    assert total >= 0
    return total


class Money:
    def __init__(self, cents: int) -> None:
        self.cents = cents

    def __add__(self, other: "Money") -> "Money":
        return Money(self.cents + other.cents)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Money) and self.cents == other.cents


def split_bill(total_cents: int, people: int) -> list[int]:
    assert total_cents >= 0 and 1 <= people <= 4
    share = total_cents // people
    parts = [Money(share) for _ in range(people)]
    paid = Money(0)
    for p in parts:
        paid = paid + p
    assert paid == Money(total_cents)  # BUG: the remainder cents are lost (total_cents=1, people=2)
    return [p.cents for p in parts]


class Queue:
    def __init__(self) -> None:
        self.inbox: list[int] = []
        self.outbox: list[int] = []

    def put(self, x: int) -> None:
        self.inbox.append(x)

    def get(self) -> int:
        if not self.outbox:
            while self.inbox:
                self.outbox.append(self.inbox.pop())
        return self.outbox.pop()


def queue_order(xs: list[int]) -> list[int]:
    assert len(xs) <= 4
    q = Queue()
    for x in xs:
        q.put(x)
    out = [q.get() for _ in xs]
    assert out == xs
    return out


class Inventory:
    def __init__(self) -> None:
        self.stock: dict[str, int] = {}

    def add(self, name: str, n: int) -> None:
        self.stock[name] = self.stock.get(name, 0) + n

    def __contains__(self, name: str) -> bool:
        return name in self.stock

    def __getitem__(self, name: str) -> int:
        return self.stock[name]

    def __len__(self) -> int:
        return len(self.stock)


def restock(names: list[str], n: int) -> int:
    assert n >= 1 and len(names) <= 4
    inv = Inventory()
    for name in names:
        inv.add(name, n)
    assert all(name in inv for name in names)
    assert all(inv[name] == n for name in names)  # BUG: a name listed twice is stocked twice (names=['a', 'a'], n=1)
    return len(inv)


class Point:
    def __init__(self, x: int, y: int) -> None:
        self.x = x
        self.y = y

    def __repr__(self) -> str:
        return f"Point({self.x}, {self.y})"


def describe_point(x: int, y: int) -> str:
    assert abs(x) < 1000 and abs(y) < 1000
    text = repr(Point(x, y))
    assert text.startswith("Point(") and text.endswith(")")
    return text


class Employee:
    def __init__(self, salary: int) -> None:
        self.salary = salary

    def bonus(self) -> int:
        return 0

    def monthly(self) -> int:
        return self.salary // 12


class Manager(Employee):
    def bonus(self) -> int:
        return self.salary // 10

    def monthly(self) -> int:
        return super().monthly() + self.bonus() // 12


def payroll(salary: int, is_manager: bool) -> int:
    assert 0 <= salary <= 10**6
    emp = Manager(salary) if is_manager else Employee(salary)
    pay = emp.monthly()
    assert pay * 12 <= salary + emp.bonus()
    assert pay > 0 or salary == 0  # BUG: a salary under 12 rounds down to nothing (salary=11, is_manager=False)
    return pay
