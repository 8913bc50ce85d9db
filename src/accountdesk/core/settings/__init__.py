"""Settings: what a session is configured with, where its files live, and what it remembers.

- :mod:`.values`: the config file and ``ACCOUNTDESK_*`` read as plain values
  (no pydantic), profiles chosen, sources merged;
- :mod:`.start`: the few values the sign-in screen's first frame draws,
  read without pydantic;
- :mod:`.model`: the settings validated once (pydantic), typed everywhere after;
- :mod:`.file`: writing the config file, keeping everything a person wrote;
- :mod:`.secrets`: where a remembered secret lives (the keyring);
- :mod:`.paths`: the config file, the data and log folders, a state folder
  per service and API key;
- :mod:`.earlier_files`: an earlier version's files, handed over.
"""
