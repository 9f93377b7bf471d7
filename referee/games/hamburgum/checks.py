"""Civitas Hamburgum: cross-checks of the spec that a schema cannot state.

The data must add up before a record can be judged by it: as many house sites
as house tiles, one token per donation place, a producer for every good, a
board whose sites and brown lines name parishes and sites that exist, and no entry for a
thing the game does not have (a bonus for a seventh church of six). A user's own board or
variant is held to the same checks.
"""

from __future__ import annotations

from collections import Counter

from referee.errors import SpecError
from referee.i18n import Message, _
from referee.spec.keyed import check_entries
from referee.spec.loader import Spec


def check_spec(spec: Spec) -> None:
    _check_materials(spec)
    _check_rondel(spec)
    _check_houses(spec)
    _check_offices(spec)
    _check_churches(spec)
    _check_harbour(spec)
    _check_market(spec)
    _check_board(spec)
    _check_setup(spec)


def _fail(spec: Spec, stem: str, key: str, message: Message) -> None:
    raise SpecError(spec.path_of(stem), key, message)


# What a donation may cost besides building materials.
DONATION_MONEY = ("money", "money_per_own_citizen")


def _check_materials(spec: Spec) -> None:
    """The game finds building materials by key: a donation's cost names them, and the bell is
    told from the others as the one material no house costs. A missing one would otherwise be
    dropped from a cost unnoticed, or stop the game's set-up with nothing to say."""
    materials = spec["components"]["materials"]
    for i, donation in enumerate(spec["churches"]["donations"]):
        for key in donation:
            if key not in materials and key not in DONATION_MONEY:
                _fail(spec, "components", f"materials.{key}", Message("missing (the game needs it: donation {n} in churches.yaml costs {key})", n=i + 1, key=key))
    bells = [m for m in materials if m not in spec["houses"]["cost"]]
    if len(bells) != 1:
        _fail(spec, "components", "materials", Message("the game needs exactly one material that no house costs, the bell; here: {named}", named=bells or Message("none")))


def _check_rondel(spec: Spec) -> None:
    rondel = spec["rondel"]
    goods = spec["components"]["goods"]
    for i, space in enumerate(rondel["spaces"]):
        if space["action"] not in rondel["actions"]:
            _fail(spec, "rondel", f"spaces.{i}.action", Message("no action {action} in actions", action=repr(space["action"])))
        if space.get("side") and space["side"] not in rondel["sides"]:
            _fail(spec, "rondel", f"spaces.{i}.side", Message("no side {side} in sides", side=repr(space["side"])))
    if len({s["id"] for s in rondel["spaces"]}) != len(rondel["spaces"]):
        _fail(spec, "rondel", "spaces", Message("space ids must differ"))
    for action, entry in rondel["actions"].items():
        spaces = [s for s in rondel["spaces"] if s["action"] == action]
        if not spaces:
            _fail(spec, "rondel", f"actions.{action}", Message("no rondel space has this action"))
        sides = [s.get("side") for s in spaces]
        if len(spaces) > 1 and (None in sides or len(set(sides)) != len(sides)):
            _fail(spec, "rondel", "spaces", Message("the {action} spaces need different sides to tell them apart", action=action))
        if entry.get("produces") and entry["produces"] not in goods:
            _fail(spec, "rondel", f"actions.{action}.produces", Message("no good {good}", good=repr(entry["produces"])))


def _check_houses(spec: Spec) -> None:
    types = spec["houses"]["types"]
    goods = spec["components"]["goods"]
    produced = Counter(t["produces"] for t in types.values() if "produces" in t)
    for good in goods:
        if produced[good] != 1:
            _fail(spec, "houses", "types", Message("{good} needs exactly one production house type, not {n}", good=good, n=produced[good]))
    for key, t in types.items():
        if t.get("produces") and t["produces"] not in goods:
            _fail(spec, "houses", f"types.{key}.produces", Message("no good {good}", good=repr(t["produces"])))
    if sum(1 for t in types.values() if t.get("office")) != 1:
        _fail(spec, "houses", "types", Message("exactly one house type is the office"))
    for stem, cost in (("houses", spec["houses"]["cost"]), ("harbour", spec["harbour"]["ship_cost"])):
        for material in cost:
            if material not in spec["components"]["materials"]:
                _fail(spec, stem, "cost", Message("no building material {material}", material=repr(material)))
    total = sum(t["count"] for t in types.values())
    if total != spec["board"]["site_count"]:
        _fail(spec, "houses", "types", Message("the house tiles add up to {total}; the board has {count} sites", total=total, count=spec["board"]["site_count"]))


def _check_offices(spec: Spec) -> None:
    offices = spec["offices"]
    known = offices["offices"]
    office_type = next(t for t in spec["houses"]["types"].values() if t.get("office"))
    for i, entry in enumerate(offices["numbered"]):
        if entry["office"] not in known:
            _fail(spec, "offices", f"numbered.{i}.office", Message("no office {office}", office=repr(entry["office"])))
    for i, office in enumerate(offices["blue"]):
        if office not in known:
            _fail(spec, "offices", f"blue.{i}", Message("no office {office}", office=repr(office)))
    stack = offices["numbered"] if offices["mode"] == "numbered" else offices["blue"]
    if len(stack) != office_type["count"]:
        _fail(spec, "offices", offices["mode"] if offices["mode"] == "numbered" else "blue", Message("{n} offices for {count} office tiles", n=len(stack), count=office_type["count"]))
    for key, entry in known.items():
        if ("per" in entry) != ("amount" in entry) or not ("per" in entry or "donation" in entry):
            _fail(spec, "offices", f"offices.{key}", Message("an office pays `amount` per `per`, or gives a `donation`"))
    if sum(1 for e in known.values() if "donation" in e) > 1:
        _fail(spec, "offices", "offices", Message("only one office may give a donation"))


