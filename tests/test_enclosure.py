"""The enclosure, checked by a real CAD run: Debian's openscad renders each part of
hardware/enclosure/layerlight.scad to STL, and the meshes are checked with trimesh on
manifold3d's booleans (both pinned in requirements.txt).

The parts are rendered once per test run (a session fixture) and kept under
build/enclosure/, keyed by the hash of the .scad file and the options, so a second run
does not render again. The part models below (the Pico H with its headers and its
cable, the USB-C breakout and its cable, the perfboard, the buttons) are the
datasheets' sizes, written here and not read from the .scad: the test checks the box
against the parts, and only takes from the .scad where it puts each one (its ECHO
lines, `layout_*`).
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import trimesh

from layerlight_tools import firmware_files

REPO = firmware_files.REPO
SCAD = os.path.join(REPO, "hardware", "enclosure", "layerlight.scad")
CACHE = os.path.join(REPO, "build", "enclosure")
OPENSCAD = os.environ.get("LAYERLIGHT_OPENSCAD", "openscad")

# what the tests render: (name, part, cells)
RENDERS = [("base8", "base", 8), ("base16", "base", 16), ("lid16", "lid", 16), ("base32", "base", 32)]

# --- the parts, from their datasheets ---------------------------------------------------------
PLAYER_BUTTON = 30.0   # Sanwa OBSF-30: 30 mm mounting hole
CONTROL_BUTTON = 24.0  # Sanwa OBSF-24: 24 mm mounting hole
# Raspberry Pi Pico datasheet, "Mechanical specification": 51 x 21 x 1 mm board, pin rows
# 17.78 mm apart; the micro-USB receptacle overhangs the short edge by 1.3 mm. Pico H: the
# male headers' plastic (2.54 mm wide) and pins stand 8.5 mm below the board.
PICO = (21.0, 51.0, 1.0)
PICO_ROWS = 17.78
PICO_HEADER = (2.54, 50.8, 8.5)
# The builder's wires go onto the header pins with female jumper leads: a 2.54 mm crimp housing
# is about 14 mm long, and the wire leaving it needs a few mm to bend away.
JUMPER_HOUSING = 14.0
WIRE_BEND = 5.0
MICRO_USB = (8.0, 5.5, 3.0)    # the receptacle: width, depth, height above the board
# Makers Making Change, OpenAT design guide, "USB Connector": a cable's overmould (the
# keep-out) is 12 x 8 mm for micro USB and 12 x 6 mm for USB-C, and stops 1.9 mm (micro USB)
# and 2 mm (USB-C) before the receptacle's mouth; the USB Type-C specification's largest plug
# overmould is 12.35 x 6.5 mm.
MICRO_USB_PLUG = (12.0, 8.0, 1.9)
USB_C_PLUG = (12.35, 6.5, 2.0)
USB_C = (8.94, 7.35, 3.26)     # the receptacle: width, depth, height
DIFFUSER_T = 3.0               # the BOM's 3 mm opal acrylic
BREAKOUT = (15.3, 19.3, 1.6)   # Adafruit 4090, as the .scad's `breakout`
PERFBOARD = (70.0, 50.0, 1.6)  # 5 x 7 cm FR-4
PERF_PARTS = 15.0              # the tallest part on it (the DIP socket, terminal blocks)
PERF_TAILS = 2.5               # leads and solder joints under it
DC_JACK = 8.0                  # the BOM's panel-mount 5.5 x 2.1 mm jack: M8 thread
FUSE_HOLDER = 12.0             # the BOM's panel-mount 5 x 20 mm fuse holder: M12 thread
BUTTON_BODY = 6.0              # a button's housing and microswitch beyond its hole, across
BUTTON_DEPTH = 48.0            # and under its panel, with the crimped wires on its microswitch


# --- rendering ------------------------------------------------------------------------------------

def _openscad_version():
    try:
        out = subprocess.run([OPENSCAD, "--version"], capture_output=True, text=True, timeout=60)
    except OSError:
        return None
    return (out.stdout + out.stderr).strip()


def parse_layout(text):
    """{name: value} of the `layout_*` values in openscad's ECHO lines."""
    layout = {}
    for line in text.splitlines():
        if not line.startswith("ECHO: "):
            continue
        body = line[len("ECHO: "):]
        marks = list(re.finditer(r"(?:^|, )(layout_\w+) = ", body))
        for m, nxt in zip(marks, marks[1:] + [None]):
            value = body[m.end():nxt.start() if nxt else len(body)]
            layout[m.group(1)[len("layout_"):]] = json.loads(value)
    return layout


