"""Templates of the help centre: questions answered from its articles, and its tickets."""

from . import _help, articles, tickets  # noqa: F401
