#!/usr/bin/env python3
"""Keeps a few dozen seeds of each fuzz target's corpus (fuzz/corpus/<target>/): a cover of the
inputs' distinct shapes, smallest files first, and deletes the rest.

AFL's afl-cmin does not trace these persistent-mode targets, so the cover is of what the inputs
look like, not of the code they reach: per line, its first word (and whether it is long or holds
bytes that are not printable ASCII); for position strings, the number of fields and the shape of
each non-numeric one. Each kept file adds a shape no smaller file had. Deterministic: the same
corpus gives the same seeds. `crates/engine/tests/fuzz_seeds.rs` replays what is kept.

Usage: scripts/fuzz-seeds.py [--most N] [--dry-run]   (from the repository's root)
"""
import argparse
import os
import re

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "corpus")


def word(line: bytes) -> str:
    text = line.strip().split(b" ", 1)[0][:12]
    shown = "".join(chr(b) if 32 < b < 127 else "?" for b in text).lower()
    extra = []
    if len(line) > 200:
        extra.append("long")
    if any(b >= 127 or (b < 32 and b not in (9, 10, 13)) for b in line):
        extra.append("bytes")
    return "|".join([shown] + extra)


def line_shapes(data: bytes) -> set:
    shapes = {word(line) for line in data.split(b"\n") if line.strip()}
    # setoption names and query words say more than the command word alone.
    for line in data.split(b"\n"):
        parts = line.strip().split()
        if len(parts) >= 3 and parts[0].lower() in (b"setoption", b"query", b"position", b"go"):
            shapes.add(word(parts[0]) + ":" + word(parts[1 if parts[0].lower() != b"setoption" else 2]))
    return shapes


def position_shapes(data: bytes) -> set:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {"not-utf8"}
    fields = text.split("-")
    odd = sorted({re.sub(r"[0-9]+", "9", f)[:6] for f in fields if not f.isdigit()})
    return {f"fields {len(fields)}"} | {f"field {f!r}" for f in odd}


SHAPES = {"command_line": line_shapes, "session": line_shapes, "position_string": position_shapes}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--most", type=int, default=40)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    for target, shapes_of in SHAPES.items():
        folder = os.path.join(CORPUS, target)
        names = sorted(os.listdir(folder), key=lambda n: (os.path.getsize(os.path.join(folder, n)), n))
        seen, kept = set(), []
        for name in names:
            with open(os.path.join(folder, name), "rb") as f:
                new = shapes_of(f.read()) - seen
            if new and len(kept) < args.most:
                kept.append(name)
                seen |= new
        print(f"{target}: {len(kept)} of {len(names)} kept, {len(seen)} shapes")
        if not args.dry_run:
            for name in set(names) - set(kept):
                os.remove(os.path.join(folder, name))


if __name__ == "__main__":
    main()
