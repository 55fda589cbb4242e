// Layerlight enclosure: a parametric model of the box for the 8x8, 16x16 and 32x32 builds.
//
// A square box for the middle of the table. The matrix sits under a light
// grid and an opal diffuser in the lid; each player's 30 mm button sits in
// the middle of the border in front of their seat (P1 front, P2 left, P3
// back, P4 right, as the firmware's screens face them); A and B are 24 mm
// buttons in the front wall, below the matrix's bed. Inside: the Pico H on
// posts in P4's border, high enough for jumper leads on its headers (its
// micro-USB plug through the front wall), the perfboard in a cradle
// under the matrix's bed, the USB-C power breakout in a pocket at the back
// wall (8x8, 16x16) or the DC jack and the fuse holder in the back wall
// (32x32). The piezo speaks through the floor.
//
// Parts to print: part = "base", "lid", "grid" (render each to STL on its
// own, e.g. openscad -D 'part="lid"' -D cells=32 -o lid.stl layerlight.scad),
// "assembly" for the picture, or "inside" for the open box with its boards.
// `make hardware` renders preview.png, inside.png and inside-32x32.png with
// Debian's openscad; tests/test_enclosure.py renders the parts and checks
// that they fit. Units: mm. Axes: x to P4 (right), y to P3 (back), z up.

/* [Matrix] */
cells = 16;             // LEDs per side: 8, 16, or 32 (four 16x16 panels)
pitch = 10;             // LED pitch of the panel
panel_t = 2.5;          // flexible panel with its backing plate
/* [Box] */
border = 44;            // room around the matrix for the player buttons
wall = 3;
floor_t = 3;
top_t = 4;
inside_h = 58;          // arcade buttons with microswitches need ~48 mm under the lid
corner_r = 8;
post_d = 10;            // the lid's screw posts (M3 x 12 into 2.5 mm holes)
lip_h = 3;              // the lid's locating lip, inside the walls
lip_w = 2;
/* [Light path] */
diffuser_t = 3;         // opal acrylic, in a rebate under the lid's window (a 1 mm ledge over its edge)
diffuser_w = cells * pitch + 6;  // cut to this square (the BOM's diffuser row); the rebate adds `fit`
grid_h = 12;            // light grid between the LEDs and the diffuser: crisp pixels
grid_wall = 0.8;
/* [Printing] */
tolerance = 0.4;        // added to every hole a part goes through: FDM prints holes
                        // 0.2-0.5 mm undersize; print a test hole and adjust
