"""What the camera learnt in play, kept across restarts: the empty look of start holes.

Calibration sees every start hole with a peg in it; once the referee knows a start hole is
empty, the hole learns its own empty look from that picture (`BoardVision.learn_start_empties`).
That is kept in a small JSON file (the companion's state directory, or beside the calibration),
written atomically (a temporary file, fsynced, renamed, the folder fsynced: a power cut leaves
the old file or the new one), and read back at start. The file names the calibration it was
learnt under (`calibration_key`): a file from another calibration, or one that can't be read,
is ignored with a log line, never used and never a reason not to start.
"""
from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import time
from dataclasses import replace
from pathlib import Path

log = logging.getLogger("vision.learned")

FORMAT = "pegs-and-jokers/vision-learned/1"
# per hole, what `Classifier.learned_empty` sets, and how many numbers each holds (None: as the
# calibration's own entries for the other holes)
FIELDS = {"hole_ratio": 3, "head_ratio": 6, "hole_patch": None, "hole_empty": 3}


def calibration_key(calibration) -> str:
    """A fingerprint of what a calibration was made from, unchanged by what is learnt later and
    by a re-posed camera (the board or camera nudged): when it was made, for which board and
    picture size, and the colours it learnt. A new calibration gets a new key."""
    c = calibration.colours
    ident = {"created": round(float(calibration.created), 1), "layout": calibration.layout_id,
             "image_size": [int(v) for v in calibration.image_size], "sides": calibration.sides,
             "holes_per_side": calibration.holes_per_side,
             "colours": None if c is None else {
                 "pegs": {str(s): [round(float(v), 2) for v in lab] for s, lab in sorted(c.pegs.items())},
                 "board_ref": [round(float(v), 2) for v in c.board_ref],
                 "empty": [round(float(v), 2) for v in c.empty]}}
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:32]


def learned_entries(model, holes) -> dict:
    """{hole: {field: [numbers]}} of ``holes`` as ``model`` (a `ColourModel`) now knows them."""
    import numpy as np
    return {h: {k: [float(v) for v in np.ravel(np.asarray(getattr(model, k)[h], float))] for k in FIELDS}
            for h in holes}


def save_learned(path, key: str, entries: dict) -> None:
    """Write ``entries`` (see `learned_entries`) for the calibration ``key`` to ``path``,
    atomically. OSError if the folder can't be written."""
    path = Path(path)
    data = {"format": FORMAT, "calibration": key, "saved": round(time.time(), 1),
            "holes": {h: entries[h] for h in sorted(entries)}}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(data, indent=1) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    try:   # the rename itself must reach the disk too
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:   # a file system that can't sync a folder: the file is written all the same
        pass


def load_learned(path, key: str, model, holes) -> tuple[object, dict]:
    """(``model`` with the learnt holes of ``path`` in it, {hole: entry} used). Only holes of
    ``holes`` whose empty look ``model`` doesn't know (calibration didn't see them empty) are
    taken. A missing file gives ``model`` as it is; one that is torn, not ours, or learnt under
    another calibration (``key``) is logged and ignored."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return model, {}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        log.warning("camera: %s can't be read (%s): what the camera learnt in play is ignored and will "
                    "be learnt again", path, exc)
        return model, {}
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("holes"), dict):
        log.warning("camera: %s is not a file of what the camera learnt (format %s): ignored", path, FORMAT)
        return model, {}
    if data.get("calibration") != key:
        log.warning("camera: %s was learnt under another calibration: ignored (it is replaced once the "
                    "camera learns again)", path)
        return model, {}
    known = set(holes)
    patch_len = len(next(iter(model.hole_patch.values()))) if model.hole_patch else None   # N points a hole
    take = {}
    for hole, entry in data["holes"].items():
        if hole not in known or hole in model.hole_empty or not _entry_ok(entry, patch_len):
            continue
        take[hole] = {k: [float(v) for v in entry[k]] for k in FIELDS}
    if len(take) < len(data["holes"]):
        log.warning("camera: %s: %d of %d holes not used (not on this board, measured at calibration, "
                    "or damaged)", path, len(data["holes"]) - len(take), len(data["holes"]))
    if not take:
        return model, {}
    fields = {k: dict(getattr(model, k)) for k in FIELDS}
    for hole, entry in take.items():
        for k in FIELDS:
            fields[k][hole] = entry[k]
    log.info("camera: the empty look of start holes %s, learnt in play, read from %s", ", ".join(sorted(take)), path)
    return replace(model, **fields), take


def _entry_ok(entry, patch_len) -> bool:
    if not isinstance(entry, dict):
        return False
    for k, n in FIELDS.items():
        v = entry.get(k)
        n = patch_len if n is None else n
        if not isinstance(v, list) or n is None or len(v) != n:
            return False
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in v):
            return False
    return True


__all__ = ["FORMAT", "calibration_key", "learned_entries", "load_learned", "save_learned"]
