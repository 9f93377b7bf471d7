"""The `referee` command."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import __version__

# The engine, the spec loader and the parser are imported inside the commands
# that use them, so that `--version` and `--help` answer at once.

EPILOG = """exit codes: 0 legal, 1 rule violation or contradicted figure, 2 usage error,
3 malformed record, 4 invalid spec or variant data, 5 internal error.
A FILE of '-' reads the record from standard input."""


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 2 with a short message, as argparse does
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        from .engine import EXIT_USAGE

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


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from .engine import EXIT_INTERNAL, EXIT_OK, EXIT_SPEC, EXIT_USAGE
    from .spec import SpecError

    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    try:
        return COMMANDS[args.command](args)
    except UsageError as exc:
        print(f"referee {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except SpecError as exc:
        print(exc.display(), file=sys.stderr)
        return EXIT_SPEC
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug in the referee: say so plainly, without a traceback
        print(f"referee {args.command}: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_INTERNAL


def _read(path: str) -> tuple[bytes, str]:
    from .engine import read_source

    try:
        return read_source(path)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


def _check_one(job: tuple[str, list[str]]) -> tuple[int, str, dict]:
    from .engine import EXIT_USAGE, check_bytes, format_report, report_json

    path, variants = job
    try:
        data, name = _read(path)
    except UsageError as exc:
        return EXIT_USAGE, f"referee check: error: {exc}", {"file": path, "status": "usage", "exit_code": EXIT_USAGE}
    report = check_bytes(data, name, variants)
    return report.exit_code, format_report(report), report_json(report)


def cmd_check(args) -> int:
    if "-" in args.files and len(args.files) > 1:
        raise UsageError("'-' (standard input) cannot be combined with other files")
    jobs = [(f, args.variant) for f in args.files]
    if args.jobs > 1 and len(jobs) > 1:
        from concurrent.futures import ProcessPoolExecutor

        workers = min(args.jobs, len(jobs))  # the pool starts every worker at once
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_check_one, jobs, chunksize=max(1, len(jobs) // (workers * 4))))
    else:
        results = [_check_one(j) for j in jobs]
    code = max(r[0] for r in results)
    if args.format == "json":
        payload = [r[2] for r in results]
        print(json.dumps(payload[0] if len(payload) == 1 else payload, indent=2, ensure_ascii=False))
    else:
        for i, (_, text, _) in enumerate(results):
            if args.quiet:
                text = "\n".join(line for line in text.split("\n") if not line.startswith("  ") and not line.endswith(":"))
            if i:
                print()
            print(text)
    return code


def _replay_for_state(path: str, variants: list[str], at: int | None):
    from .engine import check_bytes

    data, name = _read(path)
    report = check_bytes(data, name, variants, stop_after=at)
    return report


def cmd_show(args) -> int:
    from .engine import format_diagnostic, format_report

    if args.at is not None and args.at < 0:
        raise UsageError("--at takes a move number of 0 or more")
    report = _replay_for_state(args.file, args.variant, args.at)
    if report.state is None or report.status in ("malformed", "invalid-spec", "internal-error"):
        print(format_report(report), file=sys.stderr)
        return report.exit_code
    if args.at is not None and report.moves < args.at and report.status == "legal":
        raise UsageError(f"the record has only {report.moves} moves")
    state = report.state.describe()
    summary = {"file": report.name, "game": report.game, "after_move": report.moves, "status": report.status, "state": state}
    for d in report.errors:  # why the replay stopped early, in either format
        print(format_diagnostic(report, d), file=sys.stderr)
    if args.format == "json":
        print(json.dumps(summary, indent=2, ensure_ascii=False, default=str))
    else:
        import yaml

        print(f"{report.name}: state after move {report.moves} ({report.status})")
        print(yaml.safe_dump(state, sort_keys=False, allow_unicode=True, width=100).rstrip())
    return report.exit_code


def cmd_moves(args) -> int:
    from .engine import EXIT_OK, format_report

    report = _replay_for_state(args.file, args.variant, None)
    if report.status != "legal":
        print(format_report(report), file=sys.stderr)
        return report.exit_code
    state = report.state
    if state.is_over():
        print(f"{report.name}: the game is over; no moves follow")
        return EXIT_OK
    moves = state.move_hints()
    grouped = not args.all and len(moves) > GROUP_ABOVE
    print(f"{report.name}: {len(moves)} legal next moves after move {report.moves}{' (grouped; --all lists each)' if grouped else ''}")
    for line in grouped_moves(moves) if grouped else moves:
        print(f"  {line}")
    return EXIT_OK


GROUP_ABOVE = 30  # more moves than this are shown grouped


def grouped_moves(moves: list[str], shown: int = 4) -> list[str]:
    """Moves grouped by player and action, each group with its count and its first few moves.

    Grouping keys on the first words (`blue: tax build`), so a group's moves are shown with
    the key left off: `blue: tax build (45): well b1; well c1; ...`.
    """
    groups: dict[str, list[str]] = {}
    for text in moves:
        words = text.split()
        key = " ".join(words[:3]) if words and words[0].endswith(":") else " ".join(words[:2])
        groups.setdefault(key, []).append(text)
    lines = []
    for key, items in groups.items():
        rests = [item[len(key):].strip() for item in items]
        if rests == [""]:
            lines.append(key)
            continue
        listed = "; ".join(r or "(no more)" for r in rests[:shown])
        lines.append(f"{key} ({len(items)}): {listed}{'; ...' if len(items) > shown else ''}")
    return lines


def cmd_play(args) -> int:
    from .engine import EXIT_OK
    from .play import play_game
    from .spec import available_games

    if args.game not in available_games():
        raise UsageError(f"unknown game {args.game!r}; games: {', '.join(available_games())}")
    text = play_game(args.game, args.players, args.seed, args.variant)
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_validate(args) -> int:
    from .spec import specs_root
    from .validate import validate

    root = Path(args.specdir) if args.specdir else specs_root()
    if not root.exists():
        raise UsageError(f"{root} does not exist")
    lines, code = validate(root, provenance=args.provenance)
    for line in lines:
        print(line, file=sys.stderr if line.startswith(("error", "  error")) or ": error:" in line else sys.stdout)
    return code


def cmd_docs(args) -> int:
    from .docs import write_docs
    from .engine import EXIT_OK

    try:
        written = write_docs(Path(args.out))
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename or args.out}: {exc.strerror or exc}") from None
    print(f"wrote {len(written)} pages to {args.out}")
    return EXIT_OK


COMMANDS = {"check": cmd_check, "show": cmd_show, "moves": cmd_moves, "play": cmd_play, "validate": cmd_validate, "docs": cmd_docs}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