fit = 0.3;              // gap around a board in its pocket, and between lid and base
/* [Buttons] */
player_button = 30;     // Sanwa OBSF-30 (BOM): 30 mm mounting hole (Sanwa's drawing)
control_button = 24;    // Sanwa OBSF-24 (BOM): 24 mm mounting hole (Sanwa's drawing)
button_depth = 48;      // what a button with its microswitch takes under its panel
button_body = 6;        // and how much wider than its hole, across (housing, microswitch, crimps)
control_gap = min(80, cells * pitch / 2);  // distance between A and B in the front wall
/* [Raspberry Pi Pico H] */
// Raspberry Pi Pico datasheet, "Mechanical specification": 51 x 21 x 1 mm, mounting
// holes 11.4 x 47 mm apart, the two pin rows 17.78 mm apart, the micro-USB
// receptacle over the short edge by 1.3 mm. A Pico H's headers stand 8.5 mm below.
pico_holes = [11.4, 47];
pico_l = 51;
pico_header = 8.5;
// The wires go onto the header pins with female jumper leads: a 2.54 mm crimp housing is about
// 14 mm long (measure yours), and its wire needs room to bend away under it.
jumper_housing = 14;
wire_bend = 5;
pico_standoff = pico_header + jumper_housing + wire_bend;  // above the floor: 27.5 mm
pico_post_d = 3.6;      // fits between a hole (5.7 off the middle) and a header (from 7.62)
pico_web = 1.6;         // joins the two posts on each side: a 27 mm post alone would wobble
usb_plug_gap = 1.2;     // from the inside of the wall to the receptacle's mouth
// The cables' overmoulds, the openings' sizes (Makers Making Change, OpenAT design
// guide, "USB Connector": keep-out micro USB 12 x 8 mm, USB-C 12 x 6 mm; the USB
// Type-C specification's largest plug overmould is 12.35 x 6.5 mm)
micro_usb_plug = [12, 8];
usb_c_plug = [12.35, 6.5];
/* [USB-C power breakout (Adafruit 4090), 8x8 and 16x16] */
breakout = [15.3, 19.3, 1.6];  // width x depth x board: measure yours, the pocket adds `fit`
breakout_z = 6;         // the board's underside above the floor
/* [Perfboard] */
perfboard = [70, 50, 1.6];     // 5 x 7 cm FR-4 perfboard
perf_ledge = 5;         // its underside above the floor: room for the solder joints
/* [32x32: 10 A DC jack and fuse in the back wall] */
dc_in = cells >= 32;
dc_jack_hole = 8;       // panel-mount 5.5 x 2.1 mm jack with an M8 thread (BOM): check yours
fuse_hole = 12;         // panel-mount 5 x 20 mm fuse holder with an M12 thread (BOM): check yours
/* [Output] */
part = "assembly";      // assembly | inside | base | lid | grid
explode = 0;            // lifts the lid and grid in the assembly
label_turn = 0;         // the names in the "inside" picture: 180 to read them from the back

$fn = 64;
panel = cells * pitch;
outer = panel + 2 * border;
inner = outer / 2 - wall;                                // half the inside width
height = floor_t + inside_h + top_t;
lid_z = height - top_t;                                  // where the lid sits, closed
// the stack under the closed lid: the diffuser in the lid's rebate rests on the grid, the grid
// on the panel, the panel on the bed, with no gap for light to bleed from one cell to the next
bed_z = lid_z - grid_h - panel_t;                        // top of the panel's bed
bed = panel / 2 + 2;                                     // half the bed's outside
screw_at = inner - post_d / 2 + 1;                       // the lid's screw posts, 1 mm into the walls
player_hole = player_button + tolerance;
control_hole = control_button + tolerance;
// A and B go 48 mm in from the front wall, through the matrix's bed: below the panel, with a
// tunnel through the bed's wall around each
control_z = bed_z - (control_hole + button_body) / 2 - 4;   // a 3.7 mm lintel over each tunnel
// the Pico: in P4's border towards P1, clear of P4's button, its micro-USB at the front wall
pico_x = (bed + screw_at - post_d / 2) / 2;
pico_mouth = -inner + usb_plug_gap;                     // y of the receptacle's mouth
pico_y = pico_mouth + 1.3 + pico_l / 2;                 // the board's middle
pico_z = floor_t + pico_standoff;                       // the board's underside
pico_usb_z = pico_z + 1 + 1.5;                          // the receptacle's middle
// the USB-C breakout: at the back wall, P3's side, right of P3's button
breakout_x = outer / 4;
breakout_y = inner - usb_plug_gap - breakout[1] / 2;
breakout_usb_z = floor_t + breakout_z + breakout[2] + 1.6;
din_mark = [-panel / 2 + 20, panel / 2 - 9];            // inside the bed's walls, clear of the perfboard
// the 32x32's jack and fuse, in the back wall
dc_jack_xz = [outer / 4 - 15, floor_t + 20];
fuse_xz = [outer / 4 + 15, floor_t + 20];

