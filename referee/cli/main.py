"""The `referee` command."""

from __future__ import annotations

import contextlib
import functools
import gc
import sys
from pathlib import Path

from referee import i18n
from referee.cli import output
from referee.cli.arguments import build_parser, language_asked
from referee.cli.output import reason, say, warn
from referee.errors import EXIT_INTERNAL, EXIT_OK, EXIT_SPEC, EXIT_USAGE, SpecError, UsageError
from referee.i18n import _, localized, ngettext
from referee.report.movelist import GROUP_ABOVE, grouped_moves
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
    with i18n.speaking(language_asked(sys.argv[1:] if argv is None else argv)):  # else the locale's
        return _command(argv)


def _command(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    try:
        return COMMANDS[args.command](args)
    except (UsageError, SpecError) as exc:  # the one place an error becomes its exit code
        warn(
            exc.display(_("error"), localized)
            if isinstance(exc, SpecError)
            else _("referee {command}: error: {message}").format(command=args.command, message=localized(exc.args[0]) if exc.args else exc)
        )
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except output.OutputFailed:
        raise
    except Exception as exc:  # a bug in the referee: say so plainly, without a traceback
        warn(_("referee {command}: internal error: {kind}: {message}").format(command=args.command, kind=type(exc).__name__, message=exc))
        return EXIT_INTERNAL


def _read(path: str) -> tuple[bytes, str]:
    from referee.engine.replay import read_source

    try:
        return read_source(path)
    except OSError as exc:
        raise UsageError(_("cannot read {path}: {reason}").format(path=path, reason=reason(exc))) from None


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
        return EXIT_USAGE, _("referee {command}: error: {message}").format(command="check", message=exc)
    report = check_bytes(data, readable_name(name), variants, keep_going=keep_going)
    if form == "json":
        return report.exit_code, output.dumps(report_json(report))
    return report.exit_code, format_report(report, details, quiet=quiet)


def _not_checked(job: tuple[str, list[str], bool, bool, str, bool], why: str) -> tuple[int, str]:
    from referee.report.diagnostics import unread_json

    path, form = job[0], job[4]
    message = _("not checked: {why}").format(why=why)
    if form == "json":
        return EXIT_INTERNAL, output.dumps(unread_json(readable_name(path), message, EXIT_INTERNAL, status="not-checked"))
    return EXIT_INTERNAL, _("{file}: NOT CHECKED: {why}").format(file=readable_name(path), why=why)


def cmd_check(args) -> int:
    """Each file's result is printed as soon as it and those before it are done, in the order
    of the command line, so that many files print steadily and memory stays flat. With -j,
    the games the records name are loaded here before the workers are forked (parallel.py)."""
    from referee.cli._workers import in_order, usable_processors
    from referee.cli.parallel import load_games_of, worth_processes

    if "-" in args.files and len(args.files) > 1:
        raise UsageError(_("'-' (standard input) cannot be combined with other files"))
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


def cmd_repair(args) -> int:
    """A record with every proposed repair applied, checked before it is written."""
    from referee.engine.repair import repaired_text
    from referee.engine.replay import check_bytes
    from referee.report.diagnostics import format_diagnostic

    if args.in_place and args.out:
        raise UsageError(_("give either --in-place or -o OUT, not both"))
    if args.in_place and args.file == "-":
        raise UsageError(_("--in-place needs a file, not standard input"))
    if args.out and args.file != "-" and args.out != "-" and _same_file(args.out, args.file):
        raise UsageError(_("-o {out} is the record itself; --in-place replaces the record").format(out=readable_name(args.out)))
    data, name = _read(args.file)
    name = readable_name(name)
    report = check_bytes(data, name, args.variant, keep_going=True)
    if report.status in ("invalid-spec", "internal-error") or report.record is None:
        for d in report.errors:
            warn(format_diagnostic(report, d))
        return report.exit_code
    for d in report.errors:
        warn(format_diagnostic(report, d))
    repaired = repaired_text(report.source, report.repairs)
    after = check_bytes(repaired.encode("utf-8"), name, args.variant)
    if after.errors:
        problems = len(after.errors)
        warn(ngettext("{file}: not written: the repaired record still has {n} problem:", "{file}: not written: the repaired record still has {n} problems:", problems).format(file=name, n=problems))
        for d in after.errors:
            warn(format_diagnostic(after, d))
        return after.exit_code
    count = len(report.repairs)
    if count:
        warn(ngettext("{file}: {n} repair; the repaired record is legal", "{file}: {n} repairs; the repaired record is legal", count).format(file=name, n=count))
    else:
        warn(_("{file}: nothing to repair").format(file=name))
    output.verdict(EXIT_OK)
    if args.in_place:
        _replace(args.file, repaired)
    else:
        from referee.cli.position_commands import write

        write(args.out, repaired)
    return EXIT_OK


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def _replace(path: str, text: str) -> None:
    """Write a file whole or not at all: a new file beside it, then renamed over it."""
    import os
    import tempfile

    target = Path(path)
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError, UnboundLocalError):
            os.unlink(temporary)
        raise UsageError(_("cannot write {path}: {reason}").format(path=readable_name(path), reason=reason(exc))) from None


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
        say(_("{file}: the game is over; no moves follow").format(file=report.name))
        return report.exit_code
    moves = state.game.move_hints(state)
    grouped = not args.all and len(moves) > GROUP_ABOVE
    count = ngettext("{n} legal next move", "{n} legal next moves", len(moves)).format(n=len(moves))
    grouping = _(" (grouped; --all lists each)") if grouped else ""
    say(f"{report.name}: {count} {position.where}{grouping}")
    for line in grouped_moves(moves) if grouped else moves:
        say(f"  {line}")
    return report.exit_code


