"""board.mode = "camera": the camera (vision.sensor.CameraSensor over BoardWatcher) feeds the
board referee as the switches do, and a camera that is missing, uncalibrated or lost leaves
the phones as the board with words on the table page (the safe start)."""
from __future__ import annotations

import pytest

pytest.importorskip("cv2")
pytest.importorskip("numpy")

from vision.calibration import calibrate  # noqa: E402
from vision.layout import standard_layout  # noqa: E402
from vision.render import make_scene, render_scene, setup_pegs  # noqa: E402
from web import create_app  # noqa: E402
from web.board_control import BoardControl  # noqa: E402

CSRF = {"X-Pegs-Request": "1"}


@pytest.fixture(scope="module")
def camera_set(tmp_path_factory):
    """A calibration file and a recording: the set-up position, then a peg moved to M30."""
    import cv2
    d = tmp_path_factory.mktemp("camera")
    layout = standard_layout(4)
    scene = make_scene(layout, "clean", 7)
    setup = setup_pegs(layout)
    calib = calibrate(render_scene(scene, setup, seed=0), layout)
    calib.save(d / "calibration.json")
    moved = dict(setup)
    moved["M30"] = moved.pop("S-s0-5")
    frames = d / "frames"
    frames.mkdir()
    for i in range(8):
        cv2.imwrite(str(frames / f"{i:02d}.png"), render_scene(scene, setup, seed=i))
    for i in range(8, 16):
        cv2.imwrite(str(frames / f"{i:02d}.png"), render_scene(scene, moved, seed=i))
    return {"calibration": str(d / "calibration.json"), "frames": str(frames)}


def make(camera, mode="camera"):
    app = create_app()
    service = app.extensions["pegs"]
    control = BoardControl(app, service, mode=mode, threaded=False, camera=camera)
    control.start()
    return app, service, control


def new_table(app):
    r = app.test_client().post("/api/games", json={"preset": "basic", "players": 4, "teams": 2,
                                                   "names": ["A", "B", "C", "D"]}, headers=CSRF)
    return r.get_json()["gid"]


def test_the_camera_is_the_boards_sensor(camera_set):
    app, service, control = make({"source": camera_set["frames"], "calibration": camera_set["calibration"],
                                  "threaded": False, "first_read": 0})
    try:
        assert control.running == "camera" and not control.problems
        gid = new_table(app)
        hub = control.hub
        hub.tick()
        sensor = hub.hw.sensor
        for _ in range(8):                       # the set-up position, held for 5+ still frames
            sensor.step()
        hub.tick()
        version = service.tables[gid].version
        c = app.test_client()
        st = c.get(f"/api/games/{gid}/board").get_json()
        assert st["mode"] == "camera" and st["attached"]
        assert hub.referee.filled == set(setup_pegs(standard_layout(4)))
        assert st["state"] == "ready", st
        for _ in range(8):                       # a peg goes to M30 with no card chosen: not a move
            sensor.step()
        hub.tick()
        st = c.get(f"/api/games/{gid}/board").get_json()
        assert "M30" in hub.referee.filled and "S-s0-5" not in hub.referee.filled
        assert st["state"] == "restore" and "take Red's peg out of hole 30" in st["fix"], st   # the camera's colours name it
        assert service.tables[gid].version == version                                      # no move made
        # the recording ends: the camera is lost, the referee stops judging and says so
        sensor.step()
        hub.tick()
        st = c.get(f"/api/games/{gid}/board").get_json()
        assert st["state"] == "fault" and any("camera lost" in f for f in st["faults"]), st
    finally:
        control.close()
        service.close()


def test_an_uncalibrated_camera_starts_with_the_phones_as_the_board(tmp_path, caplog):
    app, service, control = make({"source": "pi", "calibration": str(tmp_path / "calibration.json")})
    try:
        assert control.running == "none"
        (p,) = control.problems
        assert p.part == "camera" and "not calibrated yet" in p.what and "pegs vision calibrate" in p.fix
        gid = new_table(app)
        page = app.test_client().get(f"/table/{gid}").get_data(as_text=True)
        assert "The board did not start" in page and "not calibrated yet" in page
    finally:
        control.close()
        service.close()
    caplog.clear()


