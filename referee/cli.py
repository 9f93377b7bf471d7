"""The `referee` command."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .arguments import build_parser
from .errors import EXIT_INTERNAL, EXIT_OK, EXIT_SPEC, EXIT_USAGE, SpecError, UsageError
from .movelist import GROUP_ABOVE, grouped_moves

# The engine, the spec loader and the parser are imported inside the commands
# that use them, so that `--version` and `--help` answer at once.


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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


def _check_one(job: tuple[str, list[str], bool, bool]) -> tuple[int, str, dict]:
    from .engine import check_bytes
    from .report import format_report, report_json

    path, variants, details, keep_going = job
    try:
        data, name = _read(path)
    except UsageError as exc:
        return EXIT_USAGE, f"referee check: error: {exc}", {"file": path, "status": "usage", "exit_code": EXIT_USAGE}
    report = check_bytes(data, name, variants, keep_going=keep_going)
    return report.exit_code, format_report(report, details), report_json(report)


def cmd_check(args) -> int:
    if "-" in args.files and len(args.files) > 1:
        raise UsageError("'-' (standard input) cannot be combined with other files")
    jobs = [(f, args.variant, args.details, args.keep_going) for f in args.files]
    from .parallel import worth_processes

    if args.jobs > 1 and len(jobs) > 1 and worth_processes(args.files):
        from .parallel import load_games_of, map_in_processes

        results = map_in_processes(_check_one, jobs, args.jobs, prepare=lambda: load_games_of(args.files, args.variant))
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


def cmd_show(args) -> int:
    from .display import show

    data, name = _read(args.file)
    return show(args, data, name)


def cmd_draw(args) -> int:
    from .display import draw

    data, name = _read(args.file)
    return draw(args, data, name)


def cmd_replay(args) -> int:
    from .display import replay

    data, name = _read(args.file)
    return replay(args, data, name)


def cmd_moves(args) -> int:
    """The legal next moves; on a record with an error, those just before its line."""
    from .display import position_of
    from .terminal import visible

    data, name = _read(args.file)
    position = position_of(args, data, name)
    state, report = position.state, position.report
    if state is None:
        return report.exit_code
    if state.is_over():
        print(visible(f"{report.name}: the game is over; no moves follow"))
        return report.exit_code
    moves = state.game.move_hints(state)
    grouped = not args.all and len(moves) > GROUP_ABOVE
    count = f"{len(moves)} legal next move{'' if len(moves) == 1 else 's'}"
    print(visible(f"{report.name}: {count} {position.where}{' (grouped; --all lists each)' if grouped else ''}"))
    for line in grouped_moves(moves) if grouped else moves:
        print(f"  {line}")
    return report.exit_code


def cmd_record(args) -> int:
    options = {"game": args.game, "players": args.players, "start": args.start, "variants": args.variant}
    if sys.stdin.isatty():
        from .record_prompt import record_terminal

        return record_terminal(args.file, **options)
    from .record import record_stream

    return record_stream(args.file, sys.stdin.buffer, **options)


def cmd_explain(args) -> int:
    from .explain import cannot_explain, explain_bytes, explanation_json, format_explanation

    data, name = _read(args.file)
    report, explanation = explain_bytes(data, name, args.variant, args.colour, args.figure, args.line)
    if explanation is None:
        print(cannot_explain(report), file=sys.stderr)
        return report.exit_code
    if args.format == "json":
        print(json.dumps(explanation_json(report, explanation), indent=2, ensure_ascii=False))
    else:
        print(format_explanation(report, explanation))
    return report.exit_code


def cmd_play(args) -> int:
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

    try:
        written = write_docs(Path(args.out))
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename or args.out}: {exc.strerror or exc}") from None
    pages = sum(1 for path in written if path.suffix == ".md")
    print(f"wrote {pages} pages and {len(written) - pages} replay pages and pictures to {args.out}")
    return EXIT_OK


COMMANDS = {"check": cmd_check, "show": cmd_show, "draw": cmd_draw, "replay": cmd_replay, "moves": cmd_moves, "explain": cmd_explain, "record": cmd_record, "play": cmd_play, "validate": cmd_validate, "docs": cmd_docs}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
