"""Static files: versioned URLs cached for a year, and compressed (issue 25 §4.12).

* ``url_for("static", filename=...)`` (and a blueprint's static) gets ``?v=<hash of the
  file>``: that URL is served ``public, max-age=31536000, immutable`` (a new release
  changes the hash, so the URL); the same file without the right ``v`` is ``no-cache``
  (revalidated by its ETag), so nothing stale is ever kept.
* Text responses (scripts, styles, SVG, the pages, JSON) are compressed when the client
  accepts it: brotli if the ``brotli`` module is installed and asked for, else gzip.
  A static file or the words' catalog is compressed once per version and kept in memory
  (a few hundred KB at most); the rest per response. Streams (server-sent events) and
  small bodies are left alone.

Hand-written rather than flask-compress: what is cached is one compressed copy per file
version, and what is skipped (the event stream, direct file passthrough turned into bytes)
is exactly this app's, in ~80 lines.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import threading

from flask import current_app, request

try:   # optional: brotli compresses the scripts ~15 % smaller than gzip; gzip is always there
    import brotli   # type: ignore[import-not-found]
except ImportError:   # pragma: no cover - depends on the install
    brotli = None

STATIC_ENDPOINTS = ("static", "camera.static")
IMMUTABLE = "public, max-age=31536000, immutable"
COMPRESSIBLE = ("text/css", "text/javascript", "application/javascript", "image/svg+xml",
                "text/html", "application/json", "text/plain")
MIN_SIZE = 512          # below this a compressed body is hardly smaller
CACHED_ENDPOINTS = STATIC_ENDPOINTS + ("i18n.catalog_js",)   # the same bytes for every client

_versions: dict[str, tuple[float, int, str]] = {}
_packed: dict[tuple[str, str], bytes] = {}
_lock = threading.Lock()


_paths: dict[tuple[str, str, str], str | None] = {}


def _static_path(endpoint: str, filename: str) -> str | None:
    app = current_app
    folder = app.static_folder if endpoint == "static" else app.blueprints[endpoint.split(".")[0]].static_folder
    if not folder:
        return None
    key = (folder, endpoint, filename)
    try:   # realpath costs an lstat per folder of the path, and every page names four files
        return _paths[key]
    except KeyError:
        pass
    path = os.path.realpath(os.path.join(folder, filename))
    found = path if path.startswith(os.path.realpath(folder) + os.sep) and os.path.isfile(path) else None
    if found is not None:   # (a name that isn't there is not kept: it may be a guess, or come later)
        with _lock:
            if len(_paths) > 1024:
                _paths.clear()
            _paths[key] = found
    return found


def file_version(endpoint: str, filename: str) -> str | None:
    """The first 12 hex digits of the file's sha256 (remembered while its mtime and size stay)."""
    path = _static_path(endpoint, filename)
    if path is None:
        return None
    try:
        st = os.stat(path)
    except FileNotFoundError:   # removed since it was found
        with _lock:
            _paths.clear()
        return None
    with _lock:
        known = _versions.get(path)
        if known and known[:2] == (st.st_mtime, st.st_size):
            return known[2]
    with open(path, "rb") as f:
        version = hashlib.sha256(f.read()).hexdigest()[:12]
    with _lock:
        _versions[path] = (st.st_mtime, st.st_size, version)
    return version


def _encoding() -> str | None:
    accepted = request.accept_encodings
    if brotli is not None and accepted["br"]:
        return "br"
    return "gzip" if accepted["gzip"] else None


def _pack(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(data, quality=11 if len(data) < 1 << 20 else 5)
    return gzip.compress(data, compresslevel=9, mtime=0)


def init_app(app) -> None:
    @app.url_defaults
    def _versioned(endpoint, values):
        if endpoint in STATIC_ENDPOINTS and "filename" in values and "v" not in values:
            version = file_version(endpoint, values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def _cache_and_compress(resp):
        endpoint = request.endpoint
        if endpoint in STATIC_ENDPOINTS and resp.status_code in (200, 304):
            version = file_version(endpoint, request.view_args.get("filename", ""))
            versioned = version is not None and request.args.get("v") == version
            resp.headers["Cache-Control"] = IMMUTABLE if versioned else "no-cache"
        if (resp.status_code != 200 or resp.is_streamed and not resp.direct_passthrough
                or resp.mimetype not in COMPRESSIBLE or "Content-Encoding" in resp.headers
                or request.method != "GET"):
            if resp.mimetype in COMPRESSIBLE:
                resp.vary.add("Accept-Encoding")
            return resp
        resp.vary.add("Accept-Encoding")
        encoding = _encoding()
        if encoding is None:
            return resp
        etag, weak = resp.get_etag()
        if etag and request.if_none_match.contains(f"{etag}-{encoding}"):   # this variant, unchanged
            resp.direct_passthrough = False
            resp.set_data(b"")
            resp.status_code = 304
            resp.set_etag(f"{etag}-{encoding}", weak)
            resp.headers.pop("Content-Length", None)
            return resp
        resp.direct_passthrough = False   # a static file's stream, read into bytes here
        data = resp.get_data()
        if len(data) < MIN_SIZE:
            return resp
        if endpoint in CACHED_ENDPOINTS:
            key = (hashlib.sha256(data).hexdigest(), encoding)
            with _lock:
                packed = _packed.get(key)
            if packed is None:
                packed = _pack(data, encoding)
                with _lock:
                    if len(_packed) > 256:
                        _packed.clear()
                    _packed[key] = packed
        else:
            packed = gzip.compress(data, compresslevel=6, mtime=0) if encoding == "gzip" else \
                brotli.compress(data, quality=5)
        resp.set_data(packed)
        resp.headers["Content-Encoding"] = encoding
        if etag:   # another body, another tag (a cache must not mix the two)
            resp.set_etag(f"{etag}-{encoding}", weak)
        return resp


__all__ = ["init_app", "file_version", "IMMUTABLE"]
