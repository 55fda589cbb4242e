"""wire_frames.light: when the emulated strip shows a change (press to light in the emulated
tests and benchmarks), now that the sender sends no frame that changes nothing."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench"))

import wire_frames  # noqa: E402


def frame(start, end, data):
    return {"start_us": start, "end_us": end, "data": bytes(data)}


FRAMES = [frame(0, 10, [0, 0]), frame(40, 50, [0, 9]), frame(80, 90, [7, 9])]


def test_the_end_of_the_first_frame_out_after_the_event_that_shows_it():
    assert wire_frames.light(FRAMES, 20, [(0, 7)]) == (70, FRAMES[2])


def test_a_frame_on_the_wire_at_the_event_counts_from_its_end():
    assert wire_frames.light(FRAMES, 45, [(1, 9)]) == (5, FRAMES[1])


def test_already_shown_at_the_event_is_lit_at_once():
    # the light was never put out on the strip: the device sent no frame that changes nothing
    assert wire_frames.light(FRAMES, 60, [(1, 9)]) == (0, FRAMES[1])


def test_never_shown():
    assert wire_frames.light(FRAMES, 20, [(0, 5)]) == (None, None)
