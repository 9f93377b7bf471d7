"""The diagnostics of the rules every game shares (move numbers, the end of the game, the
result, rulings, checkpoints) in Hungarian and German, from the catalogue."""

from __future__ import annotations

import pytest

from referee.i18n import Message, localized, speaking
from referee.i18n.catalogue import translations
from referee.site import counterexamples
from referee.spec.loader import available_games, load_spec

SHARED = ("move-number", "game-over", "result", "ruling", "checkpoint")


@pytest.mark.parametrize("game", available_games())
def test_the_shared_rules_speak_the_language_asked(game):
    found = counterexamples.load(load_spec(game))
    for short in SHARED:
        diagnostic = counterexamples.check(found.by_rule[f"{game}/{short}"]).errors[0]
        message = diagnostic.message
        assert isinstance(message, Message), (game, short, message)
        for lang in ("hu", "de"):
            template = translations(lang).gettext(message.template)
            assert template != message.template, (lang, message.template)
            with speaking(lang):
                shown = localized(message)
            assert shown != str(message) and shown.startswith(template.split("{")[0]), (lang, shown)