def render(part, cells, version):
    """(its folder, (mesh, layout)) of one part, from build/enclosure/ when the .scad has not changed."""
    with open(SCAD, "rb") as f:
        source = f.read()
    key = hashlib.sha256(source + repr((part, cells, version)).encode()).hexdigest()[:20]
    folder = os.path.join(CACHE, key)
    stl, layout_path = os.path.join(folder, "part.stl"), os.path.join(folder, "layout.json")
    if not os.path.exists(layout_path):
        os.makedirs(folder, exist_ok=True)
        run = subprocess.run([OPENSCAD, "-o", stl, "-D", 'part="%s"' % part, "-D", "cells=%d" % cells, SCAD],
                             capture_output=True, text=True, timeout=1800)
        if run.returncode != 0 or not os.path.exists(stl):
            raise AssertionError("openscad failed on %s (cells=%d):\n%s" % (part, cells, run.stderr[-2000:]))
        tmp = layout_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(parse_layout(run.stderr), f)
        os.replace(tmp, layout_path)
    with open(layout_path) as f:
        layout = json.load(f)
    return folder, (trimesh.load(stl, force="mesh"), layout)


@pytest.fixture(scope="session")
def parts():
    version = _openscad_version()
    if version is None:
        pytest.fail("%s is not on PATH: `make test` installs it (apt-get install openscad)" % OPENSCAD)
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = list(pool.map(lambda r: render(r[1], r[2], version), RENDERS))
    # the renders of an older .scad are not needed any more
    keep = {folder for folder, _ in done}
    for name in os.listdir(CACHE):
        if os.path.join(CACHE, name) not in keep:
            shutil.rmtree(os.path.join(CACHE, name), ignore_errors=True)
    return {name: result for (name, _, _), (_, result) in zip(RENDERS, done)}


# --- geometry helpers -------------------------------------------------------------------------------

def box(lo, hi):
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    return trimesh.creation.box(extents=hi - lo, transform=trimesh.transformations.translation_matrix((lo + hi) / 2))


def centred_box(centre, size):
    c, s = np.asarray(centre, float), np.asarray(size, float)
    return box(c - s / 2, c + s / 2)


def cylinder(d, p0, p1):
    return trimesh.creation.cylinder(radius=d / 2, segment=[p0, p1], sections=48)


def overlap(mesh, *solids):
    """mm3 of the solids inside the mesh (manifold3d's intersection)."""
    total = 0.0
    for s in solids:
        inter = trimesh.boolean.intersection([mesh, s], engine="manifold")
        if len(inter.faces):
            with np.errstate(all="ignore"):
                total += abs(inter.volume)
    return total


def moved(solids, offset):
    return [s.copy().apply_translation(offset) for s in solids]


def hole_diameters(mesh, origin, normal, centres, radius):
    """The diameter of the hole around each centre, from the mesh's section through the wall:
    the mean distance from the centre of the section's vertices within radius (openscad puts
    a circle's vertices on the circle)."""
    segments = trimesh.intersections.mesh_plane(mesh, plane_normal=normal, plane_origin=origin)
    assert len(segments), "no wall at %s" % (origin,)
    axes = [i for i in range(3) if not normal[i]]
    v = np.unique(np.round(segments.reshape(-1, 3), 6), axis=0)[:, axes]
    out = []
    for c in centres:
        d = np.hypot(v[:, 0] - c[0], v[:, 1] - c[1])
        near = d[d < radius]
        out.append(2 * near.mean() if len(near) >= 16 else 0.0)
    return out


def button_bodies(layout):
    """What the buttons take inside the box: under each player hole down to the floor (the
    microswitch, the crimped wires on its tabs, and a hand to reach them), behind A and B."""
    top, depth, inner = layout["height"], BUTTON_DEPTH, layout["inner"]
    bodies = [cylinder(layout["player_hole"] + BUTTON_BODY, [x, y, 0], [x, y, top])
              for x, y in layout["player_holes"]]
    bodies += [cylinder(layout["control_hole"] + BUTTON_BODY, [x, -inner, z], [x, -inner + depth, z])
               for x, z in layout["control_holes"]]
    return bodies


