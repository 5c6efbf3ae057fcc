"""``manage.py bench_sittings``: sittings per player per game, with and without the action
queue (run by ``make bench``; issue #15).

A *sitting* is a stretch in which a player is awaited and decides by hand, until the game
waits for someone else (after a service call the seat's ``awaiting`` is empty and another
seat's is not; so the last to plan in a round whose actions are all queued goes on into the
next round's draw). A turn the queue plays is no sitting: the site does not await the seat.

For each player count and seed, the engine's random players (``engine.simulate``) play one
game and give its decision log. The log is then played through the services twice, with the
same decisions: once without queues, once where every player, when submitting their plan,
queues what they will do this round (each activation with its choices, the pass with the
technology tile's targets, the Bathhouse's keep choices, the Harvest's food when the
Harvest is face up). Decisions a queue cannot hold (torture, a changed situation) are made
by hand. It prints the mean sittings per player per game, the floor (one sitting per round
start), the share of sittings by cause, and the targets of issue #15.

It writes users and games into the configured database (``make bench``: a scratch one).
"""
from __future__ import annotations

import json
import secrets
from collections import Counter

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

import engine
from engine.simulate import play_game
from games import services
from games.management.commands.playtest import tasks_not_inline
from games.models import Game, GameStatus, Move, MoveSource, Seat
from games.rules import load_game

#: Issue #15's targets: sittings per player per game with the queue.
TARGETS = {4: 16.0, 3: 14.5, 2: 11.5}
#: Decision kinds that start a round (followers and planning, RULES §8.3, §8.4).
ROUND_START = ("draw", "plan")


def annotate(options: engine.GameOptions, seed: int, log: list) -> list[tuple]:
    """``(seat, action, round, kind, event)`` for each log entry: the decision kind the seat
    answered and the round's hourglass event (None for a resolution)."""
    state = engine.new_game(options, seed)
    out = []
    for seat, action in log:
        if seat is None:
            out.append((None, None, state.data["round"], None, state.data["event"]))
            state = engine.resolve(state)[0]
            continue
        kind = engine.awaiting(state)[seat]
        out.append((seat, action, state.data["round"], kind, state.data["event"]))
        state = engine.apply(state, seat, action)[0]
    return out


def queue_points(entries: list[tuple]) -> set[int]:
    """Where each seat sets its queue in a round: at its last planning decision (its plan,
    or its draw when the engine submits the plan by itself), else at its first decision of
    the round (the engine made its planning moves: an empty market)."""
    points: dict[tuple, int] = {}
    for i, (seat, _action, round_, kind, _event) in enumerate(entries):
        if seat is None:
            continue
        key = (seat, round_)
        if kind in ROUND_START:
            points[key] = i
        else:
            points.setdefault(key, i)
    return set(points.values())


def round_queue(entries: list[tuple], start: int, seat: int, limit: int) -> list[dict]:
    """The queue ``seat`` sets at ``entries[start]``: its moves of that round from the log
    after that planning decision (from it, for an action-phase decision), as queue entries
    (answers in advance included)."""
    this_round = entries[start][2]
    moves, technology, food, last_activate = [], [], None, None
    first = start + 1 if entries[start][3] in ROUND_START else start
    for other, action, round_, kind, event in entries[first:]:
        if round_ != this_round:
            break
        if other != seat:
            continue
        if kind == "action":
            last_activate = dict(action) if action["type"] == "activate" else None
            moves.append(last_activate or {"type": "pass"})
        elif kind == "technology":
            technology.append({"space": action["space"], "circle": action["circle"]})
        elif kind == "bathhouse" and action["type"] == "bathhouse_place" and last_activate is not None:
            last_activate.setdefault("keep", []).append({"follower": action["follower"], "space": action["space"]})
        elif kind == "harvest" and event == "harvest":
            food = list(action["food"])
    for entry in moves:
        if entry.get("space") == "bathhouse":
            entry.setdefault("keep", [])
    if technology:  # a pass the engine makes by itself (nothing else to do) is not in the log
        if not moves or moves[-1]["type"] != "pass":
            moves.append({"type": "pass"})
        moves[-1]["technology"] = technology
    answers = [{"type": "harvest", "food": food}] if food else []
    return moves[:max(0, limit - len(answers))] + answers


