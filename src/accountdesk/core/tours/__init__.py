"""Guided tours: a script of steps over the sandbox, as data a trainer can read and write.

- :mod:`.tour`: the format (steps, captions, what each step expects) and its
  validation, from TOML;
- :mod:`.files`: a tour file read as a file a person hands us: its kind and
  size first, then its packs;
- :mod:`.captions`: what a caption says, and whether a step went as scripted;
- :mod:`.clock_steps`: steps of the sandbox's clock as a person types them;
- :mod:`.demo`: the desk of ``accountdesk demo``, on a fresh sandbox whose
  clock moves only when told.

The dashboard performs the steps on the real screens (``tui/tour.py``).
"""
