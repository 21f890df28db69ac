"""board.mode = "camera" with a camera that scores its holes (``readings()``: per hole the
probability of a peg, its likeliest colour and that colour's confidence): the hub passes the
readings to the referee, which weighs every legal result against them (issue 16.3). A stand-in
camera gives the readings, so no OpenCV is needed."""
from __future__ import annotations

from .boardkit import NAMES, FakeClock, _seeded, mock_hardware
from companion.matching import all_holes
from companion.notation import pegs_to_json, position_from_json
from web.board_referee import BoardHub
from web.store import Store
from web.tables import TableService


class ScoringCamera:
    """The sensor interface of `vision.sensor.CameraSensor`, plus ``readings()``."""

    def __init__(self):
        self.active_faults = {}
        self.current = None
        self.stamp = 0
        self.known = []          # board_known calls: (start counts, stamp of the readings judged)

    def show(self, readings):
        self.stamp += 1
        self.current = (self.stamp, dict(readings))

    def scan(self, now=None):
        return []

    def snapshot(self, fresh=False):
        return {}

    def readings(self):
        return self.current

    def board_known(self, start_counts, stamp):
        self.known.append((dict(start_counts), stamp))
        return []

    def crop(self, hole):
        return b"\x89PNG\r\n\x1a\n" + hole.encode()   # stands in for vision's crop of the latest frame

    def close(self):
        pass


def picture(geo, pegs, p=0.96, q=0.9):
    board = {}
    for side, locs in pegs.items():
        k = 0
        for loc in locs:
            if loc < 0:
                k += 1
                board[f"S-s{side}-{k}"] = side
            else:
                board[f"M{loc}" if loc < geo.length else f"H{loc - geo.length + 1}-s{side}"] = side
    return {h: (p, board[h], q) if h in board else (1 - p, None, 0.0) for h in all_holes(geo, range(4))}


def camera_hub():
    clock = FakeClock()
    hw = mock_hardware(4, clock)
    camera = ScoringCamera()
    hw.sensor = camera
    store = Store(":memory:")
    svc = TableService(store, b"k" * 32, bot_delay=0.0)
    hub = BoardHub(svc, "camera", lambda s, h: hw, settle=0.5, clock=clock, threaded=False)
    return clock, hw, camera, store, svc, hub


def test_a_camera_that_reads_colours_takes_a_swap_on_the_board():
    clock, hw, camera, store, svc, hub = camera_hub()
    try:
        with _seeded(0):
            table, _ = svc.create({"preset": "north_carolina", "players": 4, "teams": 2, "names": NAMES[:4]})
        token = svc.join(svc.join_code(table, table.game.actor))[2]
        g = table.game
        seat = g.actor
        pegs = pegs_to_json(g.position)
        pegs["0"], pegs["1"] = ["S"] * 4 + ["M20"], ["S"] * 4 + ["M40"]
        new = position_from_json({"format": "pegs-and-jokers/position/1", "rules": "north_carolina",
                                  "sides": 4, "teams": [[0, 2], [1, 3]], "pegs": pegs,
                                  "to_move": g.position.to_move})
        with table.cond:
            g.position.occ, g.position.start = new.occ, new.start
            g.hands[seat] = ["2H"] + g.hands[seat][1:]
        hub.tick()
        hub.referee.dirty = True
        pos = g.position
        camera.show(picture(pos.geo, pos.pegs()))
        hub.tick()
        assert hub.referee.state == "ready", hub.referee.message
        hub.choose(table, token, {"version": table.version, "card": "2H"})
        swap = next(m for m in pos.legal_moves(["2"]) if m.kind == "swap")
        version = table.version
        for _ in range(3):                  # the camera sees the two pegs change places
            clock.advance(0.2)
            camera.show(picture(pos.geo, pos.result_of(swap)))
            hub.tick()
        for _ in range(8):
            clock.advance(0.1)
            hub.tick()
        assert table.version > version, (hub.referee.state, hub.referee.message)
        assert g.history[-1]["move"].text(pos.geo) == "2 0:M20<>1:M40"
        assert store.events(table.gid)[-1][2]["via"] == "board"     # taken from the board
        # the camera is told how many pegs each start area now holds, for the readings judged
        # (vision learns the empty look of start holes that must be empty from that picture)
        assert camera.known and camera.known[-1][1] == camera.stamp
        assert camera.known[-1][0] == {s: len(g.position.pegs()[s]) - sum(1 for v in g.position.pegs()[s] if v >= 0)
                                       for s in range(4)}
        assert camera.known[-1][0][0] == camera.known[-1][0][1] == 4
    finally:
        svc.close()
        hw.close()


