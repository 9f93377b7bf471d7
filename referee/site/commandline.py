"""The command-line reference page, rendered from the `referee` command's own argument
parser (`referee.cli.arguments`), so every option documented is one that exists."""

from __future__ import annotations

import argparse

from referee.cli.arguments import EPILOG, build_parser
from referee.site.markdown import escape, fenced, table

ARGUMENTS = {"FILE": "a game record; `-` reads it from standard input"}  # arguments the parser does not explain


def sentence(text: str) -> str:
    text = escape(text)
    return text[:1].upper() + text[1:] + ("" if not text or text.endswith(".") else ".")


def render() -> str:
    """The command-line reference, from the `referee` command's own argument parser."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help for a in commands._choices_actions}
    known = {}  # an option's help where one subcommand explains it, for the others
    for sub in commands.choices.values():
        for action in sub._actions:
            if action.help and action.help != argparse.SUPPRESS:
                known.setdefault(action.dest, action.help)
    out = ["# Command line", "", escape(parser.description or ""), ""]
    out.append(table(["Command", "Does"], [[f"[`referee {name}`](#{name})", escape(helps.get(name) or "")] for name in commands.choices]))
    for name, sub in commands.choices.items():
        out += [f"## referee {name} {{#{name}}}", "", sentence(helps.get(name) or ""), ""]
        out += [*fenced(sub.format_usage().strip(), "text"), ""]
        rows = []
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            label = ", ".join(action.option_strings)
            metavar = action.metavar or (action.dest.upper() if not action.option_strings else None)
            if action.nargs != 0 and metavar:
                label = f"{label} {metavar}".strip()
            meaning = [sentence(action.help or known.get(action.dest) or ARGUMENTS.get(metavar or "", ""))]
            if action.choices:
                meaning.append(f"One of {', '.join(f'`{c}`' for c in action.choices)}.")
            if action.default not in (None, False, [], argparse.SUPPRESS) and "default" not in (action.help or ""):
                meaning.append(f"Default: `{action.default}`.")
            rows.append([f"`{label}`", " ".join(m for m in meaning if m)])
        if rows:
            out.append(table(["Argument", "Meaning"], rows))
    out += ["## Exit codes {#exit-codes}", "", *fenced(EPILOG, "text"), ""]
    return "\n".join(out)
