"""QR codes for the join links, made on the Pi (segno, no network)."""
from __future__ import annotations

from functools import lru_cache

import segno


@lru_cache(maxsize=256)
def qr_svg(text: str) -> str:
    """Inline SVG markup of a QR code (scalable: the page sizes it with CSS)."""
    qr = segno.make(text, error="m")
    svg = qr.svg_inline(scale=1, border=2, dark="#000", light="#fff", svgclass="qr", omitsize=True)
    return svg.replace("<svg ", '<svg role="img" aria-label="QR code of the join link" ', 1)
