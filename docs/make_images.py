"""Draws the pictures the README and the game pages show, with the package's own SVG drawing:
``python docs/make_images.py`` rewrites ``docs/images/*.svg`` (a test checks they are current)."""

from __future__ import annotations

from pathlib import Path

from perfectplay import connect4, footholds, mnk, tictactoe

IMAGES = Path(__file__).resolve().parent / "images"


def drawings() -> dict[str, str]:
    """Each picture's file name and SVG text: every legal move marked with its value."""
    return {
        "tictactoe.svg": tictactoe.Position("xx./oo./...").svg(analysis=True),
        "mnk.svg": mnk.Position("x.../.o../..../....", k=3).svg(analysis=True),
        "connect4.svg": connect4.Position("4453").play(3).svg(analysis=True),
        "footholds.svg": footholds.Position("111/111/111", (1, 0), (1, 2)).svg(analysis=True),
    }


def main() -> None:
    IMAGES.mkdir(exist_ok=True)
    for name, svg in drawings().items():
        (IMAGES / name).write_text(svg + "\n", encoding="utf-8")
        print(IMAGES / name)


if __name__ == "__main__":
    main()
