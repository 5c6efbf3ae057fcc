"""The site's PostgreSQL database backend (``ENGINE = "orleans_site.postgresql"``): see ``base``."""
