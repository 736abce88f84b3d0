"""The export folder's files, read and written safely: never through a symbolic link, sizes
bounded, JSON parsed without running anything (issues 16, 25)."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Collection
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 8 * 2**20
MAX_FILES = 100_000
MAX_JSON_ITEMS = 4_000_000  # values in one JSON document (a whole project's manifest: ~300,000)


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, never through a symbolic link (the file or its folder), and
    only to a regular file of one name (``OSError`` else): a FIFO named ``recheck.json`` made
    the re-check wait for a reader for ever, and a device node or a second name of another
    file would be written through. Opened without blocking and without truncating, checked
    by its open descriptor, then truncated."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.parent.is_symlink() or path.is_symlink():
        raise OSError(f"{path}: refusing to write through a symbolic link")
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags, 0o644)
    with os.fdopen(fd, "wb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_nlink > 1:
            raise OSError(f"{path}: refusing to write to a special file or a linked name")
        f.truncate(0)
        f.write(data)


def _admissible(info: os.stat_result, limit: int) -> None:
    """A regular file (not a link) of at most ``limit`` bytes, by its ``lstat``; ``ValueError``."""
    if stat.S_ISLNK(info.st_mode):
        raise ValueError("a symbolic link (refused)")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("not a regular file")
    if info.st_size > limit:
        raise ValueError(f"{info.st_size} bytes; at most {limit}")


def read_file(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """A regular file's bytes (no symlink; at most ``limit`` bytes); ``ValueError`` else."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise ValueError(f"cannot read ({exc.strerror})") from None
    _admissible(info, limit)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # swapped since the lstat
            raise ValueError("not a regular file")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"more than {limit} bytes")
    return data


def read_under(root: Path, name: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The regular file ``root/name`` (``name`` relative, ``/``-separated), each folder on the
    way opened without following a symbolic link: a linked folder (``m -> /etc``) is refused,
    never read through (``read_file`` alone refuses a link only in the last component).
    ``ValueError`` naming why not."""
    parts = name.split("/")
    if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"{name!r}: not a plain path inside the export folder")
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot open the export folder ({exc})") from None
    try:
        for part in parts[:-1]:
            try:
                nxt = os.open(
                    part, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | nofollow, dir_fd=fd
                )
            except (OSError, ValueError) as exc:
                why = getattr(exc, "strerror", None) or str(exc)
                raise ValueError(f"{name}: folder {part!r} refused ({why})") from None
            os.close(fd)
            fd = nxt
        try:
            info = os.lstat(parts[-1], dir_fd=fd)
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            raise ValueError(f"cannot read ({why})") from None
        _admissible(info, limit)
        try:
            leaf = os.open(
                parts[-1], os.O_RDONLY | nofollow | getattr(os, "O_NONBLOCK", 0), dir_fd=fd
            )
        except OSError as exc:
            raise ValueError(f"cannot read ({exc.strerror})") from None
        with os.fdopen(leaf, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # swapped since the lstat
                raise ValueError("not a regular file")
            data = f.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ValueError(f"more than {limit} bytes")
    return data


def _no_duplicates(pairs: list) -> dict:
    """A JSON object whose keys are distinct: with ``{"a": 1, "a": 2}`` one reader takes the
    first and another the last — two documents in one file, refused."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise ValueError(f"the key {str(twice)[:40]!r} twice in one object")
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} (not a JSON number)")


def read_json(data: bytes) -> Any:
    """``data`` as JSON; ``ValueError`` naming why not — also for a string holding a lone
    surrogate (the escape ``\\ud800``), which no text can be printed or written with, an
    object with one key twice, and ``NaN``/``Infinity`` (Python's extension, no JSON)."""
    items = data.count(b",") + data.count(b"{") + data.count(b"[")  # at least the values
    if items > MAX_JSON_ITEMS:  # 48 MB of [{}, {}, …] took 1.4 GB and 20 s to read
        raise ValueError(f"not JSON this reader takes (more than {MAX_JSON_ITEMS} values)")
    try:
        value = json.loads(
            data.decode("utf-8"), object_pairs_hook=_no_duplicates, parse_constant=_no_constant
        )
    except (UnicodeDecodeError, RecursionError) as exc:
        raise ValueError(f"not JSON ({type(exc).__name__})") from None
    except ValueError as exc:
        raise ValueError(f"not JSON ({' '.join(str(exc).split())[:80]})") from None
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack += list(item.keys()) + list(item.values())
        elif isinstance(item, list):
            stack += item
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError("not JSON text (a lone surrogate in a string)") from None
    return value


MAX_DEPTH = 64  # folders inside folders: the export writes two levels


def listing(root: Path, skip: Collection[str] = ()) -> tuple[dict[str, str], list[str]]:
    """Every regular file under ``root`` but those named in ``skip`` (relative path → SHA-256),
    and every entry refused (symlinks, special files, a folder that cannot be read or lies
    deeper than ``MAX_DEPTH``), without following links. Walked with a stack of its own:
    ``os.walk`` recursed once per level (a folder 1,100 levels deep was a ``RecursionError``)
    and skipped a folder it could not read without a word."""
    found: dict[str, str] = {}
    refused: list[str] = []
    stack: list[tuple[str, int]] = [("", 0)]
    while stack:
        rel_dir, depth = stack.pop()
        try:
            with os.scandir(os.path.join(root, rel_dir) if rel_dir else root) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            refused.append(f"{rel_dir or '.'}: folder not read ({exc.strerror})")
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if is_dir:
                if depth + 1 > MAX_DEPTH:
                    refused.append(f"{rel}: folders nested deeper than {MAX_DEPTH}")
                else:
                    stack.append((rel, depth + 1))
                continue
            if entry.is_symlink() and os.path.isdir(entry.path):
                refused.append(rel)  # a linked folder: never walked into
                continue
            if rel in skip:
                continue
            if len(found) >= MAX_FILES:
                refused.append(f"{rel} (more than {MAX_FILES} files)")
                continue
            try:
                found[rel] = hashlib.sha256(read_file(Path(entry.path))).hexdigest()
            except ValueError as exc:
                refused.append(f"{rel}: {exc}")
    return found, refused
