"""Fuzz cases for the referee: broken records, broken specs and variants, odd command lines.

A case is a `referee` command line with the files it names. It is built from
(seed, index) alone, so a failure found among a hundred thousand cases can be
made again on its own (`python scripts/fuzz.py --case INDEX --seed SEED`).

The cases start from legal games of every game and player count (`Corpus`),
then break them the ways a record or a data file really breaks: bytes lost or
doubled, lines swapped, numbers and names changed, values of the wrong type,
keys missing, references to nothing, nesting and aliases without end, and
files far larger than any game needs. Records and spec folders from strangers add
control characters in names and file names, reports that would grow without bound,
spec folders with FIFOs, /dev/zero, broken grammars and schemas that never finish;
and the run itself is disturbed: standard streams closed, full or cut, worker
processes killed, odd environments.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from referee.games import load_game
from referee.lab.random_game import play_game
from referee.notation.parser import MAX_LINE_CHARS, MAX_RECORD_BYTES, Move, parse
from referee.spec.loader import MAX_SPEC_BYTES, available_games, grammar_root, specs_root

EXIT_CODES = {0, 1, 2, 3, 4}  # 5 is an internal error: never allowed
SEEDS_PER_COUNT = 2


@dataclass
class Case:
    """One run of the referee. `argv` names files by their key in `files` (written to a fresh
    directory); `specs` holds spec files to overwrite in a private copy of the specs, which
    the run then uses (REFEREE_DATA)."""

    index: int
    family: str
    argv: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: bytes | None = None
    specs: dict[str, bytes] | None = None  # path below specs/ -> new content (b"" deletes it)
    expect: frozenset[int] = frozenset(EXIT_CODES)
    replaced_line: int | None = None  # move replacement: the line that now holds another move
    grammar: dict[str, bytes | str] | None = None  # like specs, for a private copy of grammar/
    env: dict[str, str] = field(default_factory=dict)  # more environment ({dir}, {game.log}, ... in values)
    stream: str | None = None  # a standard stream to disturb: see STREAMS
    kill: str | None = None  # "worker" or "parent": a process of `check -j` to kill while it runs
    process_only: bool = False  # runs only as a real process (streams, signals, environment)


# A file's content may be one of these instead of bytes: something that is not a regular file.
ODD_FILES = ("fifo", "dev-zero", "directory")
STREAMS = ("stdout-closed", "stdout-full", "stdout-pipe-closed", "stdin-closed", "stderr-full")


# --- the legal games the cases start from ----------------------------------------


@dataclass
class GameCorpus:
    name: str
    records: list[str]  # complete legal records, without their [Date] tag
    moves: list[str]  # every move line of those records
    words: list[str]  # every word written in them
    colours: list[str]
    player_counts: list[int]
    variants: list[str]
    spec_files: list[str]  # paths below specs/, e.g. "speicherstadt/cards.yaml"


@dataclass
class Corpus:
    games: dict[str, GameCorpus]
    skipped: dict[str, str]  # game -> why its module cannot be used yet

    @classmethod
    def build(cls) -> Corpus:
        games, skipped = {}, {}
        for name in available_games():
            try:
                games[name] = _game_corpus(name)
            except Exception as exc:  # a game still being written: say so, fuzz the others
                skipped[name] = f"{type(exc).__name__}: {exc}"
        return cls(games, skipped)


def _game_corpus(name: str) -> GameCorpus:
    game = load_game(name)
    meta = game.spec.meta
    records, moves, words = [], [], set()
    for players in range(meta["players"]["min"], meta["players"]["max"] + 1):
        for seed in range(1, SEEDS_PER_COUNT + 1):
            text = strip_date(play_game(name, players, seed))
            records.append(text)
            moves.extend(move_lines(text, name))
            words.update(re.findall(r"[A-Za-z][A-Za-z0-9_'\-]*", text))
    root = specs_root()
    spec_files = sorted(p.relative_to(root).as_posix() for p in (root / name).rglob("*.yaml"))
    spec_files.append("common/rules.yaml")
    variants = sorted(p.stem for p in (root / name / "variants").glob("*.yaml"))
    counts = list(range(meta["players"]["min"], meta["players"]["max"] + 1))
    return GameCorpus(name, records, moves, sorted(words), list(meta["colours"]), counts, variants, spec_files)


def strip_date(record: str) -> str:
    """A record without its [Date] tag: `play` writes today's date there."""
    return "".join(line for line in record.splitlines(keepends=True) if not line.startswith("[Date "))


def move_lines(record: str, game: str) -> list[str]:
    """The lines of a record that hold moves (not tags, checkpoints, results or comments)."""
    parsed = parse(record, "record", game, load_game(game).build_move)
    lines = record.split("\n")
    return [lines[e.pos.line - 1] for e in parsed.entries if isinstance(e, Move)]


# --- making cases ------------------------------------------------------------------


