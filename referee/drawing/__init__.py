"""The pieces a game's pictures, views and sentences are made of: SVG elements and colours
(`svg`), a board graph laid out on a grid (`grid`), and the words a figure is written in
(`words`: text tables, counts with their units, ordinals).

It stands below the games, so that a game draws and words its positions without reaching up
to the pages and reports that show them (`pictures`, `report`).
"""
