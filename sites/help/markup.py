"""An article's plain-text body as blocks a template renders (no HTML is ever stored)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Block:
    #: "paragraph", "heading", "bullets" or "steps".
    kind: str
    lines: tuple[str, ...]


def blocks(body: str) -> list[Block]:
    """Paragraphs split at blank lines; ``## `` headings, ``- `` bullets, ``1. `` steps."""
    found = []
    for chunk in body.split("\n\n"):
        lines = [line.strip() for line in chunk.strip().splitlines() if line.strip()]
        if not lines:
            continue
        if lines[0].startswith("## "):
            found.append(Block("heading", (lines[0][3:],)))
        elif all(line.startswith("- ") for line in lines):
            found.append(Block("bullets", tuple(line[2:] for line in lines)))
        elif all(line.split(" ", 1)[0].rstrip(".").isdigit() for line in lines):
            found.append(Block("steps", tuple(line.split(" ", 1)[1] for line in lines)))
        else:
            found.append(Block("paragraph", (" ".join(lines),)))
    return found


def excerpt(body: str, words: list[str], width: int = 180) -> str:
    """A piece of ``body`` around the first of ``words`` it holds, for search results."""
    text = " ".join(line.lstrip("-# ").strip() for line in body.split("\n") if line.strip())
    lowered = text.lower()
    starts = [lowered.find(word) for word in words if lowered.find(word) >= 0]
    start = max(0, min(starts) - 60) if starts else 0
    piece = text[start : start + width]
    return ("…" if start else "") + piece + ("…" if start + width < len(text) else "")
