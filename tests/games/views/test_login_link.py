"""The header's "Log in" link brings a visitor back to the page they were on."""


def test_the_login_link_returns_to_the_game(client, make_game, alice, bob):
    game = make_game(alice, bob, seats=2)  # public: a logged-out visitor sees it as a spectator
    page = client.get(f"/games/{game.pk}/").text
    assert f'href="/accounts/login/?next=/games/{game.pk}/"' in page


def test_the_login_page_itself_has_no_next(client, db):
    page = client.get("/accounts/login/").text
    assert 'href="/accounts/login/?next=' not in page
