"""Drawing one position as SVG (the implementation of `hatsuden_rules.svg.board_svg`).

The picture is built with `xml.etree.ElementTree` (escaping for free, stable output) from a
`View` (`_svg_view`), so a god view and a player's view are drawn by the same code. The document
is written one top-level element a line, and each card, each cell and each label that changes
on its own is a top-level element: golden files stay readable, and `record_to_html` stores each
distinct line once for a whole game.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Final

from hatsuden_rules.core.cards import Cell, Energy
from hatsuden_rules.core.scoring import Decision
from hatsuden_rules.core.state import Chance, EndReason, Phase
from hatsuden_rules.svg._paint import (
    BAND_H,
    CARD_H,
    CARD_W,
    FONT,
    GAP,
    HEADER_H,
    MARGIN,
    MINI_H,
    MINI_W,
    SIDE_W,
    STATUS_W,
    TINY_H,
    TINY_W,
    Layout,
    Painter,
    code,
    colors_with,
    element,
    energy_name,
    ink,
    text,
    tint,
    title,
)
from hatsuden_rules.svg._view import CellView, Sheet, View, sheet_of

__all__ = ["draw"]

MINUS: Final = "\N{MINUS SIGN}"
_LOG_WIDTH: Final = 28  # characters of move notation a line of the side panel holds
TIMES: Final = "\N{MULTIPLICATION SIGN}"

_PHASE_TEXT: Final = {
    Phase.ACTION: "action",
    Phase.TECH: "tech card: draw or decline",
    Phase.OVERFLOW: "overflow: flip a plant",
    Phase.DRAW: "draw a card",
}
_CHANCE_TEXT: Final = {
    Chance.SETUP: "dealing the hands",
    Chance.DRAW: "a card is dealt",
    Chance.TECH: "a tech card is dealt",
}
_DECISION_TEXT: Final = {
    Decision.TOTAL: "the higher total",
    Decision.CITY_POINTS: "tie-break 1: city points",
    Decision.SUPPLY: "tie-break 1: total supply",
    Decision.SECOND_PLAYER: "tie-break 2: the second player",
}


def draw(
    view: View,
    *,
    bottom: int,
    size: int | None,
    marked: frozenset[tuple[int, Cell]],
    names: tuple[str, str],
    colors: Mapping[str, str] | None,
    standalone: bool,
) -> str:
    """The SVG text of `view` (arguments already checked), one top-level element a line.

    `bottom` is the seat drawn at the bottom; `standalone` adds the SVG namespace, which a file
    or a notebook needs and HTML does not.
    """
    layout = Layout(len(view.rules.energies_in_play))
    board = _Board(view, Painter(colors_with(colors)), layout, names, marked)
    return board.draw(bottom, size, standalone)


def _num(value: int | None) -> str:
    if value is None:
        return "?"
    return MINUS + str(-value) if value < 0 else str(value)


def _signed(value: int | None) -> str:
    if value is None:
        return "?"
    return f"+{value}" if value > 0 else (MINUS + str(-value) if value < 0 else "0")


class _Board:
    """One picture being drawn: the view, the painter, the layout and the options."""

    def __init__(
        self,
        view: View,
        painter: Painter,
        layout: Layout,
        names: tuple[str, str],
        marked: frozenset[tuple[int, Cell]],
    ) -> None:
        self.view = view
        self.p = painter
        self.c = painter.c
        self.layout = layout
        self.names = names
        self.marked = marked
        self.sheet: Sheet = sheet_of(view)
        self.root = ET.Element("svg")

    def group(self, classes: str) -> ET.Element:
        """A new top-level group (one line of the document)."""
        return element(self.root, "g", class_=classes)

    def draw(self, bottom: int, size: int | None, standalone: bool) -> str:
        view, layout = self.view, self.layout
        root = self.root
        if standalone:
            root.set("xmlns", "http://www.w3.org/2000/svg")
        root.set("viewBox", f"0 0 {layout.width} {layout.height}")
        if size is not None:
            root.set("width", str(size))
            root.set("height", str(round(size * layout.height / layout.width)))
        who = "god-view" if view.observer is None else f"player-{view.observer}-view"
        root.set("role", "img")
        root.set("font-family", FONT)
        root.set("class", f"hatsuden-board {who}")
        head, sub = self.headline()
        viewer = (
            "all cards (god view)"
            if view.observer is None
            else f"{self.names[view.observer]}'s view"
        )
        element(root, "title").text = f"HATSUDEN, {viewer}: {head}"
        element(root, "desc").text = "\n" + view.text + "\n"
        element(
            root, "rect", x=0, y=0, width=layout.width, height=layout.height, fill=self.c["table"]
        )
        self.header(head, sub, viewer)
        for seat in (1 - bottom, bottom):
            self.seat(seat, seat != bottom)
        self.band(top=1 - bottom)
        self.side()
        empty = ET.tostring(ET.Element("svg", root.attrib), encoding="unicode")
        lines = [empty[: -len(" />")] + ">"]
        lines += [ET.tostring(child, encoding="unicode") for child in root]
        lines.append("</svg>")
        return "\n".join(lines) + "\n"

    # -- header ---------------------------------------------------------------------------------

    def headline(self) -> tuple[str, str]:
        """The main line of the header and the line under it."""
        view, names, sheet = self.view, self.names, self.sheet
        limit = view.rules.stall_limit
        stall = f"stall counter {view.stall_count} of {'no limit' if limit is None else limit}"
        if view.is_over:
            assert view.end_reason is not None
            reason = "final turn" if view.end_reason is EndReason.FINAL_TURN else "stall"
            winner, decided = sheet.winner, sheet.decided_by
            assert winner is not None  # nothing that scores is hidden at the end (R26)
            assert decided is not None
            won, lost = sheet.total[winner], sheet.total[1 - winner]
            head = f"Game over ({reason}) · {names[winner]} wins {won} to {lost}"
            return head, f"decided by {_DECISION_TEXT[decided]} · {stall}"
        name = names[view.current_player]
        if view.phase is Phase.CHANCE:
            head = f"Chance: {_CHANCE_TEXT[view.pending_chance or Chance.SETUP]} to {name}"
        else:
            head = f"{name} to play · {_PHASE_TEXT[view.phase]}"
        trigger = view.end_triggered_by
        if trigger is not None:
            stall = f"{names[trigger]}'s grid is full: {names[1 - trigger]} plays the last turn"
            stall += f" · stall counter {view.stall_count}"
        return head, stall

    def header(self, head: str, sub: str, viewer: str) -> None:
        g = self.group("header")
        c = self.c
        element(
            g,
            "rect",
            x=MARGIN,
            y=MARGIN,
            width=self.layout.width - 2 * MARGIN,
            height=HEADER_H,
            rx=8,
            fill=c["panel"],
            stroke=c["line"],
        )
        text(g, MARGIN + 12, MARGIN + 21, head, fill=c["text"], font_size=16, font_weight="bold")
        text(g, MARGIN + 12, MARGIN + 39, sub, fill=c["muted"], font_size=11)
        right = self.layout.width - MARGIN - 12
        text(g, right, MARGIN + 21, viewer, fill=c["muted"], font_size=12, text_anchor="end")

    # -- a player's side ------------------------------------------------------------------------

    def seat(self, seat: int, top: bool) -> None:
        view, layout, c = self.view, self.layout, self.c
        side = view.seats[seat]
        y0 = layout.top_y if top else layout.bottom_y
        acting = view.current_player == seat and not view.is_over
        g = self.group(f"seat player-{seat}" + (" to-play" if acting else ""))
        element(
            g,
            "rect",
            x=MARGIN,
            y=y0,
            width=layout.main_right - MARGIN,
            height=layout.block_h - 6,
            rx=8,
            fill=c["panel"],
            stroke=c["text"] if acting else c["line"],
            stroke_width=2 if acting else 1,
        )
        label = self.names[seat]
        if label != f"Player {seat}" and not label.endswith(f"({seat})"):
            label += f" (player {seat})"
        if view.observer is not None:
            label += " · you" if seat == view.observer else " · opponent"
        ny = layout.name_y(top)
        text(g, MARGIN + 12, ny, label, fill=c["text"], font_size=13, font_weight="bold")
        winner = view.is_over and self.sheet.winner == seat
        tag = "to play" if acting else ("winner" if winner else "")
        if tag:
            self.p.chip(g, MARGIN + 12 + len(label) * 8 + 30, ny - 12, tag, fill=c["text"], size=10)
        counts = f"{len(side.hand)} in hand · {len(side.techs)} tech"
        right = layout.main_right - 12
        text(g, right, ny, counts, fill=c["muted"], font_size=11, text_anchor="end")
        self.hand(seat, top)
        gy = layout.grid_y(top)
        for row in (0, 1):
            ry = gy + row * (CARD_H + GAP)
            lg = self.group(f"city-label player-{seat} row-{row}")
            text(
                lg,
                MARGIN + 12,
                ry + CARD_H // 2 + 5,
                f"City {row}",
                fill=c["text"],
                font_size=13,
                font_weight="bold",
            )
            self.status(seat, row, ry)
        for index, cell in enumerate(view.rules.cells):
            x = layout.column_x(cell.energy.column)
            y = gy + cell.row * (CARD_H + GAP)
            played = view.played_cell == cell and view.current_player == seat and not view.is_over
            self.cell(seat, cell, side.board[index], x, y, played)

    def hand(self, seat: int, top: bool) -> None:
        layout, c, p = self.layout, self.c, self.p
        side = self.view.seats[seat]
        y = layout.hand_y(top)
        g = self.group(f"hand-label player-{seat}")
        text(g, MARGIN + 12, y + MINI_H // 2 + 4, "Hand", fill=c["muted"], font_size=12)
        if not side.hand:
            text(
                g,
                layout.grid_x,
                y + MINI_H // 2 + 4,
                "no cards",
                fill=c["muted"],
                font_size=11,
                font_style="italic",
            )
        techs = len(side.techs)
        room = layout.main_right - 12 - layout.grid_x - (techs * (MINI_W + 6) + 18)
        count = len(side.hand)
        pitch = MINI_W + 6
        if count > 1:
            pitch = max(12, min(pitch, (room - MINI_W) // (count - 1)))
        known = list(side.known)
        for k, card in enumerate(side.hand):
            x = layout.grid_x + k * pitch
            if card is None:
                cg = self.group(f"card hidden hand player-{seat}")
                p.back(cg, x, y, MINI_W, MINI_H)
                title(cg, "a card this player cannot see")
                continue
            shown = card in known
            cg = self.group(f"card hand player-{seat}" + (" known" if shown else ""))
            p.face(cg, x, y, MINI_W, MINI_H, card.energy, str(card.value))
            tip = f"{energy_name(card.energy)} {card.value}"
            if shown:
                known.remove(card)
                p.chip(cg, x + MINI_W // 2, y + MINI_H - 2, "known", fill=c["text"], size=8)
                tip += ": the opponent knows it (taken from the discards, R36)"
            title(cg, tip)
        x = layout.main_right - 12 - techs * (MINI_W + 6) + 6
        for tech in side.techs:
            tg = self.group(f"tech player-{seat}" + (" hidden" if tech is None else ""))
            p.tech(tg, x, y, MINI_W, MINI_H, tech)
            x += MINI_W + 6

    def status(self, seat: int, row: int, y: int) -> None:
        """A row's supply against its city's tolerance, and the city points it scores now."""
        view, c = self.view, self.c
        rules = view.rules
        width = len(rules.energies_in_play)
        supply = self.sheet.row_supply[seat][row]
        accumulator = view.accumulator == (seat, row)
        tolerance = rules.city_demand + (2 if accumulator else 1)
        points = self.sheet.row_points[seat][row]
        if supply is not None and supply > tolerance:
            state, color, word = "over", c["over"], "OVER"
        elif points is None:
            state, color, word = "unknown", c["city-zero"], "?"
        else:
            state, color, word = {
                1: ("exact", c["city-plus"], "+1"),
                -1: ("under", c["city-minus"], MINUS + "1"),
                0: ("fair", c["city-zero"], "0"),
            }[points]
        g = self.group(f"supply player-{seat} row-{row} {state}")
        x = self.layout.status_x
        element(
            g,
            "rect",
            x=x,
            y=y + 6,
            width=STATUS_W - 12,
            height=CARD_H - 12,
            rx=6,
            fill=tint(color, 0.86),
            stroke=color,
            stroke_width=2 if state == "over" else 1,
        )
        if supply is None:
            cells = view.seats[seat].board[row * width : (row + 1) * width]
            seen = sum(v for cell in cells if cell is not None and (v := cell.value) is not None)
            shown = f"{seen}+?"
        else:
            shown = str(supply)
        text(
            g,
            x + 10,
            y + 31,
            f"{shown}/{tolerance}",
            fill=c["text"],
            font_size=17 if supply is not None else 14,
            font_weight="bold",
        )
        text(g, x + 10, y + 47, "supply/max", fill=c["muted"], font_size=9)
        self.p.chip(g, x + STATUS_W - 36, y + 18, word, fill=color, size=12)
        if state != "over":
            text(
                g,
                x + STATUS_W - 36,
                y + 47,
                "city pts",
                fill=c["muted"],
                font_size=9,
                text_anchor="middle",
            )
        if accumulator:
            self.p.chip(
                g,
                x + (STATUS_W - 12) // 2,
                y + CARD_H - 12,
                "Accumulator +1",
                fill=c["tech-line"],
                size=9,
            )
        demand = rules.city_demand
        title(
            g,
            f"City {row}: supply {shown} of at most {tolerance}"
            + (" (Accumulator)" if accumulator else "")
            + f"; exactly {demand} scores +1, {demand - 2} or less scores {MINUS}1 (R21, R28)",
        )

    def cell(
        self, seat: int, cell: Cell, stack: CellView | None, x: int, y: int, played: bool
    ) -> None:
        """One cell: empty, a plant (its top card) or a pylon, with its stack and its tags."""
        c = self.c
        energy = cell.energy
        where = f"{cell.row}{energy.letter}"
        classes = [f"cell player-{seat} c{where} {energy.value}"]
        if stack is None:
            classes.append("empty")
        elif stack.face_down:
            classes.append("pylon flipped" if stack.flipped else "pylon")
        else:
            classes.append("plant")
            classes += [
                t
                for t, on in (("secret", stack.secret_on_top), ("downsized", stack.downsized))
                if on
            ]
        if stack is not None and len(stack.cards) > 1:
            classes.append("stack")
        marked = (seat, cell) in self.marked
        classes += [t for t, on in (("highlighted", marked), ("played", played)) if on]
        g = self.group(" ".join(classes))
        if marked:
            element(  # a ring around the card, under the stack and its tags
                g,
                "rect",
                x=x - 4,
                y=y - 4,
                width=CARD_W + 8,
                height=CARD_H + 8,
                rx=8,
                fill="none",
                stroke=c["highlight"],
                stroke_width=4,
            )
        owner = f"{self.names[seat]}, city {cell.row}, {energy_name(energy)} ({where})"
        if stack is None:
            element(
                g,
                "rect",
                x=x,
                y=y,
                width=CARD_W,
                height=CARD_H,
                rx=5,
                fill="none",
                stroke=c["line"],
                stroke_width=1.5,
                stroke_dasharray="4 3",
            )
            text(
                g,
                x + CARD_W // 2,
                y + CARD_H // 2 + 7,
                energy.letter,
                fill=c["line"],
                font_size=20,
                font_weight="bold",
                text_anchor="middle",
            )
            title(g, f"{owner}: empty")
        else:
            self.stack(g, stack, energy, x, y, owner)
        if played:
            element(
                g,
                "rect",
                x=x + 6,
                y=y + CARD_H + 2,
                width=CARD_W - 12,
                height=3,
                rx=1,
                fill=c["text"],
            )

    def stack(
        self, g: ET.Element, stack: CellView, energy: Energy, x: int, y: int, owner: str
    ) -> None:
        """A stack: its top card (a plant's is of the column's energy, R10-R13) or a back."""
        c, p = self.c, self.p
        under = len(stack.cards) - 1
        for k in range(min(under, 3), 0, -1):
            element(
                g,
                "rect",
                x=x + 3 * k,
                y=y - 3 * k,
                width=CARD_W,
                height=CARD_H,
                rx=5,
                fill=c["panel"],
                stroke=c["muted"],
                stroke_width=1,
            )
        top = stack.cards[-1]
        seen = ", ".join("?" if card is None else code(card) for card in stack.cards)
        if stack.face_down:
            p.back(g, x, y, CARD_W, CARD_H, "flipped" if stack.flipped else "pylon")
            if top is not None or stack.flipped:
                label = "?" if top is None else code(top)
                p.chip(g, x + CARD_W // 2, y + CARD_H - 20, label, fill="#ffffff", size=10)
            kind = "a flipped plant, worth 0" if stack.flipped else "a pylon, worth 0"
            tip = f"{owner}: {kind}; cards bottom to top: {seen}"
        else:
            value = "?" if top is None else str(top.value)
            p.face(g, x, y, CARD_W, CARD_H, energy, value, secret=stack.secret_on_top)
            if stack.secret_on_top:
                p.chip(g, x + CARD_W // 2, y + CARD_H - 17, "secret", fill=c["text"], size=9)
            elif stack.downsized:
                p.chip(g, x + CARD_W // 2, y + CARD_H - 17, "down", fill=c["tech-line"], size=9)
            tags = [
                t
                for t, on in (("secret plant", stack.secret_on_top), ("downsized", stack.downsized))
                if on
            ]
            if stack.secret and not stack.secret_on_top:
                tags.append("a secret card underneath")
            tip = f"{owner}: a plant worth {value}" + (f" ({', '.join(tags)})" if tags else "")
            tip += f"; cards bottom to top: {seen}"
        if under:
            p.chip(g, x + CARD_W - 4, y - 9, f"+{under}", fill=c["text"], size=9)
        title(g, tip)

    # -- between the grids ----------------------------------------------------------------------

    def band(self, *, top: int) -> None:
        """Each energy's generation for both players, its leader and Smart (R20, R27)."""
        view, c, p, sheet, names = self.view, self.c, self.p, self.sheet, self.names
        bottom = 1 - top
        y = self.layout.band_y
        rows = ((top, y + 17), (bottom, y + BAND_H - 9))
        g = self.group("energies-label")
        for seat, ty in rows:
            text(g, MARGIN + 12, ty, names[seat][:10], fill=c["muted"], font_size=10)
        text(g, MARGIN + 12, y + 37, "generation", fill=c["muted"], font_size=10)
        x = self.layout.status_x + 10
        text(g, x, y + 37, "energy points", fill=c["muted"], font_size=10)
        for seat, ty in rows:
            eg = self.group(f"energy-points player-{seat}")
            text(
                eg,
                x,
                ty,
                _num(sheet.energy_points[seat]),
                fill=c["text"],
                font_size=13,
                font_weight="bold",
            )
        for e, energy in enumerate(view.rules.energies_in_play):
            cx = self.layout.column_x(e) + CARD_W // 2
            eg = self.group(f"energy {energy.value}")
            smart = view.smart is energy
            color = c[energy.value]
            element(
                eg,
                "rect",
                x=cx - CARD_W // 2 - 2,
                y=y + 24,
                width=CARD_W + 4,
                height=19,
                rx=4,
                fill=color,
            )
            text(
                eg,
                cx,
                y + 37,
                energy_name(energy),
                fill=ink(color),
                font_size=9,
                text_anchor="middle",
            )
            if smart:
                p.chip(eg, cx, y + 47, f"Smart {TIMES}2", fill=c["tech-line"], size=9)
            winner = sheet.energy_winners[e]
            points = 2 if smart else 1
            for seat, ty in rows:
                leads = winner == seat
                if leads:
                    element(
                        eg, "rect", x=cx - 22, y=ty - 13, width=44, height=17, rx=8, fill=c["lead"]
                    )
                label = _num(sheet.generation[seat][e]) + (f" +{points}" if leads else "")
                text(
                    eg,
                    cx,
                    ty,
                    label,
                    fill=ink(c["lead"]) if leads else c["muted"],
                    font_size=12,
                    font_weight="bold" if leads else "normal",
                    text_anchor="middle",
                )
            if winner == -1:
                lead = "unknown (a hidden card)"
            elif winner is None:
                lead = "tied: nobody scores it"
            else:
                lead = f"{names[winner]} leads: {points} point{'s' if points > 1 else ''}"
            title(
                eg,
                f"{energy_name(energy)}: {names[top]} {_num(sheet.generation[top][e])}, "
                f"{names[bottom]} {_num(sheet.generation[bottom][e])}; {lead}"
                + (" (Smart doubles it, R20)" if smart else "")
                + " (R27)",
            )

    # -- the side panel -------------------------------------------------------------------------

    def side(self) -> None:
        """Decks, discards, placed tech cards, the score sheet and the key."""
        view, c, p, layout = self.view, self.c, self.p, self.layout
        x0, y0 = layout.side_x, layout.top_y
        height = layout.height - MARGIN - y0 - 6
        g = self.group("side")
        element(
            g,
            "rect",
            x=x0,
            y=y0,
            width=SIDE_W,
            height=height,
            rx=8,
            fill=c["panel"],
            stroke=c["line"],
        )
        x, y = x0 + 12, y0 + 10
        tx = x + SIDE_W // 2
        p.back(g, x, y, MINI_W, MINI_H)
        p.back(g, tx, y, MINI_W, MINI_H, "tech")
        text(g, x + MINI_W + 8, y + 38, "cards left", fill=c["muted"], font_size=10)
        text(g, tx + MINI_W + 8, y + 38, "tech cards", fill=c["muted"], font_size=10)
        g = self.group("decks")
        text(
            g,
            x + MINI_W + 8,
            y + 22,
            f"Deck: {view.deck_size}",
            fill=c["text"],
            font_size=12,
            font_weight="bold",
        )
        text(
            g,
            tx + MINI_W + 8,
            y + 22,
            f"Tech: {view.tech_deck_size}",
            fill=c["text"],
            font_size=12,
            font_weight="bold",
        )
        y += MINI_H + 24
        g = self.group("discards-label")
        text(
            g,
            x,
            y,
            f"Discards ({len(view.discards)})",
            fill=c["text"],
            font_size=12,
            font_weight="bold",
        )
        if not view.discards:
            text(g, x, y + 28, "none", fill=c["muted"], font_size=11, font_style="italic")
        y += 8
        per_row = (SIDE_W - 20) // (TINY_W + 4)
        for k, card in enumerate(view.discards):
            cx = x + (k % per_row) * (TINY_W + 4)
            cy = y + (k // per_row) * (TINY_H + 4)
            cg = self.group("card discard")
            p.face(cg, cx, cy, TINY_W, TINY_H, card.energy, str(card.value))
            title(cg, f"{energy_name(card.energy)} {card.value}")
        y += max(1, -(-len(view.discards) // per_row)) * (TINY_H + 4) + 22
        self.placed(x, y)
        self.score(x, y + 58)
        key = y0 + height - 126
        self.turns(x, y + 58 + 126, key - 16)
        self.legend(x, key)

    def placed(self, x: int, y: int) -> None:
        view, c = self.view, self.c
        g = self.group("placed")
        text(g, x, y, "Placed tech cards", fill=c["text"], font_size=12, font_weight="bold")
        acc = view.accumulator
        where = "not placed" if acc is None else f"{self.names[acc[0]][:14]}, city {acc[1]}"
        text(g, x, y + 18, f"Accumulator: {where}", fill=c["text"], font_size=11)
        smart = "not placed" if view.smart is None else f"{energy_name(view.smart)} scores 2"
        text(g, x, y + 34, f"Smart: {smart}", fill=c["text"], font_size=11)

    def score(self, x: int, y: int) -> None:
        view, c, sheet = self.view, self.c, self.sheet
        g = self.group("score-label")
        head = "Final score" if view.is_over else "Score if the game ended now"
        text(g, x, y, head, fill=c["text"], font_size=12, font_weight="bold")
        columns = (x + 112, x + 150, x + 192)
        for label, cx in zip(("energy", "city", "total"), columns, strict=True):
            text(g, cx, y + 18, label, fill=c["muted"], font_size=10, text_anchor="middle")
        for seat in (0, 1):
            ry = y + 38 + 20 * seat
            winner = sheet.winner == seat
            weight = "bold" if winner else "normal"
            g = self.group(f"score player-{seat}" + (" leads" if winner else ""))
            text(g, x, ry, self.names[seat][:14], fill=c["text"], font_size=12, font_weight=weight)
            values = (
                _num(sheet.energy_points[seat]),
                _signed(sheet.city_points[seat]),
                _num(sheet.total[seat]),
            )
            for value, cx in zip(values, columns, strict=True):
                text(
                    g,
                    cx,
                    ry,
                    value,
                    fill=c["text"],
                    font_size=12,
                    font_weight=weight,
                    text_anchor="middle",
                )
        g = self.group("verdict")
        if sheet.winner is None:
            line = "a hidden card keeps it open"
        else:
            line = f"{self.names[sheet.winner][:14]} {'wins' if view.is_over else 'would win'}"
            if sheet.decided_by is not Decision.TOTAL:
                line += " on a tie-break"
        text(g, x, y + 98, line, fill=c["text"], font_size=11, font_style="italic")

    def turns(self, x: int, y: int, bottom: int) -> None:
        """The moves of this turn and of the last one (R36), as many lines as fit."""
        view, c = self.view, self.c
        mover = self.names[1 - view.current_player][:14]
        lines: list[tuple[str, bool]] = []
        for heading, log in (
            (f"Last turn ({mover})", view.last_turn),
            ("This turn", view.this_turn),
        ):
            if not log:
                continue
            lines.append((heading, True))
            row = ""
            for move in log:
                part = move if not row else f"{row}, {move}"
                if len(part) > _LOG_WIDTH and row:
                    lines.append((row + ",", False))
                    row = move
                else:
                    row = part
            lines.append((row, False))
        room = max(0, (bottom - y) // 15 + 1)
        if not lines or room < 2:
            return
        if len(lines) > room:
            lines = [*lines[: room - 1], ("…", False)]
        g = self.group("turns")
        for k, (line, bold) in enumerate(lines):
            if bold:
                text(g, x, y + 15 * k, line, fill=c["text"], font_size=12, font_weight="bold")
            else:
                text(
                    g,
                    x + 8,
                    y + 15 * k,
                    line,
                    fill=c["text"],
                    font_size=11,
                    font_family="DejaVu Sans Mono, Menlo, Consolas, monospace",
                )

    def legend(self, x: int, y: int) -> None:
        """What the marks mean."""
        c, p = self.c, self.p
        g = self.group("legend")
        text(g, x, y, "Key", fill=c["text"], font_size=12, font_weight="bold")
        lines = (
            ("secret", "secret plant: value hidden"),
            ("+n", "cards under the top card"),
            ("B1", "pylon (0) and its card, if seen"),
            ("known", "the opponent knows this card"),
            ("?", "a card not seen"),
        )
        step = 15
        for k, (mark, meaning) in enumerate(lines):
            ly = y + 7 + k * step
            p.chip(g, x + 20, ly, mark, fill=c["back"] if mark == "B1" else c["text"], size=9)
            text(g, x + 46, ly + 10, meaning, fill=c["muted"], font_size=9)
        ly = y + 7 + len(lines) * step
        element(
            g,
            "rect",
            x=x + 8,
            y=ly + 1,
            width=24,
            height=12,
            rx=4,
            fill="none",
            stroke=c["highlight"],
            stroke_width=3,
        )
        text(g, x + 46, ly + 10, "touched by the last move", fill=c["muted"], font_size=9)
        ly += step
        element(g, "rect", x=x + 8, y=ly + 5, width=24, height=3, rx=1, fill=c["text"])
        text(g, x + 46, ly + 10, "played this turn", fill=c["muted"], font_size=9)
