"""The session's errors: every failure as a record a person can act on, and its reports.

- :mod:`.log`: the error log, and the one place a failure becomes a record
  (its code, what it means and what to do next, from the contract's guidance);
- :mod:`.reports`: the records as a ticket, Markdown, JSON and a curl command.
"""
