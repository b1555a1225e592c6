"""sqlnb's version, recorded with every model it trains."""

__version__ = "0.3.3"
