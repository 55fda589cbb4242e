// Layerlight enclosure: a parametric model of the 16x16 reference build.
//
// A square box for the middle of the table. The matrix sits under a light
// grid and an opal diffuser in the lid; each player's 30 mm button sits in
// the middle of the border in front of their seat (P1 front, P2 left, P3
// back, P4 right, as the firmware's screens face them); A and B are 24 mm
// buttons in the front wall. USB-C comes in at the back, the piezo speaks
// through the floor.
//
// Parts to print: part = "base", "lid", "grid" (export each as STL), or
// "assembly" for the picture. `make hardware` renders preview.png with
// Debian's openscad. Units: mm. Axes: x to P4 (right), y to P3 (back), z up.

/* [Matrix] */
cells = 16;             // LEDs per side (8, 16, 32)
pitch = 10;             // LED pitch of the panel
panel_t = 2.5;          // flexible panel with its backing
/* [Box] */
border = 44;            // room around the matrix for the player buttons
wall = 3;
floor_t = 3;
top_t = 4;
inside_h = 58;          // arcade buttons with microswitches need ~48 mm under the lid
corner_r = 8;
/* [Light path] */
diffuser_t = 3;         // opal acrylic, in a rebate under the lid's window
grid_h = 12;            // light grid between the LEDs and the diffuser: crisp pixels
grid_wall = 0.8;
/* [Buttons] */
player_hole = 28;       // 30 mm arcade buttons: 28 mm hole
control_hole = 24;      // 24 mm arcade buttons: 24 mm hole
control_gap = 80;       // distance between A and B in the front wall
/* [Output] */
part = "assembly";      // assembly | base | lid | grid
explode = 0;            // lifts the lid and grid in the assembly

$fn = 64;
panel = cells * pitch;
outer = panel + 2 * border;
height = floor_t + inside_h + top_t;
bed_z = height - top_t - diffuser_t - grid_h - panel_t;  // top of the panel's bed
screw_at = outer / 2 - wall - 5;                         // the lid's screw posts
seat_colours = ["#d62828", "#1f5fd6", "#2a9d4a", "#f2b705"];  // P1 red, P2 blue, P3 green, P4 yellow
// a mission for the picture (colour indices into seat_colours, -1 = the card's paper)
demo_pattern = [[0, 0, 0, -1, 3, 3], [0, 0, -1, -1, -1, 3], [0, 1, 1, 1, 1, -1],
                [1, 1, -1, 2, 1, 1], [-1, 2, 2, 2, -1, 3], [2, 2, 2, 2, 3, 3]];

module rounded_square(size, r) {
    offset(r) square(size - 2 * r, center = true);
}

module rounded_box(size, h, r) {
    linear_extrude(h) rounded_square(size, r);
}

// where each seat's button goes: the middle of the border in front of it
function seat_xy(i) = let(d = panel / 2 + border / 2)
    [[0, -d], [-d, 0], [0, d], [d, 0]][i];

module base() {
    difference() {
        union() {
            difference() {
                rounded_box(outer, height - top_t, corner_r);
                translate([0, 0, floor_t]) rounded_box(outer - 2 * wall, height, corner_r - wall);
            }
            // screw posts for the lid (M3 x 12 into 2.5 mm holes)
            for (sx = [-1, 1], sy = [-1, 1])
                translate([sx * screw_at, sy * screw_at, 0]) cylinder(d = 10, h = height - top_t);
            // the bed: four walls the panel's backing plate rests on
            difference() {
                translate([0, 0, 0]) linear_extrude(bed_z) square(panel + 4, center = true);
                translate([0, 0, floor_t]) linear_extrude(bed_z) square(panel - 8, center = true);
                // doors for the wires under the bed
                for (a = [0, 90, 180, 270]) rotate(a)
                    translate([0, panel / 2, floor_t + 14]) cube([60, 20, 28], center = true);
            }
            // standoffs for the Pico (holes 11.4 x 47 mm), beside the bed on P4's side
            translate([panel / 2 + border / 2 + 2, -20, 0])
                for (dx = [-5.7, 5.7], dy = [-23.5, 23.5])
                    translate([dx, dy, 0]) cylinder(d = 5, h = floor_t + 5);
        }
        // screw holes
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * screw_at, sy * screw_at, floor_t]) cylinder(d = 2.5, h = height);
        translate([panel / 2 + border / 2 + 2, -20, 0])
            for (dx = [-5.7, 5.7], dy = [-23.5, 23.5])
                translate([dx, dy, floor_t - 1]) cylinder(d = 1.8, h = 10);
        // A and B in the front wall (P1's side), facing out
        for (sx = [-1, 1])
            translate([sx * control_gap / 2, -outer / 2 - 1, floor_t + inside_h / 2])
                rotate([-90, 0, 0]) cylinder(d = control_hole, h = wall + 2);
        // USB-C breakout in the back wall (P3's side)
        translate([outer / 4, outer / 2 - wall / 2, floor_t + 8]) cube([10, wall + 2, 4.5], center = true);
        // piezo grille in the floor, under P4's border
        translate([panel / 2 + border / 2 + 2, 30, -1])
            for (i = [-1, 0, 1], j = [-1, 0, 1]) translate([i * 4, j * 4, 0]) cylinder(d = 2, h = floor_t + 2);
        // which corner the matrix's DIN goes to: top-left as seen from P1
        translate([-panel / 2 + 6, panel / 2 - 12, bed_z - 0.6])
            linear_extrude(1) text("DIN", size = 5, halign = "left");
    }
}

module lid() {
    difference() {
        union() {
            rounded_box(outer, top_t, corner_r);
            // a locating lip inside the walls
            translate([0, 0, -3]) difference() {
                rounded_box(outer - 2 * wall - 0.6, 3, corner_r - wall);
                translate([0, 0, -1]) rounded_box(outer - 2 * wall - 4.6, 5, corner_r - wall - 2);
            }
        }
        // the window, and the rebate the diffuser sits in from below
        translate([0, 0, -5]) linear_extrude(top_t + 10) square(panel, center = true);
        translate([0, 0, -5]) linear_extrude(5 + top_t - 1.2) square(panel + 6, center = true);
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
    color(colour) translate([0, 0, 0]) cylinder(d = d + 4, h = 2.5);
    color(colour) translate([0, 0, 2.5]) cylinder(d = d - 6, h = 4);
}

module assembly() {
    color("#3b3f47") base();
    lift = explode;
    color("#2b2e34") translate([0, 0, height - top_t + 2 * lift]) lid();
    color("#1a1a1a") translate([0, 0, bed_z + panel_t + lift]) grid();
    // the diffuser, lit as in a race: a mission pattern and the sand ring two thirds full
    translate([0, 0, height - top_t - diffuser_t + 2 * lift]) {
        color("#f2efe8", 0.95) linear_extrude(diffuser_t - 0.01) square(panel + 6, center = true);
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
    for (k = [0, 1]) translate([(k * 2 - 1) * control_gap / 2, -outer / 2, floor_t + inside_h / 2])
        rotate([90, 0, 0]) arcade_button(control_hole, ["#f4f4f4", "#111111"][k]);
}

if (part == "base") base();
else if (part == "lid") lid();
else if (part == "grid") grid();
else assembly();
