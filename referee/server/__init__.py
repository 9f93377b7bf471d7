"""`referee serve`: the table's phones record a game together, one tap a move.

The web app (app.py) reads and writes record files as `referee record` does, through the
same session (`recording.session.Recording`), which checks each line against the rules one
entry at a time and appends it, synced, before it answers.
"""

RATE = 20.0  # requests a second from one address, by default: a table of phones, with room
BURST = 6  # a burst may hold this many seconds' worth of requests (a page and its picture at once)
