"""The `referee` command's arguments: every command, option and help text.

The command line (`cli.py`) parses with it, and the rulebook site renders its
command-line reference page from it, so neither imports the other.
"""

from __future__ import annotations

import argparse
import sys

from referee import __version__
from referee.errors import EXIT_USAGE
from referee.i18n import LANGS, N_, _, current, ngettext
from referee.server import BURST, RATE

EPILOG = N_("""exit codes: 0 legal, 1 rule violation or contradicted figure, 2 usage error,
3 malformed record, 4 invalid spec or variant data, 5 internal error (or a file left
unchecked by a worker process that stopped), 6 standard output closed or full.
A pipe closed by its reader keeps the verdict's code (141 if it closed before the verdict).
A FILE of '-' reads the record from standard input.""")


RECORD_EPILOG = N_("""Each line typed is checked before it is written: a legal line is appended to FILE and
synced to the disk at once; a rejected one is shown as check shows it, with the nearest legal
moves, and is not written (a ruling typed next, such as "ruling accept", writes it with the
table's decision). Tab completes words and whole moves from the legal moves.
Commands inside the session: undo (take the last line back), show, moves, help, quit.
Ctrl-C clears the line; Ctrl-D or quit ends the session.

A FILE whose replay fails is shown with its error, and recording may go on after the last
good line (the rest is kept in FILE.rejected). With standard input not a terminal, lines are
read from it with the same checks and messages (the answer to that question is the first
line read). The exit code is check's for the file at the end.""")


SERVE_EPILOG = N_("""Open the address it prints in a browser. A new game is started from a form (game, variant,
players, start player), or a record of DIR is opened. Each tapped move is checked against
the rules and appended to the record file, synced to the disk, before any phone is told it
is kept, so `referee check` and `referee record` read the same file, and a stopped server
loses nothing. Every phone on a game sees each move within a second.

Bound to this machine (the default), no code is asked. With --host 0.0.0.0 the address of
the server is printed with its join code and a QR code of both; each game has its own join
code, shown on its page for the next phone. Stop the server with Ctrl-C.""")


SHOW = N_("""Where the game stands: the round and phase, who acts next and what the game waits for,
each player's figures in a table, and the board in text where that reads naturally.
--format yaml or json prints the whole state as data instead.
On a record with an error, the position is the one just before the line with the error.""")

DRAW = N_("""An SVG picture of a position, drawn from the game's spec and the state: the board as the
game's picture.yaml lays it out (a city, a rondel, a display and its queues, whatever the game has),
and every player's figures. Values that rest on a provisional spec value are marked '?'.
The picture scales to the width of the screen or page it is shown on.""")

LAB = N_("""Simulated games by agents that play, and what they show about the game and its data:
each seat's win rate with its 95% interval, scores, game length, margin of victory, lead
changes, how often each action, card or structure is chosen and how that goes with winning,
and the uncertain spec values the games relied on. Every figure comes with its sample size.

  referee lab canterbury --players 3 --games 200 --agent greedy,random --rotate -o lab.html
  referee lab speicherstadt --players 4 --games 400 --variant V --against none
  referee lab replay games/*.log --variant V

Agents: random, greedy (one ply: the move that is best for its player by final scoring as if
the game ended now; greedy:N tries at most N candidate moves, drawn at random), mcts (UCT with
random playouts; mcts:N for N playouts a decision). --agent greedy,random gives the first
seat greedy and the others random; --rotate moves the agents one seat on each game.

With --against, both sides play the same seeds (the same chance outcomes where the variants
allow) and the report gives each difference with its interval; the run stops early once a
sequential test (SPRT) settles whether the variant changes the first seat's chance of winning
by 15 points or more. The same seed gives the same games, locally, with -j or on Ray.

--sensitivity varies each provisional spec value the games relied on (its numbers) within
a stated range and ranks the values by how far they move the results: which printed numbers
to read off the box first.

--ray runs the games on Ray (pip install 'referee[lab]'): a local cluster without an address,
or an existing one (ray start --head; then --ray HEAD:6379, or --ray auto on a node).

'referee lab replay RECORDS... --variant V' checks real records again under a variant and
lists those whose verdict or winner changes. Exit codes: 0 when every game was played, 2 usage,
4 a variant or spec the games cannot be played with (or that left a game no legal way on),
5 internal error (a game the referee could not play; the report counts and names it).""")

