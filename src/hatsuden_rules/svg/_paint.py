"""The palette and the card painter of the SVG pictures (behind `hatsuden_rules.svg`).

Colours are presentation attributes, not a ``<style>`` sheet: several pictures in one notebook
page then cannot restyle each other, and renderers without CSS draw them the same. Nothing uses
an ``id`` either (the card back is drawn, not referenced), for the same reason.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from hatsuden_rules.core.cards import Card, Energy, Tech
from hatsuden_rules.core.errors import InvalidInputError

__all__ = [
    "BAND_H",
    "CARD_H",
    "CARD_W",
    "DEFAULT_COLORS",
    "FONT",
    "GAP",
    "HAND_H",
    "HEADER_H",
    "LABEL_W",
    "MARGIN",
    "MINI_H",
    "MINI_W",
    "NAME_H",
    "SIDE_W",
    "STATUS_W",
    "TINY_H",
    "TINY_W",
    "Layout",
    "Painter",
    "code",
    "element",
    "energy_name",
    "ink",
    "text",
    "tint",
    "title",
]

# Geometry, in viewBox units (pixels at the natural size).
CARD_W: Final = 54
CARD_H: Final = 74
MINI_W: Final = 38
MINI_H: Final = 52
TINY_W: Final = 26
TINY_H: Final = 36
GAP: Final = 8
MARGIN: Final = 12
LABEL_W: Final = 72
STATUS_W: Final = 128
SIDE_W: Final = 236
HEADER_H: Final = 48
NAME_H: Final = 26
HAND_H: Final = 64
BAND_H: Final = 84
FONT: Final = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

#: The colours of a picture, by name; `board_svg(colors=...)` overrides any of them.
#: The energies use the Okabe-Ito palette, whose colours colour-blind readers tell apart; every
#: card also carries its energy's letter.
DEFAULT_COLORS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "solar": "#f0e442",
        "geothermal": "#d55e00",
        "wind": "#56b4e9",
        "hydro": "#0072b2",
        "biomass": "#009e73",
        "back": "#2f4358",
        "back-line": "#8fa6bd",
        "tech": "#ede4f3",
        "tech-line": "#7b5a94",
        "table": "#f3f0e8",
        "panel": "#ffffff",
        "line": "#c8c1b3",
        "text": "#1d1d1b",
        "muted": "#6a655c",
        "highlight": "#cc79a7",
        "city-plus": "#0072b2",
        "city-minus": "#d55e00",
        "city-zero": "#8a8478",
        "over": "#a50f15",
        "lead": "#1d1d1b",
    }
)

_HEX: Final = re.compile(r"#[0-9a-fA-F]{6}")

_TECH_LABELS: Final = MappingProxyType(
    {
        Tech.ACCUMULATOR: ("+1", "Accum.", "Accumulator: a city tolerates one more (R19)"),
        Tech.SECRET_BUILD: ("?", "Secret", "Secret Build: construct face down (R11)"),
        Tech.SMART: (
            "\N{MULTIPLICATION SIGN}2",
            "Smart",
            "Smart: an energy's majority scores 2 (R20)",
        ),
        Tech.DOWN: ("↓", "Down", "Down: replace a plant by a lower card (R13)"),
    }
)


def colors_with(overrides: Mapping[str, str] | None) -> dict[str, str]:
    """`DEFAULT_COLORS` with `overrides` (checked: known names, ``#rrggbb`` values)."""
    colors = dict(DEFAULT_COLORS)
    if overrides is None:
        return colors
    if not isinstance(overrides, Mapping):
        raise InvalidInputError("colors", f"expected a mapping, got {type(overrides).__name__}")
    for key, value in overrides.items():
        if key not in DEFAULT_COLORS:
            raise InvalidInputError(
                "colors", f"unknown colour {key!r}; the names are {', '.join(DEFAULT_COLORS)}"
            )
        if type(value) is not str or not _HEX.fullmatch(value):
            raise InvalidInputError("colors", f"{key}: expected '#rrggbb', got {value!r}")
        colors[key] = value.lower()
    return colors


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def tint(color: str, amount: float = 0.74) -> str:
    """`color` mixed with white (`amount` of white)."""
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in _rgb(color))


def _luminance(color: str) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in _rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink(color: str) -> str:
    """Black or white, whichever contrasts more with `color` (WCAG contrast ratio)."""
    lum = _luminance(color)
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


# -- elements -------------------------------------------------------------------------------------


def _key(name: str) -> str:
    return name if name == "viewBox" else name.rstrip("_").replace("_", "-")


def element(parent: ET.Element | None, tag: str, **values: object) -> ET.Element:
    """An element with `values` as attributes (``class_`` is ``class``, ``_`` becomes ``-``)."""
    attrs = {_key(key): str(value) for key, value in values.items()}
    return ET.Element(tag, attrs) if parent is None else ET.SubElement(parent, tag, attrs)


def text(parent: ET.Element, x: int, y: int, content: str, **values: object) -> ET.Element:
    """A ``<text>`` at (`x`, `y`)."""
    node = element(parent, "text", x=x, y=y, **values)
    node.text = content
    return node


def title(parent: ET.Element, content: str) -> None:
    """A tooltip (and accessible name) for `parent`."""
    element(parent, "title").text = content


def energy_name(energy: Energy) -> str:
    """``Solar``, ``Geothermal``, ..."""
    return energy.name.capitalize()


def code(card: Card) -> str:
    """The notation of a card, ``W3``."""
    return f"{card.energy.letter}{card.value}"


