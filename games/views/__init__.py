"""Views of the games app: full pages (``pages``), lobby form posts (``lobby``), HTMX
fragments (``fragments``) and the error mapping shared by all of them (``errors``)."""
