"""The printable template: SVG names every hole and the four markers, the PNG is at true
scale (its markers are found where the layout puts them), the PDF is well formed."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")
pytest.importorskip("numpy")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.layout import standard_layout  # noqa: E402
from vision.markers import detect_markers  # noqa: E402
from vision.template import led_numbers, template_image, template_pdf, template_png, template_svg  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("sides", [4, 6, 8, 10])
def test_svg_has_every_hole_and_four_markers(sides):
    lay = standard_layout(sides)
    text = template_svg(lay)
    root = ET.fromstring(text.encode())
    assert root.get("width") == f"{lay.width:.2f}mm"
    groups = {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("id")}
    for hole in lay.holes:
        assert hole in groups, hole
        g = groups[hole]
        assert g.get("class") == "hole"
        texts = [t.text for t in g.iter(f"{SVG}text")]
        assert hole in texts
    markers = [g for g in root.iter(f"{SVG}g") if g.get("class") == "marker"]
    assert sorted(g.get("data-aruco-id") for g in markers) == ["0", "1", "2", "3"]


def test_led_numbers_default_and_from_wiring():
    lay = standard_layout(4)
    labels = led_numbers(lay)
    assert labels["M0"] == "0" and labels["M71"] == "71" and labels["S-s0-1"] == "72" and labels["H5-s3"] == "111"
    svg = template_svg(lay)
    assert 'data-led="72"' in svg
    custom = led_numbers(lay, {h: i + 1 for i, h in enumerate(lay.holes)}, {h: i for i, h in enumerate(lay.holes)})
    assert custom["M0"] == "1/0"


def test_png_is_true_scale_and_its_markers_are_readable():
    lay = standard_layout(4)
    img, scale = template_image(lay, px_per_mm=3.0)
    assert scale == 3.0
    assert img.shape[1] == pytest.approx(lay.width * 3, abs=1) and img.shape[0] == pytest.approx(lay.height * 3, abs=1)
    found = detect_markers(img)
    assert sorted(found) == [0, 1, 2, 3]
    for m in lay.markers:
        expected = np.array(m.corners()) * scale
        assert np.abs(found[m.id] - expected).max() < 2.5      # pixels, i.e. under a millimetre
    png = template_png(lay, px_per_mm=2.0)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and b"pHYs" in png[:64]
    back = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert back.shape[1] == pytest.approx(lay.width * 2, abs=1)


def _check_pdf(data: bytes) -> int:
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))
    assert data[start:start + 4] == b"xref"
    lines = data[start:].split(b"\n")
    count = int(lines[1].split()[1])
    for n in range(1, count):
        off = int(lines[2 + n].split()[0])
        assert data[off:].startswith(b"%d 0 obj" % n)
    return int(re.search(rb"/Type /Pages /Kids \[[^\]]*\] /Count (\d+)", data).group(1))


def test_pdf_tiles_and_single_sheet():
    lay = standard_layout(4)
    data, pages = template_pdf(lay, "a4")
    assert pages == _check_pdf(data) >= 4
    data, pages = template_pdf(lay, "none")
    assert pages == _check_pdf(data) == 1
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert float(box.group(1)) == pytest.approx(lay.width * 72 / 25.4, abs=0.01)
    with pytest.raises(ValueError):
        template_pdf(lay, "b5")


def test_markers_work_with_the_opencv_4_6_functions(monkeypatch):
    """Raspberry Pi OS Bookworm ships OpenCV 4.6: no ArucoDetector, no generateImageMarker."""
    import vision.markers as markers
    aruco = cv2.aruco
    new_detector, generate = aruco.ArucoDetector, aruco.generateImageMarker
    params = aruco.DetectorParameters
    monkeypatch.delattr(aruco, "ArucoDetector")
    monkeypatch.delattr(aruco, "generateImageMarker")
    monkeypatch.setattr(aruco, "DetectorParameters_create", lambda: params(), raising=False)
    monkeypatch.setattr(aruco, "drawMarker", lambda d, i, n: generate(d, i, n), raising=False)
    monkeypatch.setattr(aruco, "detectMarkers",
                        lambda img, d, parameters: new_detector(d, parameters).detectMarkers(img), raising=False)
    monkeypatch.setattr(markers, "_DETECTORS", {})
    lay = standard_layout(4)
    img, scale = template_image(lay, px_per_mm=2.0)
    assert isinstance(markers.detector(), markers._LegacyDetector)
    assert sorted(detect_markers(img)) == [0, 1, 2, 3]
