"""The wiring harness as an SVG drawing, made from the wiring file: ``pegs hw-test --harness FILE``.

Chips in chain order with every pin named (and the hole on each input), the Pi header
pins used, the series resistors, and the LED strip's order. The builder wires from this
picture instead of drawing one; it changes when the wiring file changes.
"""
from __future__ import annotations

from xml.sax.saxutils import escape

# 74HC165 (DIP-16): input -> pin number
HC165_INPUT_PINS = {"A": 11, "B": 12, "C": 13, "D": 14, "E": 3, "F": 4, "G": 5, "H": 6}
# the Raspberry Pi header pin of a BCM GPIO
HEADER_PIN = {2: 3, 3: 5, 4: 7, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19, 9: 21, 25: 22,
              11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37,
              20: 38, 21: 40, 14: 8, 15: 10}

CHIP_W, CHIP_H, GAP_X, GAP_Y, PER_ROW = 250, 300, 40, 50, 5


class _Svg:
    def __init__(self):
        self.items: list[str] = []

    def text(self, x, y, s, size=12, weight="normal", anchor="start", fill="#000"):
        self.items.append(f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" '
                          f'text-anchor="{anchor}" fill="{fill}">{escape(str(s))}</text>')

    def rect(self, x, y, w, h, fill="#fff", stroke="#333", cls=""):
        c = f' class="{cls}"' if cls else ""
        self.items.append(f'<rect{c} x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="{fill}" '
                          f'stroke="{stroke}" stroke-width="1.5"/>')

    def line(self, x1, y1, x2, y2, colour="#555", dash=False):
        d = ' stroke-dasharray="5,4"' if dash else ""
        self.items.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
                          f'stroke-width="2" marker-end="url(#arrow)"{d}/>')

    def render(self, width, height, title) -> str:
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">\n'
                f'<title>{escape(title)}</title>\n'
                '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>\n'
                f'<rect width="{width}" height="{height}" fill="#fafafa"/>\n'
                + "\n".join(self.items) + "\n</svg>\n")


def _gpio(pin: int) -> str:
    header = HEADER_PIN.get(pin)
    return f"GPIO{pin}" + (f" (pin {header})" if header else "")


def harness_svg(wiring) -> str:
    """The harness of ``wiring`` (a ``WiringConfig``) as SVG text."""
    s = wiring.sensors
    svg = _Svg()
    title = f"pegs-companion harness: {wiring.board.describe()}, {wiring.board.hole_count} holes ({wiring.source})"
    svg.text(20, 30, title, size=16, weight="bold")
    input_holes = wiring.input_holes()
    top = 60
    if s.backend == "shift-register":
        top = _hc165(svg, wiring, input_holes, top)
    elif s.backend == "mcp23017":
        top = _mcp23017(svg, wiring, input_holes, top)
    elif s.backend == "gpio":
        top = _direct(svg, wiring, top)
    top = _strip(svg, wiring, top + 20)
    width = 20 + PER_ROW * (CHIP_W + GAP_X)
    return svg.render(width, top + 20, title)


def _pi_box(svg, y, rows):
    svg.rect(20, y, 620, 24 + 18 * len(rows), fill="#e8f4ea", cls="pi")
    svg.text(30, y + 18, "Raspberry Pi header", weight="bold")
    for i, (left, right) in enumerate(rows):
        svg.text(30, y + 38 + 18 * i, left, size=11)
        svg.text(310, y + 38 + 18 * i, right, size=11)
    return y + 24 + 18 * len(rows) + 20