seat_colours = ["#d62828", "#1f5fd6", "#2a9d4a", "#f2b705"];  // P1 red, P2 blue, P3 green, P4 yellow
// a mission for the picture (colour indices into seat_colours, -1 = the card's paper)
demo_pattern = [[0, 0, 0, -1, 3, 3], [0, 0, -1, -1, -1, 3], [0, 1, 1, 1, 1, -1],
                [1, 1, -1, 2, 1, 1], [-1, 2, 2, 2, -1, 3], [2, 2, 2, 2, 3, 3]];

// where each seat's button goes: the middle of the border in front of it
function seat_xy(i) = let(d = panel / 2 + border / 2)
    [[0, -d], [-d, 0], [0, d], [d, 0]][i];

// What the tests read back (tests/test_enclosure.py): where each part goes.
echo(layout_lid_z = lid_z, layout_height = height, layout_outer = outer, layout_inner = inner,
     layout_wall = wall, layout_tolerance = tolerance, layout_top_t = top_t,
     layout_button_depth = button_depth, layout_dc_in = dc_in);
echo(layout_player_holes = [for (i = [0:3]) seat_xy(i)], layout_player_hole = player_hole);
echo(layout_control_holes = [for (sx = [-1, 1]) [sx * control_gap / 2, control_z]], layout_control_hole = control_hole);
echo(layout_pico = [pico_x, pico_y, pico_z], layout_pico_usb = [pico_x, pico_mouth, pico_usb_z]);
echo(layout_breakout = [breakout_x, breakout_y, floor_t + breakout_z],
     layout_breakout_usb = [breakout_x, inner - usb_plug_gap, breakout_usb_z]);
echo(layout_perfboard = [0, 0, floor_t + perf_ledge]);
echo(layout_din_mark = din_mark, layout_floor_t = floor_t);
echo(layout_panel = panel, layout_bed_z = bed_z, layout_grid_top = bed_z + panel_t + grid_h, layout_diffuser = [diffuser_w, diffuser_t]);
echo(layout_dc_jack = dc_jack_xz, layout_dc_jack_hole = dc_jack_hole + tolerance,
     layout_fuse = fuse_xz, layout_fuse_hole = fuse_hole + tolerance);

module rounded_square(size, r) {
    offset(r) square(size - 2 * r, center = true);
}

module rounded_box(size, h, r) {
    linear_extrude(h) rounded_square(size, r);
}

module screw_posts(d, h) {
    for (sx = [-1, 1], sy = [-1, 1]) translate([sx * screw_at, sy * screw_at, 0]) cylinder(d = d, h = h);
}

// a hole through a wall: d across, at (along, z), in the wall at y = side * outer / 2
module wall_hole(side, along, z, d) {
    translate([along, side * (outer / 2 - wall / 2), z]) rotate([90, 0, 0]) cylinder(d = d, h = wall + 2, center = true);
}

module wall_slot(side, along, z, size) {
    translate([along, side * (outer / 2 - wall / 2), z]) cube([size[0], wall + 2, size[1]], center = true);
}

// four posts under the Pico's holes, each pair joined by a web along the board (between the
// header rows: the jumper leads hang outside them, down to the floor)
module pico_posts() {
    for (dx = [-1, 1]) translate([pico_x + dx * pico_holes[0] / 2, pico_y, 0]) difference() {
        union() {
            for (dy = [-1, 1]) translate([0, dy * pico_holes[1] / 2, 0]) cylinder(d = pico_post_d, h = pico_z);
            translate([-pico_web / 2, -pico_holes[1] / 2, 0]) cube([pico_web, pico_holes[1], pico_z - 2]);
        }
        for (dy = [-1, 1])   // M2 x 6 self-tapping
            translate([0, dy * pico_holes[1] / 2, pico_z - 8]) cylinder(d = 1.7, h = 10);
    }
}

// the breakout's pocket: it sits in it, its USB-C mouth at the back wall
module breakout_pedestal() {
    w = breakout[0] + 2 * fit;
    l = breakout[1] + 2 * fit;
    translate([breakout_x, breakout_y, 0]) difference() {
        translate([-w / 2 - 2, -l / 2 - 2, 0]) cube([w + 4, l + 2 + usb_plug_gap + 1, floor_t + breakout_z + breakout[2]]);
        translate([-w / 2, -l / 2, floor_t + breakout_z]) cube([w, l, 10]);
    }
}

