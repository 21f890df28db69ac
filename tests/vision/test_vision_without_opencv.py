"""Issue 14 point 12: printing a board (SVG, PDF) needs no OpenCV; a command that does need
the vision extra says so in one line (status 2), never with a ModuleNotFoundError traceback.

Each case runs `pegs board` / `pegs vision` in a fresh interpreter where cv2 and numpy can't
be imported (as after the README's plain `pip install -e .`)."""
from __future__ import annotations

import subprocess
import sys

import pytest

NO_OPENCV = ("import sys; sys.modules['cv2'] = None; sys.modules['numpy'] = None\n"
             "from vision.cli import board_command, vision_command\n"
             "cmd = board_command if sys.argv[1] == 'board' else vision_command\n"
             "sys.exit(cmd(sys.argv[2:]))\n")


def pegs_without_opencv(*argv, cwd):
    return subprocess.run([sys.executable, "-c", NO_OPENCV, *argv], capture_output=True, text=True,
                          cwd=cwd, timeout=60)


def test_board_print_writes_svg_and_pdf_without_opencv(tmp_path):
    r = pegs_without_opencv("board", "print", "--sides", "4", "--out", "board", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board-layout.json", "board.pdf", "board.svg"]
    assert (tmp_path / "board.pdf").read_bytes().startswith(b"%PDF")
    svg = (tmp_path / "board.svg").read_text()
    assert svg.count('class="marker"') == 4 and 'id="M71"' in svg
    assert "no PNG: drawing it needs OpenCV (pip install -e '.[vision]')" in r.stdout


@pytest.mark.parametrize("argv", [
    ("board", "print", "--formats", "png", "--out", "board"),
    ("vision", "detect", "photo.png", "--calibration", "calibration.json"),
    ("vision", "calibrate", "setup.png", "--layout", "4", "--out", "calibration.json"),
    ("vision", "watch", "--camera", "usb:0", "--calibration", "calibration.json"),
])
def test_a_command_needing_opencv_says_which_extra_in_one_line(argv, tmp_path):
    (tmp_path / "photo.png").write_bytes(b"not really a picture")
    (tmp_path / "setup.png").write_bytes(b"not really a picture")
    (tmp_path / "calibration.json").write_text("{}")
    r = pegs_without_opencv(*argv, cwd=tmp_path)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install -e '.[vision]'" in lines[0], r.stderr


def test_the_marker_table_is_opencvs_dictionary():
    pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed: nothing to compare with")
    from vision.markers import marker_image
    from vision.template import ARUCO_4X4_50, marker_cells
    assert len(ARUCO_4X4_50) == 50
    for i in range(50):
        img = marker_image(i, 6)
        assert marker_cells(i) == [[bool(img[r, c] < 128) for c in range(6)] for r in range(6)], i


def test_the_printed_board_numbers_every_fifth_hole():
    """Issue 14 point 4: holes are named as a player finds them ("hole 20")."""
    import xml.etree.ElementTree as ET
    from vision.layout import standard_layout
    from vision.template import template_svg
    ns = "{http://www.w3.org/2000/svg}"
    lay = standard_layout(4)
    root = ET.fromstring(template_svg(lay).encode())
    numbers = {g.get("data-hole"): [t.text for t in g.iter(f"{ns}text")]
               for g in root.iter(f"{ns}g") if g.get("class") == "hole-number"}
    assert numbers == {f"M{n}": [str(n)] for n in range(0, 72, 5)}
    ids = [g.get("id") for g in root.iter(f"{ns}g") if g.get("id")]
    assert len(ids) == len(set(ids))   # one group per hole