def _hc165(svg, wiring, input_holes, top):
    sr = wiring.sensors.shift_register
    ser_last = {"high": "3.3 V (check: 0xFF)", "low": "GND (check: 0x00)",
                "off": "3.3 V (check off)"}[sr.chain_check]
    top = _pi_box(svg, top, [
        ("3V3 (pin 1)", "VCC (pin 16) of every chip + pull-ups"),
        ("GND (pin 6)", "GND (pin 8), CLK INH (pin 15) of every chip"),
        (f"SCLK {_gpio(sr.clock_pin)}", "33-100 ohm at the Pi -> CLK (pin 2) of every chip"),
        (f"latch {_gpio(sr.latch_pin)}", "33-100 ohm at the Pi -> SH/LD (pin 1) of every chip"),
        (f"MISO {_gpio(sr.miso_pin)}", "<- QH (pin 9) of chip 0"),
        (f"CE0 {_gpio(sr.select_pin)}, MOSI {_gpio(sr.mosi_pin)}", "claimed by SPI, not connected"),
    ])
    svg.text(20, top, f"{sr.chips} x 74HC165, in chain order: chip 0 nearest the Pi. Each input: reed switch to "
                      f"GND, 10 kOhm pull-up to 3.3 V; 100 nF at each VCC.", size=12)
    top += 15
    for k in range(sr.chips):
        row, col = divmod(k, PER_ROW)
        x, y = 20 + col * (CHIP_W + GAP_X), top + row * (CHIP_H + GAP_Y)
        svg.rect(x, y, CHIP_W, CHIP_H, cls="chip")
        svg.text(x + 10, y + 20, f"chip {k}", size=14, weight="bold")
        svg.text(x + CHIP_W - 10, y + 20, "74HC165", size=11, anchor="end", fill="#666")
        lines = []
        for j, (name, pin) in enumerate(HC165_INPUT_PINS.items()):
            holes = input_holes.get(8 * k + j)
            lines.append(f"{name} (pin {pin}): {'/'.join(holes) if holes else 'spare: 10k to 3.3 V'}")
        lines.append(f"QH (pin 9) -> {'MISO ' + _gpio(sr.miso_pin) if k == 0 else f'SER of chip {k - 1}'}")
        lines.append(f"SER (pin 10) <- {ser_last if k == sr.chips - 1 else f'QH of chip {k + 1}'}")
        lines.append("CLK (pin 2) <- SCLK, SH/LD (pin 1) <- latch")
        lines.append("CLK INH (pin 15) -> GND, /QH (pin 7) open")
        lines.append("VCC (pin 16) 3.3 V, GND (pin 8)")
        for i, text in enumerate(lines):
            svg.text(x + 10, y + 44 + 19 * i, text, size=11)
        if k + 1 < sr.chips:
            if col + 1 < PER_ROW:
                svg.line(x + CHIP_W + GAP_X - 2, y + CHIP_H / 2, x + CHIP_W + 2, y + CHIP_H / 2)
            else:
                svg.line(20 + CHIP_W / 2, y + CHIP_H + GAP_Y - 2, x + CHIP_W / 2, y + CHIP_H + 2, dash=True)
    rows = (sr.chips + PER_ROW - 1) // PER_ROW
    svg.text(20, top + rows * (CHIP_H + GAP_Y) + 5, "Arrows: data flows from each chip's QH into the SER of the "
             "chip before it, toward the Pi. Route CLK as one line down the chain (no star), a ground wire "
             "beside it.", size=11, fill="#444")
    return top + rows * (CHIP_H + GAP_Y) + 15


def _mcp23017(svg, wiring, input_holes, top):
    m = wiring.sensors.mcp23017
    top = _pi_box(svg, top, [
        ("3V3 (pin 1)", "VDD (pin 9), RESET (pin 18) of every chip"),
        ("GND (pin 6)", "VSS (pin 10) of every chip"),
        (f"SDA {_gpio(2 if m.bus == 1 else 0)}", "SDA (pin 13) of every chip"),
        (f"SCL {_gpio(3 if m.bus == 1 else 1)}", "SCL (pin 12) of every chip"),
    ])
    for k, addr in enumerate(m.addresses):
        row, col = divmod(k, PER_ROW)
        x, y = 20 + col * (CHIP_W + GAP_X), top + row * (CHIP_H + 90 + GAP_Y)
        svg.rect(x, y, CHIP_W, CHIP_H + 90, cls="chip")
        svg.text(x + 10, y + 20, f"chip {k}: MCP23017 0x{addr:02x}", size=14, weight="bold")
        a = addr - 0x20
        svg.text(x + 10, y + 40, f"A0 A1 A2 (pins 15-17) = {a & 1} {a >> 1 & 1} {a >> 2 & 1}", size=11)
        for pin in range(16):
            name = f"GP{'AB'[pin // 8]}{pin % 8}"
            holes = input_holes.get(16 * k + pin)
            what = ("not used (output-only, leave open)" if pin % 8 == 7 else
                    "/".join(holes) if holes else "spare")
            svg.text(x + 10, y + 60 + 19 * pin, f"{name}: {what}", size=11)
    rows = (len(m.addresses) + PER_ROW - 1) // PER_ROW
    return top + rows * (CHIP_H + 90 + GAP_Y)


def _direct(svg, wiring, top):
    rows = [(_gpio(pin), f"reed switch of {hole} to GND") for hole, pin in sorted(
        wiring.sensors.map.items(), key=lambda hp: hp[1])]
    return _pi_box(svg, top, rows)


def _strip(svg, wiring, top):
    led = wiring.leds
    svg.text(20, top, f"LED strip: data {_gpio(led.data_pin)} -> 74AHCT125 (5 V) -> 330 ohm -> DIN of LED 0; "
                      f"{led.count} LEDs, {led.pixel_order}", size=13, weight="bold")
    holes = wiring.led_holes()
    cols, per_col = 10, 30
    for i in range(led.count):
        col, row = divmod(i, per_col)
        x = 20 + (col % cols) * 145
        y = top + 22 + (col // cols) * (per_col * 15 + 20) + row * 15
        svg.text(x, y, f"LED {i}: {'/'.join(holes.get(i, [])) or 'spare'}", size=10)
    blocks = (led.count + per_col - 1) // per_col
    return top + 22 + ((blocks + cols - 1) // cols) * (per_col * 15 + 20)
