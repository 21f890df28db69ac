"""Event streams under a flood of anonymous ones (issue 13 point 8): a seat's or the host's
stream is never ended by anonymous streams, and one client address can't take the others'
places."""
from __future__ import annotations

import socket
import threading
import time

import pytest

from .webkit import Phone, make_app, wait_until
from tests.helpers.livekit import LiveServer
from web.errors import ApiError


class Stream(threading.Thread):
    """One event stream on a raw socket (from `source` if given); counts the times it was
    ended or refused and, with `reconnect`, opens it again at once (harsher than EventSource)."""

    def __init__(self, port, gid, client, cookies=None, source="127.0.0.1", reconnect=False):
        super().__init__(daemon=True)
        self.port, self.gid, self.client, self.source, self.reconnect = port, gid, client, source, reconnect
        self.cookie = "; ".join(f"{k}={v}" for k, v in (cookies or {}).items())
        self.ended = self.refused = 0
        self.versions = []
        self.open = threading.Event()
        self.halt = False

    def run(self):
        while not self.halt:
            try:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=0.5,
                                                source_address=(self.source, 0))
            except OSError:
                time.sleep(0.05)
                continue
            head = f"GET /api/games/{self.gid}/events?client={self.client} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            if self.cookie:
                head += f"Cookie: {self.cookie}\r\n"
            sock.sendall((head + "\r\n").encode())
            buf = b""
            while not self.halt:
                try:
                    chunk = sock.recv(65536)
                except socket.timeout:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    self.ended += 1
                    break
                buf += chunk
                status = buf.split(b"\r\n", 1)[0]
                if b" 200 " in status:
                    self.open.set()
                elif status.startswith(b"HTTP/"):
                    self.refused += 1
                    break
                for line in buf.split(b"\n"):
                    if line.startswith(b"data: {\"version\": "):
                        self.versions.append(int(line[len(b"data: {\"version\": "):-1]))
                buf = buf[buf.rfind(b"\n") + 1:]
            sock.close()
            if not self.reconnect:
                return


def serve(max_streams):
    return LiveServer(make_app(MAX_STREAMS=max_streams), threads=max_streams + 10)


@pytest.fixture
def small_server():
    srv = serve(10)
    yield srv
    srv.close()


@pytest.mark.parametrize("max_streams", [10, 30])   # the total cap binds first; the address's cap does
def test_anonymous_streams_never_end_a_seats_or_the_hosts(max_streams):
    live = serve(max_streams)
    try:
        flood_a_table(live)
    finally:
        live.close()


def flood_a_table(live):
    svc = live.app.extensions["pegs"]
    host = Phone(live.port)
    status, created, _ = host.post("/api/games", {"preset": "basic", "players": 4,
                                                   "names": ["Ann", "Bob", "Cy", "Di"]})
    assert status == 201
    gid = created["gid"]
    table = svc.get(gid)
    seats = []
    for s in range(4):
        phone = Phone(live.port)
        assert phone.post("/api/join", {"code": svc.join_code(table, s)})[0] == 200
        seats.append(phone)
    players = [Stream(live.port, gid, f"seat-page-{s}", seats[s].cookies) for s in range(4)]
    players.append(Stream(live.port, gid, "host-page-0", host.cookies))
    guest = Stream(live.port, gid, "guest-page-0", source="127.0.0.2")   # a lone anonymous table page
    for st in players + [guest]:
        st.start()
        assert st.open.wait(30)
    flood = [Stream(live.port, gid, f"flood-{i:03d}", reconnect=True) for i in range(40)]
    for st in flood:
        st.start()
    # the flood keeps trying: counted, however long a loaded machine takes to get there
    assert wait_until(lambda: sum(st.ended + st.refused for st in flood) > 50, 60)
    for st in flood:
        st.halt = True
    assert [st.ended + st.refused for st in players] == [0] * 5   # a seat's or the host's stream never ended
    assert guest.ended + guest.refused == 0            # nor the one of an address holding one stream
    anonymous_here = [e for e in svc._streams.values() if e[3] is None and e[2] == "127.0.0.1"]
    assert len(anonymous_here) <= svc.streams_per_address
    # the players' streams still carry the game
    before = table.version
    assert host.post(f"/api/games/{gid}/host/pause", {"version": before})[0] == 200
    assert wait_until(lambda: all(st.versions and st.versions[-1] > before for st in players), 30)
    for st in players + [guest]:
        st.halt = True


def test_a_full_house_of_players_refuses_an_anonymous_stream(small_server):
    live = small_server
    svc = live.app.extensions["pegs"]
    table, _ = svc.create({"preset": "basic", "players": 4, "names": ["Ann", "Bob", "Cy", "Di"]})
    stops = [svc.open_stream(table, f"k{i}", "10.0.0.5", holder=f"seat {i % 4}") for i in range(10)]
    status, body, _ = Phone(live.port).get(f"/api/games/{table.gid}/events?client=late-guest")
    assert status == 503 and "try again" in body["error"]
    assert not any(stop.is_set() for stop in stops)


def test_one_address_holds_twelve_anonymous_streams_and_the_thirteenth_is_told(small_server):
    svc = small_server.app.extensions["pegs"]
    svc.max_streams = 100
    table, _ = svc.create({"preset": "basic", "players": 4, "names": ["Ann", "Bob", "Cy", "Di"]})
    stops = [svc.open_stream(table, f"a{i}", "10.0.0.7") for i in range(svc.streams_per_address)]
    with pytest.raises(ApiError) as refused:
        svc.open_stream(table, "a-late", "10.0.0.7")
    assert refused.value.status == 429 and "this device" in refused.value.message
    assert svc.open_stream(table, "b0", "10.0.0.8")          # another address is not held back
    assert svc.open_stream(table, "a0", "10.0.0.7")          # the same page reconnecting replaces its own
    assert stops[0].is_set() and not any(s.is_set() for s in stops[1:])


def test_a_guest_holding_the_seats_of_its_own_table_cannot_end_the_players_streams():
    """Anyone may make a table and so hold its host's and seats' streams (not anonymous):
    a full house of those from one device is refused, or ends that table's own, never another's."""
    app = make_app()
    svc = app.extensions["pegs"]
    try:
        svc.max_streams = 12
        game, _ = svc.create({"preset": "basic", "players": 4, "names": ["Ann", "Bob", "Cy", "Di"]})
        players = [svc.open_stream(game, f"p{i}", f"192.168.1.{20 + i}", holder=f"seat {i}") for i in range(4)]
        players.append(svc.open_stream(game, "host", "192.168.1.10", holder="host"))
        own, _ = svc.create({"preset": "basic", "players": 10, "teams": 2,
                             "names": [f"Bot{i}" for i in range(10)]})
        guest, refused = [], 0
        for h in ["host"] + [f"seat {s}" for s in range(10)]:
            for i in range(4):
                try:
                    guest.append(svc.open_stream(own, f"g{h}-{i}", "192.168.1.66", holder=h))
                except ApiError as exc:
                    assert exc.status == 503
                    refused += 1
        assert refused and not any(stop.is_set() for stop in players)
        assert sum(not stop.is_set() for stop in guest) == svc.max_streams - len(players)
    finally:
        svc.close()
