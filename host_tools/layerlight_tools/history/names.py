"""--names "P1=Ann,P2=Ben": a name for each seat position, and the labels built from them."""

from layerlight_tools.errors import UserError

SEATS = (1, 2, 3, 4)


def parse_names(text):
    """{seat: name} from "P1=Ann,P3=Ben" (seats P1 to P4); UserError on anything else."""
    names = {}
    if text is None:
        return names
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise UserError('--names: %r is not SEAT=NAME (e.g. "P1=Ann,P2=Ben")' % part)
        seat, name = (x.strip() for x in part.split("=", 1))
        number = seat[1:] if seat[:1] in ("P", "p") else ""
        if not number.isdigit() or int(number) not in SEATS:
            raise UserError("--names: %r: the seats are P1 to P4" % seat)
        if not name:
            raise UserError("--names: %s has no name" % seat.upper())
        if int(number) in names:
            raise UserError("--names: %s is named twice" % seat.upper())
        names[int(number)] = name
    return names


def seat_label(seat, names):
    """"P1 Ann" for a named seat, "P1" for the others."""
    name = names.get(seat)
    return "P%s %s" % (seat, name) if name else "P%s" % seat