def _a_peg_out_and_a_five(svc, hub):
    """A basic table (seeded deal) where the seat to act has one peg out, 10 holes past its
    side's start, and a 5 of hearts in hand; the board referee told the game changed."""
    with _seeded(0):
        table, _ = svc.create({"preset": "basic", "players": 4, "teams": 2, "names": NAMES[:4]})
    g = table.game
    seat = g.actor
    side = g.seat_side[seat]
    pegs = pegs_to_json(g.position)
    pegs[str(side)] = ["S"] * 4 + [f"M{side * 18 + 10}"]
    new = position_from_json({"format": "pegs-and-jokers/position/1", "rules": "basic", "sides": 4,
                              "teams": [[0, 2], [1, 3]], "pegs": pegs, "to_move": g.position.to_move})
    with table.cond:
        g.position.occ, g.position.start = new.occ, new.start
        g.hands[seat] = ["5H"] + g.hands[seat][1:]
    hub.tick()
    hub.referee.dirty = True
    return table, seat, side


def test_a_camera_unsure_of_the_move_asks_the_phone_and_shows_only_the_doubtful_holes():
    from web import create_app
    clock, hw, camera, store, svc, hub = camera_hub()
    app = create_app({"BOT_DELAY": 0.0, "HEARTBEAT": 0.2}, service=svc, board=hub)
    H = {"X-Pegs-Request": "1"}
    try:
        table, seat, side = _a_peg_out_and_a_five(svc, hub)
        phone = app.test_client()
        assert phone.post("/api/join", json={"code": svc.join_code(table, seat)}, headers=H).status_code == 200
        pos = table.game.position
        camera.show(picture(pos.geo, pos.pegs()))
        hub.tick()
        gid = table.gid
        r = phone.post(f"/api/games/{gid}/board/card", json={"version": table.version, "card": "5H"}, headers=H)
        assert r.status_code == 200 and r.get_json()["state"] == "following"
        src, dst = f"M{side * 18 + 10}", f"M{side * 18 + 15}"
        assert app.test_client().get(f"/api/games/{gid}/board/crop/{src}").status_code == 404   # not asking
        moves = [m for m in pos.legal_moves(["5"]) if m.steps]
        assert len(moves) == 1, [m.text(pos.geo) for m in moves]
        move = moves[0]
        shot = picture(pos.geo, pos.result_of(move))
        shot[src], shot[dst] = (0.45, None, 0.0), (0.55, None, 0.0)     # a hand's shadow over both
        clock.advance(0.2)
        camera.show(shot)
        for _ in range(8):
            clock.advance(0.1)
            hub.tick()
        version = table.version
        st = app.test_client().get(f"/api/games/{gid}/board").get_json()
        assert st["state"] == "ambiguous" and set(st["doubtful"]) == {src, dst}, st
        assert f"hole {dst[1:]}" in st["message"] and [c["move"] for c in st["candidates"]] == [move.text(pos.geo)]
        r = app.test_client().get(f"/api/games/{gid}/board/crop/{dst}")
        assert r.status_code == 200 and r.mimetype == "image/png" and r.data.endswith(dst.encode())
        assert app.test_client().get(f"/api/games/{gid}/board/crop/M40").status_code == 404  # not doubtful
        assert table.version == version                                  # nothing taken
    finally:
        svc.close()
        hw.close()


def test_a_move_entered_on_a_phone_teaches_the_camera_once_a_picture_shows_it():
    """The camera learns the empty look of start holes from any still picture the referee saw show
    the game (issue 23): after a move taken from the board, and after one entered on a phone, once
    the pegs have been moved to match; never from a picture of the board before the move."""
    clock, hw, camera, store, svc, hub = camera_hub()
    try:
        table, seat, side = _a_peg_out_and_a_five(svc, hub)
        pos = table.game.position
        before = pos.pegs()
        camera.show(picture(pos.geo, before))
        hub.tick()
        assert hub.referee.state == "ready", hub.referee.message
        counts = {s: 5 for s in range(4)}
        counts[side] = 4
        assert camera.known == [(counts, camera.stamp)]      # the picture shows the game: it teaches
        hub.tick()
        assert len(camera.known) == 1                        # once per picture
        move = next(m for m in pos.legal_moves(["5"]) if m.steps)
        after = pos.result_of(move)
        svc.act_as(table, seat, {"version": table.version, "move": move.text(pos.geo), "card": "5H"})
        for _ in range(3):
            clock.advance(0.1)
            hub.tick()
        camera.show(picture(pos.geo, before))                 # a new still picture, the peg not moved yet
        hub.tick()
        assert hub.referee.state == "sync" and len(camera.known) == 1
        camera.show(picture(pos.geo, after))                  # the player moves the peg as the phone said
        clock.advance(0.1)
        hub.tick()
        assert hub.referee.state == "ready", hub.referee.message
        assert camera.known[-1] == (counts, camera.stamp) and len(camera.known) == 2
        assert store.events(table.gid)[-1][2].get("via") != "board"   # the move came from the phone
    finally:
        svc.close()
        hw.close()
