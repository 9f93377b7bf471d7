"""Hand-written Speicherstadt records used by the tests.

`TO_SPRING` is a legal two-player game through the four Winter rounds and into
the first Spring round's Loading. Beige owns the warehouse, two contracts
(coffee tea; carpet rubber saffron), the value-5 fireman and the spice
trader; orange owns the coffee roaster, tea taster, carpet trader and a
counting office. Fire 1 (3 points) went to beige (+3) and orange (-3). In
round 5 beige bought two ships (coffee rubber tea; carpet coffee saffron) and
orange one (coffee tea tea), so both have cubes to unload.
"""

from referee.engine.replay import check_bytes

HEADER_2P = '[Game "speicherstadt"]\n[Players "beige Anna, orange Ben"]\n[Start "beige"]\n\n'
HEADER_3P = '[Game "speicherstadt"]\n[Players "beige, orange, purple"]\n\n'

ROUND_1 = """\
round 1
reveal warehouse
reveal coffee-roaster
reveal contract coffee tea
beige: place 1
orange: place 2
beige: place 3
orange: place 2
beige: place 3
orange: place 2
beige: buy 1
orange: buy 2
beige: buy 3
"""

ROUNDS_2_TO_4 = """\
round 2
reveal tea-taster
reveal contract carpet rubber saffron
reveal counting-office
orange: place 1
beige: place 2
orange: place 3
beige: place 3
orange: place 3
beige: place 2
orange: buy 1
beige: buy 2
orange: pass 3
beige: pass 3
orange: buy 3
check beige: coins 1, cards 3
check orange: coins 1, cards 3
round 3
reveal fireman 2
reveal fireman 5
reveal contract coffee coffee tea tea
beige: place 1
orange: place 2
beige: place 3
orange: place 1
beige: place 2
orange: place 3
beige: pass 1
orange: pass 1
orange: pass 2
beige: buy 2
beige: pass 3
orange: pass 3
round 4
reveal carpet-trader
reveal spice-trader
reveal vulcanizer
orange: place 1
beige: place 2
orange: place 3
beige: place 1
orange: place 3
beige: place 3
orange: buy 1
beige: buy 2
orange: pass 3
orange: pass 3
beige: pass 3
"""

ROUND_5_TO_LOADING = """\
round 5
reveal ship coffee rubber tea
reveal ship carpet coffee saffron
reveal fire 3
reveal ship coffee tea tea
beige: place 1
orange: place 3
beige: place 2
orange: place 3
beige: place 3
orange: place 3
beige: buy 1
beige: buy 2
orange: pass 3
orange: pass 3
beige: pass 3
orange: buy 3
"""

TO_ROUND_2 = HEADER_2P + ROUND_1
TO_SPRING = HEADER_2P + ROUND_1 + ROUNDS_2_TO_4 + ROUND_5_TO_LOADING


def check(text: str, variants=()):
    return check_bytes(text.encode("utf-8"), "test.log", list(variants))


def rule_ids(report) -> list[str]:
    return [d.rule for d in report.errors]