def pico(layout):
    """A Pico H where the .scad puts it: board, headers with jumper leads on them, receptacle, and
    the micro-USB cable."""
    x, y, z = layout["pico"]
    w, l, t = PICO
    board = centred_box([x, y, z + t / 2], PICO)
    headers = [box([x + sx * PICO_ROWS / 2 - PICO_HEADER[0] / 2, y - PICO_HEADER[1] / 2, z - PICO_HEADER[2]],
                   [x + sx * PICO_ROWS / 2 + PICO_HEADER[0] / 2, y + PICO_HEADER[1] / 2, z]) for sx in (-1, 1)]
    # the jumper leads on every pin, and the room their wires bend away in
    below = z - PICO_HEADER[2]
    headers += [box([x + sx * PICO_ROWS / 2 - PICO_HEADER[0] / 2, y - PICO_HEADER[1] / 2,
                     below - JUMPER_HOUSING - WIRE_BEND],
                    [x + sx * PICO_ROWS / 2 + PICO_HEADER[0] / 2, y + PICO_HEADER[1] / 2, below]) for sx in (-1, 1)]
    mouth = y - l / 2 - 1.3
    rw, rd, rh = MICRO_USB
    receptacle = box([x - rw / 2, mouth, z + t], [x + rw / 2, mouth + rd, z + t + rh])
    centre_z = z + t + rh / 2
    pw, ph, gap = MICRO_USB_PLUG
    shell = box([x - 3.5, mouth - gap, centre_z - 1], [x + 3.5, mouth, centre_z + 1])
    overmould = box([x - pw / 2, mouth - gap - 30, centre_z - ph / 2], [x + pw / 2, mouth - gap, centre_z + ph / 2])
    return [board] + headers + [receptacle], [shell, overmould]


def breakout(layout):
    """The USB-C breakout where the .scad puts it, and a USB-C cable in it."""
    x, y, z = layout["breakout"]
    w, l, t = BREAKOUT
    board = box([x - w / 2, y - l / 2, z], [x + w / 2, y + l / 2, z + t])
    mouth = y + l / 2
    rw, rd, rh = USB_C
    receptacle = box([x - rw / 2, mouth - rd, z + t], [x + rw / 2, mouth, z + t + rh])
    centre_z = z + t + rh / 2
    pw, ph, gap = USB_C_PLUG
    shell = box([x - 4.1, mouth, centre_z - 1.2], [x + 4.1, mouth + gap, centre_z + 1.2])
    overmould = box([x - pw / 2, mouth + gap, centre_z - ph / 2], [x + pw / 2, mouth + gap + 30, centre_z + ph / 2])
    return [board, receptacle], [shell, overmould]


def perfboard(layout):
    x, y, z = layout["perfboard"]
    w, l, t = PERFBOARD
    board = box([x - w / 2, y - l / 2, z], [x + w / 2, y + l / 2, z + t])
    on_top = box([x - w / 2 + 1, y - l / 2 + 1, z + t], [x + w / 2 - 1, y + l / 2 - 1, z + t + PERF_PARTS])
    # the leads under it, clear of the corners it rests on
    tails = box([x - w / 2 + 8, y - l / 2 + 8, z - PERF_TAILS], [x + w / 2 - 8, y + l / 2 - 8, z])
    return [board, on_top, tails]


# --- the tests ------------------------------------------------------------------------------------------

def test_each_part_renders_on_its_own_as_a_printable_solid(parts):
    for name, (mesh, layout) in parts.items():
        assert mesh.is_watertight and mesh.is_volume, "%s is not a closed solid" % name
        assert mesh.volume > 10000, name
        assert layout["tolerance"] >= 0.1, "no printing tolerance on the holes"


def test_the_lid_closes_on_the_base(parts):
    base, layout = parts["base16"]
    lid, _ = parts["lid16"]
    closed = lid.copy().apply_translation([0, 0, layout["lid_z"]])
    assert overlap(base, closed) < 1.0, "the lid runs into the base when closed (its lip through the screw posts?)"
    # and its lip locates it: pushed 1 mm sideways, the lip meets the wall
    assert overlap(base, closed.copy().apply_translation([1.0, 0, 0])) > 10.0, "no lip locates the lid"


def test_the_diffuser_sits_in_the_lid_on_the_grid(parts):
    """The 3 mm opal sheet (the BOM's) fits the lid's rebate, the lid's ledge holds it, and it
    rests on the light grid: a gap between them would let each LED light its neighbours' cells."""
    lid, layout = parts["lid16"]
    width, thick = layout["diffuser"]
    assert thick == DIFFUSER_T and width >= layout["panel"]
    closed = lid.copy().apply_translation([0, 0, layout["lid_z"]])
    sheet = centred_box([0, 0, layout["lid_z"] + thick / 2], [width, width, thick])
    assert overlap(closed, sheet) < 0.01, "the diffuser does not fit the lid's rebate"
    assert overlap(closed, sheet.copy().apply_translation([0, 0, 0.3])) > 0, "nothing in the lid holds the diffuser"
    assert layout["grid_top"] == pytest.approx(layout["lid_z"], abs=0.05), \
        "%.1f mm between the grid and the diffuser" % (layout["lid_z"] - layout["grid_top"])


