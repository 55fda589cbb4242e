"""`layerlight history`: the device's play log on the PC.

source  reads the log's two files from a folder (a simulator's flash) or a board
names   the --names option: a name for each seat position
stats   the per-mode figures: plays, wins per seat, winning scores, margins, lengths
report  the table of games and the per-mode figures, as text
export  the games as CSV and as JSON
plot    each mode's scores over the games and its wins per seat, as a PNG

Records are parsed by the firmware's own layerlight.playlog only, so the PC
reads exactly the games the device would show.
"""
