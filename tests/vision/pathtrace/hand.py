"""A player's hand over the board, without Blender (NumPy only): its solids, where it goes,
and which holes it hides from the camera.

A hand reaches in to take or put a peg: the fingertips at the peg being moved, the fingers,
palm and forearm lying back toward the player who moves it, the arm coming in over that
player's edge of the board. The solids (capsules and an ellipsoid, board millimetres, z up
negative as everywhere in the generator) are what scene.py builds in Blender and what the
truth records, so a test without Blender can tell which holes the hand hides: a hole is
covered when every line of sight from the camera's centre to its 8 mm disc (its centre and
8 points round its rim) passes through the hand. The lens's distortion moves pixels, not
lines of sight, so it plays no part.

``place_hand`` draws the hand from a picture's random generator and keeps drawing until the
hand covers at least MIN_COVERED holes near the peg being moved (a hand that covers no hole
tests nothing: a per-hole detector sees no hand there, and the old placement, fingertips over
an edge hole at 15-60 mm, was seen beside the holes or off the picture at steep views).
"""
from __future__ import annotations

import math

import numpy as np

# the hand's proportions (mm): fingers (across the hand, length), their radius, thumb, palm, arm
FINGERS = ((-26.0, 70.0), (-9.0, 80.0), (9.0, 76.0), (25.0, 62.0))
FINGER_R = 8.5
THUMB_R = 10.0
PALM_AXES = (52.0, 46.0, 16.0)        # along the hand, across, thick
FOREARM_R = 33.0
FOREARM_END = 650.0                   # from the fingertips toward the player's shoulder
TIP_CLEARANCE = 1.0                   # the fingertips' underside over the heads' tops (mm), at least

MIN_COVERED = 3                       # holes the hand must hide from the camera
NEAR_PITCHES = 2.5                    # ... one of them this near the peg being moved
MAX_COVERED = 0.5                     # ... and not more than this share of the board's holes
RIM_MM = 4.0                          # a hole's radius (8 mm holes): its disc is what must be hidden
TAKE = 0.7                            # a random position's hand takes a peg (else puts one in a hole)
HAND_STREAM = 1                       # a picture's hand: numpy.random.default_rng([its render seed, HAND_STREAM])


def hand_solids(tip_mm, back_deg: float, lift: float, width: float, slope: float) -> list[dict]:
    """The hand's solids in board mm: ``tip_mm`` where the middle finger's tip is over the
    board, ``back_deg`` the direction (on the board, from +x toward +y) from the tips toward
    the player, ``lift`` the fingertips' height, ``width`` the hand's size across, ``slope``
    how it rises toward the wrist. Capsules: {"capsule": [p0, p1], "radius": [r0, r1]};
    the palm: {"ellipsoid": centre, "axes": [three semi-axis vectors]}."""
    tx, ty = (float(v) for v in tip_mm)
    a = math.radians(back_deg)
    bx, by = math.cos(a), math.sin(a)

    def P(u, v, z):     # hand mm: u back from the tips toward the wrist, v across, z up
        return [tx + u * bx - v * by, ty + u * by + v * bx, -z]
    out = []
    for v, length in FINGERS:
        v *= width
        out.append({"capsule": [P(80 - length, v, lift + 3), P(80, v * 0.9, lift + 3 + 80 * slope)],
                    "radius": [FINGER_R, FINGER_R * 0.97]})
    out.append({"capsule": [P(95, 40 * width, lift + 10), P(140, 30 * width, lift + 10 + 120 * slope)],
                "radius": [THUMB_R, THUMB_R * 0.97]})
    la, lb, lc = PALM_AXES
    out.append({"ellipsoid": P(125, 0, lift + 8 + 125 * slope),
                "axes": [[la * bx, la * by, 0.0], [-lb * by, lb * bx, 0.0], [0.0, 0.0, lc]]})
    out.append({"capsule": [P(165, 0, lift + 8 + 165 * slope),
                            P(FOREARM_END, 0, lift + 40 + FOREARM_END * (slope + 0.25))],
                "radius": [FOREARM_R, FOREARM_R * 0.97]})
    return [{k: (np.round(np.asarray(v, float), 4).tolist()) for k, v in s.items()} for s in out]