def test_no_camera_starts_with_the_phones_as_the_board(camera_set, caplog):
    app, service, control = make({"source": "usb:9", "calibration": camera_set["calibration"]})
    try:
        assert control.running == "none"
        (p,) = control.problems
        assert p.part == "camera" and "can't open" in p.what and "/dev/video" in p.fix
        st = app.test_client().post("/api/board/retry", json={}, headers=CSRF).get_json()
        assert st["running"] == "none" and st["problems"][0]["part"] == "camera"
    finally:
        control.close()
        service.close()
    caplog.clear()


def test_what_the_camera_learns_is_kept_in_the_data_folder(camera_set, tmp_path):
    """`pegs serve` keeps what the camera learns in play with the games (vision.learned); a camera
    opened without a data folder keeps it beside its calibration."""
    from pathlib import Path

    from web.main import LEARNED_NAME, build_board
    camera = {"source": camera_set["frames"], "calibration": camera_set["calibration"], "threaded": False,
              "first_read": 0}
    app = create_app()
    service = app.extensions["pegs"]
    control = build_board(app, service, {"BOARD_MODE": "camera", "CAMERA": camera, "DATA_DIR": str(tmp_path)},
                          threaded=False)
    try:
        assert control.running == "camera" and not control.problems
        assert control.hardware.sensor.vision.learned_path == str(tmp_path / LEARNED_NAME)
    finally:
        control.close()
        service.close()
    app, service, control = make(camera)
    try:
        beside = Path(camera_set["calibration"]).with_name("calibration.learned.json")
        assert control.hardware.sensor.vision.learned_path == str(beside)
    finally:
        control.close()
        service.close()


def test_a_move_entered_on_a_phone_teaches_the_real_camera_and_the_file_keeps_it(tmp_path):
    """End to end on the 2.5D `room` renderer (a webcam's lens and pose, heads above the board): the
    set-up position, a peg brought out on the phone, then the pictures of the board after the
    player moved it. The start hole it left learns its empty look from those pictures, and the
    file beside the calibration keeps it for the next start."""
    import json

    import cv2

    from tests.vision.gamekit import CameraSetUp

    su = CameraSetUp(201, level="room")
    su.calibration.save(tmp_path / "calibration.json")
    learned = tmp_path / "camera-learned.json"
    frames = tmp_path / "frames"
    frames.mkdir()
    setup = setup_pegs(su.layout, colours=su.colours)       # hole -> the peg's colour
    still = su.render(setup, 100)     # one picture per still board (the renderer's noise differs by seed)
    for i in range(16):      # listed when the camera opens, read one by one: the last 8 are redrawn below
        cv2.imwrite(str(frames / f"{i:02d}.png"), still)
    app, service, control = make({"source": str(frames), "calibration": str(tmp_path / "calibration.json"),
                                  "threaded": False, "first_read": 0, "learned": str(learned)})
    try:
        assert control.running == "camera" and not control.problems
        gid = new_table(app)
        hub = control.hub
        hub.tick()
        table = service.tables[gid]
        g = table.game
        seat = g.actor
        side = g.seat_side[seat]
        with table.cond:
            g.hands[seat] = ["AH"] + g.hands[seat][1:]
        hub.referee.dirty = True
        sensor = hub.hw.sensor
        for _ in range(8):
            sensor.step()
            hub.tick()
        assert hub.referee.state == "ready", hub.referee.message
        assert not learned.exists()                    # every start hole holds its peg: nothing to learn
        service.act_as(table, seat, {"version": table.version, "move": f"A {side}:S-M{side * 18 + 8}", "card": "AH"})
        hub.tick()
        moved = dict(setup)
        moved[f"M{side * 18 + 8}"] = moved.pop(f"S-s{side}-5")
        still = su.render(moved, 101)
        for i in range(8, 16):
            cv2.imwrite(str(frames / f"{i:02d}.png"), still)
        for _ in range(8):
            sensor.step()
            hub.tick()
        assert hub.referee.state == "ready", hub.referee.message
        assert json.loads(learned.read_text())["holes"].keys() == {f"S-s{side}-5"}
        assert f"S-s{side}-5" in sensor.vision.classifier.model.hole_empty
    finally:
        control.close()
        service.close()
    from vision.calibration import Calibration
    from vision.watch import BoardVision
    again = BoardVision(su.layout, Calibration.load(tmp_path / "calibration.json"), learned=str(learned))
    assert list(again.learned) == [f"S-s{side}-5"]      # the next start knows it
