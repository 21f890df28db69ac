"""Cameras: USB (OpenCV VideoCapture), Raspberry Pi (Picamera2), and a replay camera for tests.

Every camera gives BGR frames from ``read()``. A camera that disappears (reads
fail, or no frame arrives for ``timeout`` seconds) raises ``CameraLost``, which
the referee turns into "enter the moves on the phone". ``Watchdog`` wraps any
camera with a reader thread, so even a driver that blocks forever in ``read``
is noticed in time.

``open_camera("usb:0" | "pi" | "FILE.mp4" | "DIR" | "a.png,b.png")`` opens one
from a short spec (the ``--camera`` option).
"""
from __future__ import annotations

import queue
import threading
import time
from pathlib import Path

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class CameraError(RuntimeError):
    """The camera can't be opened or used (one line saying why)."""


class CameraLost(CameraError):
    """The camera stopped delivering frames; ``reason`` says how."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Camera:
    """Base class: ``read()`` -> BGR uint8 frame, ``close()``; a context manager."""
    name = "camera"
    timeout = 3.0

    def read(self):
        raise NotImplementedError

    def close(self) -> None:
        pass

    def frames(self):
        """Frames until the camera is lost (the CameraLost propagates)."""
        while True:
            yield self.read()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# --------------------------------------------------------------------------- replay

class ReplayCamera(Camera):
    """Frames from a list of images (arrays or paths), a directory of images, or a video file.

    ``fps`` paces ``read()`` like a live camera (None: as fast as asked). At the end it
    raises ``CameraLost("end of the recording")`` unless ``loop``. To rehearse a camera
    that disappears: ``fail_after=n`` makes reads fail after n frames (as a USB camera
    pulled out does), ``stall_after=n`` makes ``read`` hang (wrap it in a ``Watchdog``).
    """
    name = "replay"

    def __init__(self, source, loop: bool = False, fps: float | None = None, *,
                 fail_after: int | None = None, stall_after: int | None = None, clock=time.monotonic,
                 sleep=time.sleep):
        self._frames = None
        self._video = None
        self.loop = loop
        self.fps = fps
        self.fail_after = fail_after
        self.stall_after = stall_after
        self.count = 0
        self._clock, self._sleep = clock, sleep
        self._next = None
        self._closed = threading.Event()
        if isinstance(source, (str, Path)) and Path(source).is_dir():
            files = sorted(p for p in Path(source).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not files:
                raise CameraError(f"{source}: no images in this folder")
            self._frames = files
        elif isinstance(source, (str, Path)):
            path = Path(source)
            if not path.exists():
                raise CameraError(f"{path}: no such file")
            if path.suffix.lower() in IMAGE_SUFFIXES:
                self._frames = [path]
            else:
                import cv2
                self._video_path = str(path)
                self._video = cv2.VideoCapture(str(path))
                if not self._video.isOpened():
                    raise CameraError(f"{path}: not a video OpenCV can read")
        else:
            self._frames = list(source)
            if not self._frames:
                raise CameraError("the replay has no frames")
        self._index = 0
        self.name = f"replay of {source}" if isinstance(source, (str, Path)) else "replay"

    def _load(self, item):
        if isinstance(item, (str, Path)):
            import cv2
            img = cv2.imread(str(item), cv2.IMREAD_COLOR)
            if img is None:
                raise CameraLost(f"{item}: can't be read as an image")
            return img
        return item

    def read(self):
        if self.fail_after is not None and self.count >= self.fail_after:
            raise CameraLost(f"{self.name}: read failed (the camera is gone)")
        if self.stall_after is not None and self.count >= self.stall_after:
            self._closed.wait()           # hangs, as a wedged driver does, until close()
            raise CameraLost(f"{self.name}: closed while waiting for a frame")
        if self.fps:
            now = self._clock()
            if self._next is not None and now < self._next:
                self._sleep(self._next - now)
            self._next = max(now, self._next or now) + 1 / self.fps
        if self._video is not None:
            ok, frame = self._video.read()
            if not ok and self.loop and self.count:
                self._video.set(1, 0)  # CAP_PROP_POS_FRAMES
                ok, frame = self._video.read()
            if not ok:
                raise CameraLost(f"{self.name}: end of the recording")
        else:
            if self._index >= len(self._frames):
                if not self.loop:
                    raise CameraLost(f"{self.name}: end of the recording")
                self._index = 0
            frame = self._load(self._frames[self._index])
            self._index += 1
        self.count += 1
        return frame

    def close(self) -> None:
        self._closed.set()
        if self._video is not None:
            self._video.release()


# --------------------------------------------------------------------------- USB (OpenCV)

class OpenCVCamera(Camera):
    """A USB (UVC) camera through ``cv2.VideoCapture``.

    After ``settle_frames`` frames auto exposure and auto white balance are switched
    off at their settled values (``lock()``), so the light the vision learnt at
    calibration stays put. Not every driver honours every property: ``locked``
    says which took.
    """

    def __init__(self, device=0, size=(1280, 720), fps: float | None = None, timeout: float = 3.0,
                 settle_frames: int = 20, lock: bool = True, backend: int | None = None, capture=None):
        import cv2
        self.device = device
        self.name = f"USB camera {device}"
        self.timeout = timeout
        self._cap = capture if capture is not None else (
            cv2.VideoCapture(device, backend) if backend is not None else cv2.VideoCapture(device))
        if not self._cap.isOpened():
            raise CameraError(f"can't open {self.name} (is it plugged in? try another number)")
        w, h = size
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, w)
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, h)
        if fps:
            self._cap.set(cv2.CAP_PROP_FPS, fps)
        self.locked: dict = {}
        self._settle = settle_frames if lock else None
        self._count = 0

    def read(self):
        start = time.monotonic()
        while True:
            ok, frame = self._cap.read()
            if ok and frame is not None:
                self._count += 1
                if self._settle is not None and self._count >= self._settle:
                    self._settle = None
                    self.lock()
                return frame
            if time.monotonic() - start > self.timeout:
                raise CameraLost(f"{self.name}: no frame for {self.timeout:g} s (unplugged?)")
            time.sleep(0.05)

    def lock(self) -> dict:
        """Fix exposure and white balance at their current values; returns what was set."""
        import cv2
        cap = self._cap
        done = {}
        exposure = cap.get(cv2.CAP_PROP_EXPOSURE)
        # V4L2 takes 1 for manual exposure, other backends 0.25
        for manual in (1, 0.25):
            if cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, manual):
                done["auto_exposure"] = manual
                break
        if exposure and cap.set(cv2.CAP_PROP_EXPOSURE, exposure):
            done["exposure"] = exposure
        temperature = cap.get(cv2.CAP_PROP_WB_TEMPERATURE)
        if cap.set(cv2.CAP_PROP_AUTO_WB, 0):
            done["auto_wb"] = 0
        if temperature and cap.set(cv2.CAP_PROP_WB_TEMPERATURE, temperature):
            done["wb_temperature"] = temperature
        self.locked = done
        return done

    def close(self) -> None:
        self._cap.release()


# --------------------------------------------------------------------------- Raspberry Pi camera

class PiCamera(Camera):
    """The Raspberry Pi camera through Picamera2 (``sudo apt install python3-picamera2``;
    imported only when a PiCamera is made). After ``settle`` seconds the automatic
    exposure and white balance are locked at what they settled on, a little darker
    (``ev``) so bright wood doesn't clip."""

    def __init__(self, size=(1280, 720), timeout: float = 3.0, settle: float = 2.0, lock: bool = True,
                 ev: float = -0.3, camera_num: int = 0, module=None, sleep=time.sleep):
        if module is None:
            try:
                import picamera2 as module  # noqa: PLC0415 - lazy on purpose
            except ImportError:
                raise CameraError("Picamera2 is not installed: on Raspberry Pi OS run "
                                  "'sudo apt install python3-picamera2' (and make the venv with "
                                  "--system-site-packages)") from None
        self.name = f"Pi camera {camera_num}"
        self.timeout = timeout
        try:
            self._cam = module.Picamera2(camera_num)
            config = self._cam.create_video_configuration(main={"size": tuple(size), "format": "RGB888"})
            self._cam.configure(config)
            if ev:
                self._cam.set_controls({"ExposureValue": ev})
            self._cam.start()
        except Exception as exc:      # noqa: BLE001 - the library raises many kinds
            raise CameraError(f"can't start the {self.name}: {exc}") from None
        self.locked: dict = {}
        if lock:
            sleep(settle)
            self.lock()

    def lock(self) -> dict:
        md = self._cam.capture_metadata()
        controls = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if md.get(key) is not None:
                controls[key] = md[key]
        self._cam.set_controls(controls)
        self.locked = controls
        return controls

    def read(self):
        try:
            frame = self._cam.capture_array("main")   # "RGB888" is B, G, R in memory: OpenCV order
        except Exception as exc:      # noqa: BLE001
            raise CameraLost(f"{self.name}: {exc}") from None
        if frame is None:
            raise CameraLost(f"{self.name}: no frame")
        if frame.ndim == 3 and frame.shape[2] == 4:
            frame = frame[:, :, :3]
        return frame

    def close(self) -> None:
        try:
            self._cam.stop()
            self._cam.close()
        except Exception:             # noqa: BLE001
            pass