// the perfboard's cradle: four corners with a ledge under the board and a rim around it
module perfboard_cradle() {
    px = perfboard[0] / 2 + fit;
    py = perfboard[1] / 2 + fit;
    difference() {
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * (px + 2 - 4), sy * (py + 2 - 4), 0])
                translate([-4, -4, 0]) cube([8, 8, floor_t + perf_ledge + perfboard[2] + 2]);
        translate([-px, -py, floor_t + perf_ledge]) cube([2 * px, 2 * py, 10]);
    }
}

module base() {
    difference() {
        union() {
            difference() {
                rounded_box(outer, height - top_t, corner_r);
                translate([0, 0, floor_t]) rounded_box(outer - 2 * wall, height, corner_r - wall);
            }
            screw_posts(post_d, height - top_t);
            // the bed: four walls the panel's backing plate rests on
            difference() {
                linear_extrude(bed_z) square(2 * bed, center = true);
                translate([0, 0, floor_t]) linear_extrude(bed_z) square(panel - 8, center = true);
                // doors for the wires under the bed
                for (a = [0, 90, 180, 270]) rotate(a)
                    translate([0, panel / 2, floor_t + 14]) cube([60, 20, 28], center = true);
                // tunnels for A's and B's microswitches through its front wall
                for (sx = [-1, 1]) translate([sx * control_gap / 2, -bed - 1, control_z]) rotate([-90, 0, 0])
                    cylinder(d = control_hole + button_body + 2 * fit, h = button_depth - (inner - bed) + 2);
            }
            // a rim around the panel and the grid on it, up to the lid: they cannot slide out
            // from under the window, and each LED stays under its own cell of the grid
            translate([0, 0, bed_z]) difference() {
                linear_extrude(lid_z - bed_z) square(2 * bed, center = true);
                translate([0, 0, -1]) linear_extrude(lid_z - bed_z + 2) square(panel + 2 * fit, center = true);
            }
            pico_posts();
            perfboard_cradle();
            if (!dc_in) breakout_pedestal();
        }
        // screw holes
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * screw_at, sy * screw_at, floor_t]) cylinder(d = 2.5, h = height);
        // A and B in the front wall (P1's side), facing out
        for (sx = [-1, 1]) wall_hole(-1, sx * control_gap / 2, control_z, control_hole);
        // the Pico's micro-USB cable, through the front wall
        wall_slot(-1, pico_x, pico_usb_z, micro_usb_plug + [tolerance, tolerance]);
        if (dc_in) {
            wall_hole(1, dc_jack_xz[0], dc_jack_xz[1], dc_jack_hole + tolerance);
            wall_hole(1, fuse_xz[0], fuse_xz[1], fuse_hole + tolerance);
        } else {
            // the USB-C power cable, through the back wall
            wall_slot(1, breakout_x, breakout_usb_z, usb_c_plug + [tolerance, tolerance]);
        }
        // piezo grille in the floor, under P4's border
        translate([panel / 2 + border / 2 + 2, 30, -1])
            for (i = [-1, 0, 1], j = [-1, 0, 1]) translate([i * 4, j * 4, 0]) cylinder(d = 2, h = floor_t + 2);
        // which corner the matrix's DIN goes to: top-left as seen from P1, engraved in the floor
        // inside the bed, near that corner (the bed's walls are hollow there)
        translate([din_mark[0], din_mark[1], floor_t - 0.6])
            linear_extrude(1) text("DIN", size = 5, halign = "center", valign = "center");
    }
}

