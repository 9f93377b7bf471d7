"""The `referee` command."""

from __future__ import annotations

import contextlib
import functools
import gc
import sys
from pathlib import Path

from referee.cli import output
from referee.cli.arguments import build_parser
from referee.errors import EXIT_INTERNAL, EXIT_OK, EXIT_SPEC, EXIT_USAGE, SpecError, UsageError
from referee.report.movelist import GROUP_ABOVE, grouped_moves
from referee.cli.output import say, warn
from referee.terminal import readable_name

# The engine, the spec loader and the parser are imported inside the commands
# that use them, so that `--version` and `--help` answer at once.


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit code holds even when standard output or error fail (see output)."""
    guard = output.Guard()
    code = None
    stop: SystemExit | None = None
    with guard:
        try:
            code = _run(argv)
        except SystemExit as exc:  # --help, --version, or a usage error argparse has explained
            stop = exc
    if stop is not None and guard.failure is None:
        raise stop  # as argparse means it, now that its message is out
    return guard.exit_code(code if stop is None else stop.code if isinstance(stop.code, int) else EXIT_USAGE)


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    try:
        return COMMANDS[args.command](args)
    except UsageError as exc:
        warn(f"referee {args.command}: error: {exc}")
        return EXIT_USAGE
    except SpecError as exc:
        warn(exc.display())
        return EXIT_SPEC
    except KeyboardInterrupt:
        return 130
    except output.OutputFailed:
        raise
    except Exception as exc:  # a bug in the referee: say so plainly, without a traceback
        warn(f"referee {args.command}: internal error: {type(exc).__name__}: {exc}")
        return EXIT_INTERNAL


def _read(path: str) -> tuple[bytes, str]:
    from referee.engine.replay import read_source

    try:
        return read_source(path)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


def _check_one(job: tuple[str, list[str], bool, bool, str, bool]) -> tuple[int, str]:
    """One file checked, and its result as printed: text, or JSON when that is asked for
    (only the one asked for is built: a report's text can be far longer than its JSON)."""
    from referee.engine.replay import check_bytes
    from referee.report.diagnostics import format_report, report_json, unread_json

    path, variants, details, keep_going, form, quiet = job
    try:
        data, name = _read(path)
    except UsageError as exc:
        if form == "json":
            return EXIT_USAGE, output.dumps(unread_json(readable_name(path), str(exc), EXIT_USAGE))
        return EXIT_USAGE, f"referee check: error: {exc}"
    report = check_bytes(data, readable_name(name), variants, keep_going=keep_going)
    if form == "json":
        return report.exit_code, output.dumps(report_json(report))
    return report.exit_code, format_report(report, details, quiet=quiet)


def _not_checked(job: tuple[str, list[str], bool, bool, str, bool], why: str) -> tuple[int, str]:
    from referee.report.diagnostics import unread_json

    path, form = job[0], job[4]
    message = f"not checked: {why}"
    if form == "json":
        return EXIT_INTERNAL, output.dumps(unread_json(readable_name(path), message, EXIT_INTERNAL, status="not-checked"))
    return EXIT_INTERNAL, f"{readable_name(path)}: NOT CHECKED: {why}"


def cmd_check(args) -> int:
    """Each file's result is printed as soon as it and those before it are done, in the order
    of the command line, so that many files print steadily and memory stays flat. With -j,
    the games the records name are loaded here before the workers are forked (parallel.py)."""
    from referee.cli.parallel import load_games_of, worth_processes
    from referee.cli._workers import in_order, usable_processors

    if "-" in args.files and len(args.files) > 1:
        raise UsageError("'-' (standard input) cannot be combined with other files")
    jobs = [(f, args.variant, args.details, args.keep_going, args.format, args.quiet) for f in args.files]
    workers = min(args.jobs, len(jobs), usable_processors())
    if workers > 1 and not worth_processes(args.files):
        workers = 1  # a few small records: checked here, sooner than workers would start
    many_json = args.format == "json" and len(jobs) > 1
    worst = EXIT_OK
    prepare = functools.partial(load_games_of, args.files, args.variant)  # before the workers fork
    # Starting, a check makes tens of thousands of objects (the modules, the spec, the game's
    # tables) and replaying a record thousands more, and hardly any is garbage: the cyclic
    # collector ran some thirty times in a check of one long record, for nothing, a twentieth
    # of it. In this process it waits until the first record is done; workers collect as usual.
    held = workers == 1 and gc.isenabled()
    if held:
        gc.disable()
    try:
        with contextlib.closing(in_order(_check_one, jobs, workers, _not_checked, prepare=prepare)) as results:
            for i, (code, shown) in enumerate(results):
                if held:
                    gc.enable()
                    held = False
                worst = max(worst, code)
                output.verdict(worst, final=i == len(jobs) - 1)
                if many_json:
                    say(("[\n" if i == 0 else ",\n") + "  " + shown.replace("\n", "\n  "), end="")
                else:
                    if i:
                        say()
                    say(shown)
    finally:
        if held:  # the first record never came (an error, an interrupt): collect again all the same
            gc.enable()
    if many_json:
        say("\n]")
    return worst


def cmd_show(args) -> int:
    from referee.cli.position_commands import show

    data, name = _read(args.file)
    return show(args, data, readable_name(name))


def cmd_draw(args) -> int:
    from referee.cli.position_commands import draw

    data, name = _read(args.file)
    return draw(args, data, readable_name(name))


def cmd_replay(args) -> int:
    from referee.cli.position_commands import replay

    data, name = _read(args.file)
    return replay(args, data, readable_name(name))


def cmd_moves(args) -> int:
    """The legal next moves; on a record with an error, those just before its line."""
    from referee.cli.position_commands import position_of

    data, name = _read(args.file)
    position = position_of(args, data, readable_name(name))
    state, report = position.state, position.report
    if state is None:
        return report.exit_code
    output.verdict(report.exit_code)
    if state.is_over():
        say(f"{report.name}: the game is over; no moves follow")
        return report.exit_code
    moves = state.game.move_hints(state)
    grouped = not args.all and len(moves) > GROUP_ABOVE
    count = f"{len(moves)} legal next move{'' if len(moves) == 1 else 's'}"
    say(f"{report.name}: {count} {position.where}{' (grouped; --all lists each)' if grouped else ''}")
    for line in grouped_moves(moves) if grouped else moves:
        say(f"  {line}")
    return report.exit_code


def cmd_record(args) -> int:
    options = {"game": args.game, "players": args.players, "start": args.start, "variants": args.variant,
               "say": output.say, "verdict": output.verdict}
    if sys.stdin is not None and sys.stdin.isatty() and sys.stdout is not None and sys.stdout.isatty():
        from referee.recording.prompt import record_terminal

        return record_terminal(args.file, **options)
    from referee.recording.session import record_stream

    return record_stream(args.file, sys.stdin.buffer if sys.stdin is not None else None, **options)


def cmd_explain(args) -> int:
    from referee.report.explain import cannot_explain, explain_bytes, explanation_json, format_explanation

    data, name = _read(args.file)
    report, explanation = explain_bytes(data, readable_name(name), args.variant, args.colour, args.figure, args.line)
    if explanation is None:
        warn(cannot_explain(report))
        return report.exit_code
    output.verdict(report.exit_code)
    if args.format == "json":
        say(output.dumps(explanation_json(report, explanation)))
    else:
        say(format_explanation(report, explanation))
    return report.exit_code


def cmd_play(args) -> int:
    from referee.lab.random_game import play_game
    from referee.spec.loader import available_games, no_games, unknown_game

    if not available_games():
        raise no_games()
    if args.game not in available_games():
        raise UsageError(unknown_game(args.game, available_games()))
    text = play_game(args.game, args.players, args.seed, args.variant)
    output.verdict(EXIT_OK)
    if args.out and args.out != "-":
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    else:
        say(text, end="")
    return EXIT_OK


def cmd_validate(args) -> int:
    from referee.spec.loader import specs_root
    from referee.cli.validate import validate

    root = Path(args.specdir) if args.specdir else specs_root()
    if args.specdir and not root.exists():  # the data in use that holds no games: exit 4, below
        raise UsageError(f"{root} does not exist")
    lines, code = validate(root, provenance=args.provenance)
    output.verdict(code)
    for line in lines:
        if line.startswith(("error", "  error")) or ": error:" in line:
            warn(line)
        else:
            say(line)
    return code


def cmd_docs(args) -> int:
    from referee.site import write_docs

    if not args.out.strip():
        raise UsageError("--out needs a folder name")
    try:
        written = write_docs(Path(args.out))
    except OSError as exc:
        where = f" ({readable_name(str(exc.filename))})" if exc.filename and str(exc.filename) != args.out else ""
        raise UsageError(f"cannot write {readable_name(args.out)}: {exc.strerror or exc}{where}") from None
    output.verdict(EXIT_OK)
    pages = sum(1 for path in written if path.suffix == ".md")
    say(f"wrote {pages} pages and {len(written) - pages} replay pages and pictures to {readable_name(args.out)}")
    return EXIT_OK


COMMANDS = {"check": cmd_check, "show": cmd_show, "draw": cmd_draw, "replay": cmd_replay, "moves": cmd_moves, "explain": cmd_explain, "record": cmd_record, "play": cmd_play, "validate": cmd_validate, "docs": cmd_docs}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
