"""The notation: a record's text read into header tags and entries (moves, checkpoints,
rulings, the result), each with its line and column; names compared as people write them."""