module lid() {
    difference() {
        union() {
            rounded_box(outer, top_t, corner_r);
            // a locating lip inside the walls, cut away around the screw posts
            translate([0, 0, -lip_h]) difference() {
                rounded_box(outer - 2 * wall - 2 * fit, lip_h, corner_r - wall);
                translate([0, 0, -1]) rounded_box(outer - 2 * wall - 2 * fit - 2 * lip_w, lip_h + 2, corner_r - wall - lip_w);
                translate([0, 0, -1]) screw_posts(post_d + 2 * fit, lip_h + 2);
            }
        }
        // the window, and the rebate the diffuser sits in from below
        translate([0, 0, -5]) linear_extrude(top_t + 10) square(panel, center = true);
        translate([0, 0, -5]) linear_extrude(5 + diffuser_t) square(diffuser_w + 2 * fit, center = true);
        // the four player buttons, each facing its seat
        for (i = [0:3]) translate(concat(seat_xy(i), [-5])) cylinder(d = player_hole, h = top_t + 10);
        // screws
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * screw_at, sy * screw_at, -5]) {
                cylinder(d = 3.4, h = top_t + 10);
                translate([0, 0, 5 + top_t - 1.8]) cylinder(d1 = 3.4, d2 = 6.6, h = 1.81);
            }
        // seat names engraved next to the buttons
        for (i = [0:3]) translate(concat(seat_xy(i), [top_t - 0.6]))
            rotate([0, 0, [0, -90, 180, 90][i]]) translate([player_hole / 2 + 5, -2.5, 0])
                linear_extrude(1) text(str("P", i + 1), size = 5, halign = "left");
    }
}

module grid() {
    // an egg crate: one cell per LED, so each pixel lights its own square
    difference() {
        linear_extrude(grid_h) square(panel, center = true);
        for (i = [0:cells - 1], j = [0:cells - 1])
            translate([-panel / 2 + (i + 0.5) * pitch, -panel / 2 + (j + 0.5) * pitch, -1])
                linear_extrude(grid_h + 2) square(pitch - grid_wall, center = true);
    }
}

module arcade_button(d, colour) {
    color(colour) cylinder(d = d + 4, h = 2.5);
    color(colour) translate([0, 0, 2.5]) cylinder(d = d - 6, h = 4);
}

module assembly() {
    color("#3b3f47") base();
    lift = explode;
    color("#2b2e34") translate([0, 0, lid_z + 2 * lift]) lid();
    color("#1a1a1a") translate([0, 0, bed_z + panel_t + lift]) grid();
    // the diffuser, lit as in a race: a mission pattern and the sand ring two thirds full
    translate([0, 0, lid_z + 2 * lift]) {
        color("#f2efe8", 0.95) linear_extrude(diffuser_t - 0.01) square(diffuser_w, center = true);
        scale_ = floor((cells - 2) / 6);
        off = (cells - 6 * scale_) / 2;
        for (col = [0:cells - 1], row = [0:cells - 1]) {
            ring = col == 0 || row == 0 || col == cells - 1 || row == cells - 1;
            pr = floor((row - off) / scale_);
            pc = floor((col - off) / scale_);
            inside = row >= off && col >= off && pr < 6 && pc < 6;
            c = inside ? demo_pattern[pr][pc] : -1;
            lit_ring = ring && !(col < cells / 2 && row < cells - 1);  // drained: the top-left part
            if (lit_ring || c >= 0)
                color(lit_ring ? "#b040ff" : seat_colours[c])
                    translate([-panel / 2 + (col + 0.5) * pitch, panel / 2 - (row + 0.5) * pitch, diffuser_t])
                        linear_extrude(0.2) square(pitch - 1.5, center = true);
        }
    }
    for (i = [0:3]) translate(concat(seat_xy(i), [height + 2 * lift])) arcade_button(player_hole, seat_colours[i]);
    for (k = [0, 1]) translate([(k * 2 - 1) * control_gap / 2, -outer / 2, control_z])
        rotate([90, 0, 0]) arcade_button(control_hole, ["#f4f4f4", "#111111"][k]);
}

