"""The `referee` command's arguments: every command, option and help text.

The command line (`cli.py`) parses with it, and the rulebook site renders its
command-line reference page from it, so neither imports the other.
"""

from __future__ import annotations

import argparse
import sys

from . import __version__
from .errors import EXIT_USAGE

EPILOG = """exit codes: 0 legal, 1 rule violation or contradicted figure, 2 usage error,
3 malformed record, 4 invalid spec or variant data, 5 internal error.
A FILE of '-' reads the record from standard input."""


class Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 2 with a short message, as argparse does
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="referee", description="Referee for Civitas Hamburgum, The Speicherstadt and Canterbury: replays game records against the rules.", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"referee {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    c = sub.add_parser("check", help="replay records and report legality, standings and the winner", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--variant", action="append", default=[], metavar="V", help="variant name or overlay file (repeatable; adds to the record's [Variant] tag)")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="check files in N processes")
    c.add_argument("-q", "--quiet", action="store_true", help="print only diagnostics and the verdict line")
    c.add_argument("--details", action="store_true", help="list each uncertain spec value the verdict relied on with its value and why it is uncertain (JSON always has them)")

    s = sub.add_parser("show", help="the full game state after move N", epilog=EPILOG)
    s.add_argument("file", metavar="FILE")
    s.add_argument("--at", type=int, default=None, metavar="N", help="after move N (default: the end of the record)")
    s.add_argument("--variant", action="append", default=[], metavar="V")
    s.add_argument("--format", choices=("text", "json"), default="text")

    m = sub.add_parser("moves", help="the legal next moves after the record's last move", epilog=EPILOG)
    m.add_argument("file", metavar="FILE")
    m.add_argument("--variant", action="append", default=[], metavar="V")
    m.add_argument("--all", action="store_true", help="list every move instead of grouping them")

    pl = sub.add_parser("play", help="write a complete random legal game as a record")
    pl.add_argument("game", metavar="GAME", help="speicherstadt, canterbury or hamburgum")
    pl.add_argument("--players", type=int, required=True, metavar="N")
    pl.add_argument("--seed", type=int, default=None, metavar="S", help="random seed (default: a fresh one, written in the record)")
    pl.add_argument("--variant", action="append", default=[], metavar="V")
    pl.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")

    v = sub.add_parser("validate", help="validate every spec and variant (schema, cross-references, totals)")
    v.add_argument("specdir", nargs="?", metavar="SPECDIR", help="a specs directory or one game's directory (default: the bundled specs)")
    v.add_argument("--provenance", action="store_true", help="list every value whose source is less than certain")

    d = sub.add_parser("docs", help="render the rulebook pages from the specs")
    d.add_argument("--out", default="docs/generated", metavar="DIR")
    return p
