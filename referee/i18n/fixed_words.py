"""Texts written elsewhere that are shown in the reader's language, marked here for the
catalogues.

argparse looks up its words through gettext by these very texts (`cli.arguments` hands it
our catalogues), so a `--help` or a usage error in Hungarian or German has no English left
in it; the replay's notes are looked up where a report shows them.
"""

from referee.i18n import N_

ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("can't open '%(filename)s': %(error)s"),
)
