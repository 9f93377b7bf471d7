"""`referee record`: a record written as the game is played, each line checked before it
is saved, with files written so that a stop at any moment loses nothing accepted."""
