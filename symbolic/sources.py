"""A claim's ``source`` resolved against the items of ``docs/theory.md`` and their references.

A source is a list of item identifiers separated by commas, with ranges within one part:
``"A6"``, ``"A4, A6"``, ``"A1, A3–A5"`` (an en dash or a hyphen), ``"B"``. Each item is a
``### <id>. <title>`` heading of ``docs/theory.md`` whose section ends with a line
``References: key, key`` (keys of ``docs/references.bib``).

>>> [item.id for item in resolve("A1, A3–A5")]
['A1', 'A3', 'A4', 'A5']
>>> resolve("A6")[0].references
('breslow2026',)
>>> resolve("THEORY.md A6")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
symbolic.sources.UnresolvedSource: source 'THEORY.md A6': 'THEORY.md A6' is not an item of ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from symbolic.errors import ToolkitError

DOCS = Path(__file__).resolve().parent.parent / "docs"
THEORY = DOCS / "theory.md"
REFERENCES = DOCS / "references.bib"
THEORY_NAME = "docs/theory.md"  # how documents refer to it


class UnresolvedSource(ToolkitError, LookupError):
    """A source that names no item of docs/theory.md."""


@dataclass(frozen=True)
class Item:
    """One item of docs/theory.md."""

    id: str
    title: str
    text: str  # the item's Markdown, heading excluded
    references: tuple[str, ...]

    @property
    def anchor(self) -> str:
        """The GitHub-style anchor of the item's heading (``#a6-exchange-symmetry-q--k``)."""
        slug = re.sub(r"[^\w\- ]", "", f"{self.id}. {self.title}".lower())
        return "#" + slug.replace(" ", "-")


_HEADING = re.compile(r"^### (?P<id>[A-Z]\d*)\. (?P<title>.+)$", re.M)
_REFERENCES = re.compile(r"^References:\s*(?P<keys>.+?)\s*$", re.M | re.S)


@cache
def items(path: Path = THEORY) -> dict[str, Item]:
    """Every item of docs/theory.md by identifier (empty when the file is not there)."""
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    heads = list(_HEADING.finditer(text))
    found = {}
    for head, nxt in zip(heads, [*heads[1:], None], strict=True):
        body = text[head.end() : nxt.start() if nxt else len(text)]
        body = body.split("\n## ")[0].strip()
        refs = _REFERENCES.search(body)
        keys = tuple(k for k in re.split(r"[,\s]+", refs["keys"]) if k) if refs else ()
        found[head["id"]] = Item(head["id"], head["title"].strip(), body, keys)
    return found


@cache
def bib_keys(path: Path = REFERENCES) -> frozenset[str]:
    """The entry keys of docs/references.bib."""
    if not path.exists():
        return frozenset()
    return frozenset(re.findall(r"^@\w+\{([^,\s]+),", path.read_text(encoding="utf-8"), re.M))


_RANGE = re.compile(r"^(?P<part>[A-Z])(?P<a>\d+)\s*[–-]\s*(?P=part)?(?P<b>\d+)$")


def identifiers(source: str) -> list[str]:
    """``"A1, A3–A5"`` as ``["A1", "A3", "A4", "A5"]`` (no check that they exist)."""
    ids = []
    for token in (t.strip() for t in source.split(",")):
        m = _RANGE.match(token)
        if m:
            ids += [f"{m['part']}{k}" for k in range(int(m["a"]), int(m["b"]) + 1)]
        elif token:
            ids.append(token)
    return ids


def resolve(source: str) -> tuple[Item, ...]:
    """The items a source names; ``UnresolvedSource`` when one of them is not in the file."""
    known = items()
    ids = identifiers(source)
    if not ids:
        raise UnresolvedSource(f"source {source!r}: names no item of {THEORY_NAME}")
    for i in ids:
        if i not in known:
            raise UnresolvedSource(
                f"source {source!r}: {i!r} is not an item of {THEORY_NAME}; "
                f"valid items: {', '.join(known) or '(file not found)'}"
            )
    return tuple(known[i] for i in ids)


def references(source: str) -> tuple[str, ...]:
    """The bibliography keys of a source's items, each once, in order; () if unresolved."""
    try:
        found = resolve(source)
    except UnresolvedSource:
        return ()
    return tuple(dict.fromkeys(k for item in found for k in item.references))


def _fields(body: str) -> dict[str, str]:
    """``name = {value}`` fields of one BibTeX entry (braces balanced; outer braces dropped)."""
    fields, pos = {}, 0
    while m := re.compile(r"\s*(\w+)\s*=\s*\{").search(body, pos):
        depth, i = 1, m.end()
        while depth and i < len(body):
            depth += {"{": 1, "}": -1}.get(body[i], 0)
            i += 1
        fields[m[1].lower()] = " ".join(body[m.end() : i - 1].split())
        pos = i
    return fields


@cache
def bib_entries(path: Path = REFERENCES) -> dict[str, dict[str, str]]:
    """Every entry of docs/references.bib: key -> fields (values are LaTeX, as in the file)."""
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    heads = list(re.finditer(r"^@(\w+)\{([^,\s]+),", text, re.M))
    return {
        h[2]: {"type": h[1].lower(), **_fields(text[h.end() : n.start() if n else len(text)])}
        for h, n in zip(heads, [*heads[1:], None], strict=True)
    }