# --------------------------------------------------------------------------- watchdog

class Watchdog(Camera):
    """Reads ``camera`` in a background thread; ``read()`` returns the newest frame and
    raises ``CameraLost`` when none has come for ``timeout`` seconds or the camera failed."""

    POLL = 0.05   # seconds between looks at the clock while waiting for a frame

    def __init__(self, camera: Camera, timeout: float | None = None, clock=time.monotonic):
        self.camera = camera
        self.name = camera.name
        self.timeout = timeout if timeout is not None else camera.timeout
        self._clock = clock   # injected in tests: the timeout then counts the clock's seconds
        self._queue: queue.Queue = queue.Queue(maxsize=1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"watchdog:{self.name}", daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            try:
                item = self.camera.read()
            except Exception as exc:   # noqa: BLE001 - handed to the reader
                item = exc if isinstance(exc, CameraLost) else CameraLost(f"{self.name}: {exc}")
            if self._stop.is_set():
                return
            try:
                self._queue.get_nowait()          # keep only the newest frame
            except queue.Empty:
                pass
            self._queue.put(item)
            if isinstance(item, Exception):
                return

    def read(self):
        deadline = self._clock() + self.timeout
        while True:
            try:
                item = self._queue.get(timeout=min(self.POLL, self.timeout))
                break
            except queue.Empty:
                if self._clock() >= deadline:
                    raise CameraLost(f"{self.name}: no frame for {self.timeout:g} s") from None
        if isinstance(item, Exception):
            raise item
        return item

    def close(self) -> None:
        self._stop.set()
        self.camera.close()
        self._thread.join(timeout=1.0)


def open_camera(spec: str, size=(1280, 720), timeout: float = 3.0, watchdog: bool = True) -> Camera:
    """``usb:N`` (or a bare number), ``pi``, a video file, a folder of images, or
    comma-separated image files."""
    spec = str(spec).strip()
    if spec == "pi" or spec.startswith("pi:"):
        num = int(spec.split(":", 1)[1]) if ":" in spec else 0
        cam: Camera = PiCamera(size=size, timeout=timeout, camera_num=num)
    elif spec.startswith("usb:") or spec.isdigit():
        num = spec.split(":", 1)[1] if ":" in spec else spec
        cam = OpenCVCamera(int(num) if num.isdigit() else num, size=size, timeout=timeout)
    elif "," in spec:
        cam = ReplayCamera([s for s in spec.split(",") if s])
        return cam
    else:
        return ReplayCamera(spec)
    return Watchdog(cam, timeout) if watchdog else cam
