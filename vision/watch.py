"""The live pipeline: frame -> marker check -> motion -> sampling -> classification -> tracker.

``BoardVision.process(frame)`` runs one frame through every stage and times
each (``timings``); ``BoardWatcher`` reads a camera and hands out events:

* ``readings``: the board held still: ``data`` is {hole: (p_peg, side, p_side)} (see
  ``BoardVision._quiet_readings``), for a referee that weighs them against the legal moves;
* ``board``: a new stable state (``data`` is a ``BoardChange``; the first one
  has ``before=None``);
* ``recalibrated``: the board or camera moved and the markers gave a new homography;
* ``calibration_lost`` / ``calibration_restored``: the markers can't be found
  (frames are ignored meanwhile) / are back;
* ``camera_lost``: the camera stopped (``data`` is the reason); the watcher
  stops, and the referee falls back to moves entered on the phone.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from .calibration import (Calibration, CalibrationError, MarkerCheck, homography_from_markers,
                          refine_with_holes, repose_camera)
from .camera import Camera, CameraLost
from .detect import EMPTY, UNKNOWN, BoardReading, Classifier, HoleSampler, read_holes, start_holes_empty
from .foreground import PATCH_POINTS
from .layout import Layout
from .learned import calibration_key, learned_entries, load_learned, save_learned
from .markers import detect_markers, to_gray
from .motion import MotionDetector, board_mask
from .tracker import BoardChange, StableBoardTracker

log = logging.getLogger("vision.watch")

STAGES = ("markers", "motion", "sampling", "classification", "tracker")   # timed per frame, plus "total"
FOREGROUND_EVERY = 5     # frames of a still board between two looks for a hand on it


@dataclass
class VisionEvent:
    kind: str
    message: str
    data: object = None
    frame: int = 0
    time: float = field(default_factory=time.time)


@dataclass
class FrameResult:
    reading: BoardReading | None
    moving: bool
    change: BoardChange | None
    events: list
    timings: dict                 # stage -> ms for this frame (and "total")


class BoardVision:
    def __init__(self, layout: Layout, calibration: Calibration, *, hold_frames: int = 5,
                 min_confidence: float = 0.8, lost_after: int = 5, recheck: bool = True, max_covered: int = 2,
                 learned=None):
        if calibration.colours is None:
            raise CalibrationError("the calibration has no peg colours: calibrate from a set-up picture")
        calibration.check_layout(layout)
        self.layout = layout
        self.calibration = calibration
        # what the start holes learnt in play (learn_start_empties), kept in the file ``learned``
        # across restarts for this calibration only (vision.learned)
        self.learned_path = learned
        self.calibration_key = calibration_key(calibration)
        self.learned: dict = {}
        self._keep_lock = threading.Lock()
        if learned is not None:
            calibration.colours, self.learned = load_learned(learned, self.calibration_key, calibration.colours,
                                                             list(layout.holes))
        self.classifier = Classifier(calibration.colours, list(layout.holes))
        self.tracker = StableBoardTracker(hold_frames, min_confidence)
        self.motion = MotionDetector()
        self.recheck = recheck and calibration.method == "markers" and bool(layout.markers)
        self.lost_after = lost_after
        self.frame_index = 0
        self.last_frame = None            # the latest frame read (crops of doubtful holes for the phone)
        self.still = None                 # (frame index, reading, samples) of the latest still board passed on
        self.last_reading = None
        self.max_covered = max_covered
        self._quiet_key, self._quiet_count = None, 0
        self._foreground: tuple[int, int] | None = None   # (frame index, largest patch) while nothing moves
        self.timings: dict = {s: deque(maxlen=500) for s in STAGES + ("total",)}
        self._unseen = 0
        self._lost = False
        self._set_homography(calibration.homography)

    def _set_homography(self, H) -> None:
        """The new geometry: a homography, or (with a camera) the camera in its new pose."""
        cal = self.calibration
        if cal.camera is not None and not isinstance(H, np.ndarray):
            cal.camera = H
        else:
            cal.homography = np.asarray(H, np.float64)
        self.sampler = cal.sampler(self.layout)
        self.motion.set_mask(board_mask(self.layout, self.sampler.homography, cal.image_size))
        self.check = MarkerCheck(self.layout, cal.geometry, cal.image_size) if self.recheck else None

    def _full_recalibration(self, frame, events) -> bool:
        found = detect_markers(frame, ids={m.id for m in self.layout.markers})
        stable = self.tracker.stable or {}
        empty = [h for h in self.layout.holes if h not in stable and (stable or not h.startswith("S-"))]
        try:
            if self.calibration.camera is not None:
                H, rms = repose_camera(frame, self.layout, self.calibration.camera, found, holes=empty)
                used = sorted(k for k in found if k in {m.id for m in self.layout.markers})
            else:
                H, rms, used = homography_from_markers(self.layout, found)
        except CalibrationError as exc:
            if not self._lost:
                self._lost = True
                events.append(VisionEvent("calibration_lost", f"board markers not found: {exc}", None,
                                          self.frame_index))
            return False
        # refine on the holes that were empty in the last stable state (all but start if none)
        if self.calibration.camera is None:
            H, _ = refine_with_holes(frame, self.layout, H, holes=empty)
        self.calibration.markers = {k: found[k] for k in used}
        self.calibration.reprojection_px = rms
        self._set_homography(H)
        self.tracker.reset()
        if self._lost:
            self._lost = False
            events.append(VisionEvent("calibration_restored", "board markers found again", None, self.frame_index))
        events.append(VisionEvent("recalibrated", f"board or camera moved: new homography from "
                                  f"{len(used)} markers (RMS {rms:.2f} px)", {"markers": used, "rms_px": rms},
                                  self.frame_index))
        return True

    def _check_markers(self, frame, gray, events) -> bool:
        if self.check is None:
            return True
        result = self.check.check(gray)
        if result.status == "ok":
            self._unseen = 0
            if self._lost:
                self._lost = False
                events.append(VisionEvent("calibration_restored", "board markers found again", None,
                                          self.frame_index))
            return True
        if result.status == "moved":
            self._full_recalibration(frame, events)
            return False                  # this frame's readings don't count
        self._unseen += 1                 # none seen: covered by a hand, or the board went
        if self._unseen >= self.lost_after:
            self._unseen = 0
            return self._full_recalibration(frame, events) and False
        return not self._lost

    def _quiet_readings(self, reading: BoardReading, unusable: bool):
        """The per-hole readings once the board has held still for ``hold_frames`` frames with
        the same likeliest reading of every hole (once per such state), else None. Unlike the
        tracker's state this needs no hole read surely: the referee weighs the readings against
        the legal moves. A frame with more than ``max_covered`` unreadable holes, or with a patch
        of changed bare board as large as a hand's (vision.foreground), doesn't count."""
        covered = sum(v == UNKNOWN for v in reading.labels.values())
        if unusable or not reading.labels or covered > self.max_covered or reading.foreground >= PATCH_POINTS:
            self._quiet_key, self._quiet_count = None, 0
            return None
        key = tuple(sorted((h, r[1] if r[0] >= 0.5 else EMPTY) for h, r in reading.readings.items()))
        if key != self._quiet_key:
            self._quiet_key, self._quiet_count = key, 0
        self._quiet_count += 1
        if self._quiet_count != self.tracker.hold_frames:
            return None
        return dict(reading.readings)

    def learn_start_empties(self, start_counts: dict, stamp: int | None = None, keep: bool = True) -> list:
        """The referee's start counts (side -> pegs in its start area) after a move it took from
        the latest still board: start holes that must then be empty (the others of that side
        read surely as its pegs) learn their own empty look from that board's picture, if it
        doesn't contradict it (``Classifier.learned_empty``). Calibration saw every start hole
        with a peg in it and took its empty look from its neighbours; a pegs' shadow or the
        print under a tilted camera's view can make that estimate look like a black head.
        ``stamp``: the frame index of the readings the referee judged; another still board since
        (the board changed again) learns nothing. Returns the holes learnt (kept in
        ``calibration.colours``, and in the file ``learned`` if one was given; ``keep=False``: the
        caller writes the file with ``keep_learned``, outside its own locks)."""
        if self.still is None or (stamp is not None and stamp != self.still[0]):
            return []
        _, reading, samples = self.still
        empties = start_holes_empty(self.layout, reading, start_counts)
        if not empties:
            return []
        clf, took = self.classifier.learned_empty(samples, empties)
        if took:
            self.classifier = clf
            self.calibration.colours = clf.model
            self.learned.update(learned_entries(clf.model, took))
            if keep:
                self.keep_learned()
        return took

    def keep_learned(self) -> None:
        """Write what was learnt to the file ``learned``, if one was given: one writer at a time,
        each the latest (a dict's copy is atomic), and nothing lost if it fails (kept in memory;
        learnt again after a restart)."""
        if self.learned_path is None:
            return
        with self._keep_lock:
            try:
                save_learned(self.learned_path, self.calibration_key, dict(self.learned))
            except OSError as exc:
                log.warning("camera: can't keep what it learnt in %s (%s)", self.learned_path, exc)

    def process(self, frame: np.ndarray) -> FrameResult:
        events: list = []
        t = {}
        h, w = frame.shape[:2]
        if (w, h) != tuple(self.calibration.image_size):
            raise CalibrationError(f"frames are {w}x{h} but the calibration is for "
                                   f"{self.calibration.image_size[0]}x{self.calibration.image_size[1]}")
        t0 = time.perf_counter()
        gray = to_gray(frame)
        markers_ok = self._check_markers(frame, gray, events)
        t1 = time.perf_counter()
        moving = self.motion.update(gray).moving
        t2 = time.perf_counter()
        reading = samples = None
        if moving or not markers_ok:
            self._foreground = None
            t3 = t4 = t2
            reading = BoardReading({}, {}, None, markers_ok, moving)
        else:
            samples = self.sampler.sample(frame)
            t3 = time.perf_counter()
            # a still board's foreground (a hand resting on it) holds until something moves: it
            # is looked for again every FOREGROUND_EVERY frames, not on each (5 ms of a 720p frame)
            known = self._foreground
            patch = known[1] if known is not None and self.frame_index - known[0] < FOREGROUND_EVERY else None
            reading = read_holes(frame, self.sampler, self.classifier, samples=samples, foreground=patch)
            if patch is None:
                self._foreground = (self.frame_index, reading.foreground)
            reading.markers_ok, reading.moving = markers_ok, moving
            self.last_frame, self.last_reading = frame, reading
            t4 = time.perf_counter()
        change = self.tracker.update(reading, moving)
        t5 = time.perf_counter()
        if change is not None:
            events.append(VisionEvent("board", change.describe(), change, self.frame_index))
        quiet = self._quiet_readings(reading, moving or not markers_ok)
        if quiet is not None:
            self.still = (self.frame_index, reading, samples)   # what the referee judges (learn_start_empties)
            events.append(VisionEvent("readings", f"{len(quiet)} holes read", quiet, self.frame_index))
        t = {"markers": (t1 - t0) * 1000, "motion": (t2 - t1) * 1000, "sampling": (t3 - t2) * 1000,
             "classification": (t4 - t3) * 1000, "tracker": (t5 - t4) * 1000}
        t["total"] = (time.perf_counter() - t0) * 1000
        for k, v in t.items():
            self.timings[k].append(v)
        self.frame_index += 1
        return FrameResult(reading, moving, change, events, t)


class BoardWatcher:
    """Reads a camera through ``BoardVision`` and calls ``on_event(VisionEvent)``."""

    def __init__(self, camera: Camera, vision: BoardVision, on_event=None):
        self.camera = camera
        self.vision = vision
        self.on_event = on_event
        self.lost: str | None = None

    def _emit(self, events):
        for e in events:
            if self.on_event:
                self.on_event(e)
        return events

    def step(self) -> list:
        """One frame; returns its events. After ``camera_lost`` it returns [] (nothing to read)."""
        if self.lost is not None:
            return []
        try:
            frame = self.camera.read()
        except CameraLost as exc:
            self.lost = exc.reason
            return self._emit([VisionEvent("camera_lost", f"camera lost: {exc.reason}", exc.reason,
                                           self.vision.frame_index)])
        return self._emit(self.vision.process(frame).events)

    def run(self, stop=None, max_frames: int | None = None) -> str | None:
        """Process frames until ``stop`` (a threading.Event) is set, the camera is lost
        (returns its reason) or ``max_frames`` have been read."""
        n = 0
        while self.lost is None and not (stop is not None and stop.is_set()):
            if max_frames is not None and n >= max_frames:
                break
            self.step()
            n += 1
        return self.lost


def detect_image(image: np.ndarray, layout: Layout, calibration: Calibration) -> BoardReading:
    """Read one picture: the homography from its own markers when two or more are found
    (the camera may have moved since calibration), else the calibration's."""
    if calibration.colours is None:
        raise CalibrationError("the calibration has no peg colours: calibrate from a set-up picture")
    calibration.check_layout(layout)
    h, w = image.shape[:2]
    H, ok = calibration.geometry, calibration.method != "markers"
    same_size = (w, h) == tuple(calibration.image_size)
    if layout.markers:
        found = detect_markers(image, ids={m.id for m in layout.markers})
        check = MarkerCheck(layout, calibration.geometry, (w, h)) if same_size else None
        errors = ([float(np.linalg.norm(c - check.expected[k], axis=1).mean()) for k, c in found.items()]
                  if check else [])
        if len(errors) >= 2 and float(np.median(errors)) <= check.threshold:
            ok = True            # the camera hasn't moved: keep the calibration's (hole-refined) geometry
        else:
            try:
                if calibration.camera is not None and same_size:
                    H, _ = repose_camera(image, layout, calibration.camera, found)
                else:
                    H, _, _ = homography_from_markers(layout, found)
                ok = True
            except CalibrationError:
                pass
    if not same_size and H is calibration.geometry:
        raise CalibrationError(f"the picture is {w}x{h}, the calibration {calibration.image_size[0]}x"
                               f"{calibration.image_size[1]}, and its markers can't be found")
    sampler = HoleSampler(layout, H, (w, h), calibration.head_height)
    reading = read_holes(image, sampler, Classifier(calibration.colours, list(layout.holes)), keep_lab=True)
    reading.markers_ok = ok
    return reading
