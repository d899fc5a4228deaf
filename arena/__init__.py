"""arena: a referee and tournament runner for bots playing hidden-information games."""

__version__ = "0.1.0"
