"""This machine's address on the local network, for the join links and QR codes."""
from __future__ import annotations

import ipaddress
import socket


def lan_ip() -> str | None:
    """A private IPv4 address of this machine, or None.

    A UDP socket "connected" to an address picks the interface that routes
    there without sending anything, so it works with no internet: the Pi's
    own Wi-Fi network is one of the private ranges tried.
    """
    for probe in ("192.0.2.1", "10.255.255.254", "192.168.255.254", "172.31.255.254"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                ip = s.getsockname()[0]
        except OSError:
            continue
        if ip and not ip.startswith("127.") and ip != "0.0.0.0":
            return ip
    try:
        for ip in socket.gethostbyname_ex(socket.gethostname())[2]:
            if ipaddress.ip_address(ip).is_private and not ip.startswith("127."):
                return ip
    except OSError:
        pass
    return None


def is_loopback(host: str) -> bool:
    name = host.rsplit(":", 1)[0].strip("[]") if host.count(":") <= 1 or host.startswith("[") else host
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


WILDCARDS = ("0.0.0.0", "::", "")


def phone_host(request_host: str, bind_host: str | None) -> str:
    """The host[:port] to put in the links phones open, from the request's Host header
    and the address the server listens on (`bind_host`; None if not known).

    A page opened on the companion itself (localhost) gets the LAN address in its links
    only when the server listens on every interface: with ``--host 127.0.0.1`` nothing
    else answers, so the links keep the address the request came in on."""
    if not is_loopback(request_host):
        return request_host
    if bind_host is not None and bind_host.strip("[]") not in WILDCARDS:
        return request_host
    ip = lan_ip()
    if not ip:
        return request_host
    port = request_host.rsplit(":", 1)[1] if ":" in request_host and not request_host.endswith("]") else None
    return f"{ip}:{port}" if port else ip
