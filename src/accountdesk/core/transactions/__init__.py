"""A user's transactions, from the bytes the service sends to the table on screen.

One read path, top to bottom:

1. **bytes -> rows -> columns**, in the client (:mod:`accountdesk.client.transactions`):
   the answer is streamed, cut into batches at row boundaries as it arrives,
   each batch decoded and checked into compact columns;
2. **read** (:mod:`.read`): one read of a user's list, started on the key
   press that opens the screen, appends each batch as it comes
   (:mod:`.reads` is the desk's side: which reads run, and the session's
   :mod:`.cache` of whole lists);
3. **data** (:mod:`.data`, held in :mod:`.store`'s growing arrays): every
   row once, and what is worth computing once per read;
4. **index** (:mod:`.index`): sort orders, the filter's search text, day
   numbers and exact cents, each built on first use, copying nothing;
5. **view** (:mod:`.view`): one screen's filter (:mod:`.early_filter` while
   the rows still stream in), date range (:mod:`.date_range`) and sort, and
   the rows that pass;
6. **table**, in the dashboard (``tui/widgets/transaction_table.py``): only
   the rows on screen are drawn, in the columns of :mod:`.columns`.

Beside it: the CSV export of a view (:mod:`.export`, the same column list as
the table) and what the screen says in words (:mod:`.texts`). No Textual here.
"""
