"""Dataclasses (frozen and plain) and Enums: points, intervals, orders, cards, lights.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

import dataclasses
import math
from dataclasses import dataclass, field
from enum import Enum, IntEnum


@dataclass(frozen=True)
class Point:
    x: int
    y: int


class Direction(Enum):
    N = "north"
    E = "east"
    S = "south"
    W = "west"


DELTAS = {Direction.N: (0, 1), Direction.E: (1, 0), Direction.S: (0, -1), Direction.W: (-1, 1)}


def manhattan(a: Point, b: Point) -> int:
    assert abs(a.x) < 10**6 and abs(b.x) < 10**6
    d = abs(a.x - b.x) + abs(a.y - b.y)
    assert d >= 0
    return d


def move(p: Point, d: Direction) -> Point:
    assert abs(p.x) < 1000 and abs(p.y) < 1000
    dx, dy = DELTAS[d]
    new = Point(p.x + dx, p.y + dy)
    assert abs(new.x - p.x) + abs(new.y - p.y) == 1  # BUG: the table's west delta moves diagonally (p=Point(0, 0), d=Direction.W)
    return new


class Status(Enum):
    NEW = 1
    ACTIVE = 2
    DONE = 3


def next_status(s: Status, finished: bool) -> Status:
    assert isinstance(s, Status)
    if s is Status.NEW:
        result = Status.ACTIVE
    elif s is Status.ACTIVE and finished:
        result = Status.DONE
    else:
        result = s
    assert result.value >= s.value
    return result


@dataclass
class Order:
    quantity: int
    unit_price: int
    discount: int = 0

    def total(self) -> int:
        return self.quantity * self.unit_price - self.discount


def order_total(quantity: int, unit_price: int, coupon: bool) -> int:
    assert quantity >= 0 and unit_price >= 0
    order = Order(quantity, unit_price)
    if coupon:
        order.discount = 10
    total = order.total()
    assert total >= 0  # BUG: the flat discount can exceed a small order (quantity=1, unit_price=5, coupon=True)
    return total


class Priority(IntEnum):
    LOW = 1
    NORMAL = 2
    HIGH = 3
    CRITICAL = 4


def escalate(p: Priority) -> Priority:
    assert isinstance(p, Priority)
    result = Priority(min(p.value + 1, Priority.CRITICAL.value))
    assert result >= p
    return result


class Weekday(Enum):
    MON = 1
    TUE = 2
    WED = 3
    THU = 4
    FRI = 5
    SAT = 6
    SUN = 7


def days_until_friday(day: Weekday) -> int:
    assert isinstance(day, Weekday)
    n = Weekday.FRI.value - day.value
    assert n >= 0  # BUG: negative on the weekend (day=Weekday.SAT)
    return n


def is_weekend(day: Weekday) -> bool:
    assert isinstance(day, Weekday)
    result = day in (Weekday.SAT, Weekday.SUN)
    assert result == (day.value >= 6)
    return result


def with_x(p: Point, x: int) -> Point:
    assert abs(x) < 10**6
    q = dataclasses.replace(p, x=x)
    assert q.y == p.y and q.x == x
    return q


@dataclass(frozen=True)
class Interval:
    lo: int
    hi: int

    def length(self) -> int:
        return self.hi - self.lo


def overlap_length(a: Interval, b: Interval) -> int:
    assert a.lo <= a.hi and b.lo <= b.hi
    lo = max(a.lo, b.lo)
    hi = min(a.hi, b.hi)
    n = hi - lo
    assert n >= 0  # BUG: disjoint intervals give a negative overlap (a=Interval(0, 1), b=Interval(2, 3))
    return n


def merge_if_overlapping(a: Interval, b: Interval) -> Interval:
    assert a.lo <= a.hi and b.lo <= b.hi
    if a.lo <= b.hi and b.lo <= a.hi:
        merged = Interval(min(a.lo, b.lo), max(a.hi, b.hi))
        assert merged.length() <= a.length() + b.length()
        return merged
    return a


class Color(Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


def css_rule(c: Color) -> str:
    assert isinstance(c, Color)
    rule = f"color: {c.value};"
    assert rule.endswith(";") and c.value in rule
    return rule


class Rank(Enum):
    TWO = 2
    FIVE = 5
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14


def _card_value(r: Rank) -> int:
    if r is Rank.ACE:
        return 11
    return min(r.value, 10)


def hand_value(first: Rank, second: Rank) -> int:
    assert isinstance(first, Rank) and isinstance(second, Rank)
    total = _card_value(first) + _card_value(second)
    assert total <= 21  # BUG: two aces bust without the soft-ace rule (first=Rank.ACE, second=Rank.ACE)
    return total


def soft_hand_value(first: Rank, second: Rank) -> int:
    assert isinstance(first, Rank) and isinstance(second, Rank)
    total = _card_value(first) + _card_value(second)
    if total > 21:
        total -= 10
    assert 4 <= total <= 21
    return total


@dataclass
class Cart:
    items: list[str] = field(default_factory=list)

    def add(self, name: str) -> None:
        self.items.append(name)

    def count(self) -> int:
        return len(self.items)


def cart_size(names: list[str]) -> int:
    assert len(names) <= 4
    cart = Cart()
    for n in names:
        cart.add(n)
    assert cart.count() == len(names)
    return cart.count()


@dataclass
class Version:
    major: int
    minor: int


def _newer(a: Version, b: Version) -> bool:
    return a.major > b.major or a.minor > b.minor


def compare_versions(a: Version, b: Version) -> bool:
    assert a.major >= 0 and a.minor >= 0 and b.major >= 0 and b.minor >= 0
    result = _newer(a, b)
    assert not (result and _newer(b, a))  # BUG: minors are compared even when the majors differ (a=Version(2, 0), b=Version(1, 5))
    return result


def color_index(c: Color) -> int:
    assert isinstance(c, Color)
    idx = list(Color).index(c)
    assert 0 <= idx < len(Color)
    return idx


class Light(Enum):
    RED = 1
    GREEN = 2
    YELLOW = 3


CYCLE = [Light.RED, Light.GREEN, Light.YELLOW]


def advance(light: Light, steps: int) -> Light:
    assert 0 <= steps <= 5
    i = CYCLE.index(light)
    for _ in range(steps):
        i = (i + 1) % len(CYCLE)
    result = CYCLE[i]
    assert result is not Light.RED or steps % 3 == 0  # BUG: assumes the light starts red (light=Light.GREEN, steps=2)
    return result


def frozen_stays(x: int) -> int:
    assert abs(x) < 1000
    p = Point(x, 0)
    try:
        p.x = 5  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    assert p.x == x
    return p.x


@dataclass
class Ratio:
    num: int
    den: int

    def __post_init__(self) -> None:
        g = math.gcd(self.num, self.den)
        self.num //= g
        self.den //= g


def make_ratio(num: int, den: int) -> Ratio:
    assert den != 0
    r = Ratio(num, den)
    assert math.gcd(r.num, r.den) == 1
    assert r.den > 0  # BUG: __post_init__ keeps a negative denominator (num=1, den=-2)
    return r
