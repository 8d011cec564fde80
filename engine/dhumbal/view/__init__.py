"""The mini table drawn as HTML: one renderer for the build and the browser.

At build time the site pre-renders each page's table with
:func:`dhumbal.view.table.render_table`; in the browser the worker sends
:func:`~dhumbal.view.table.render_board` (and
:func:`~dhumbal.view.settings.render_settings`) after every request, and
:func:`~dhumbal.view.felt.render_felt` for each bot move it plays back one at
a time. The same functions draw both, so the page's first paint is the table
the engine then takes over. Every text is escaped, and every string a reader
sees is a catalog msgid in the page's language (numbers in its digits). The
picture: the other seats along a felt (in play order from the reader's
left), the stock and the last throw in the middle, the reader's hand, and a
dock with the status line and the controls. Cards: :mod:`dhumbal.view.cardface`.

One module per part of the table, each with its own strings:

- :mod:`.table`: the whole table and the board, composed of the parts below
  (and :data:`~dhumbal.view.table.ATTRIBUTE_MSGIDS`, every msgid placed in an
  attribute value);
- :mod:`.felt`: the other seats, the stock, the last throw, a bot's move;
- :mod:`.hand`: the reader's place and hand;
- :mod:`.actions`: the dock's controls and the engine's verdicts on marked cards;
- :mod:`.scores`: the score rows and notes, the showdown's strip, the result table, the standings;
- :mod:`.settings`: the settings form and the display preferences;
- :mod:`.guide`: the first-run guide, three steps shown once;
- :mod:`.hint`: the reader's call odds in words;
- :mod:`.loader`: the note before Play, the download's progress, the errors;
- :mod:`.model`: :class:`~dhumbal.view.model.TableModel`, what is drawn;
- :mod:`.markup`: escaping, attributes, buttons and card faces in text.

The markup carries what the table script needs and nothing it must decide:
``data-action`` holds the engine's own action text, ``data-op`` a session
operation, each card button its code (``data-card``) and point value
(``data-value``, so the throw button can show the marked total), the throw
button the engine's verdict on every set of marked cards
(``data-verdicts``/``data-reasons``, see
:func:`dhumbal.view.actions.throw_verdicts`), and the root the page
language's digits (``data-digits``).
"""