def cmd_record(args) -> int:
    options = {"game": args.game, "players": args.players, "start": args.start, "variants": args.variant, "say": output.say, "verdict": output.verdict}
    if sys.stdin is not None and sys.stdin.isatty() and sys.stdout is not None and sys.stdout.isatty():
        from referee.recording.prompt import record_terminal

        return record_terminal(args.file, **options)
    from referee.recording.session import record_stream

    return record_stream(args.file, sys.stdin.buffer if sys.stdin is not None else None, **options)


def cmd_serve(args) -> int:
    from referee.server.run import serve

    return serve(args.games, args.host, args.port, args.rate)


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
            raise UsageError(_("cannot write {path}: {reason}").format(path=args.out, reason=reason(exc))) from None
    else:
        say(text, end="")
    return EXIT_OK


def cmd_lab(args) -> int:
    """A run of simulated games (or `lab replay` of records): the figures as text or JSON on
    standard output, the page and the JSON in files when asked for."""
    from referee.lab import experiment, report
    from referee.lab.runs import Progress
    from referee.spec.loader import available_games, no_games

    if args.game == "replay":
        if not args.records:
            raise UsageError(_("lab replay needs the records to check again"))
        data = experiment.replay_records(args.records, args.variant)
        _write_lab_files(args, data, page=None)
        output.verdict(EXIT_OK)
        if args.format == "json":
            say(output.dumps(data))
        else:
            for line in report.replay_summary(data):
                say(line)
        return EXIT_OK
    if args.records:
        raise UsageError(_("unexpected arguments after the game: {arguments} (records go with 'lab replay')").format(arguments=" ".join(args.records)))
    if not available_games():
        raise no_games()
    if args.game not in available_games():
        raise UsageError(_("unknown game {game!r}; games: {games}, or replay").format(game=args.game, games=", ".join(available_games())))
    if args.players is None:
        raise UsageError(_("lab needs --players N"))
    against = None
    if args.against is not None:
        against = [] if [a.strip().lower() for a in args.against] == ["none"] else args.against
    plan = experiment.Plan(
        game=args.game,
        players=args.players,
        games=args.games,
        variants=args.variant,
        against=against,
        agents=[a for a in args.agent.split(",") if a.strip()] or ["random"],
        seed=args.seed,
        rotate=args.rotate,
        jobs=args.jobs,
        ray=args.ray is not None,
        ray_address=args.ray or None,
        sensitivity=args.sensitivity,
        sensitivity_games=args.sensitivity_games,
        records_out=args.records_out,
    )
    experiment.check_plan(plan)
    sides = 2 if against is not None else 1
    data = experiment.run(plan, Progress(plan.games * sides))
    _write_lab_files(args, data, page=report.html_page)
    # a game that could not be played to its end: the data's doing (4) or the referee's (5)
    failures = {game["failure"] for game in data["games"] if game["error"]}
    code = EXIT_INTERNAL if "internal" in failures else EXIT_SPEC if failures else EXIT_OK
    output.verdict(code)
    if args.format == "json":
        say(output.dumps(data))
    else:
        for line in report.text_summary(data):
            say(line)
    return code


def _write_lab_files(args, data: dict, page) -> None:
    for path, text in ((args.out, page(data) if page and args.out else None), (args.json_out, output.dumps(data) if args.json_out else None)):
        if path and text is not None:
            try:
                Path(path).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise UsageError(_("cannot write {path}: {reason}").format(path=readable_name(path), reason=reason(exc))) from None


def cmd_validate(args) -> int:
    from referee.cli.validate import validate
    from referee.spec.loader import specs_root

    root = Path(args.specdir) if args.specdir else specs_root()
    if args.specdir and not root.exists():  # the data in use that holds no games: exit 4, below
        raise UsageError(_("{path} does not exist").format(path=root))
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
        raise UsageError(_("--out needs a folder name"))
    try:
        written = write_docs(Path(args.out), cli=build_parser)
    except OSError as exc:
        where = f" ({readable_name(str(exc.filename))})" if exc.filename and str(exc.filename) != args.out else ""
        raise UsageError(_("cannot write {path}: {reason}").format(path=readable_name(args.out), reason=reason(exc)) + where) from None
    output.verdict(EXIT_OK)
    pages = sum(1 for path in written if path.suffix == ".md")
    say(
        _("wrote {pages} pages and {files} files beside them (replay pages, pictures, counter-example records) to {folder}").format(
            pages=pages, files=len(written) - pages, folder=readable_name(args.out)
        )
    )
    return EXIT_OK


def cmd_rule(args) -> int:
    from referee.cli.rule_command import run
    from referee.i18n import current

    lines = run(args.rule, current())
    output.verdict(EXIT_OK)
    say("\n".join(lines))
    return EXIT_OK


def cmd_box(args) -> int:
    from referee.box.command import run

    return run(args, say, output.verdict)


COMMANDS = {
    "rule": cmd_rule,
    "check": cmd_check,
    "repair": cmd_repair,
    "show": cmd_show,
    "draw": cmd_draw,
    "replay": cmd_replay,
    "moves": cmd_moves,
    "explain": cmd_explain,
    "record": cmd_record,
    "serve": cmd_serve,
    "play": cmd_play,
    "lab": cmd_lab,
    "validate": cmd_validate,
    "docs": cmd_docs,
    "box": cmd_box,
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
