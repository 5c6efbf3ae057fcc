"""The queue panel offers each place's choices with what each gives (the engine's
queue_options), queues the whole action, and its pass asks before leaving a planned place
unused (issue #15; issue #9's trap: never discard a complete plan silently)."""
import html
import json

from games import services
from tests.support.game_driver import CASTLE_PLAN, VILLAGE_PLAN, queue_set, seats


def queue_region(client, game):
    page = client.get(f"/games/{game.pk}/").text
    return html.unescape(page.split('id="game-queue"')[1].split("</section>")[0])


def plan(game, seat, placements):
    services.game_submit_action(game_id=game.pk, user=seat.user, expected_version=game.version,
                                action={"type": "submit_plan", "placements": placements})
    game.refresh_from_db()


def test_the_village_offers_each_recruit_with_what_it_gives(started_game, client_for):
    alice = seats(started_game)[0]
    plan(started_game, alice, VILLAGE_PLAN)
    region = queue_region(client_for(alice.user), started_game)
    assert '<optgroup label="Village">' in region
    assert "Use Village: recruit a Boatman — boatman track step 1: 2 coins" in region
    assert "Use Village: recruit a Craftsman — craftsman track step 1: technology tile" in region
    assert "Use Village: recruit a Trader, take Bathhouse — trader track step 1: place tile" in region


def test_a_queued_choice_is_stored_whole_through_the_view(started_game, client_for):
    alice = seats(started_game)[0]
    plan(started_game, alice, VILLAGE_PLAN)
    entry = {"type": "activate", "space": "village", "recruit": "trader", "place_tile": "hay_rick"}
    client_for(alice.user).post(f"/games/{started_game.pk}/queue/", {"op": "add", "entry": json.dumps(entry)},
                                HTTP_HX_REQUEST="true")
    alice.refresh_from_db()
    assert alice.action_queue == [entry]
    region = queue_region(client_for(alice.user), started_game)
    assert "Use Village: recruit a Trader, take Hay Rick" in region.split("</ol>")[0]
    assert '<optgroup label="Village">' not in region  # a place is queued once


def test_queueing_the_pass_asks_while_a_planned_place_is_not_queued(started_game, client_for):
    alice = seats(started_game)[0]
    plan(started_game, alice, CASTLE_PLAN)
    region = queue_region(client_for(alice.user), started_game)
    question = ("Your plan readies Castle, not queued before the pass: passing leaves it unused this round. "
                "Queue the pass anyway?")
    assert f'hx-confirm="{question}"' in region and f'data-confirm="{question}"' in region
    queue_set(game_id=started_game.pk, user=alice.user, entries=[{"type": "activate", "space": "castle"}])
    region = queue_region(client_for(alice.user), started_game)
    assert "Queue: Pass for the rest of the round" in region and "hx-confirm" not in region


def test_after_the_pass_only_the_harvest_can_still_be_queued(started_game, client_for):
    alice = seats(started_game)[0]
    plan(started_game, alice, CASTLE_PLAN)
    queue_set(game_id=started_game.pk, user=alice.user, entries=[{"type": "activate", "space": "castle"},
                                                                 {"type": "pass"}])
    region = queue_region(client_for(alice.user), started_game)
    assert "Queue it" not in region and "Queue: Pass" not in region
