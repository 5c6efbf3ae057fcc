"""A game stored with a line break in its name (from before names were validated) still
gets its emails: the subject is flattened at the header boundary."""
from django.core import mail

from games.models import Game, Seat
from notifications.models import Notification, NotificationKind as Kind, NotificationStatus
from notifications.services import notification_deliver, record_game_notifications
from tests.support.preferences import right_away


def test_an_existing_game_whose_name_holds_a_newline_still_gets_its_emails(fake_engine, make_game,
                                                                            alice, bob):
    right_away(alice)
    game = make_game(alice, bob, seats=2)
    Game.objects.filter(pk=game.pk).update(name="Loire\r\nBcc: everyone@example.com")
    game.refresh_from_db()
    Notification.objects.filter(game=game).delete()
    record_game_notifications(game=game, newly_awaited=[Seat.objects.get(game=game, user=alice)])
    turn = Notification.objects.get(game=game, kind=Kind.TURN)

    assert notification_deliver(notification_id=turn.pk) == "sent"

    turn.refresh_from_db()
    assert turn.status == NotificationStatus.SENT
    (message,) = mail.outbox
    assert "Loire Bcc: everyone@example.com" in message.subject
    assert "\n" not in message.subject and "\r" not in message.subject
    assert message.message()["Subject"]  # the header can be built
    assert message.bcc == [] and message.to == ["alice@example.com"]
