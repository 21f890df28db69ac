"""Camera recognition of pegs on the board (optional extra `vision`: OpenCV, NumPy).

Modules (cv2/NumPy are imported only inside this package, and ``layout`` not at all):

* ``layout``: hole and marker coordinates in mm (standard boards, or a JSON/TOML file);
* ``template``: the printable drilling template (SVG, PNG, tiled PDF);
* ``calibration``: markers or four taps -> homography, peg colours from the set-up picture;
* ``detect``: per-hole occupancy and colour with a confidence;
* ``motion``, ``tracker``: hands over the board are ignored, a state is reported once stable;
* ``camera``: USB (OpenCV), Raspberry Pi (Picamera2), replay; ``CameraLost``;
* ``watch``: the per-frame pipeline (``BoardVision``) and camera loop (``BoardWatcher``);
* ``position``: hole readings -> NOTATION.md positions;
* ``render``: synthetic pictures for tests and benchmarks;
* ``cli``: ``pegs board ...`` and ``pegs vision ...``.
"""
