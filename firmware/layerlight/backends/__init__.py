# Hardware backends. Each module defines `Hardware(cfg)` with the same small
# surface; `layerlight.hardware.open_hardware` picks one, once, at start-up:
#
#   width, height              matrix size in pixels
#   storage                    a storage object (see layerlight.storage)
#   journal_flash() (optional) the raw flash area the running game is saved in
#                              (layerlight.journal), or None: saved as a file instead
#   ticks_ms() -> int          a millisecond counter (may wrap)
#   ticks_us() -> int          a microsecond counter (may wrap)
#   ticks_add(a, ms) -> int    a + ms, wrapped as the counter wraps
#   ticks_diff(a, b) -> int    a - b, wrap-safe
#   sleep_ms(ms)
#   read_buttons() -> int      bit i set while button i is down (P1..P4, A, B)
#   SAMPLE_MS                  ms between two samples of the buttons (rp2: 1, by PIO)
#   SAMPLES_KEPT               how many of the latest samples can be read back
#   start_sampling(origin=None)  sample the buttons every SAMPLE_MS, sample 0 at
#                              instant 0, ticks_ms `origin` (default now); returns it
#   samples_taken() -> int     the latest sample's number (sample k: instant k * SAMPLE_MS)
#   sample(k) -> int           sample k's buttons (one of the last SAMPLES_KEPT), or
#                              MISSED (0x80) set when no reading was made at instant k
#   same_until(k, end, level) -> int  (optional) the first sample from k to end - 1
#                              whose buttons are not `level`, else end: a tight loop over
#                              the kept samples, so that the loop skips quiet stretches
#                              (a millisecond's sample taken in one by one costs nearly
#                              a millisecond on the emulated Pico)
#   idle(ms) -> str or None    wait up to ms; a line a host sent, if any
#   framebuffer()              the display.FrameBuffer to draw into, made for this
#                              matrix: its wiring, colour order and brightness cap
#   show(fb)                   push that frame buffer to the LEDs (the PIO sender: only up
#                              to the last LED that changed, nothing when none did)
#   send_whole()  (optional)   the next show() sends every LED, changed or not (a host
#                              reads that frame off the data pin)
#   set_brightness(cap)        change the cap (0..1) for what is drawn from now on
#   tone(freq)                 buzzer at freq Hz; 0 = silent
#   feed()                     feed the watchdog, if there is one
#   log(line)                  a line on the console
#   close()                    stop what runs without the CPU, and the watchdog (the loop ended:
#                              a host took over, or the device restarts)
#   pin_problems               (optional) pins the port refused, each replaced by the board's: a line each
#   date() -> str or None      "YYYY-MM-DD HH:MM" when the clock knows the date, else None
