"""bgdoor: a multi-user backgammon door for bulletin-board systems."""

__version__ = "0.1.0"
