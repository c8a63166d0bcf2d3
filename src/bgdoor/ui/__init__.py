"""What the caller sees: the board renderer (pure) and screens built on the term layer."""