def test_button_holes_are_the_datasheet_size_plus_the_tolerance(parts):
    lid, layout = parts["lid16"]
    tol = layout["tolerance"]
    assert 0.1 <= tol <= 0.8
    measured = hole_diameters(lid, [0, 0, layout["top_t"] / 2], [0, 0, 1], layout["player_holes"],
                              PLAYER_BUTTON / 2 + 2)
    for d in measured:
        assert d == pytest.approx(PLAYER_BUTTON + tol, abs=0.05), "player button hole %.2f mm" % d
    base, layout = parts["base16"]
    wall_y = -layout["outer"] / 2 + layout["wall"] / 2
    measured = hole_diameters(base, [0, wall_y, 0], [0, 1, 0], layout["control_holes"], CONTROL_BUTTON / 2 + 2)
    for d in measured:
        assert d == pytest.approx(CONTROL_BUTTON + tol, abs=0.05), "A/B button hole %.2f mm" % d


def matrix_stack(layout):
    """The panel on its bed and the light grid on it, up to the closed lid."""
    half = layout["panel"] / 2
    return box([-half, -half, layout["bed_z"]], [half, half, layout["grid_top"]])


@pytest.mark.parametrize("name", ["base8", "base16", "base32"])
def test_the_panel_and_the_grid_are_held_under_the_window(parts, name):
    """The panel on its bed and the grid on the panel fit, and a rim keeps them from sliding:
    an LED that slides under its neighbour's cell lights the wrong square."""
    base, layout = parts[name]
    stack = matrix_stack(layout)
    assert overlap(base, stack) < 0.01, "the panel or the grid runs into the box"
    assert overlap(base, stack.copy().apply_translation([0, 0, -0.3])) > 0, "nothing holds the panel up"
    for offset in ([0.6, 0, 0], [-0.6, 0, 0], [0, 0.6, 0], [0, -0.6, 0]):
        assert overlap(base, stack.copy().apply_translation(offset)) > 0, "nothing keeps the panel from sliding %s" % offset


@pytest.mark.parametrize("name", ["base8", "base16", "base32"])
def test_the_din_corner_is_marked_where_a_builder_sees_it(parts, name):
    """ASSEMBLY.md: "put the panel's DIN corner there (the bed of the enclosure marks it)". The
    mark is top-left as seen from P1 (the firmware's default origin), inside the bed, and really
    cut into the print: the section just under the floor's top has the letters' outlines there."""
    base, layout = parts[name]
    x, y = layout["din_mark"]
    half = layout["panel"] / 2
    assert x < 0 < y, "the DIN mark is not in the top-left corner as seen from P1"
    segments = trimesh.intersections.mesh_plane(base, plane_normal=[0, 0, 1],
                                                plane_origin=[0, 0, layout["floor_t"] - 0.3])
    v = np.unique(np.round(segments.reshape(-1, 3), 4), axis=0)
    near = v[(abs(v[:, 0] - x) < 12) & (abs(v[:, 1] - y) < 5)]
    assert len(near) > 20, "no DIN mark cut into the floor at %s" % ((x, y),)
    assert abs(x) + 12 <= half - 4 and abs(y) + 5 <= half - 4, "the mark is under the bed's wall"


@pytest.mark.parametrize("name", ["base8", "base16", "base32"])
def test_every_button_has_room_for_its_microswitch(parts, name):
    """Under the lid each player button, behind the front wall A and B: the housing and the
    microswitch with its crimped wires (BUTTON_DEPTH) meet neither the box nor the matrix."""
    base, layout = parts[name]
    inner, lid_z = layout["inner"], layout["lid_z"]
    for x, y in layout["player_holes"]:
        body = cylinder(layout["player_hole"] + BUTTON_BODY, [x, y, lid_z - BUTTON_DEPTH], [x, y, lid_z - 0.01])
        assert overlap(base, body) < 0.01, "the button at %s runs into the box" % ((x, y),)
        assert overlap(matrix_stack(layout), body) < 0.01, "the button at %s runs into the matrix" % ((x, y),)
    for x, z in layout["control_holes"]:
        # from the wall's inside face (the hole in the wall is the button's own)
        body = cylinder(layout["control_hole"] + BUTTON_BODY, [x, -inner + 0.01, z], [x, -inner + BUTTON_DEPTH, z])
        assert overlap(base, body) < 0.01, "the A/B button at x=%g runs into the box (the bed's wall?)" % x
        assert overlap(matrix_stack(layout), body) < 0.01, "the A/B button at x=%g runs into the matrix" % x


