"""The players region gives each running clock its deadline for the page's countdown
(static/js/regions.js orleansCountdown)."""


def test_running_clocks_carry_their_deadline(clocked_game, client_for, alice, bob):
    game = clocked_game(alice, bob, pace="fast")
    page = client_for(alice).get(f"/games/{game.pk}/").text
    players = page.split('id="game-players"')[1].split("</section>")[0]
    # both seats plan at once: two running 24 h clocks, deadline Thu 7 Mar 2030 12:00 UTC
    assert players.count('data-deadline="2030-03-07T12:00:00+00:00"') == 2
    assert "1 d 0 h</span> left" in players
