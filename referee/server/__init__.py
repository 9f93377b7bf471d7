"""`referee serve`: the table's phones record a game together, one tap a move.

The web app (app.py) reads and writes record files as `referee record` does, through the
same session (`recording.session.Recording`), which checks each line against the rules one
entry at a time and appends it, synced, before it answers.
"""