def make_case(corpus: Corpus, seed: int, index: int) -> Case:
    rng = random.Random(f"{seed}:{index}")
    family = rng.choices(list(FAMILIES), weights=[w for w, _ in FAMILIES.values()])[0]
    game = corpus.games[rng.choice(sorted(corpus.games))]
    case = FAMILIES[family][1](rng, game, corpus)
    case.index, case.family = index, family
    return case


def record_case(data: bytes, **extra) -> Case:
    return Case(0, "", ["check", "{game.log}"], {"game.log": data}, **extra)


def encode(lines: list[str]) -> bytes:
    return "\n".join(lines).encode("utf-8")


def some_record(rng: random.Random, game: GameCorpus) -> list[str]:
    return rng.choice(game.records).split("\n")


def body_lines(lines: list[str]) -> list[int]:
    """Indexes of the lines below the header."""
    return [i for i, line in enumerate(lines) if line and not line.startswith("[")] or [0]


# records: bytes and sizes


def random_bytes(rng, game, corpus):
    noise = rng.randbytes(rng.choice([1, 16, 256, 4096]))
    if rng.random() < 0.5:  # behind a valid header, so that the parser and not the tag search meets it
        noise = "\n".join(some_record(rng, game)[:4]).encode() + b"\n" + noise
    return record_case(noise)


def empty(rng, game, corpus):
    return record_case(rng.choice([b"", b"\n", b"   \n\t\n", b"\xef\xbb\xbf", b"\r\n\r\n", b"# only a comment\n", f'[Game "{game.name}"]'.encode()]))


def huge_line(rng, game, corpus):
    lines = some_record(rng, game)
    at = rng.choice(body_lines(lines))
    length = rng.choice([MAX_LINE_CHARS - 1, MAX_LINE_CHARS, MAX_LINE_CHARS + 1, 50_000])
    filler = rng.choice(["x", "1", " ", "# ", "a, ", "tea ", "\u00e9", "["])
    lines[at] = (lines[at] + " " + filler * length)[: length if rng.random() < 0.8 else None]
    return record_case(encode(lines))


