import deal
import icontract

from .util import cents


@icontract.ensure(lambda result: result <= 100)
def discount(pct: int) -> int:
    if pct > 150:
        return 100
    return pct


@deal.pre(lambda qty: qty > 0)
@deal.post(lambda result: result > 0)
def total(qty: int, price: int) -> int:
    return qty * cents(price)


def share(parts: int) -> int:
    whole = 100
    assert parts != 3, "three parts"  # not a leading assert (a precondition): a bug
    return whole // parts