def _segment_distances(p1, q1, p2, q2) -> np.ndarray:
    """Shortest distances between segments p1-q1 (N, 3) and the one segment p2-q2 (3,)."""
    d1, d2, r = q1 - p1, q2 - p2, p1 - p2
    a = (d1 * d1).sum(-1)
    e = float(d2 @ d2)
    f = r @ d2
    c = (d1 * r).sum(-1)
    b = d1 @ d2
    denom = a * e - b * b
    s = np.where(denom > 1e-9, np.clip((b * f - c * e) / np.where(denom > 1e-9, denom, 1), 0, 1), 0.0)
    t = (b * s + f) / e
    s = np.where(t < 0, np.clip(-c / a, 0, 1), np.where(t > 1, np.clip((b - c) / a, 0, 1), s))
    t = np.clip(t, 0, 1)
    return np.linalg.norm(p1 + d1 * s[:, None] - (p2 + d2 * t[:, None]), axis=-1)


def _point_segment_distances(p, q) -> np.ndarray:
    """Distances from the origin to segments p-q (N, 3)."""
    d = q - p
    s = np.clip(-(p * d).sum(-1) / np.maximum((d * d).sum(-1), 1e-12), 0, 1)
    return np.linalg.norm(p + d * s[:, None], axis=-1)


def blocked(solids: list[dict], camera_mm, points) -> np.ndarray:
    """For board points (N, 3), whether the line of sight from the camera's centre to each
    passes through the hand (a capsule at its smaller radius: never more than it is)."""
    pts = np.asarray(points, float).reshape(-1, 3)
    cam = np.broadcast_to(np.asarray(camera_mm, float), pts.shape)
    hit = np.zeros(len(pts), bool)
    for s in solids:
        if "capsule" in s:
            p0, p1 = (np.asarray(v, float) for v in s["capsule"])
            hit |= _segment_distances(pts, cam, p0, p1) <= min(s["radius"])
        else:
            c = np.asarray(s["ellipsoid"], float)
            inv = np.linalg.inv(np.asarray(s["axes"], float).T)      # board -> the unit sphere's frame
            hit |= _point_segment_distances((pts - c) @ inv.T, (cam - c) @ inv.T) <= 1.0
    return hit


def covered_holes(solids: list[dict], camera_mm, holes: dict, rim: float = RIM_MM) -> list[str]:
    """The holes (id -> (x, y) mm) whose whole disc the hand hides from the camera."""
    ids = list(holes)
    xy = np.array([holes[h] for h in ids], float)
    ang = np.linspace(0, 2 * math.pi, 8, endpoint=False)
    offs = np.concatenate([[[0.0, 0.0]], rim * np.stack([np.cos(ang), np.sin(ang)], -1)])
    pts = (xy[:, None, :] + offs[None]).reshape(-1, 2)
    hit = blocked(solids, camera_mm, np.column_stack([pts, np.zeros(len(pts))])).reshape(len(ids), len(offs))
    return [h for h, row in zip(ids, hit) if row.all()]


def camera_clear(solids: list[dict], camera_mm, margin: float = 40.0) -> bool:
    """The camera is not inside (or within ``margin`` of) the hand or arm."""
    c = np.asarray(camera_mm, float)[None]
    for s in solids:
        if "capsule" in s:
            p0, p1 = (np.asarray(v, float) for v in s["capsule"])
            if _point_segment_distances(p0[None] - c, p1[None] - c)[0] < max(s["radius"]) + margin:
                return False
        else:
            if np.linalg.norm(c[0] - np.asarray(s["ellipsoid"], float)) < max(PALM_AXES) + margin:
                return False
    return True


