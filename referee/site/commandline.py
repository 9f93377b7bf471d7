"""The command-line reference page, rendered from the `referee` command's own argument
parser, so every option documented is one that exists. The command line hands its parser
in (`render_site(cli=...)`): the site never imports the command line above it."""

from __future__ import annotations

import argparse

from referee.i18n import N_, _
from referee.site.markdown import escape, fenced, table

ARGUMENTS = {"FILE": N_("a game record; `-` reads it from standard input")}  # arguments the parser does not explain


def sentence(text: str) -> str:
    text = escape(text)
    return text[:1].upper() + text[1:] + ("" if not text or text.endswith(".") else ".")


def mentions_default(help_text: str) -> bool:
    """Whether an option's help already gives its default, in English or the language in use."""
    return any(word in help_text.lower() for word in ("default", _("default").lower()))


def render(parser: argparse.ArgumentParser, lang: str = "en") -> str:
    """The command-line reference, from the `referee` command's argument parser as built in
    the language in use (its help texts are the catalogue's)."""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help for a in commands._choices_actions}
    known = {}  # an option's help where one subcommand explains it, for the others
    for sub in commands.choices.values():
        for action in sub._actions:
            if action.help and action.help != argparse.SUPPRESS:
                known.setdefault(action.dest, action.help)
    out = ["# " + _("Command line"), "", escape(parser.description or ""), ""]
    out.append(table([_("Command"), _("Does")], [[f"[`referee {name}`](#{name})", escape(helps.get(name) or "")] for name in commands.choices]))
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
            meaning = [sentence(action.help or known.get(action.dest) or _(ARGUMENTS.get(metavar or "", "")))]
            if action.choices:
                meaning.append(_("One of {choices}.").format(choices=", ".join(f"`{c}`" for c in action.choices)))
            if action.default not in (None, False, [], argparse.SUPPRESS) and not mentions_default(action.help or ""):
                meaning.append(_("Default: {value}.").format(value=f"`{action.default}`"))
            rows.append([f"`{label}`", " ".join(m for m in meaning if m)])
        if rows:
            out.append(table([_("Argument"), _("Meaning")], rows))
    out += ["## " + _("Exit codes") + " {#exit-codes}", "", *fenced(parser.epilog or "", "text"), ""]
    return "\n".join(out)