def huge_file(rng, game, corpus):
    text = rng.choice(game.records)
    line = rng.choice([rng.choice(game.moves), "# a comment", "", rng.choice(text.split("\n"))])
    size = rng.choice([MAX_RECORD_BYTES - len(text) - 1, MAX_RECORD_BYTES, 4 * MAX_RECORD_BYTES])
    body = (line + "\n") * max(1, size // (len(line) + 1))
    data = (text + body).encode()[: size if rng.random() < 0.5 else None]
    return record_case(data)


# records: edits of legal games


def lines_edit(rng, game, corpus):
    lines = some_record(rng, game)
    for _ in range(rng.choice([1, 1, 2, 3])):
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        how = rng.choice(["delete", "duplicate", "swap", "move"])
        if how == "delete":
            del lines[i]
        elif how == "duplicate":
            lines.insert(i, lines[i])
        elif how == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(j, lines.pop(i))
    return record_case(encode(lines))


NUMBER = re.compile(r"(?<![A-Za-z0-9_'\-])[+-]?[0-9]+")


def numbers_edit(rng, game, corpus):
    lines = some_record(rng, game)
    candidates = [i for i, line in enumerate(lines) if NUMBER.search(line)]
    for i in rng.sample(candidates, min(len(candidates), rng.choice([1, 1, 3]))):
        spans = [m.span() for m in NUMBER.finditer(lines[i])]
        a, b = rng.choice(spans)
        old = int(lines[i][a:b])
        new = rng.choice([old + 1, old - 1, 0, -1, -old, 99, 10**9 - 1, 10**9, "9" * 40, "0" * 12 + "1", "+3", "1.", "٣"])
        lines[i] = lines[i][:a] + str(new) + lines[i][b:]
    return record_case(encode(lines))


def players_edit(rng, game, corpus):
    lines = some_record(rng, game)
    seated = next((line for line in lines if line.lower().startswith("[players")), "")
    others = [c for c in game.colours if c not in seated] or ["nobody"]
    choice = rng.random()
    if choice < 0.4:  # a move or checkpoint by someone else
        i = rng.choice(body_lines(lines))
        colours = [c for c in game.colours if c in lines[i]]
        if colours:
            new = rng.choice(game.colours + others + ["nobody", "RED", "", "neutral"])
            lines[i] = lines[i].replace(rng.choice(colours), new, 1)
    else:  # the header's seats
        i = lines.index(seated) if seated in lines else 0
        names = [n.strip() for n in seated.split('"')[1].split(",")] if '"' in seated else []
        how = rng.choice(["drop", "add", "twice", "none", "many", "named", "start"])
        if how == "drop" and names:
            names.pop(rng.randrange(len(names)))
        elif how == "add":
            names.append(rng.choice(others))
        elif how == "twice" and names:
            names.append(names[0])
        elif how == "none":
            names = []
        elif how == "many":
            names = game.colours * 3
        elif how == "named" and names:
            names = [f"{n} {rng.choice(['Anna', 'Zoë', 'O’Brien', 'a b c', '1'])}" for n in names]
        elif how == "start":
            lines.insert(i + 1, f'[Start "{rng.choice(game.colours + others)}"]')
            lines = [line for j, line in enumerate(lines) if not (line.startswith("[Start") and j != i + 1)]
        if how != "start":
            lines[i] = f'[Players "{", ".join(names)}"]'
    return record_case(encode(lines))


def words_edit(rng, game, corpus):
    lines = some_record(rng, game)
    vocabulary = game.words + [w for g in corpus.games.values() for w in rng.sample(g.words, min(5, len(g.words)))]
    for _ in range(rng.choice([1, 1, 2, 4])):
        i = rng.choice(body_lines(lines))
        words = list(re.finditer(r"[A-Za-z][A-Za-z0-9_'\-]*", lines[i]))
        if not words:
            continue
        m = rng.choice(words)
        new = rng.choice(vocabulary + [m.group().upper(), m.group()[:-1] or "x", "zzz", m.group() + "s", "for", "check", "result"])
        lines[i] = lines[i][: m.start()] + new + lines[i][m.end() :]
    return record_case(encode(lines))


def tags_edit(rng, game, corpus):
    lines = some_record(rng, game)
    how = rng.choice(["no-game", "other-game", "unknown-game", "twice", "variant", "variant-path", "unknown-tag", "broken", "late"])
    if how == "no-game":
        lines = [line for line in lines if not line.startswith("[Game")]
    elif how == "other-game":
        other = rng.choice(sorted(corpus.games))
        lines = [f'[Game "{other}"]' if line.startswith("[Game") else line for line in lines]
    elif how == "unknown-game":
        lines[0] = rng.choice(['[Game "chess"]', '[Game ""]', '[Game "../speicherstadt"]', '[game "SPEICHERSTADT"]', '[Game "speicherstadt" ]'])
    elif how == "twice":
        lines.insert(1, lines[rng.randrange(min(4, len(lines)))])
    elif how == "variant":
        names = game.variants + ["no-such-variant", "", ",", "a;b"]
        lines.insert(1, f'[Variant "{rng.choice(names)}"]')
    elif how == "variant-path":
        lines.insert(1, f'[Variant "{rng.choice(["/dev/null", "/etc/passwd", "../../x.yaml", "/", "game.log"])}"]')
    elif how == "unknown-tag":
        lines.insert(1, rng.choice(['[Round "3"]', '[X ""]', '[Event "\\"quoted\\" \\\\"]', "[Event]", '[Event "a" "b"]']))
    elif how == "broken":
        i = rng.randrange(min(5, len(lines)))
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    else:  # a tag below the moves
        lines.insert(rng.choice(body_lines(lines)), lines[0])
    return record_case(encode(lines))


def truncate(rng, game, corpus):
    data = rng.choice(game.records).encode()
    return record_case(data[: rng.randrange(len(data))])


ODD_CHARACTERS = ["\t", "\r", "\x0b", "\x0c", "\x85", "\u2028", "\u00a0", "\ufeff", "\u200b", "é", "😀", '"', "[", "]", "#", ":", ",", ".", "-", "\\", "\x00", "\x7f"]


def characters_edit(rng, game, corpus):
    text = rng.choice(game.records)
    for _ in range(rng.choice([1, 2, 5])):
        i = rng.randrange(len(text))
        how = rng.random()
        if how < 0.4:
            text = text[:i] + rng.choice(ODD_CHARACTERS) + text[i:]
        elif how < 0.7:
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + rng.choice(ODD_CHARACTERS) + text[i + 1 :]
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.2:
        data = data.replace(b"\n", b"\r\n")
    return record_case(data)


def checkpoint_edit(rng, game, corpus):
    lines = some_record(rng, game)
    marks = [i for i, line in enumerate(lines) if line.startswith(("check ", "result "))]
    if not marks:
        return lines_edit(rng, game, corpus)
    i = rng.choice(marks)
    how = rng.choice(["figure", "value", "empty", "words", "extra", "add"])
    if how == "figure":
        lines[i] = re.sub(r"(?<=[:,] )[a-z]+", rng.choice(["nothing", "points", "coins", "x"]), lines[i], count=1)
    elif how == "value":
        lines[i] = NUMBER.sub(lambda m: str(int(m.group()) + rng.choice([-1, 1, 1000])), lines[i], count=1)
    elif how == "empty":
        lines[i] = lines[i].split(":")[0] + ":"
    elif how == "words":
        lines[i] += ", " + rng.choice(["warehouse tea tea tea", "hall", "points", "coins none", "goods 3"])
    elif how == "extra":
        lines[i] += rng.choice([",", ", ,", " 3", ": 4"])
    else:
        lines.insert(rng.choice(body_lines(lines)), lines[i])
    return record_case(encode(lines))


def replace_move(rng, game, corpus):
    """A legal game with one move replaced by another the grammar accepts: it must replay legal,
    be rejected with a rule id, or (for a word the game does not know) be malformed on that line."""
    text = rng.choice(game.records)
    mutated, line = replaced_move_record(rng, text, game.moves)
    return record_case(mutated.encode(), expect=frozenset({0, 1, 3}), replaced_line=line)


def replaced_move_record(rng: random.Random, record: str, pool: list[str]) -> tuple[str, int]:
    """`record` with one of its move lines replaced by a move line from `pool`, maybe with a
    number changed; returns the new text and the replaced line's number (1-based)."""
    lines = record.split("\n")
    own = set(pool)
    candidates = [i for i, line in enumerate(lines) if line in own] or [len(lines) - 1]
    i = rng.choice(candidates)
    new = rng.choice(pool)
    if rng.random() < 0.3 and NUMBER.search(new):
        spans = [m.span() for m in NUMBER.finditer(new)]
        a, b = rng.choice(spans)
        new = new[:a] + str(max(0, int(new[a:b]) + rng.choice([-2, -1, 1, 2]))) + new[b:]
    lines[i] = new
    return "\n".join(lines), i + 1


def ruling_case(rng, game, corpus):
    """A legal game with a move from another game put in, often as the move of the player to
    act, and the table's ruling after it (mostly `accept`), checked with or without
    --keep-going: a move carried out with rules set aside meets code written for moves that
    keep them, and must end in a verdict (the ruling honoured, or refused with the reason)."""
    lines = rng.choice(game.records).split("\n")
    own = set(game.moves)
    at = rng.choice([i for i, line in enumerate(lines) if line in own] or [len(lines) - 1])
    new = rng.choice(game.moves)
    if rng.random() < 0.6 and ":" in lines[at] and ":" in new:  # a chance outcome names no player
        new = lines[at].split(":", 1)[0] + ":" + new.split(":", 1)[1]
    verdict = "void" if rng.random() < 0.2 else "accept"
    lines[at:at] = [new, f"ruling {verdict}: the table agreed"]
    case = record_case(encode(lines), expect=frozenset({0, 1, 3}))  # 3: a move the record cannot say enough about there
    if rng.random() < 0.5:
        case.argv.append("--keep-going")
    return case


# specs and variants


def variant_case(rng, game, corpus):
    """A variant overlay, broken or odd, passed by path to `check`, `moves` or `play` (whose
    random player must stop with a data error, not run for ever, when the data leaves it stuck)."""
    data = _base_variant(rng, game)
    text = _mutated_yaml(rng, data, ["changes"] if rng.random() < 0.7 else [])
    record = rng.choice(game.records).encode()
    command = rng.choices(["check", "moves", "play"], [6, 2, 2])[0]
    if command == "play":
        argv = ["play", game.name, "--players", str(rng.choice(game.player_counts)), "--seed", str(rng.randrange(1000))]
    else:
        argv = [command, "{game.log}"]
    return Case(0, "", argv + ["--variant", "{mine.yaml}"], {"game.log": record, "mine.yaml": text})


def _base_variant(rng: random.Random, game: GameCorpus) -> dict:
    """A valid overlay: one of the game's own, or a copy of a piece of one of its files."""
    root = specs_root()
    if game.variants and rng.random() < 0.3:
        return yaml.safe_load((root / game.name / "variants" / f"{rng.choice(game.variants)}.yaml").read_text(encoding="utf-8"))
    stem_path = rng.choice([f for f in game.spec_files if f.count("/") == 1 and f.startswith(game.name + "/")])
    stem = Path(stem_path).stem
    content = yaml.safe_load((root / stem_path).read_text(encoding="utf-8"))
    piece = {k: v for k, v in content.items() if k != "kind" and rng.random() < 0.5} or {k: v for k, v in content.items() if k != "kind"}
    return {"kind": "variant", "id": "fuzz", "game": game.name, "title": "Fuzz", "changes": {stem: piece}}


def spec_file_case(rng, game, corpus):
    """One bundled spec file broken in a private copy of the specs; then `validate` or `check`."""
    path = rng.choice(game.spec_files)
    original = (specs_root() / path).read_text(encoding="utf-8")
    if rng.random() < 0.05:
        new = b""  # the file is gone
    else:
        new = _mutated_yaml(rng, yaml.safe_load(original), [], original)
    if rng.random() < 0.5:
        argv = ["validate", "{specs}/" + game.name]
    else:
        argv = ["check", "{game.log}"]
    return Case(0, "", argv, {"game.log": rng.choice(game.records).encode()}, specs={path: new})


def _mutated_yaml(rng: random.Random, data: Any, under: list[str], original: str | None = None) -> bytes:
    """YAML text for `data` with one structural change at a random place below `under`."""
    how = rng.choices(
        ["delete", "retype", "renumber", "unknown-ref", "other-ref", "rename", "empty", "deep", "alias", "huge", "truncate", "bytes"],
        weights=[14, 16, 14, 10, 10, 8, 6, 5, 5, 4, 4, 4],
    )[0]
    if how in ("deep", "alias", "huge", "truncate", "bytes"):
        text = original if original is not None else yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        return _broken_text(rng, how, text)
    node_path = _random_path(rng, data, under)
    parent, key = _parent(data, node_path)
    if parent is None:
        return yaml.safe_dump(rng.choice([None, 3, "text", [], [1, 2]])).encode()
    value = parent[key]
    if how == "delete":
        del parent[key]
    elif how == "retype":
        parent[key] = rng.choice([None, 0, -1, 1.5, True, "", "text", [], {}, [None], {"x": 1}, [1, "a"], "1"])
    elif how == "renumber":
        parent[key] = rng.choice([0, -1, 1, 2, 7, 10**6, -(10**6), 10**12]) if not isinstance(value, (list, dict)) else value
        if isinstance(value, list) and value:
            parent[key] = value * rng.choice([0, 2]) + ([value[0]] if rng.random() < 0.5 else [])
    elif how == "unknown-ref":
        parent[key] = rng.choice(["no-such-thing", "Nowhere", "x" * 300, "zz:top"]) if isinstance(value, str) else [value, "no-such-thing"]
    elif how == "other-ref":  # a name used elsewhere in the file: can close a cycle or mix up kinds
        names = [s for s in _strings(data) if 0 < len(s) < 40] or ["x"]
        parent[key] = rng.choice(names)
    elif how == "rename" and isinstance(parent, dict):
        parent[rng.choice(["renamed", str(key).upper(), f"{key}-2"])] = parent.pop(key)
    elif how == "empty":
        parent[key] = type(value)() if isinstance(value, (list, dict, str)) else None
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True).encode()