def seat_point(layout, seat: int, rng) -> np.ndarray:
    """Where the moving player's shoulder is over the board's plane (mm): beyond the middle of
    their side's edge (the side whose stretch of the main track they own), left or right."""
    centre = np.array([layout.width / 2, layout.height / 2])
    n = layout.holes_per_side
    stretch = np.array([layout.holes[f"M{k}"] for k in range(seat * n, (seat + 1) * n)], float)
    d = stretch.mean(0) - centre
    d /= np.linalg.norm(d)
    edge = max(float((np.asarray(o, float) - centre) @ d) for o in layout.outline)
    across = np.array([-d[1], d[0]])
    return centre + d * (edge + rng.uniform(120, 300)) + across * rng.uniform(-220, 220)


def place_hand(layout, camera_mm, head_height: float, pegs: dict, rng, target: str | None = None,
               tries: int = 400) -> dict:
    """Draw a hand taking or putting a peg (``target``: the hole; else a pegged hole with
    probability TAKE, or any hole; a target is given for a game's hand) until it hides at least MIN_COVERED holes from the camera,
    one within NEAR_PITCHES of the target, and no more than MAX_COVERED of the board, the
    camera clear of it. Returns what the truth records (``solids`` and ``covers_holes``
    included). ValueError if no draw does (it never happened on the sets' set-ups)."""
    holes = layout.holes
    ids = list(holes)
    xy = np.array([holes[h] for h in ids], float)
    asked = target
    for attempt in range(tries):
        # a drawn target no hand covers 3 holes over: another one after 40 draws; an asked one
        # (the hole a game's move put a peg in) is kept for 3/4 of the draws
        if target is None or (attempt % 40 == 39 and (asked is None or attempt >= 3 * tries // 4)):
            pegged = sorted(pegs)
            take = bool(pegged) and rng.random() < TAKE
            target = pegged[int(rng.integers(len(pegged)))] if take else ids[int(rng.integers(len(ids)))]
        seat = int(pegs[target]) if target in pegs else layout.side_of(target)
        shoulder = seat_point(layout, seat, rng)
        tgt = np.asarray(holes[target], float)
        to_player = shoulder - tgt
        back = math.degrees(math.atan2(to_player[1], to_player[0])) + rng.normal(0, 12)
        b = np.array([math.cos(math.radians(back)), math.sin(math.radians(back))])
        # the fingertips about the peg: up to 30 mm past it (reaching in), a little to the side
        tip = tgt - b * rng.uniform(-5, 30) + np.array([-b[1], b[0]]) * rng.uniform(-12, 12)
        # just over the heads (a hand at the peg) to a few centimetres up (about to take it)
        lift = head_height + FINGER_R - 3 + TIP_CLEARANCE + rng.uniform(0, 1) ** 1.5 * 40
        width, slope = rng.uniform(0.9, 1.1), rng.uniform(0.15, 0.45)
        # rounded as the truth records them, so that the recorded parameters give the solids exactly
        tip, back, lift = [round(float(v), 3) for v in tip], round(float(back), 3), round(float(lift), 3)
        width, slope = round(float(width), 4), round(float(slope), 4)
        solids = hand_solids(tip, back, lift, width, slope)
        if not camera_clear(solids, camera_mm):
            continue
        covers = covered_holes(solids, camera_mm, holes)
        near = [h for h in covers if np.hypot(*(np.asarray(holes[h]) - tgt)) <= NEAR_PITCHES * layout.pitch]
        if len(covers) >= MIN_COVERED and near and len(covers) <= MAX_COVERED * len(ids):
            return {"over_hole": target, "asked_hole": asked, "seat": seat, "takes": target in pegs,
                    "tip_mm": tip, "lift_mm": lift, "toward_player_deg": back, "width": width, "slope": slope,
                    "shoulder_mm": [round(float(v), 1) for v in shoulder],
                    "solids": solids, "covers_holes": covers, "draws": attempt + 1}
    raise ValueError(f"no hand over {target} in {tries} draws covers {MIN_COVERED} holes in the camera's view")


def solids_of(hand: dict) -> list[dict]:
    """The solids a truth's hand parameters give (to check the recorded ones against)."""
    return hand_solids(hand["tip_mm"], hand["toward_player_deg"], hand["lift_mm"], hand["width"], hand["slope"])
