"""A game's variants page: each overlay file, with every value it sets before and after."""

from __future__ import annotations

from typing import Any

from referee.i18n import _, current
from referee.site.markdown import dotted, escape, slug, table
from referee.site.tables import GamePages
from referee.spec.loader import Spec, load_spec


def render(doc: GamePages) -> str:
    out = [
        "# " + _("Variants of {game}").format(game=escape(doc.name())),
        "",
        _(
            "A variant is an overlay file in {folder}. It is merged over the spec "
            "(mappings key by key, anything else replaced) and validated again. A record selects it with a "
            '`[Variant "name"]` header tag, or `--variant name` selects it on the command line. An overlay file of '
            "your own is given by its path, and only on the command line (`--variant my-rules.yaml`): a record names "
            "variants by name, so that reading a record never opens other files."
        ).format(folder=f"`{doc.where('game').rsplit('/', 1)[0]}/variants/`"),
        "",
    ]
    if current() != "en":
        out += [_("Each variant's title and description are given in English, as its overlay file writes them."), ""]
    if not doc.variant_files():
        return "\n".join(out + [_("No variants of {game} are defined yet.").format(game=escape(doc.name())), ""])
    for path in doc.variant_files():
        vspec = load_spec(doc.game, (path.stem,), root=doc.spec.directory.parent)
        variant = vspec.variants[-1]
        after = GamePages(vspec, doc.data)
        after.verify_links = False
        out += [f"## {escape(variant.title)} {{#variant-{slug(path.stem)}}}", ""]
        if variant.description:
            out += [variant.description.strip(), ""]
        select = _("Select it with {tag} or {option}. File: {file}.").format(tag=f'`[Variant "{path.stem}"]`', option=f"`--variant {path.stem}`", file=f"`{doc.where_path(path)}`")
        out += [select, ""]
        rows = []
        for stem, key in overlay_leaves(variant.changes, doc.spec):
            address = f"{stem}:{dotted(key)}"
            before = doc.cell(doc.spec.get(address), stem, key) if doc.spec.has(address) else "*(" + _("not set") + ")*"
            rows.append([f"`{stem}`", f"`{dotted(key)}`", before, after.cell(vspec.get(address), stem, key)])
        out.append(table([_("File"), _("Key"), _("Before"), _("After")], rows))
    return "\n".join(out)


def overlay_leaves(changes: dict, base: Spec):
    """(file stem, key path) of every value a variant sets, as deep as the base spec has mappings."""

    def walk(stem: str, node: Any, path: tuple):
        address = f"{stem}:{dotted(path)}"
        opens = not path or (base.has(address) and isinstance(base.get(address), dict))
        if opens and isinstance(node, dict) and node and not ("provenance" in node and "value" in node):
            for k, v in node.items():
                if path or k != "kind":
                    yield from walk(stem, v, path + (k,))
        else:
            yield stem, path

    for stem, overlay in changes.items():
        yield from walk(stem, overlay, ())