def _check_churches(spec: Spec) -> None:
    churches = spec["churches"]
    tokens = churches["tokens"]
    if sum(1 for t in tokens.values() if t.get("first")) != 1:
        _fail(spec, "churches", "tokens", Message("exactly one token kind is taken by a church's first donation"))
    if len(churches["donations"]) != len(tokens):
        _fail(spec, "churches", "donations", Message("{n} donation places for {tokens} tokens per church", n=len(churches["donations"]), tokens=len(tokens)))
    houses = spec["houses"]["types"]
    for church, entry in churches["churches"].items():
        for kind in tokens:
            merged = dict(tokens[kind])
            merged.update(entry.get(kind) or {})
            if "points" not in merged:
                _fail(spec, "churches", f"churches.{church}.{kind}", Message("the {kind} token needs its points", kind=kind))
            if merged.get("per") == "own-houses-of-type" and merged.get("house") not in houses:
                _fail(spec, "churches", f"churches.{church}.{kind}", Message("the {kind} token needs a house type of houses.yaml", kind=kind))
    count = len(churches["churches"])
    if len(churches["completion_bonus"]) < count:
        _fail(spec, "churches", "completion_bonus", Message("{n} bonuses for {count} churches", n=len(churches["completion_bonus"]), count=count))
    check_entries(spec, "churches", "completion_bonus", count, _("a bonus for completing the {key} church; the city has {count} churches").format(key="{key}", count=count))
    if spec["scoring"]["end_after_churches"] > count:
        _fail(spec, "scoring", "end_after_churches", Message("the game cannot wait for more than the {count} churches", count=count))


def _check_harbour(spec: Spec) -> None:
    harbour = spec["harbour"]
    numbers = [b["number"] for b in harbour["berths"]]
    if numbers != sorted(set(numbers)):
        _fail(spec, "harbour", "berths", Message("berths are listed once each, from the exit berth to the entry berth"))
    if harbour["entry_berth"] != numbers[-1]:
        _fail(spec, "harbour", "entry_berth", Message("new ships enter the last berth listed"))


def _check_market(spec: Spec) -> None:
    totals = sorted(int(k) for k in spec["market"]["materials_price"]["totals"])
    if totals != list(range(1, len(totals) + 1)):
        _fail(spec, "market", "materials_price.totals", Message("the depot table lists every count from 1 up to its largest"))


def _check_setup(spec: Spec) -> None:
    components = spec["components"]
    for key in spec["setup"]["stock"]:
        if key not in components["goods"] and key not in components["materials"]:
            _fail(spec, "setup", f"stock.{key}", Message("no good or building material {key}", key=repr(key)))


def _check_board(spec: Spec) -> None:
    board = spec["board"]
    churches = spec["churches"]["churches"]
    houses = spec["houses"]["types"]
    if set(board["parishes"]) != set(churches):
        _fail(spec, "board", "parishes", Message("the parishes must be the churches of churches.yaml ({churches})", churches=list(churches)))
    for kind, n in board["site_types"].items():
        if kind not in houses:
            _fail(spec, "board", f"site_types.{kind}", Message("no house type {kind}", kind=repr(kind)))
        if n != houses[kind]["count"]:
            _fail(spec, "board", f"site_types.{kind}", Message("{n} sites for {count} tiles", n=n, count=houses[kind]["count"]))
    sites = board["sites"]
    if sites is None:
        if board["links"] is not None:
            _fail(spec, "board", "links", Message("brown lines need the sites they join (board:sites)"))
        return
    names = set()
    for i, site in enumerate(sites):
        if site["parish"] not in churches:
            _fail(spec, "board", f"sites.{i}.parish", Message("no parish {parish}", parish=repr(site["parish"])))
        if site["type"] not in houses:
            _fail(spec, "board", f"sites.{i}.type", Message("no house type {kind}", kind=repr(site["type"])))
        name = f"{site['parish']}-{site['number']}"
        if name in names:
            _fail(spec, "board", f"sites.{i}", Message("site {name} is listed twice", name=name))
        names.add(name)
    if len(sites) != board["site_count"]:
        _fail(spec, "board", "sites", Message("{n} sites listed; the board has {count}", n=len(sites), count=board["site_count"]))
    by_type = Counter(s["type"] for s in sites)
    for kind, n in board["site_types"].items():
        if by_type[kind] != n:
            _fail(spec, "board", "sites", Message("{listed} {kind} sites listed; the board has {n}", listed=by_type[kind], kind=kind, n=n))
    for i, link in enumerate(board["links"] or ()):
        for end in link:
            if end not in names and end not in churches:
                _fail(spec, "board", f"links.{i}", Message("{end} is neither a listed site (parish-number) nor a church", end=repr(end)))
        if all(end in churches for end in link):
            _fail(spec, "board", f"links.{i}", Message("a brown line joins a house site"))
