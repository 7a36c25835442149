"""A small account class: methods, fields, explicit raises and a latent bug."""


class InsufficientFunds(Exception):
    pass


class Account:
    def __init__(self, balance: int):
        if balance < 0:
            raise ValueError("negative opening balance")
        self.balance = balance
        self.history = []

    def deposit(self, amount: int) -> int:
        if amount <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amount
        self.history.append(amount)
        return self.balance

    def withdraw(self, amount: int) -> int:
        if amount > self.balance:
            raise InsufficientFunds("not enough money")
        self.balance -= amount
        self.history.append(-amount)
        return self.balance

    def average_deposit(self) -> int:
        total = 0
        count = 0
        for amount in self.history:
            if amount > 0:
                total += amount
                count += 1
        return total // count  # bug: ZeroDivisionError when nothing was deposited


def transfer(source_balance: int, target_balance: int, amount: int) -> int:
    source = Account(source_balance)
    target = Account(target_balance)
    try:
        source.withdraw(amount)
    except InsufficientFunds:
        return -1
    target.deposit(amount)
    return target.balance
