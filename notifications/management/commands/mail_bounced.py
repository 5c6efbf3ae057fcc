"""``python manage.py mail_bounced ADDRESS [ADDRESS ...] [--complaint] [--note TEXT] [--clear]``

Marks addresses as bouncing (or, with ``--complaint``, as having reported the site's mail
as spam) so no more notification goes to them: delivery skips them with the reason
recorded. ``--clear`` lets mail go to them again. For operators handling bounce and
feedback-loop reports by hand or from a script; a hard SMTP refusal (5xx) marks the
address by itself.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email

from notifications.models import SuppressionReason
from notifications.services import address_suppress, address_unsuppress


class Command(BaseCommand):
    help = "Stop (or, with --clear, resume) sending mail to addresses that bounce or complained."

    def add_arguments(self, parser) -> None:
        parser.add_argument("addresses", nargs="+", metavar="ADDRESS")
        parser.add_argument("--complaint", action="store_true",
                            help="the recipient reported the mail as spam (default: a bounce)")
        parser.add_argument("--note", default="", help="where the report came from")
        parser.add_argument("--clear", action="store_true",
                            help="send to these addresses again")

    def handle(self, *args, addresses: list[str], complaint: bool, note: str, clear: bool,
               **options) -> None:
        for address in addresses:
            try:
                validate_email(address.strip())
            except ValidationError as exc:
                raise CommandError(f"{address!r} is not an email address.") from exc
        for address in addresses:
            if clear:
                done = address_unsuppress(email=address)
                self.stdout.write(f"{address}: mail goes to it again" if done
                                  else f"{address}: was not suppressed")
                continue
            reason = SuppressionReason.COMPLAINT if complaint else SuppressionReason.BOUNCE
            row = address_suppress(email=address, reason=reason, note=note or "manage.py mail_bounced")
            self.stdout.write(f"{row.email}: no more mail ({row.get_reason_display().lower()})")
