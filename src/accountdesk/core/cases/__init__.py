"""Cases: a live user (or an error of the log) recorded as a scenario pack user.

:func:`.case.record_case` is the one way in, for ``accountdesk record`` and
the dashboard's dialog alike (:func:`.case.error_case`: the error log's). A
case goes through these modules in this order:

1. :mod:`.record`: the user read through the client (and its jobs started,
   if asked), every answer kept as the dashboard showed it;
2. :mod:`.recorded_user`: the recording as a pack user (data as read, errors
   as forced answers, jobs as their behaviour);
3. :mod:`.redaction`: the customer's identity and numbers replaced by
   realistic fakes, wherever they appear (the fields it covers are listed
   there, beside the rules);
4. :mod:`.pack_toml` and :mod:`.files`: the pack written as TOML a person can
   read, checked as the sandbox reads it, saved atomically and 0600.
"""
