"""Physically based pictures of a game night, path traced with Blender's Cycles on the CPU.

Test-only code (the ``render`` extra: ``bpy``); nothing under vision/ imports it. One
``SetUp`` is a camera over a board under two lights; ``render_picture`` renders it with
a set of pegs (and optionally a hand) and writes a JPEG and its truth (see
tests/vision/data/pathtraced/README.md for the truth format).

The scene:
* the board: a plank cut to the layout's outline (18 mm), with a real cylindrical hole
  (the layout's diameter, 12 mm deep) at every hole; on top the project's own template
  (vision.template.template_image, drawn at render time, so a changed template is picked
  up on re-render), either printed on varnished wood (a clear coat over the grain: the
  lamp's reflection shows) or on matt paper glued on the board (``surface``);
* pegs: a body of revolution, a shaft in the hole (the hole's radius less 0.3 mm), a
  neck, a 12 mm head with a dome, its top ``head_height`` above the board; glossy
  plastic or satin paint, every colour of colours.NAMED the set-up's sides own;
* light: a warm desk lamp (a small sphere light, 2700-3300 K: real shadows and
  highlights) and a cool window (a large area light, 6000-7500 K), a dim room;
* the camera: 40-75 cm above the board, tilted 0-25 degrees, a real thin-lens depth of
  field; Cycles can't bend rays by Brown-Conrady distortion, so a wider field is rendered
  with the same focal length and the exact k1, k2 distortion is applied afterwards by
  cv2.remap (camera.py); then vignetting, auto exposure, photon and read noise on the
  linear signal, a white balance the camera got partly wrong, sRGB and JPEG;
* hands: palm, four fingers and a thumb, a forearm reaching in from the moving player's
  edge, skin material; placed by hand.py (no Blender) to take or put a peg, over holes the
  camera then can't see.
"""
from __future__ import annotations

import hashlib
import json
import math
import sys
import tempfile
import time
import zlib
from pathlib import Path

import bpy  # noqa: I001  (first: it makes bmesh and mathutils importable)
import bmesh
import cv2
import numpy as np
from mathutils import Matrix, Vector

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2]))

from camera import distortion_maps, project  # noqa: E402
from hand import HAND_STREAM, place_hand  # noqa: E402
from rig import IMAGE_SIZE, SetUp, SetUpSpec, draw_setup, spec_to_json  # noqa: E402,F401

from vision.colours import NAMED  # noqa: E402
from vision.template import template_image  # noqa: E402

FORMAT = "pegs-and-jokers/pathtraced-truth/1"
PLANK_MM = 18.0
HOLE_DEPTH_MM = 12.0
HEAD_DIAMETER_MM = 12.0
TEMPLATE_PX_PER_MM = 4.0
SENSOR_WIDTH_MM = 6.4              # a 1/2.5" webcam sensor: sets the lens in mm, not the picture


