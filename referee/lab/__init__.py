"""Games played by agents through the engine: random legal games, and simulations."""