def _broken_text(rng: random.Random, how: str, text: str) -> bytes:
    if how == "deep":
        depth = rng.choice([100, 10_000, 200_000])
        nest = rng.choice(["[" * depth + "]" * depth, "{a: " * depth + "1" + "}" * depth, "".join(f"{'  ' * i}- \n" for i in range(min(depth, 2000))) + "  " * 2000 + "1"])
        return (text + f"\nextra: {nest}\n").encode()
    if how == "alias":  # nine levels of nine: a billion items if expanded
        lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for i in range(1, 10):
            lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
        cycle = rng.random() < 0.3
        return (text + "\n" + ("loop: &x [*x]\n" if cycle else "\n".join(lines) + "\n")).encode()
    if how == "huge":
        size = rng.choice([MAX_SPEC_BYTES - len(text) - 100, MAX_SPEC_BYTES + 1, 10 * 1024 * 1024])
        filler = rng.choice(["# padding\n", "- 1\n", "k: v\n"])
        body = text + "\n" + ("extra:\n" if filler == "- 1\n" else "") + filler * max(0, size // len(filler))
        return body.encode()
    data = text.encode()
    if how == "truncate":
        return data[: rng.randrange(len(data) + 1)]
    return rng.randbytes(rng.choice([10, 1000])) if rng.random() < 0.5 else data[:100] + rng.randbytes(50) + data[100:]


def _random_path(rng: random.Random, data: Any, under: list[str]) -> list:
    path: list = []
    node = data
    for key in under:
        if isinstance(node, dict) and key in node:
            path.append(key)
            node = node[key]
    while isinstance(node, (dict, list)) and node and rng.random() < 0.75:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(key)
        node = node[key]
    return path


def _parent(data: Any, path: list) -> tuple[Any, Any]:
    if not path:
        return None, None
    node = data
    for key in path[:-1]:
        node = node[key]
    return node, path[-1]


def _strings(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in [*(_strings(k) if isinstance(k, str) else []), *_strings(v)]]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


# command lines


def command_line(rng, game, corpus):
    record = rng.choice(game.records).encode()
    broken = lines_edit(rng, game, corpus).files["game.log"]
    log = rng.choice([record, broken])
    choices: list[Callable[[], list[str]]] = [
        lambda: ["show", "{game.log}", "--at", str(rng.choice([-1, 0, 1, 7, 10**6]))],
        lambda: ["show", "{game.log}", "--format", rng.choice(["json", "text"])],
        lambda: ["moves", "{game.log}"] + (["--all"] if rng.random() < 0.5 else []),
        lambda: ["check", "{game.log}", "--format", "json"],
        lambda: ["check", "{game.log}", "--variant", rng.choice(game.variants + ["nope", "", "/", "{game.log}"])],
        lambda: ["check", "{game.log}", "{missing.log}"],
        lambda: ["check", "-", "{game.log}"],
        lambda: ["check", "{game.log}", "-j", str(rng.choice([-3, 0, 1]))],
        lambda: ["play", rng.choice([game.name, "chess", ""]), "--players", str(rng.choice([-1, 0, 1, 2, 3, 5, 6, 99])), "--seed", str(rng.randrange(-5, 10**6))],
        lambda: ["play", game.name, "--players", "x"],
        lambda: ["validate", rng.choice(["{game.log}", "{missing.log}", "{dir}"])],
        lambda: [rng.choice(["", "chekc", "--nope", "-j"])],
        lambda: ["check"],
    ]
    argv = rng.choice(choices)()
    stdin = log if "-" in argv else None
    return Case(0, "", argv, {"game.log": log}, stdin=stdin)


def stdin_case(rng, game, corpus):
    case = rng.choice([lines_edit, numbers_edit, random_bytes, truncate])(rng, game, corpus)
    return Case(0, "", ["check", "-"], {}, stdin=case.files["game.log"])


# strangers: control characters, output size, odd spec folders, streams, workers, environments

SEQUENCES = ["\x1b[1A\x1b[2K", "\x1b]0;title\x07", "\x1b[31m", "\x9b2J", "\r", "\b\b", "\x7f", "\x85", "\u202e", "\u2066", "\u200b", "\u2028", "\ufeff", "\x0b", "\t"]
LOOK_ALIKES = ["\u0435", "\u0430", "\u043e", "\u0440", "\u0455", "\uff45", "\u0391"]  # Cyrillic е а о р ѕ, fullwidth e, Greek Α


def control_characters(rng, game, corpus):
    """Control and invisible characters where a record, a file name or a header holds text:
    the output must show them escaped, in text and in JSON."""
    lines = some_record(rng, game)
    seq = lambda: rng.choice(SEQUENCES) * rng.choice([1, 1, 3])  # noqa: E731
    how = rng.choice(["names", "word", "comment", "tag", "checkpoint", "look-alike", "file-name"])
    name = "game.log"
    if how == "names":
        i = next((i for i, line in enumerate(lines) if line.startswith("[Players")), 0)
        colours = [c.strip().split()[0] for c in lines[i].split('"')[1].split(",")] if '"' in lines[i] else game.colours[:2]
        lines[i] = '[Players "' + ", ".join(f"{c} {rng.choice(['Anna', 'Ben', ''])}{seq()}{rng.choice(['legal', 'x', ''])}" for c in colours) + '"]'
    elif how == "word":
        i = rng.choice(body_lines(lines))
        words = list(re.finditer(r"[A-Za-z][A-Za-z0-9_'\-]*", lines[i]))
        if words:
            m = rng.choice(words)
            cut = rng.randrange(len(m.group()) + 1)
            lines[i] = lines[i][: m.start() + cut] + seq() + lines[i][m.start() + cut :]
    elif how == "comment":
        lines.insert(rng.choice(body_lines(lines)), f"# {seq()} a comment {seq()}")
    elif how == "tag":
        lines.insert(1, f'[Event "{seq()}forged{seq()}"]')
    elif how == "checkpoint":
        marks = [i for i, line in enumerate(lines) if line.startswith("check ")] or [len(lines) - 1]
        lines[rng.choice(marks)] += f", {seq()}coins{seq()} 3"
    elif how == "look-alike":
        i = next((i for i, line in enumerate(lines) if line.startswith("[Players")), 0)
        word = rng.choice(game.colours)
        at = rng.randrange(len(word))
        lines[i] = lines[i].replace(word, word[:at] + rng.choice(LOOK_ALIKES) + word[at + 1 :], 1)
    else:
        name = f"game{seq()}{rng.choice(['', '.log'])}"
    command = rng.choice([["check", "{%s}" % name], ["check", "{%s}" % name, "--format", "json"], ["show", "{%s}" % name], ["show", "{%s}" % name, "--format", "json"], ["moves", "{%s}" % name]])
    return Case(0, "", command, {name: encode(lines)})


def output_size(rng, game, corpus):
    """Records made to blow the report up: thousands of contradicted figures on wide lines, an
    error at the end of a line of 10,000 characters, many files at once."""
    how = rng.choice(["wide-checkpoints", "long-line", "many-files"])
    form = ["--format", "json"] if rng.random() < 0.4 else (["-q"] if rng.random() < 0.3 else [])
    if how == "many-files":
        count = rng.choice([5, 10, 20])  # within the 2 s a case may take: some 35 ms a record
        files = {f"g{i}.log": (rng.choice(game.records) if rng.random() < 0.7 else lines_edit(rng, game, corpus).files["game.log"].decode()).encode() for i in range(count)}
        return Case(0, "", ["check", *form, *(f"{{g{i}.log}}" for i in range(count))], files)
    lines = some_record(rng, game)
    marks = [i for i, line in enumerate(lines) if line.startswith("check ")]
    if how == "wide-checkpoints" and marks:
        i = rng.choice(marks)
        player = lines[i].split(":")[0]
        figure = rng.choice(["coins 999", "points 999", "coins -1", "goods tea tea", "x 1"])
        wide = f"{player}: " + ", ".join([figure] * rng.choice([50, 400, 900]))
        count = max(1, (MAX_RECORD_BYTES - sum(map(len, lines))) // (len(wide) + 1) - 1)
        lines[i + 1 : i + 1] = [wide] * rng.choice([1, count // 4, count])
    else:  # a move at the far end of a long line, or followed by a long tail
        i = rng.choice(body_lines(lines))
        move = rng.choice(game.moves)
        pad = MAX_LINE_CHARS - len(move) - 2
        lines[i] = rng.choice([" " * pad + move, move + " " + "x" * pad, "\t" * (pad // 8) + move + " zzz", move + " #" + "\u00e9" * pad])
    return Case(0, "", ["check", *form, "{game.log}"], {"game.log": encode(lines)})


SCHEMA_TROUBLES = [
    ("pattern", "^(a|a)*$"),
    ("pattern", "(x+x+)+y|^(a|aa)+$"),
    ("pattern", "[unclosed"),
    ("$ref", "https://example.invalid/schema.json"),
    ("$ref", "#"),
    ("$ref", "no-such.schema.json"),
    ("$ref", "#/$defs/nothing"),
]


def spec_folder(rng, game, corpus):
    """A spec folder as a download may be: files that are FIFOs, /dev/zero or folders, grammars
    missing, empty or broken, schemas whose patterns backtrack or whose $refs lead nowhere or
    round in a circle, variants with keys that are no names and numbers of thousands of digits."""
    how = rng.choice(["odd-file", "grammar", "schema", "variant-key", "variant-number"])
    record = rng.choice(game.records).encode()
    argv = rng.choice([["validate"], ["check", "{game.log}"], ["check", "{game.log}", "--format", "json"], ["play", game.name, "--players", str(rng.choice(game.player_counts)), "--seed", "1"]])
    case = Case(0, "", argv, {"game.log": record}, specs={})
    if how == "odd-file":
        path = rng.choice(game.spec_files + [f"{game.name}/extra.yaml", f"{game.name}/variants/odd.yaml", "schema/variant.schema.json"])
        case.specs = {path: rng.choice(ODD_FILES)}
    elif how == "grammar":
        path = rng.choice([f"{game.name}.lark", "common.lark"])
        original = (grammar_root() / path).read_bytes()
        content = rng.choice([b"", "fifo", "dev-zero", "directory", b"move: (\n", original[: rng.randrange(len(original) + 1)], original + b"\nmove: other\n", rng.randbytes(200)])
        case.grammar = {path: content}
    elif how == "schema":
        keyword, value = rng.choice(SCHEMA_TROUBLES)
        schema = yaml.safe_load((specs_root() / "schema" / "variant.schema.json").read_text(encoding="utf-8"))
        if keyword == "pattern":
            schema["properties"]["title"]["pattern"] = value
        elif rng.random() < 0.5:
            schema["$ref"] = value
        else:
            schema["properties"]["title"] = {"$ref": value}
        case.specs = {"schema/variant.schema.json": __import__("json").dumps(schema).encode()}
        title = rng.choice(["a" * 40 + "!", "x" * 30, "Mine"])
        case.files["mine.yaml"] = f"kind: variant\nid: mine\ngame: {game.name}\ntitle: {title}\nchanges: {{}}\n".encode()
        case.argv = ["check", "{game.log}", "--variant", "{mine.yaml}"] if rng.random() < 0.7 else ["play", game.name, "--players", str(rng.choice(game.player_counts)), "--variant", "{mine.yaml}"]
    else:
        data = _base_variant(rng, game)
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        if how == "variant-key":
            key = rng.choice(["2024-01-01", "~", "null", "yes", "on", "1.5", "[a, b]", "{a: 1}", "!!binary aGk="])
            text = text.replace("changes:\n", f"changes:\n  ? {key}\n  : 3\n", 1) if rng.random() < 0.5 else text + f"? {key}\n: 1\n"
        else:
            numbers = list(NUMBER.finditer(text)) or [None]
            digits = "9" * rng.choice([19, 100, 4300, 5000, 20000])
            m = rng.choice(numbers)
            text = text[: m.start()] + digits + text[m.end() :] if m else text + f"extra: {digits}\n"
        case.files["mine.yaml"] = text.encode()
        case.specs = None
        case.argv = rng.choice(
            [
                ["check", "{game.log}", "--variant", "{mine.yaml}"],
                ["check", "--format", "json", "{game.log}", "--variant", "{mine.yaml}"],
                ["play", game.name, "--players", str(rng.choice(game.player_counts)), "--variant", "{mine.yaml}"],
                ["moves", "{game.log}", "--variant", "{mine.yaml}"],
            ]
        )
    return case


def streams(rng, game, corpus):
    """A command whose standard output is closed, full or a pipe nobody reads, whose standard
    input is closed, or whose standard error is full; the exit code must still tell the truth."""
    stream = rng.choice(STREAMS)
    if stream == "stdin-closed":
        return Case(0, "", ["check", "-"], {}, stream=stream, process_only=True)
    base = rng.choice([lines_edit, numbers_edit, replace_move, control_characters, command_line, output_size])(rng, game, corpus)
    if stream == "stderr-full" and rng.random() < 0.5:
        base.argv = rng.choice([["check", "--bogus"], ["check", "{missing.log}"], ["play", "chess", "--players", "2"], base.argv])
    base.stdin = base.stdin or base.files.get("game.log")
    base.stream, base.process_only, base.expect = stream, True, frozenset(EXIT_CODES)
    base.replaced_line = None
    return base


def workers(rng, game, corpus):
    """`check -j 2` of several files, one of them a FIFO that keeps its worker waiting; then a
    worker is killed (the files done must be reported, the others marked, the code not 0) or
    the command itself (its workers must not outlive it)."""
    count = rng.choice([3, 5, 8])
    fifo_at = rng.randrange(1, count)
    files: dict[str, bytes | str] = {}
    for i in range(count):
        files[f"g{i}.log"] = "fifo" if i == fifo_at else (rng.choice(game.records) if rng.random() < 0.7 else lines_edit(rng, game, corpus).files["game.log"].decode()).encode()
    form = ["--format", "json"] if rng.random() < 0.3 else []
    return Case(0, "", ["check", "-j", "2", *form, *(f"{{g{i}.log}}" for i in range(count))], files, kill=rng.choice(["worker", "worker", "parent"]), process_only=True)


def environment(rng, game, corpus):
    """Odd environments: output encodings without the record's letters, the C locale, a
    relative, empty or missing REFEREE_DATA, an unusable cache folder, a docs link with
    control characters."""
    case = rng.choice([control_characters, lines_edit, numbers_edit, players_edit, command_line])(rng, game, corpus)
    how = rng.choice(["encoding", "locale", "data", "cache", "docs-url", "tmpdir"])
    if how == "encoding":
        case.env = {"PYTHONIOENCODING": rng.choice(["ascii", "latin-1", "ascii:strict", "cp1252", "utf-16"])}
        record = case.files.get("game.log")
        if record is not None and rng.random() < 0.6:
            case.files["game.log"] = re.sub(rb'\[Players "[a-z]+', lambda m: m.group(0) + " Zoë 李".encode(), record, count=1)
    elif how == "locale":
        case.env = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": rng.choice(["0", "1"])}
    elif how == "data":
        case.env = {"REFEREE_DATA": rng.choice(["{relative-data}", "{empty-dir}", "{dir}/no-such-folder", "{game.log}", "."])}
        if case.env["REFEREE_DATA"] == "{relative-data}":
            case.specs = case.specs or {}
    elif how == "cache":
        case.env = {"REFEREE_CACHE": rng.choice(["", "{game.log}", "/nonexistent/cache", "{dir}"])}
    elif how == "docs-url":
        case.env = {"REFEREE_DOCS_URL": "http://example.invalid/\x1b[2J\x9b31m\u202e"}
    else:
        case.env = {"TMPDIR": "/nonexistent", "HOME": "/nonexistent"}
    case.process_only = True
    case.stdin = case.stdin or case.files.get("game.log")
    case.replaced_line = None
    case.expect = frozenset(EXIT_CODES)
    return case


FAMILIES: dict[str, tuple[int, Callable[..., Case]]] = {
    "record/bytes": (4, random_bytes),
    "record/empty": (1, empty),
    "record/huge-line": (2, huge_line),
    "record/huge-file": (1, huge_file),
    "record/lines": (10, lines_edit),
    "record/numbers": (8, numbers_edit),
    "record/players": (6, players_edit),
    "record/words": (8, words_edit),
    "record/tags": (5, tags_edit),
    "record/truncate": (3, truncate),
    "record/characters": (5, characters_edit),
    "record/checkpoints": (4, checkpoint_edit),
    "record/replace-move": (16, replace_move),
    "record/ruling": (6, ruling_case),
    "record/stdin": (2, stdin_case),
    "variant": (10, variant_case),
    "spec-file": (8, spec_file_case),
    "command-line": (7, command_line),
    "strangers/control-characters": (4, control_characters),
    "strangers/output-size": (1.5, output_size),
    "strangers/spec-folder": (3, spec_folder),
    "strangers/streams": (1, streams),
    "strangers/workers": (0.3, workers),
    "strangers/environment": (1, environment),
}