class Command(BaseCommand):
    """Measure sittings per player per game with and without the action queue."""

    help = "Sittings per player per game for 2, 3 and 4 players, with and without the queue."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", type=int, default=3, help="seeded games per player count")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])

    def handle(self, *args, games: int, seed: int, players: list[int], **options) -> None:
        self.verbosity = options.get("verbosity", 1)
        summary = {}
        with tasks_not_inline():
            for n in players:
                causes = {False: Counter(), True: Counter()}
                totals = {False: 0, True: 0}
                for g in range(games):
                    game_seed = seed + g
                    opts = engine.GameOptions(players=n)
                    entries = annotate(opts, game_seed, play_game(opts, game_seed, check=False)["log"])
                    for queued in (False, True):
                        counts = self.play(n, game_seed, entries, queued)
                        causes[queued].update(counts)
                        totals[queued] += sum(counts.values())
                summary[n] = self.report(n, games, totals, causes)
        self.stdout.write(json.dumps({"sittings": summary}))

    def report(self, n: int, games: int, totals: dict, causes: dict) -> dict:
        """Print one player count's figures; return them as a dict."""
        per = {q: totals[q] / (games * n) for q in totals}
        floor = causes[True]["round start"] / (games * n)
        out = self.stdout.write
        out(f"{n} players, {games} games: sittings per player per game: no queue {per[False]:.1f}, "
            f"with the queue {per[True]:.1f} (target <= {TARGETS[n]}, ratio {per[True] / TARGETS[n]:.2f}); "
            f"round starts {floor:.1f}")
        shares = {}
        for q, label in ((False, "no queue"), (True, "with the queue")):
            total = sum(causes[q].values()) or 1
            shares[label] = {cause: round(100 * k / total, 1) for cause, k in causes[q].most_common()}
            out(f"  share of sittings by cause, {label}: "
                + ", ".join(f"{c} {s}%" for c, s in shares[label].items()))
        return {"no_queue": round(per[False], 2), "queue": round(per[True], 2), "round_starts": round(floor, 2),
                "target": TARGETS[n], "causes": shares}

    def play(self, n: int, seed: int, entries: list[tuple], queued: bool) -> Counter:
        """Play the annotated log through the services; return the sittings by cause."""
        tag = f"sittings-{seed}-{secrets.token_hex(3)}"
        users = [get_user_model().objects.create_user(username=f"{tag}-{i + 1}", email="") for i in range(n)]
        game = services.game_create(creator=users[0], name=f"Sittings {n}p seed {seed}", max_seats=Game.MAX_SEATS,
                                    options={}, seed=seed)
        for user in users[1:]:
            services.seat_join(game_id=game.pk, user=user)
        game.refresh_from_db()
        if game.status == GameStatus.OPEN:
            services.game_start(game_id=game.pk, user=users[0])
        by_order = {s.order: s.user for s in Seat.objects.filter(game=game).select_related("user")}
        in_sitting = dict.fromkeys(by_order, False)
        by_queue: dict[int, list] = {order: [] for order in by_order}
        seen = Move.objects.filter(game=game).count()
        causes: Counter = Counter()
        points = queue_points(entries) if queued else set()
        for i, (seat, action, _round, kind, _event) in enumerate(entries):
            game = Game.objects.get(pk=game.pk)
            if seat is not None and action in by_queue[seat]:
                by_queue[seat].remove(action)  # the seat's queue played it
                continue
            if game.status != GameStatus.ACTIVE:
                break
            if seat is None:
                rules_engine, state = load_game(game)
                if rules_engine.needs_resolution(state):
                    services.game_resolve(game_id=game.pk, expected_version=game.version)
            else:
                if not in_sitting[seat]:
                    causes[self.cause(kind, action)] += 1
                    if queued and kind not in ROUND_START and self.verbosity > 1:
                        note = Seat.objects.get(game=game, order=seat).action_queue_note
                        self.stdout.write(f"  {n}p seed {seed}: by hand {kind} {action}: {note}")
                    in_sitting[seat] = True
                if i in points:
                    self.set_queue(game, by_order[seat], round_queue(entries, i, seat, services.ACTION_QUEUE_LIMIT))
                if kind in ROUND_START or i not in points or not self.played_since(game, seen, seat, action):
                    game.refresh_from_db()
                    services.game_submit_action(game_id=game.pk, user=by_order[seat], action=action,
                                                expected_version=game.version)
            for move in Move.objects.filter(game=game, seq__gt=seen, source=MoveSource.QUEUE).order_by("seq"):
                by_queue[move.seat].append(move.action)
            if i in points and kind not in ROUND_START and action in by_queue[seat]:
                by_queue[seat].remove(action)  # setting the queue on the seat's turn played it
            seen = Move.objects.filter(game=game).count()
            awaited = {order for order, awaiting in Seat.objects.filter(game=game).values_list("order", "awaiting")
                       if awaiting}
            if awaited:  # the game waits for someone else: the sitting of every seat it does not await is over
                for order in in_sitting:
                    in_sitting[order] = in_sitting[order] and order in awaited
        game = Game.objects.get(pk=game.pk)
        if game.status != GameStatus.FINISHED or any(by_queue.values()):
            raise CommandError(f"{n}p seed {seed}: the queue did not replay the same decisions "
                               f"(status {game.status}, unmatched {by_queue})")
        return causes

    @staticmethod
    def set_queue(game: Game, user, entries: list[dict]) -> None:
        """Make ``entries`` the user's queue as the page does (clear, then add each)."""
        services.seat_queue_change(game_id=game.pk, user=user, op="clear")
        for entry in entries:
            services.seat_queue_change(game_id=game.pk, user=user, op="add", entry=entry)

    @staticmethod
    def played_since(game: Game, seen: int, seat: int, action: dict) -> bool:
        """True if ``seat``'s queue played ``action`` after move ``seen``."""
        return any(m == action for m in Move.objects.filter(game=game, seq__gt=seen, seat=seat, source=MoveSource.QUEUE)
                   .values_list("action", flat=True))

    @staticmethod
    def cause(kind: str, action: dict) -> str:
        """What a sitting is for: a round start, an action of the action phase, or a prompt."""
        if kind in ROUND_START:
            return "round start"
        if kind == "action":
            return "action: " + (action.get("space") or action["type"])
        return kind
