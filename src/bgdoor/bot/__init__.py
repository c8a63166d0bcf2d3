"""The computer opponent.

`bgdoor.bot.brain` has the levels and the `Bot` that plays them; it loads
numpy (and the net's weights) when first imported, so this package itself
stays cheap to import.
"""