def blackbody_rgb(kelvin: float) -> tuple:
    """Linear Rec.709 colour of a black body, normalised to max 1 (Tanner Helland's fit,
    converted to linear)."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    srgb = [min(max(v, 0.0), 255.0) / 255.0 for v in (r, g, b)]
    lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in srgb]
    m = max(lin)
    return tuple(v / m for v in lin)


def srgb_to_linear(hex_colour: str) -> tuple:
    h = hex_colour.lstrip("#")
    out = []
    for i in (0, 2, 4):
        v = int(h[i:i + 2], 16) / 255.0
        out.append(v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
    return tuple(out)


# --------------------------------------------------------------------------- textures

def wood_albedo(shape, rng) -> np.ndarray:
    """A plank's grain, linear RGB float32 (H, W, 3): long fibres along x, growth rings, knots."""
    h, w = shape

    def smooth(cell):
        small = rng.standard_normal((max(2, int(h / cell) + 2), max(2, int(w / cell) + 2))).astype(np.float32)
        return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    yy = np.arange(h, dtype=np.float32)[:, None]
    bend = smooth(400) * 40 + smooth(90) * 8
    period = rng.uniform(10, 22)
    rings = 0.5 + 0.5 * np.sin(2 * np.pi * (yy + bend) / period)
    fibre = smooth(3) * 0.5
    fibre = cv2.resize(cv2.resize(fibre, (max(2, w // 40), h)), (w, h))      # streaks along x
    tone = 1 - 0.16 * rings ** 3 + 0.04 * fibre + 0.05 * smooth(160)
    base = np.array(rng.choice([[0.56, 0.36, 0.19], [0.62, 0.45, 0.26], [0.45, 0.28, 0.14], [0.66, 0.52, 0.34]]),
                    np.float32) * rng.uniform(0.9, 1.1)
    return np.clip(tone[..., None] * base[None, None, :], 0, 1).astype(np.float32)


def board_images(setup: SetUp, workdir: Path) -> tuple[Path, Path, str]:
    """(printed top albedo PNG, bare wood albedo PNG, sha1 of the template drawing)."""
    layout = setup.layout
    rng = np.random.default_rng(setup.wood_seed)
    tmpl, s = template_image(layout, TEMPLATE_PX_PER_MM)      # BGR uint8, the project's own template
    assert s == TEMPLATE_PX_PER_MM, s
    digest = hashlib.sha1(tmpl.tobytes()).hexdigest()[:12]
    ink = (tmpl[..., ::-1].astype(np.float32) / 255.0)
    ink = np.where(ink <= 0.04045, ink / 12.92, ((ink + 0.055) / 1.055) ** 2.4)   # linear
    h, w = ink.shape[:2]
    wood = wood_albedo((h, w), rng)
    paper = np.array([0.82, 0.82, 0.80], np.float32) * rng.uniform(0.95, 1.03, 3).astype(np.float32)
    if setup.spec.surface == "paper":
        top = ink * paper
    else:
        # printed (or transferred) onto the wood; the marker stickers are paper
        sticker = np.zeros((h, w), bool)
        for m in layout.markers:
            q = m.size / 2 + m.quiet
            x0, x1 = int((m.x - q) * s), int(math.ceil((m.x + q) * s))
            y0, y1 = int((m.y - q) * s), int(math.ceil((m.y + q) * s))
            sticker[max(0, y0):y1, max(0, x0):x1] = True
        top = np.where(sticker[..., None], ink * paper, ink * wood)
    workdir.mkdir(parents=True, exist_ok=True)
    top_path, wood_path = workdir / "board_top.png", workdir / "board_wood.png"

    def save(path, lin):
        srgb = np.where(lin <= 0.0031308, lin * 12.92, 1.055 * np.power(np.clip(lin, 0, 1), 1 / 2.4) - 0.055)
        cv2.imwrite(str(path), (np.clip(srgb, 0, 1) * 255 + 0.5).astype(np.uint8)[..., ::-1])
    save(top_path, top)
    save(wood_path, wood)
    return top_path, wood_path, digest


# --------------------------------------------------------------------------- Blender scene

def to_world(p_mm) -> Vector:
    """Board frame (mm; x right, y down, z into the board) -> Blender world (m; z up)."""
    x, y, z = (float(v) for v in p_mm)
    return Vector((x / 1000.0, -y / 1000.0, -z / 1000.0))


def _principled(name, colour, roughness, **inputs):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*colour, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    for k, v in inputs.items():
        bsdf.inputs[k].default_value = v
    return mat


def _link_new(mesh_name, bm) -> bpy.types.Object:
    mesh = bpy.data.meshes.new(mesh_name)
    bm.to_mesh(mesh)
    bm.free()
    obj = bpy.data.objects.new(mesh_name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def _board_material(setup: SetUp, top_png: Path, wood_png: Path, rng):
    layout = setup.layout
    mat = bpy.data.materials.new("board")
    mat.use_nodes = True
    nt = mat.node_tree
    bsdf = nt.nodes["Principled BSDF"]
    coord = nt.nodes.new("ShaderNodeTexCoord")
    mapping = nt.nodes.new("ShaderNodeMapping")
    top = nt.nodes.new("ShaderNodeTexImage")
    top.image = bpy.data.images.load(str(top_png))
    # template pixel i covers board mm [i, i + 1) / s: u = x s / width_px, v = 1 - y s / height_px
    w_px, h_px = top.image.size
    s = TEMPLATE_PX_PER_MM
    mapping.inputs["Scale"].default_value = (1000.0 * s / w_px, 1000.0 * s / h_px, 1.0)
    mapping.inputs["Location"].default_value = (0.0, 1.0, 0.0)
    nt.links.new(coord.outputs["Object"], mapping.inputs["Vector"])
    top.interpolation = "Linear"
    top.extension = "EXTEND"
    wood = nt.nodes.new("ShaderNodeTexImage")
    wood.image = bpy.data.images.load(str(wood_png))
    wood.extension = "EXTEND"
    nt.links.new(mapping.outputs["Vector"], top.inputs["Vector"])
    nt.links.new(mapping.outputs["Vector"], wood.inputs["Vector"])
    # the top face shows the print, the hole walls and the plank's edges bare wood
    geo = nt.nodes.new("ShaderNodeNewGeometry")
    sep = nt.nodes.new("ShaderNodeSeparateXYZ")
    nt.links.new(geo.outputs["Normal"], sep.inputs["Vector"])
    ramp = nt.nodes.new("ShaderNodeMapRange")
    ramp.inputs["From Min"].default_value = 0.9
    ramp.inputs["From Max"].default_value = 0.98
    nt.links.new(sep.outputs["Z"], ramp.inputs["Value"])
    mix = nt.nodes.new("ShaderNodeMix")
    mix.data_type = "RGBA"
    nt.links.new(ramp.outputs["Result"], mix.inputs["Factor"])
    nt.links.new(wood.outputs["Color"], mix.inputs[6])
    nt.links.new(top.outputs["Color"], mix.inputs[7])
    nt.links.new(mix.outputs[2], bsdf.inputs["Base Color"])
    if setup.spec.surface == "paper":
        bsdf.inputs["Roughness"].default_value = float(rng.uniform(0.55, 0.8))
        bsdf.inputs["Specular IOR Level"].default_value = 0.3
        varnish = None
    else:
        bsdf.inputs["Roughness"].default_value = 0.45
        varnish = {"coat_roughness": float(rng.uniform(0.04, 0.14)), "coat_weight": 1.0}
        bsdf.inputs["Coat Weight"].default_value = 1.0
        bsdf.inputs["Coat Roughness"].default_value = varnish["coat_roughness"]
    return mat, varnish


def build_board(setup: SetUp, top_png: Path, wood_png: Path, rng) -> dict:
    """The plank with its holes; returns a description for the truth."""
    layout = setup.layout
    bm = bmesh.new()
    verts = [bm.verts.new(to_world((x, y, 0.0))) for x, y in layout.outline]
    face = bm.faces.new(verts)
    if face.normal.z < 0:
        face.normal_flip()
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
    ext = bmesh.ops.extrude_face_region(bm, geom=[face])
    moved = [g for g in ext["geom"] if isinstance(g, bmesh.types.BMVert)]
    bmesh.ops.translate(bm, vec=Vector((0, 0, -PLANK_MM / 1000)), verts=moved)
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
    plank = _link_new("plank", bm)
    # the holes: one cutter mesh of all the cylinders, one boolean
    cut = bmesh.new()
    r = layout.hole_diameter / 2000.0
    for x, y in layout.holes.values():
        geom = bmesh.ops.create_cone(cut, cap_ends=True, cap_tris=False, segments=28, radius1=r, radius2=r,
                                     depth=(HOLE_DEPTH_MM + 4) / 1000.0)
        # the cone is centred on its origin: it spans 12 mm into the board to 4 mm above it
        bmesh.ops.translate(cut, vec=to_world((x, y, (HOLE_DEPTH_MM - 4) / 2)), verts=geom["verts"])
    cutter = _link_new("cutter", cut)
    mod = plank.modifiers.new("holes", "BOOLEAN")
    mod.operation = "DIFFERENCE"
    mod.solver = "EXACT"
    mod.object = cutter
    bpy.context.view_layer.objects.active = plank
    dg = bpy.context.evaluated_depsgraph_get()
    ev = plank.evaluated_get(dg)
    mesh = bpy.data.meshes.new_from_object(ev)
    plank.modifiers.clear()
    plank.data = mesh
    bpy.data.objects.remove(cutter)
    mat, varnish = _board_material(setup, top_png, wood_png, rng)
    plank.data.materials.append(mat)
    return {"surface": setup.spec.surface, "varnish": varnish, "plank_mm": PLANK_MM, "hole_depth_mm": HOLE_DEPTH_MM}


def build_table(setup: SetUp):
    bm = bmesh.new()
    bmesh.ops.create_grid(bm, x_segments=1, y_segments=1, size=2.0)
    obj = _link_new("table", bm)
    c = setup.layout
    obj.location = to_world((c.width / 2, c.height / 2, PLANK_MM))
    obj.data.materials.append(_principled("table", tuple(setup.table["colour"]), setup.table["roughness"]))


def peg_mesh(head_height: float, hole_diameter: float) -> bpy.types.Mesh:
    """A peg as a body of revolution (mm profile -> m): shaft, neck, head, dome."""
    shaft = hole_diameter / 2 - 0.3
    head_r = HEAD_DIAMETER_MM / 2
    dome = 3.5
    top = head_height
    body_top = top - dome
    neck_top = max(2.0, top - 8.0)
    prof = [(0.0, -9.0), (shaft, -9.0), (shaft, neck_top - 0.6), (head_r - 0.7, neck_top), (head_r, neck_top + 0.7),
            (head_r, body_top)]
    for k in range(1, 9):       # an elliptic dome
        a = math.pi / 2 * k / 8
        prof.append((head_r * math.cos(a), body_top + dome * math.sin(a)))
    bm = bmesh.new()
    vs = [bm.verts.new((r / 1000.0, 0.0, z / 1000.0)) for r, z in prof]
    es = [bm.edges.new((vs[i], vs[i + 1])) for i in range(len(vs) - 1)]
    bmesh.ops.spin(bm, geom=vs + es, cent=(0, 0, 0), axis=(0, 0, 1), angle=2 * math.pi, steps=36, use_duplicate=False)
    bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=1e-7)
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
    for f in bm.faces:
        f.smooth = True
    mesh = bpy.data.meshes.new("peg")
    bm.to_mesh(mesh)
    bm.free()
    try:
        mesh.set_sharp_from_angle(angle=math.radians(50))
    except AttributeError:
        pass
    return mesh


def peg_materials(setup: SetUp, rng) -> dict:
    """side -> material: the side's colour, glossy plastic or satin paint."""
    out = {}
    for side, name in enumerate(setup.spec.colours):
        lin = srgb_to_linear(NAMED[name])
        if setup.spec.finish == "glossy":
            mat = _principled(f"peg-{side}", lin, float(rng.uniform(0.08, 0.2)),
                              **{"Specular IOR Level": 0.5})
        else:
            mat = _principled(f"peg-{side}", lin, float(rng.uniform(0.35, 0.5)),
                              **{"Specular IOR Level": 0.4, "Coat Weight": 0.25, "Coat Roughness": 0.3})
        out[side] = mat
    return out


def place_pegs(setup: SetUp, pegs: dict, mesh, materials, rng, steady: bool = False) -> list:
    """Peg objects in their holes, each a little off upright and turned at random; ``steady``:
    the same per hole in every picture of the set-up (a game's pegs that were not moved)."""
    objs = []
    for hole, side in pegs.items():
        if steady:
            rng = np.random.default_rng([setup.spec.seed, zlib.crc32(hole.encode())])
        x, y = setup.layout.holes[hole]
        obj = bpy.data.objects.new(f"peg-{hole}", mesh)
        obj.location = to_world((x, y, 0.0)) + Vector((0, 0, rng.uniform(-0.0003, 0.0003)))
        obj.rotation_euler = (rng.normal(0, 0.01), rng.normal(0, 0.01), rng.uniform(0, 2 * math.pi))
        bpy.context.scene.collection.objects.link(obj)
        obj.active_material = None
        slot_mat = materials[side]
        obj.material_slots  # noqa: B018
        if not obj.data.materials:
            obj.data.materials.append(slot_mat)
        obj.material_slots[0].link = "OBJECT"
        obj.material_slots[0].material = slot_mat
        objs.append(obj)
    return objs


def _capsule(bm, p0, p1, radius, segments=16, radius_end=None):
    """A cylinder with spheres on its ends, p0 -> p1 (world m)."""
    p0, p1 = Vector(p0), Vector(p1)
    radius_end = radius * 0.97 if radius_end is None else radius_end
    d = p1 - p0
    length = d.length
    rot = d.to_track_quat("Z", "Y").to_matrix().to_4x4()
    mat = Matrix.Translation((p0 + p1) / 2) @ rot
    bmesh.ops.create_cone(bm, cap_ends=False, segments=segments, radius1=radius, radius2=radius_end,
                          depth=length, matrix=mat)
    for p, rr in ((p0, radius), (p1, radius_end)):
        bmesh.ops.create_uvsphere(bm, u_segments=segments, v_segments=segments // 2, radius=rr,
                                  matrix=Matrix.Translation(p))


def build_hand(setup: SetUp, rng, pegs: dict, target: str | None = None) -> tuple:
    """A hand taking or putting a peg (hand.py: placed so that it hides holes from the camera),
    its forearm reaching in over the moving player's edge; its solids as Blender meshes."""
    info = place_hand(setup.layout, setup.camera_mm, setup.head_height, pegs, rng, target)
    bm = bmesh.new()
    for s in info["solids"]:
        if "capsule" in s:
            p0, p1 = (to_world(p) for p in s["capsule"])
            r0, r1 = (r / 1000 for r in s["radius"])
            _capsule(bm, p0, p1, r0, 20 if r0 > 0.02 else 16, radius_end=r1)
        else:
            palm = bmesh.ops.create_uvsphere(bm, u_segments=24, v_segments=12, radius=1.0)
            S = np.diag([1.0, -1.0, -1.0]) / 1000.0      # board mm -> world m (y, z flipped)
            cols = S @ np.asarray(s["axes"], float).T     # the semi-axes as world columns
            m = Matrix(((*cols[0], 0.0), (*cols[1], 0.0), (*cols[2], 0.0), (0.0, 0.0, 0.0, 1.0)))
            bmesh.ops.transform(bm, matrix=Matrix.Translation(to_world(s["ellipsoid"])) @ m, verts=palm["verts"])
    for f in bm.faces:
        f.smooth = True
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
    obj = _link_new("hand", bm)
    skin = rng.choice([[0.80, 0.55, 0.42], [0.62, 0.40, 0.28], [0.38, 0.22, 0.14], [0.86, 0.64, 0.52]])
    skin = [float(v) * rng.uniform(0.92, 1.05) for v in skin]
    obj.data.materials.append(_principled("skin", tuple(skin), 0.5, **{"Subsurface Weight": 0.1}))
    return obj, {**info, "skin": [round(v, 3) for v in skin]}


def build_lights(setup: SetUp):
    lamp = setup.lamp
    data = bpy.data.lights.new("lamp", "POINT")
    data.energy = lamp["watts"]
    data.shadow_soft_size = lamp["radius_mm"] / 1000
    data.color = blackbody_rgb(lamp["kelvin"])
    obj = bpy.data.objects.new("lamp", data)
    obj.location = to_world(lamp["position_mm"])
    bpy.context.scene.collection.objects.link(obj)
    win = setup.window
    data = bpy.data.lights.new("window", "AREA")
    data.shape = "RECTANGLE"
    data.size, data.size_y = (v / 1000 for v in win["size_mm"])
    data.energy = win["watts"]
    data.color = blackbody_rgb(win["kelvin"])
    obj = bpy.data.objects.new("window", data)
    obj.location = to_world(win["position_mm"])
    target = to_world((setup.layout.width / 2, setup.layout.height / 2, 0))
    obj.rotation_euler = (target - obj.location).to_track_quat("-Z", "Y").to_euler()
    bpy.context.scene.collection.objects.link(obj)
    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = (*setup.room["colour"], 1.0)
    bg.inputs["Strength"].default_value = setup.room["ambient"]
    bpy.context.scene.world = world


def build_camera(setup: SetUp):
    ww, wh = setup.wide_size
    data = bpy.data.cameras.new("camera")
    data.sensor_fit = "HORIZONTAL"
    data.sensor_width = SENSOR_WIDTH_MM
    fx = setup.K[0, 0]
    data.lens = fx * SENSOR_WIDTH_MM / ww
    data.clip_start = 0.01
    data.clip_end = 20
    data.dof.use_dof = True
    data.dof.focus_distance = setup.focus_mm / 1000
    data.dof.aperture_fstop = data.lens / setup.aperture_mm
    obj = bpy.data.objects.new("camera", data)
    # OpenCV camera axes in the board frame -> Blender camera (x right, y up, looking down -z)
    Rcb = setup.R.T
    S = np.diag([1.0, -1.0, -1.0])               # board -> world axes (and mm -> m below)
    cols = S @ Rcb @ np.diag([1.0, -1.0, -1.0])  # Blender camera axes in world
    m = Matrix(((cols[0, 0], cols[0, 1], cols[0, 2], 0), (cols[1, 0], cols[1, 1], cols[1, 2], 0),
                (cols[2, 0], cols[2, 1], cols[2, 2], 0), (0, 0, 0, 1)))
    obj.matrix_world = Matrix.Translation(to_world(setup.camera_mm)) @ m
    bpy.context.scene.collection.objects.link(obj)
    bpy.context.scene.camera = obj
    return obj


def configure_render(samples: int, threads: int, seed: int, wide_size: tuple):
    sc = bpy.context.scene
    sc.render.engine = "CYCLES"
    sc.cycles.device = "CPU"
    sc.cycles.samples = samples
    sc.cycles.use_adaptive_sampling = True
    sc.cycles.adaptive_threshold = 0.02
    sc.cycles.use_denoising = False
    sc.cycles.use_light_tree = False          # two lights: the tree only costs
    sc.cycles.seed = seed
    sc.cycles.max_bounces = 4
    sc.cycles.diffuse_bounces = 2
    sc.cycles.glossy_bounces = 2
    sc.cycles.transmission_bounces = 1
    sc.cycles.transparent_max_bounces = 2
    sc.cycles.sample_clamp_direct = 10.0      # only the rare direct firefly of a coat highlight
    sc.cycles.sample_clamp_indirect = 3.0     # and of a glossy bounce (a little bias in highlights only)
    sc.cycles.caustics_reflective = False
    sc.cycles.caustics_refractive = False
    sc.cycles.blur_glossy = 1.0
    sc.cycles.pixel_filter_width = 1.2
    sc.render.threads_mode = "FIXED"
    sc.render.threads = threads
    sc.render.resolution_x, sc.render.resolution_y = wide_size
    sc.render.resolution_percentage = 100
    sc.render.use_border = False
    sc.render.film_transparent = False
    sc.view_settings.view_transform = "Standard"
    sc.view_settings.look = "None"
    sc.view_settings.exposure = 0.0
    sc.view_settings.gamma = 1.0
    sc.render.image_settings.file_format = "OPEN_EXR"
    sc.render.image_settings.color_depth = "32"
    sc.render.image_settings.exr_codec = "ZIP"


def reset_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)


# --------------------------------------------------------------------------- camera pipeline

def develop(linear: np.ndarray, setup: SetUp, maps, rng, white_balance=None) -> tuple:
    """Wide linear render (H, W, 3, RGB) -> the camera's JPEG bytes, and what was applied."""
    p = setup.camera_pipeline
    img = cv2.remap(linear.astype(np.float32), maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    h, w = img.shape[:2]
    K = setup.K
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - K[0, 2]) ** 2 + (yy - K[1, 2]) ** 2) / (0.5 * math.hypot(w, h)) ** 2
    img *= (1 - p["vignetting"] * r2)[..., None]
    lum = img @ np.array([0.2126, 0.7152, 0.0722], np.float32)
    centre = lum[h // 5: 4 * h // 5, w // 5: 4 * w // 5]
    exposure = p["exposure_target"] / max(float(np.percentile(centre, p["exposure_percentile"])), 1e-6)
    img *= exposure
    if white_balance is None:     # auto white balance on every picture: grey world, partly applied
        mean = img.reshape(-1, 3).mean(0)
        full = mean.mean() / np.maximum(mean, 1e-6)
        white_balance = full ** p["white_balance_strength"]
    sig = np.clip(img, 0, None)
    noise = np.sqrt(p["shot_noise"] * sig + p["read_noise"] ** 2).astype(np.float32)
    img = img + noise * rng.standard_normal(img.shape).astype(np.float32)
    img *= np.asarray(white_balance, np.float32)[None, None, :]
    img = np.clip(img, 0, 1)
    srgb = np.where(img <= 0.0031308, img * 12.92, 1.055 * np.power(img, 1 / 2.4) - 0.055)
    out = (np.clip(srgb, 0, 1) * 255 + 0.5).astype(np.uint8)[..., ::-1]
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, p["jpeg_quality"]])
    assert ok
    return buf.tobytes(), {"exposure_gain": round(float(exposure), 4),
                           "white_balance_gains_rgb": [round(float(v), 4) for v in white_balance]}


# --------------------------------------------------------------------------- one set-up

def camera_truth(setup: SetUp) -> dict:
    rvec = cv2.Rodrigues(setup.R)[0].ravel()
    K = setup.K
    return {"image_size": list(IMAGE_SIZE), "K": [[round(float(v), 4) for v in row] for row in K],
            "k1": round(setup.k1, 6), "k2": round(setup.k2, 6), "dist": [round(setup.k1, 6), round(setup.k2, 6), 0, 0, 0],
            "rvec": [round(float(v), 8) for v in rvec], "tvec_mm": [round(float(v), 4) for v in setup.t],
            "R": [[round(float(v), 8) for v in row] for row in setup.R],
            "position_mm": [round(float(v), 3) for v in setup.camera_mm],
            "height_mm": round(float(-setup.camera_mm[2]), 2), "tilt_deg": round(setup.tilt, 3),
            "hfov_deg": round(2 * math.degrees(math.atan(IMAGE_SIZE[0] / 2 / K[0, 0])), 2),
            "focus_mm": round(setup.focus_mm, 1), "aperture_mm": round(setup.aperture_mm, 3),
            "wide_render_size": list(setup.wide_size)}


def check_projection(setup: SetUp) -> None:
    """The recorded pose and lens project like OpenCV does (the truth is self-consistent)."""
    pts = np.array([(x, y, -setup.head_height) for x, y in list(setup.layout.holes.values())[:20]])
    mine = project(pts, setup.R, setup.t, setup.K, setup.k1, setup.k2)
    cv, _ = cv2.projectPoints(pts, cv2.Rodrigues(setup.R)[0], setup.t, setup.K,
                              np.array([setup.k1, setup.k2, 0, 0, 0]))
    err = np.abs(cv.reshape(-1, 2) - mine).max()
    assert err < 1e-6, err


class SetUpRenderer:
    """Renders the pictures of one set-up into ``out/<name>/``."""

    def __init__(self, spec: SetUpSpec, out: Path, samples: int, threads: int = 1):
        self.spec = spec
        self.setup = draw_setup(spec)
        check_projection(self.setup)
        self.samples = samples
        self.threads = threads
        self.dir = Path(out) / spec.name
        self.dir.mkdir(parents=True, exist_ok=True)
        self.tmp = Path(tempfile.mkdtemp(prefix=f"pt-{spec.name}-"))
        self.rng = np.random.default_rng(spec.seed + 17)
        reset_scene()
        self.top_png, self.wood_png, self.template_sha = board_images(self.setup, self.tmp)
        self.board_info = build_board(self.setup, self.top_png, self.wood_png, self.rng)
        build_table(self.setup)
        build_lights(self.setup)
        build_camera(self.setup)
        self.peg_mesh = peg_mesh(self.setup.head_height, self.setup.layout.hole_diameter)
        self.materials = peg_materials(self.setup, self.rng)
        self.peg_finish = {s: {"roughness": round(float(m.node_tree.nodes["Principled BSDF"].inputs["Roughness"]
                                                         .default_value), 3)} for s, m in self.materials.items()}
        K_wide = np.array([[self.setup.K[0, 0], 0, (self.setup.wide_size[0] - 1) / 2],
                           [0, self.setup.K[0, 0], (self.setup.wide_size[1] - 1) / 2], [0, 0, 1]])
        self.maps = distortion_maps(self.setup.K, self.setup.k1, self.setup.k2, IMAGE_SIZE, K_wide)
        self.layout_file = self.dir / "layout.json"
        self.setup.layout.save(self.layout_file)
        self.count = 0
        self.steady_pegs = False
        self.last_linear = None

    margin_mm = 70.0      # round a changed hole: a head's shadow under the window (15 deg up) is 60 mm long

    def regions(self, holes) -> list:
        """Boxes (x0, y0, x1, y1) of the wide render that cover ``holes`` with ``margin_mm``
        round each, from the board up to above the heads; overlapping boxes merged."""
        s = self.setup
        ww, wh = s.wide_size
        f = s.K[0, 0]
        ang = np.linspace(0, 2 * math.pi, 24, endpoint=False)
        boxes = []
        for h in holes:
            x, y = s.layout.holes[h]
            ring = np.stack([x + self.margin_mm * np.cos(ang), y + self.margin_mm * np.sin(ang)], -1)
            pts = np.concatenate([np.column_stack([ring, np.full(len(ring), z)]) for z in (0.0, -s.head_height - 3)])
            p = pts @ s.R.T + s.t
            u = f * p[:, 0] / p[:, 2] + (ww - 1) / 2
            v = f * p[:, 1] / p[:, 2] + (wh - 1) / 2
            boxes.append([max(0, int(u.min()) - 2), max(0, int(v.min()) - 2),
                          min(ww, int(math.ceil(u.max())) + 3), min(wh, int(math.ceil(v.max())) + 3)])
        merged = True
        while merged:
            merged = False
            for i in range(len(boxes)):
                for j in range(i + 1, len(boxes)):
                    a, b = boxes[i], boxes[j]
                    if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                        boxes[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                        del boxes[j]
                        merged = True
                        break
                if merged:
                    break
        return [tuple(b) for b in boxes]

    def _render_exr(self, name: str, box=None) -> tuple:
        """Trace the wide picture (or only ``box`` of it, x0, y0, x1, y1 from the top left):
        (linear RGB float32 (H, W, 3), top row first; seconds)."""
        sc = bpy.context.scene
        ww, wh = self.setup.wide_size
        if box is not None:
            # a few pixels more than the box: the pixel filter of the border's edge
            x0, y0, x1, y1 = max(0, box[0] - 4), max(0, box[1] - 4), min(ww, box[2] + 4), min(wh, box[3] + 4)
            sc.render.use_border = True
            sc.render.use_crop_to_border = False
            sc.render.border_min_x, sc.render.border_max_x = x0 / ww, x1 / ww
            sc.render.border_min_y, sc.render.border_max_y = (wh - y1) / wh, (wh - y0) / wh
        else:
            sc.render.use_border = False
        exr = self.tmp / f"{name}.exr"
        sc.render.filepath = str(exr)
        t0 = time.perf_counter()
        bpy.ops.render.render(write_still=True)
        seconds = time.perf_counter() - t0
        img = bpy.data.images.load(str(exr))
        w, h = img.size
        px = np.empty(w * h * 4, np.float32)
        img.pixels.foreach_get(px)
        bpy.data.images.remove(img)
        exr.unlink()
        sc.render.use_border = False
        return px.reshape(h, w, 4)[::-1, :, :3].copy(), seconds

    def render(self, kind: str, pegs: dict, name: str, hand: bool = False, base=None, changed=(),
               extra: dict | None = None, hand_target: str | None = None) -> dict:
        """Render one picture (kind: calibration | empty | position | hand | move); returns its
        truth. ``base``: (name, linear wide render) of the same set-up with the pegs before a
        move, and ``changed`` the holes the move changed: only those are traced again.
        ``extra``: more fields for the truth (a game's move); ``hand_target``: the hole the
        hand takes a peg from or puts one in (else hand.py draws one)."""
        seed = int(self.spec.seed * 1000 + self.count)     # render_set.picture_seed
        self.count += 1
        rng = np.random.default_rng(seed)        # the same picture whatever was rendered before
        objs = place_pegs(self.setup, pegs, self.peg_mesh, self.materials, rng, self.steady_pegs)
        # the hand from a generator of its own: the tests draw the same hand without Blender
        hand_obj, hand_info = (build_hand(self.setup, np.random.default_rng([seed, HAND_STREAM]), pegs, hand_target)
                               if hand else (None, None))
        configure_render(self.samples, self.threads, seed, self.setup.wide_size)
        if base is None:
            linear, seconds = self._render_exr(name)
            region = None
        else:
            # a game's next picture: only what the move changed is traced again (each changed
            # hole with its shadows and reflections, ``margin_mm`` round it); the rest is the
            # previous picture's render of the same scene. The camera's noise, exposure and
            # white balance are applied afresh below, as a camera does every frame.
            base_name, base_linear = base
            linear = base_linear.copy()
            boxes = self.regions(changed)
            seconds = 0.0
            for x0, y0, x1, y1 in boxes:
                part, sec = self._render_exr(name, (x0, y0, x1, y1))
                linear[y0:y1, x0:x1] = part[y0:y1, x0:x1]
                seconds += sec
            ww, wh = self.setup.wide_size
            region = {"base": base_name, "changed_holes": sorted(changed), "margin_mm": self.margin_mm,
                      "boxes": [list(b) for b in boxes],
                      "fraction": round(sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes) / (ww * wh), 4)}
        self.last_linear = linear
        jpeg, applied = develop(linear, self.setup, self.maps, rng)
        (self.dir / f"{name}.jpg").write_bytes(jpeg)
        for o in objs:
            bpy.data.objects.remove(o)
        if hand_obj is not None:
            mesh = hand_obj.data
            bpy.data.objects.remove(hand_obj)
            bpy.data.meshes.remove(mesh)
        s = self.setup
        truth = {
            "format": FORMAT, "setup": self.spec.name, "picture": f"{name}.jpg", "kind": kind,
            "layout": "layout.json", "layout_fingerprint": s.layout.fingerprint(),
            "board": {"sides": s.layout.sides, "holes_per_side": s.layout.holes_per_side, "pitch_mm": s.layout.pitch,
                      "hole_diameter_mm": s.layout.hole_diameter, **self.board_info,
                      "template_sha1": self.template_sha, "template_px_per_mm": TEMPLATE_PX_PER_MM},
            "pegs": {h_: int(side) for h_, side in sorted(pegs.items())},
            "colours": {str(i): c for i, c in enumerate(self.spec.colours)},
            "peg": {"head_height_mm": round(s.head_height, 3), "head_diameter_mm": HEAD_DIAMETER_MM,
                    "shaft_diameter_mm": s.layout.hole_diameter - 0.6, "finish": self.spec.finish,
                    "materials": {str(k): v for k, v in self.peg_finish.items()}},
            "camera": camera_truth(s),
            "lighting": {"lamp": s.lamp, "window": s.window, "room": s.room},
            "hand": hand_info,
            **(extra or {}),
            "render": {"region": region, "engine": "cycles-cpu", "blender": bpy.app.version_string, "samples": self.samples,
                       "adaptive_threshold": 0.02, "denoiser": None, "threads": self.threads, "seed": seed,
                       "seconds": round(seconds, 1), "pipeline": {**s.camera_pipeline, **applied}},
        }
        (self.dir / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
        return truth


__all__ = ["SetUpSpec", "SetUpRenderer", "draw_setup", "IMAGE_SIZE", "FORMAT"]