class Painter:
    """Draws cards, backs, tech cards and chips; holds the colours."""

    def __init__(self, colors: dict[str, str]) -> None:
        self.c = colors

    def face(
        self,
        g: ET.Element,
        x: int,
        y: int,
        w: int,
        h: int,
        energy: Energy,
        value: str,
        *,
        secret: bool = False,
    ) -> None:
        """A face-up card: a band in its energy's colour with its letter, and its value."""
        color = self.c[energy.value]
        band = max(11, h // 4)
        r = 5 if w >= MINI_W else 3
        element(
            g,
            "rect",
            x=x,
            y=y,
            width=w,
            height=h,
            rx=r,
            fill=tint(color),
            stroke=self.c["text"] if secret else color,
            stroke_width=2 if secret else 1.5,
            **({"stroke_dasharray": "5 3"} if secret else {}),
        )
        element(
            g,
            "path",
            d=f"M{x},{y + band}v{-(band - r)}a{r},{r} 0 0 1 {r},{-r}h{w - 2 * r}"
            f"a{r},{r} 0 0 1 {r},{r}v{band - r}z",
            fill=color,
        )
        text(
            g,
            x + w // 2,
            y + band - max(2, band // 5),
            energy.letter,
            fill=ink(color),
            font_size=band - 2,
            font_weight="bold",
            text_anchor="middle",
        )
        size = h * 2 // 5
        text(
            g,
            x + w // 2,
            y + band + (h - band) // 2 + size * 7 // 20,
            value,
            fill=self.c["text"],
            font_size=size,
            font_weight="bold",
            text_anchor="middle",
        )

    def back(self, g: ET.Element, x: int, y: int, w: int, h: int, label: str = "") -> None:
        """A face-down card: a dark back with an inset frame and a diamond."""
        r = 5 if w >= MINI_W else 3
        element(g, "rect", x=x, y=y, width=w, height=h, rx=r, fill=self.c["back"])
        element(
            g,
            "rect",
            x=x + 4,
            y=y + 4,
            width=w - 8,
            height=h - 8,
            rx=max(1, r - 2),
            fill="none",
            stroke=self.c["back-line"],
            stroke_width=1,
        )
        cx, cy, d = x + w // 2, y + h // 2, min(w, h) // 5
        element(
            g,
            "path",
            d=f"M{cx},{cy - d}l{d},{d}l{-d},{d}l{-d},{-d}z",
            fill="none",
            stroke=self.c["back-line"],
            stroke_width=1.5,
        )
        if label:
            text(
                g,
                x + w // 2,
                y + 15,
                label,
                fill="#ffffff",
                font_size=9 if w >= CARD_W else 8,
                text_anchor="middle",
            )

    def chip(self, g: ET.Element, cx: int, y: int, label: str, *, fill: str, size: int = 9) -> None:
        """A small rounded label centred on `cx`, its top at `y`; the ink follows `fill`."""
        width = max(16, len(label) * size * 3 // 5 + 8)
        element(
            g,
            "rect",
            x=cx - width // 2,
            y=y,
            width=width,
            height=size + 5,
            rx=(size + 5) // 2,
            fill=fill,
        )
        text(g, cx, y + size + 1, label, fill=ink(fill), font_size=size, text_anchor="middle")

    def tech(self, g: ET.Element, x: int, y: int, w: int, h: int, tech: Tech | None) -> None:
        """A tech card face up (its symbol and short name), or face down for None."""
        if tech is None:
            self.back(g, x, y, w, h, "tech")
            title(g, "a tech card this player cannot see")
            return
        symbol, short, long = _TECH_LABELS[tech]
        element(
            g,
            "rect",
            x=x,
            y=y,
            width=w,
            height=h,
            rx=5,
            fill=self.c["tech"],
            stroke=self.c["tech-line"],
            stroke_width=1.5,
        )
        text(
            g,
            x + w // 2,
            y + h // 2 + 3,
            symbol,
            fill=self.c["tech-line"],
            font_size=h // 3,
            font_weight="bold",
            text_anchor="middle",
        )
        text(
            g, x + w // 2, y + h - 6, short, fill=self.c["text"], font_size=8, text_anchor="middle"
        )
        title(g, long)


class Layout:
    """Where everything goes, for a number of energies in play."""

    def __init__(self, energies: int) -> None:
        self.grid_w = energies * (CARD_W + GAP) - GAP
        self.grid_x = MARGIN + LABEL_W
        self.status_x = self.grid_x + self.grid_w + 14
        self.main_right = self.status_x + STATUS_W
        self.side_x = self.main_right + 12
        self.width = self.side_x + SIDE_W + MARGIN
        self.grid_h = 2 * CARD_H + GAP
        self.block_h = NAME_H + HAND_H + 6 + self.grid_h + 10
        self.top_y = MARGIN + HEADER_H + 8
        self.band_y = self.top_y + self.block_h
        self.bottom_y = self.band_y + BAND_H
        self.height = self.bottom_y + self.block_h + MARGIN

    def column_x(self, column: int) -> int:
        return self.grid_x + column * (CARD_W + GAP)

    def grid_y(self, top: bool) -> int:
        return self.top_y + NAME_H + HAND_H + 6 if top else self.bottom_y + 10

    def hand_y(self, top: bool) -> int:
        return self.top_y + NAME_H + 4 if top else self.bottom_y + 10 + self.grid_h + 8

    def name_y(self, top: bool) -> int:
        # The bottom name sits inside its panel, clear of the border (issue 23 §3).
        return self.top_y + 18 if top else self.bottom_y + self.block_h - 16
