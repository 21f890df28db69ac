"""Issue 14 on the server side of the phones: join links a phone can open, the undo
preview, seats handed to the computer and asked back, seat requests the host approves."""
from __future__ import annotations

import pytest
from conftest import H, join_all, make_app, new_table

from web import netinfo


# ------------------------------------------------------------------ 14.9: links the server serves
@pytest.fixture
def lan(monkeypatch):
    monkeypatch.setattr(netinfo, "lan_ip", lambda: "192.168.4.1")


@pytest.mark.parametrize("request_host, bind, want", [
    ("127.0.0.1:8000", "127.0.0.1", "127.0.0.1:8000"),     # --host 127.0.0.1: nothing else answers
    ("localhost:8000", "127.0.0.1", "localhost:8000"),
    ("127.0.0.1:8000", "0.0.0.0", "192.168.4.1:8000"),     # every interface: the LAN address
    ("[::1]:8000", "::", "192.168.4.1:8000"),
    ("localhost", None, "192.168.4.1"),                    # not known (tests, other servers): as before
    ("192.168.4.1:8000", "0.0.0.0", "192.168.4.1:8000"),   # opened from a phone: as it came
])
def test_phone_host_uses_an_address_the_server_serves(lan, request_host, bind, want):
    assert netinfo.phone_host(request_host, bind) == want


@pytest.mark.parametrize("bind, link, local_only", [
    ("127.0.0.1", "http://localhost/j/", True),
    ("0.0.0.0", "http://192.168.4.1/j/", False),
])
def test_host_page_links_follow_the_listening_address(lan, bind, link, local_only):
    app = make_app(BIND_HOST=bind)
    try:
        host = app.test_client()
        gid = new_table(host)
        info = host.get(f"/api/games/{gid}/host").get_json()
        assert all(s["link"].startswith(link) for s in info["seats"]), info["seats"][0]["link"]
        assert info["local_only"] is local_only
    finally:
        app.extensions["pegs"].close()


# ------------------------------------------------------------------ 14.8: undo says what it takes back
def test_undo_preview_names_the_move_and_the_computer_moves_after_it(app, client):
    gid = new_table(client, bots=[None, "greedy", "greedy", "greedy"])
    svc = app.extensions["pegs"]
    table = svc.get(gid)
    phones = join_all(app, gid, seats=[0])
    assert client.get(f"/api/games/{gid}/host").get_json()["undo"] is None
    with table.cond:
        table.cond.wait_for(lambda: table.game.actor == 0, 5)
    plays = phones[0].get(f"/api/games/{gid}/plays").get_json()
    move = next(({"move": m["move"], "card": c["card"]} for c in plays["cards"] for m in c["moves"]),
                {"move": f"{plays['cards'][0]['rank']} discard", "card": plays["cards"][0]["card"]})
    r = phones[0].post(f"/api/games/{gid}/act", json={"version": plays["version"], **move}, headers=H)
    assert r.status_code == 200, r.get_json()
    with table.cond:
        table.cond.wait_for(lambda: table.game.actor == 0 and len(table.game.history) == 4, 5)
    info = client.get(f"/api/games/{gid}/host").get_json()
    assert info["undo"] == {"moves": 4, "who": "Ann (Red)"}
    r = client.post(f"/api/games/{gid}/host/undo", json={"version": info["version"]}, headers=H)
    assert r.get_json()["undone"] == info["undo"]["moves"]
