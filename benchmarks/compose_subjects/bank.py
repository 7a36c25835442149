"""The paper's bank account, with the balance passed along as an int (deposit, withdraw)."""


def deposit(balance: int, amount: int) -> int:
    if amount <= 0:
        raise ValueError("deposit must be positive")
    if balance + amount > 1000:
        raise ValueError("over the limit")
    return balance + amount


def withdraw(balance: int, amount: int) -> int:
    if amount <= 0:
        raise ValueError("withdrawal must be positive")
    if amount > balance:
        raise ValueError("insufficient funds")
    return balance - amount


def session(start: int, a: int, b: int, c: int) -> int:
    balance = deposit(start, a)
    balance = withdraw(balance, b)
    balance = deposit(balance, c)
    balance = withdraw(balance, a)
    balance = withdraw(balance, c)
    return balance


def withdraw_checked(balance: int, amount: int) -> int:
    left = withdraw(balance, amount)
    if left < 100:
        if left < 10:
            assert left != 7, "seeded error"
    return left


def seeded_session(start: int, a: int, b: int, c: int) -> int:
    """The target heuristics' subject: an error seeded on one path of withdraw_checked."""
    balance = deposit(deposit(deposit(start, a), b), c)
    return withdraw_checked(withdraw_checked(withdraw_checked(balance, a), b), c)