@pytest.mark.parametrize("name", ["base8", "base16", "base32"])
def test_the_pico_h_has_a_place_and_its_usb_cable_a_way_in(parts, name):
    base, layout = parts[name]
    board, cable = pico(layout)
    assert overlap(base, *board) < 0.01, "the Pico H (board, headers and their jumper leads, receptacle) runs into the box"
    assert overlap(base, *cable) < 0.01, "the micro-USB cable's plug does not get through the front wall"
    assert overlap(base, *moved(board[:1], [0, 0, -0.3])) > 0, "nothing holds the Pico up"
    bodies = button_bodies(layout)
    for b in bodies:
        assert overlap(b, *board) < 0.01, "the Pico sits under a button"


@pytest.mark.parametrize("name", ["base8", "base16"])
def test_the_usb_c_breakout_has_a_pocket_and_its_cable_a_way_in(parts, name):
    base, layout = parts[name]
    board, cable = breakout(layout)
    assert overlap(base, *board) < 0.01, "the USB-C breakout runs into the box"
    assert overlap(base, *cable) < 0.01, "a USB-C cable's plug does not get through the back wall"
    # held: down, back (the plug's push) and sideways it meets its pocket
    for offset in ([0, 0, -0.3], [0, -0.6, 0], [0.6, 0, 0], [-0.6, 0, 0]):
        assert overlap(base, *moved(board[:1], offset)) > 0, "nothing holds the breakout %s" % offset
    for b in button_bodies(layout):
        assert overlap(b, *board) < 0.01, "the breakout sits under a button"


@pytest.mark.parametrize("name", ["base8", "base16", "base32"])
def test_the_perfboard_has_a_cradle(parts, name):
    base, layout = parts[name]
    solids = perfboard(layout)
    assert overlap(base, *solids) < 0.01, "the perfboard or its parts run into the box"
    for offset in ([0, 0, -0.3], [0.6, 0, 0], [-0.6, 0, 0], [0, 0.6, 0], [0, -0.6, 0]):
        assert overlap(base, *moved(solids[:1], offset)) > 0, "nothing holds the perfboard %s" % offset
    for b in button_bodies(layout):
        assert overlap(b, *solids) < 0.01, "the perfboard sits under a button"


def test_the_32x32_box_has_its_dc_jack_and_fuse(parts):
    base, layout = parts["base32"]
    tol = layout["tolerance"]
    assert layout["dc_in"] is True
    wall_y = layout["outer"] / 2 - layout["wall"] / 2
    jack, fuse = hole_diameters(base, [0, wall_y, 0], [0, 1, 0], [layout["dc_jack"], layout["fuse"]], FUSE_HOLDER / 2 + 1)
    assert jack == pytest.approx(DC_JACK + tol, abs=0.05), "DC jack hole %.2f mm" % jack
    assert fuse == pytest.approx(FUSE_HOLDER + tol, abs=0.05), "fuse holder hole %.2f mm" % fuse
    # the 16x16 box takes its power through the USB-C breakout instead
    _, layout16 = parts["base16"]
    assert layout16["dc_in"] is False


def test_parse_layout_reads_openscad_echo_lines():
    text = ('ECHO: layout_lid_z = 61, layout_pico = [96.5, -93, 13]\n'
            'WARNING: something\nECHO: layout_dc_in = false, layout_holes = [[0, -102], [1, 2]]\n')
    assert parse_layout(text) == {"lid_z": 61, "pico": [96.5, -93, 13], "dc_in": False, "holes": [[0, -102], [1, 2]]}


def test_the_makefile_installs_openscad_for_the_tests():
    with open(os.path.join(REPO, "Makefile"), encoding="utf-8") as f:
        make = f.read()
    assert re.search(r"^test: .*\$\(OPENSCAD\)", make, re.M)
    assert "apt-get install -y openscad" in make
    with open(os.path.join(REPO, "requirements.txt"), encoding="utf-8") as f:
        reqs = f.read()
    assert re.search(r"^trimesh==", reqs, re.M) and re.search(r"^manifold3d==", reqs, re.M)
    assert shutil.which(OPENSCAD) or os.path.exists(OPENSCAD)