// the boards in their places, for the picture of the open box (the tests model them on their own)
module pico_model() {
    color("#1e7b3a") translate([pico_x - 10.5, pico_y - pico_l / 2, pico_z]) cube([21, pico_l, 1]);
    color("#222222") for (sx = [-1, 1])
        translate([pico_x + sx * 8.89 - 1.27, pico_y - 25.4, pico_z - pico_header]) cube([2.54, 50.8, pico_header]);
    // a few jumper leads on the header pins
    for (sx = [-1, 1], k = [1, 2, 5, 6, 9, 19]) let(y = pico_y + 25.4 - 1.27 - (k - 1) * 2.54)
        translate([pico_x + sx * 8.89 - 1.27, y - 1.27, pico_z - pico_header - jumper_housing]) {
            color("#444444") cube([2.54, 2.54, jumper_housing]);
            color(["#d62828", "#1f5fd6", "#2a9d4a", "#f2b705", "#f4f4f4", "#e66101"][k % 6])
                translate([1.27, 1.27, 0]) rotate([0, sx * 60, 0]) translate([0, 0, -8]) cylinder(d = 1.4, h = 8, $fn = 8);
        }
    color("#c0c0c0") translate([pico_x - 4, pico_mouth, pico_z + 1]) cube([8, 5.5, 3]);
    color("#333333") translate([pico_x - 1.75, pico_y - 5, pico_z + 1]) cube([7, 7, 1]);  // the RP2040
}

module perfboard_model() {
    z = floor_t + perf_ledge;
    color("#c8a165") translate([-perfboard[0] / 2, -perfboard[1] / 2, z]) cube(perfboard);
    color("#222222") translate([-10, -4, z + perfboard[2]]) cube([19, 7.6, 4]);       // the 74AHCT125
    color("#2a6fdb") translate([16, -12, z + perfboard[2]]) cube([15, 8, 10]);        // a terminal block
}

module breakout_model() {
    z = floor_t + breakout_z;
    color("#111111") translate([breakout_x - breakout[0] / 2, breakout_y - breakout[1] / 2, z]) cube(breakout);
    color("#c0c0c0") translate([breakout_x - 4.5, inner - usb_plug_gap - 7.35, z + breakout[2]]) cube([9, 7.35, 3.26]);
}

// a name for the picture, flat, with a leader down to what it names
module label(txt, at, h = 25) {
    color("#ffffff") translate([at[0], at[1], at[2] + h]) rotate(label_turn)
        linear_extrude(0.6) text(txt, size = 7, halign = "center");
    color("#ffffff") translate(at) cylinder(d = 0.8, h = h - 1, $fn = 6);
}

module inside() {
    color("#3b3f47") base();
    pico_model();
    perfboard_model();
    if (!dc_in) breakout_model();
    label("Pico H", [pico_x, pico_y, pico_z + 2], 30);
    label("perfboard", [0, 0, floor_t + perf_ledge + 2], 30);
    label("DIN here", [din_mark[0], din_mark[1], floor_t], 62);
    if (!dc_in) label("USB-C in", [breakout_x, breakout_y, floor_t + breakout_z + 2], 30);
    else {
        label("DC jack", [dc_jack_xz[0], outer / 2, dc_jack_xz[1]], 55);
        label("fuse", [fuse_xz[0], outer / 2, fuse_xz[1]], 55);
    }
    if (label_turn == 0) {   // the front wall's openings, when the picture looks from the front
        label("micro-USB", [pico_x, -outer / 2, pico_usb_z], 40);
        for (k = [0, 1]) label(["A", "B"][k], [(k * 2 - 1) * control_gap / 2, -outer / 2, control_z], 40);
    }
}

if (part == "base") base();
else if (part == "lid") lid();
else if (part == "grid") grid();
else if (part == "inside") inside();
else assembly();