REPLAY = N_("""One HTML file that needs nothing else (no network, opens from disk): the record's moves
beside a picture of the position, each move told in a plain sentence, the left and right arrow
keys to step, diagnostics at their lines, and a chart of each player's score and money by round.""")


BOX = N_("""The numbers of your own box for what no source prints (such as tile costs, a city map,
the points of a card), for the games whose specs ask for them.

  referee box GAME                  the questions, one per value, as a file to fill in (-o FILE)
  referee box GAME --interactive    the questions one by one, each answer checked as it is typed
  referee box GAME --use FILE       keep the filled file; every command uses it for GAME from then on
  referee box GAME --show           which file is in use and what it changed
  referee box GAME --forget         stop using it: the stand-ins again
  referee box GAME --infer RECORDS  the printed numbers the records' checkpoints determine

The file is kept in the configuration folder ($XDG_CONFIG_HOME/referee/box, or
~/.config/referee/box). A record can still name variants on top of it. With --infer, the
exit code is 1 when a record's checkpoints fit no numbers at all.""")


def _position_options(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--at", type=int, default=None, metavar="N", help=_("after move N, counting moves (0: before the first; default: the end of the record)"))
    where.add_argument("--line", type=int, default=None, metavar="N", help=_("after the entry on line N of the record, so that a diagnostic's line number can be used directly"))


class Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 2 with a short message, as argparse does
        self.print_usage(sys.stderr)
        self._print_message(_("{prog}: error: {message}").format(prog=self.prog, message=message) + "\n", sys.stderr)
        raise SystemExit(EXIT_USAGE)

    def _print_message(self, message, file=None):
        """Help, usage and errors go through `output`: escaped, and a full or closed stream
        turns into the right exit code, not a traceback."""
        from referee.cli.output import say, warn

        if message:
            (warn if file is sys.stderr else say)(message, end="")


def processes(text: str) -> int:
    """A number of worker processes: 1 or more."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number of processes").format(text=text)) from None
    if count < 1:
        raise argparse.ArgumentTypeError(_("{count}: give 1 or more processes").format(count=count))
    return count


RULE = N_("""\
Look a rule up by the id a diagnostic names, without a browser: its title and text, its source,
how the referee checks it, the shortest record that breaks it with what `referee check` says
about it and the line that passes instead (or why no record can break it), and its link on the
rulebook site.

  referee rule speicherstadt/purchase-funds
  referee rule purchase-funds          (the game may be left out when the id is unique)
""")

VARIANT_HELP = N_("a variant by name, or (on the command line only) the path of an overlay file of your own; repeatable")
FILE_HELP = N_("a game record, or - for standard input")


def language_option(parser: argparse.ArgumentParser) -> None:
    """`--lang`, which every command takes (before or after its name)."""
    parser.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help=_("the language of messages, help and pages: en, hu or de (default: from the locale, LANG or LC_ALL; else en)"))


def language_asked(argv: list[str]) -> str | None:
    """The language `--lang` asks for, read before the parser is built so that its help is
    in that language; None when not given (or given wrong, for the parser to refuse)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1] if argv[i + 1] in LANGS else None
        if arg.startswith("--lang="):
            value = arg.partition("=")[2]
            return value if value in LANGS else None
    return None


REPAIR_EPILOG = N_("""\
Each repaired place gets a comment line naming the line it was and what the record wrote there;
a line left out stays as a comment. The repaired record is checked before it is written: when
it still breaks a rule (a slip no edit could repair), nothing is written and the problems left
are listed, with the exit code they give. Exit 0: the repaired record (or the record, when
nothing needed a repair) was written and is legal.
""")


def games(names: bool = False) -> list[str]:
    """The games of the data folder, as the game registry finds them (a folder with a
    game.yaml): their ids, or with `names` their names in the language in use (the id where
    a game.yaml gives none)."""
    from referee.spec.loader import SpecError, available_games, read_yaml, specs_root

    found = available_games()
    if not names:
        return found
    out = []
    for game in found:
        try:
            meta = read_yaml(specs_root() / game / "game.yaml")
            given = meta["names"].get(current()) or meta["names"]["en"]
        except (SpecError, OSError, KeyError, TypeError, AttributeError):
            given = None
        out.append(given if isinstance(given, str) and given.strip() else game)
    return out


