def cents(price: int) -> int:
    """post: __return__ >= 0"""
    return price * 100
