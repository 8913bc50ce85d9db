"""Scenario packs: the sandbox's users as TOML files a person can read, check and edit.

A pack goes through these modules in this order:

1. :mod:`.reading` (:func:`~.reading.load_scenarios`): the file, bounded
   before it is read (its kind, its size), parsed as TOML, then checked;
2. :mod:`.models` (with :mod:`.fields`, the single values): the format as
   pydantic models, and the JSON Schema an editor checks a pack with;
3. :mod:`.problems`: what is wrong, one line per problem naming the file,
   the line and the field;
4. :mod:`.reading` again: each user resolved into the engine's own plain
   records (:mod:`accountdesk.sandbox.scenario`), the packs merged (the
   shipped default pack first) into one :class:`~accountdesk.sandbox.scenario.ScenarioSet`;
5. :mod:`.summary`: a user in words (the scenario list, ``accountdesk
   scenarios check``).

These modules stand on the engine (its records, the merchant categories of
:mod:`accountdesk.sandbox.generated`); the engine never imports them, so a
sandbox built from packs already read needs no pydantic. The format's page:
docs/trainer/scenario-packs.md.
"""
