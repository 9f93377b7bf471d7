"""The `referee` command: its arguments, its commands and its exit codes. Only the
entry point imports this package."""
