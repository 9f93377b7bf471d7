"""The engine: a position that takes one entry at a time, and the replay of a record that
drives it and tells visitors what happened."""
