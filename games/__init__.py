"""The games app: lobby, persistence and presentation of Orléans games. Rules live in ``engine``."""