def listed(items: list[str], style: str = "standard") -> str:
    """Items as a sentence lists them in the language in use: `a, b and c`, `a, b or c` (style "or")."""
    from babel.lists import format_list

    return format_list(items, style=style, locale=current()) if items else "-"


def build_parser() -> argparse.ArgumentParser:
    # argparse words its own parts (usage:, options, invalid choice ...) through gettext, by
    # the names `_` and `ngettext` of its module: they are given our catalogues
    argparse._ = _
    argparse.ngettext = ngettext
    p = Parser(
        prog="referee",
        description=_("Referee for {games}: replays game records against the rules.").format(games=listed(games(names=True))),
        epilog=_(EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    one_of = listed(games(), "or")  # the games a GAME may name, from the data folder
    language_option(p)
    p.add_argument("--version", action="version", version=f"referee {__version__}", help=_("show the referee's version and exit"))
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    def command(name: str, does: str, epilog: str | None = EPILOG, description: str | None = None) -> argparse.ArgumentParser:
        """A command whose one-line help in `referee --help` is also what its own --help says
        (or a longer `description` of its own)."""
        does = _(does)
        found = sub.add_parser(
            name,
            help=does,
            description=_(description) if description else does[:1].upper() + does[1:] + ".",
            epilog=_(epilog) if epilog else None,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        language_option(found)
        return found

    c = command("check", N_("replay records and report legality, standings and the winner"))
    c.add_argument("files", nargs="+", metavar="FILE", help=_("the game records to check, or - for standard input"))
    c.add_argument("--variant", action="append", default=[], metavar="V", help=_("variant name or overlay file (repeatable; adds to the record's [Variant] tag)"))
    c.add_argument("--format", choices=("text", "json"), default="text", help=_("text for people, json for programs"))
    c.add_argument(
        "-j",
        "--jobs",
        type=processes,
        default=1,
        metavar="N",
        help=_(
            "check files in up to N processes (at most one per processor; a few small files are checked in this one, where starting processes would cost more than it saves; results print in the order given)"
        ),
    )
    c.add_argument("-q", "--quiet", action="store_true", help=_("print only diagnostics and the verdict line"))
    c.add_argument("--details", action="store_true", help=_("list each uncertain spec value the verdict relied on with its value and why it is uncertain (JSON always has them)"))
    c.add_argument(
        "--keep-going",
        action="store_true",
        help=_(
            "report every problem of a record, not just the first, each with the small edit (another player, a neighbouring number, the nearest name, a missing or extra line, two lines swapped) under which the rest of the record reads on; the replay goes on from the repaired position (referee repair writes it)"
        ),
    )

    fx = command("repair", N_("write the record with each slip's proposed repair applied, as check --keep-going proposes them"), epilog=REPAIR_EPILOG)
    fx.add_argument("file", metavar="FILE", help=_(FILE_HELP))
    fx.add_argument("-o", "--out", metavar="OUT", help=_("write the repaired record to OUT (default: standard output)"))
    fx.add_argument("--in-place", action="store_true", help=_("replace FILE itself with the repaired record (FILE is never changed otherwise)"))
    fx.add_argument("--variant", action="append", default=[], metavar="V", help=_(VARIANT_HELP))

    s = command("show", N_("where the game stands after move N: whose turn, the phase, each player's figures, the board"), description=SHOW)
    s.add_argument("file", metavar="FILE", help=_(FILE_HELP))
    _position_options(s)
    s.add_argument("--variant", action="append", default=[], metavar="V", help=_(VARIANT_HELP))
    s.add_argument("--format", choices=("text", "yaml", "json"), default="text", help=_("text: a summary to read (default); yaml or json: the whole state as data"))

    m = command("moves", N_("the legal next moves after the record's last move"))
    m.add_argument("file", metavar="FILE", help=_(FILE_HELP))
    m.add_argument("--variant", action="append", default=[], metavar="V", help=_(VARIANT_HELP))
    m.add_argument("--all", action="store_true", help=_("list every move instead of grouping them"))

    e = command("explain", N_("the ledger behind a figure: its start value and every change, with the line, the move and the rule"))
    e.add_argument("file", metavar="FILE", help=_(FILE_HELP))
    e.add_argument("colour", metavar="COLOUR", help=_("the player's colour or name (in Canterbury also city, or neutral)"))
    e.add_argument("figure", metavar="FIGURE", help=_("a figure a checkpoint may state, such as coins, money, prestige or prosperity"))
    e.add_argument("--line", type=int, default=None, metavar="N", help=_("the figure as it stands after line N of the record (default: the end)"))
    e.add_argument("--variant", action="append", default=[], metavar="V", help=_(VARIANT_HELP))
    e.add_argument("--format", choices=("text", "json"), default="text", help=_("text for people, json for programs"))

    dr = command("draw", N_("an SVG picture of the position after move N"), description=DRAW)
    dr.add_argument("file", metavar="FILE", help=_(FILE_HELP))
    _position_options(dr)
    dr.add_argument("-o", "--out", metavar="OUT.svg", help=_("write the picture to this file instead of standard output"))
    dr.add_argument("--variant", action="append", default=[], metavar="V", help=_(VARIANT_HELP))

    rp = command("replay", N_("a self-contained HTML page that steps through the record"), description=REPLAY)
    rp.add_argument("file", metavar="FILE", help=_(FILE_HELP))
    rp.add_argument("-o", "--out", metavar="OUT.html", help=_("write the page to this file instead of standard output"))
    rp.add_argument("--variant", action="append", default=[], metavar="V", help=_(VARIANT_HELP))

    r = command("record", N_("record a game as it is played: each line checked against the rules before it is written, Tab completes the legal moves"), epilog=RECORD_EPILOG)
    r.add_argument("file", metavar="FILE", help=_("the record to write; an existing one is replayed and resumed at its end"))
    r.add_argument("--game", metavar="G", type=game_name, help=_("the game of a new record, in any case: {games}").format(games=one_of))
    r.add_argument("--players", metavar="P", help=_('the players of a new record in seat order, each a colour and an optional name: "red Ann, blue Ben"'))
    r.add_argument("--start", metavar="C", help=_("the start player's colour in a new record (default: the first seat)"))
    r.add_argument("--variant", action="append", default=[], metavar="V", help=_("variant name or overlay file (repeatable); a new record names the variants in its header"))

    sv = command("serve", N_("a local web app for the phones at the table: one tap a move, every phone in step"), epilog=SERVE_EPILOG)
    sv.add_argument(
        "--games", metavar="DIR", default=None, help=_("the folder of record files the app opens and writes (default: referee/games in the user's data folder, e.g. ~/.local/share/referee/games)")
    )
    sv.add_argument(
        "--host",
        metavar="H",
        default="127.0.0.1",
        help=_("the address to listen on (default: 127.0.0.1, this machine only); 0.0.0.0 lets the phones on the room's network in, and every game then needs its join code"),
    )
    sv.add_argument("--port", metavar="P", type=int, default=8765, help=_("the port to listen on (default: 8765)"))
    sv.add_argument(
        "--rate",
        metavar="R",
        type=float,
        default=RATE,
        help=_("requests a second each address may make, in bursts of {burst} times as many (default: {rate:g}; raise it where many phones share one address)").format(burst=BURST, rate=RATE),
    )

    pl = command("play", N_("write a complete random legal game as a record"), epilog=None)
    pl.add_argument("game", metavar="GAME", type=game_name, help=_("the game, in any case: {games}").format(games=one_of))
    pl.add_argument("--players", type=int, required=True, metavar="N", help=_("how many players sit at the table (within the game's player counts)"))
    pl.add_argument("--seed", type=int, default=None, metavar="S", help=_("random seed (default: a fresh one, written in the record)"))
    pl.add_argument("--variant", action="append", default=[], metavar="V", help=_(VARIANT_HELP))
    pl.add_argument("--out", metavar="FILE", help=_("write to FILE instead of standard output ('-' is standard output)"))

    lab = command("lab", N_("simulated games by agents: seat win rates, lengths, margins, choices, with intervals; HTML and JSON"), description=LAB, epilog=None)
    lab.add_argument("game", metavar="GAME", type=game_name, help=_("the game ({games}), or 'replay' to check RECORDS again under --variant").format(games=one_of))
    lab.add_argument("records", nargs="*", metavar="RECORDS", help=_("with 'replay': the game records to check again"))
    lab.add_argument("--players", type=int, metavar="N", help=_("how many players sit at the table (required for a run)"))
    lab.add_argument("--games", type=int, default=100, metavar="K", help=_("games to play per side (default: 100)"))
    lab.add_argument("--variant", action="append", default=[], metavar="V", help=_(VARIANT_HELP))
    lab.add_argument("--against", action="append", default=None, metavar="BASE", help=_("compare with this side on the same seeds: a variant (repeatable), or 'none' for the plain rules"))
    lab.add_argument(
        "--agent", default="random", metavar="A", help=_("the agents in seat order, comma-separated (random, greedy, greedy:N, mcts, mcts:N); the last fills the other seats (default: random)")
    )
    lab.add_argument("--rotate", action="store_true", help=_("move the agents one seat on for each game, so every agent sits in every seat equally often"))
    lab.add_argument("--seed", type=int, default=1, metavar="S", help=_("the run's seed: the same seed plays the same games (default: 1)"))
    lab.add_argument("-j", "--jobs", type=processes, default=1, metavar="N", help=_("play games in N local worker processes (default: 1)"))
    lab.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS", help=_("play the games on Ray: a local Ray without ADDRESS, else the cluster at ADDRESS ('auto' on a node of one)"))
    lab.add_argument(
        "--sensitivity",
        nargs="?",
        type=float,
        const=0.25,
        default=None,
        metavar="SHARE",
        help=_("also vary each provisional number the games relied on down and up by SHARE of itself (default 0.25, at least 1), and rank the values by how far the results move"),
    )
    lab.add_argument("--sensitivity-games", type=int, default=40, metavar="K", help=_("games per setting for --sensitivity (default: 40, at most --games)"))
    lab.add_argument("-o", "--out", metavar="REPORT.html", help=_("write the self-contained HTML report (charts included) to this file"))
    lab.add_argument("--json", metavar="FILE", dest="json_out", help=_("write the figures (and every game's result) as JSON to FILE"))
    lab.add_argument(
        "--records-out",
        metavar="DIR",
        help=_("write each game played as a record into the folder DIR (made if missing; game-0001.log and on, base-game-0001.log for --against), to check, replay or show"),
    )
    lab.add_argument("--format", choices=("text", "json"), default="text", help=_("what standard output gets: text for people (default), json for programs"))

    v = command("validate", N_("validate every spec and variant (schema, cross-references, totals)"), epilog=None)
    v.add_argument("specdir", nargs="?", metavar="SPECDIR", help=_("a specs directory or one game's directory (default: the bundled specs)"))
    v.add_argument("--provenance", action="store_true", help=_("list every value whose source is less than certain"))

    ru = command("rule", N_("one rule by its id: its text, the record that breaks it with what check says, the fix, and its page"), epilog=None, description=RULE)
    ru.add_argument("rule", metavar="ID", help=_("a rule id as a diagnostic names it in error[...], such as speicherstadt/purchase-funds (the game may be left out when only one game has the rule)"))

    b = command("box", N_("the group's own printed numbers for what no source gives, entered once and used by every command"), description=BOX, epilog=None)
    b.add_argument("game", metavar="GAME", type=game_name, help=_("the game, in any case: {games}").format(games=one_of))
    mode = b.add_mutually_exclusive_group()
    mode.add_argument("--interactive", action="store_true", help=_("ask the questions one by one and keep the answers (or write them to -o FILE)"))
    mode.add_argument("--use", metavar="FILE", help=_("check a filled box file and keep it: every command uses it for GAME"))
    mode.add_argument("--show", action="store_true", help=_("say which box file is in use, what it changed and what is still open"))
    mode.add_argument("--forget", action="store_true", help=_("stop using the box file of GAME"))
    mode.add_argument("--infer", nargs="+", metavar="RECORDS", help=_("work out printed numbers from the checkpoints of these records"))
    b.add_argument("-o", "--out", metavar="FILE", help=_("write the template (or with --infer, the template with the numbers found) to FILE"))
    b.add_argument("--variant", action="append", default=[], metavar="V", help=_("with --infer: a variant for every record, on top of their own"))

    d = command("docs", N_("render the rulebook pages from the specs as Markdown files (mkdocs build makes the site)"), epilog=None)
    d.add_argument(
        "--out",
        default="docs/generated",
        metavar="DIR",
        help=_("the folder to write the pages into, one Markdown file per page (default: docs/generated); it is replaced whole, and refused if it holds files that referee docs did not write"),
    )
    return p


def game_name(text: str) -> str:
    """A game as the command line names it: its id in any case (`Speicherstadt`)."""
    import unicodedata

    return unicodedata.normalize("NFC", text).strip().lower()
