"""What people read of a replay: diagnostics and standings as text or JSON, ledgers,
the position in text, lists of legal moves."""
