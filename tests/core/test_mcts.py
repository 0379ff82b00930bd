"""IS-MCTS: budgets, names, and the winning move in small positions of every game."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from thieves import ThievesError, load_game
from thieves.bots import MCTSBot, SearchSpec, bot_names, make_bot, play_game, search_spec
from thieves.bots.mcts import Budget, _Node, parse_budget, rewards
from thieves.core.game import Game, State
from thieves.core.registry import register_game
from thieves.core.rng import Rng

from . import toy_game  # noqa: F401

GAMES = ["thiefdom", "thiefs-market", "age-of-thieves", "thieves-den", "cadwallon"]


@pytest.mark.parametrize("text, budget", [
    ("200", Budget(iterations=200)), ("1s", Budget(seconds=1.0)), ("0.5s", Budget(seconds=0.5)),
    ("250ms", Budget(seconds=0.25)), (None, Budget(seconds=1.0)),
])
def test_budgets_are_parsed(text, budget):
    assert parse_budget(text) == budget


@pytest.mark.parametrize("text", ["0", "-3", "1.5", "fast", "0s", "1h"])
def test_bad_budgets_are_refused_clearly(text):
    with pytest.raises(ThievesError, match="mcts"):
        parse_budget(text)


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_has_random_greedy_and_mcts(slug):
    assert bot_names(slug) == ["random", "greedy", "mcts"]
    bot = make_bot("mcts:30", slug, 1)
    assert isinstance(bot, MCTSBot) and bot.budget == Budget(iterations=30)
    assert bot.spec.heuristic is not None  # every game values cut playouts its own way
    with pytest.raises(ThievesError, match="takes no argument"):
        make_bot("greedy:3", slug)
    with pytest.raises(ThievesError, match="budget"):
        make_bot("mcts:soon", slug)


def test_rewards_are_win_shares_at_the_end_and_soft_before():
    s = load_game("toy-bids").new_game(2, seed=1, options={"rounds": 1})
    s.points = [5, 1]
    r = rewards(s)
    assert r[0] > 0.5 > r[1] and abs(r[0] + r[1] - 1) < 1e-9
    s.apply_action(0, "bid 3")
    s.apply_action(1, "bid 2")
    assert s.is_terminal() and rewards(s) == [1.0, 0.0]


def test_simultaneous_bids_use_decoupled_selection():
    """Sealed bids, last round, both to act at once: bidding 3 weakly dominates (it wins
    unless the other also bids 3). Each player searches without knowing the other's bid."""
    s = load_game("toy-bids").new_game(2, seed=4, options={"rounds": 1})
    s.points = [0, 3]
    before = s.to_json()
    for p in (0, 1):
        assert make_bot("mcts:300", "toy-bids", 7 + p).choose(s, p) == "bid 3"
    assert s.to_json() == before


def test_iteration_budget_is_deterministic():
    s = load_game("thieves-den").new_game(3, seed=2)
    p = s.players_to_act()[0]
    picks = {make_bot("mcts:40", "thieves-den", 5).choose(s, p) for _ in range(2)}
    assert len(picks) == 1


def _winning_positions(slug: str, n: int, want: int = 1, seeds: range = range(200)):
    """Positions of seeded random games where some actions of the player to act win the game
    at once, whatever that player does not know (checked on several re-deals), and some
    other action wins at most half of random continuations: the choice matters."""
    game = load_game(slug)
    found = []
    for seed in seeds:
        s = game.new_game(n, seed)
        rng = Rng.from_seed(seed)
        while not s.is_terminal() and len(found) < want:
            to_act = s.players_to_act()
            if len(to_act) == 1 and len(s.legal_actions(to_act[0])) > 1:
                p = to_act[0]
                acts = s.legal_actions(p)
                wins = [a for a in acts if _wins_everywhere(s, p, a)]
                if wins and len(wins) < len(acts) and any(
                        _random_share(s, p, a) <= 0.5 for a in acts if a not in wins):
                    found.append((s.clone(), p, wins))
            p = to_act[rng.below(len(to_act))]
            acts = s.legal_actions(p)
            s.apply_action(p, acts[rng.below(len(acts))])
        if len(found) >= want:
            return found
    return found


def _wins_everywhere(s, p, a) -> bool:
    t = s.clone()
    t.apply_action(p, a)
    if not (t.is_terminal() and t.winners() == [p]):
        return False
    for k in range(4):
        d = s.determinize(p, k)
        d._legal_cache = None
        if a not in d.legal_actions(p):
            return False
        d.apply_action(p, a)
        if not (d.is_terminal() and d.winners() == [p]):
            return False
    return True


def _random_share(s, p, a, games: int = 8) -> float:
    """``p``'s win share when ``a`` is followed by random play (on re-deals)."""
    total = 0.0
    rng = Rng.from_seed(11)
    for k in range(games):
        d = s.determinize(p, 100 + k)
        d._legal_cache = None
        d.apply_action(p, a)
        while not d.is_terminal():
            q = d.players_to_act()[0]
            acts = d.legal_actions(q)
            d.apply_action(q, acts[rng.below(len(acts))])
        w = d.winners()
        total += (p in w) / len(w) if w else 0.0
    return total / games


def _keeps_the_win(s, p, a) -> bool:
    """``a`` does not end the game but leaves ``p`` to act with a winning move."""
    t = s.clone()
    t.apply_action(p, a)
    return t.players_to_act() == [p] and any(_wins_everywhere(t, p, b) for b in t.legal_actions(p))


@pytest.mark.parametrize("slug, n", [("thiefs-market", 3), ("thieves-den", 3), ("thiefdom", 2)])
def test_mcts_takes_the_winning_move(slug, n):
    positions = _winning_positions(slug, n)
    assert positions, f"no position with a winning move found in {slug}"
    for state, p, wins in positions:
        before = state.to_json()
        choice = make_bot("mcts:80", slug, 3).choose(state, p)
        # the immediate win, or a move after which the win is still certain
        assert choice in wins or _keeps_the_win(state, p, choice) or _random_share(state, p, choice) == 1, \
            (state.legal_actions(p), wins, choice)
        assert state.to_json() == before


def test_mcts_leaves_the_city_with_the_emperors_jewel():
    """Age of Thieves: with the jewel, standing by an open ship in the alarm, leaving wins
    at once (rulebook "Den Alarm auslösen"); any step in the city risks the watch."""
    from tests.games.age_of_thieves.helpers import act, fresh, plan
    s = fresh("zain,jasmine", die=1)
    s.alarm, s.alarm_district, s.jewel_taken = True, "salty_docks", True
    z = s.thieves[0]
    z["pos"], z["emperor"] = "S50", True
    plan(s, 0, [("move", 9)])
    plan(s, 1, [])
    act(s, 0, "sprint")
    acts = s.legal_actions(0)
    assert "leave S-ship1" in acts and len(acts) > 2
    assert make_bot("mcts:60", "age-of-thieves", 2).choose(s, 0) == "leave S-ship1"


def test_mcts_takes_the_treasure_from_the_chest_it_stands_on():
    """Cadwallon (rulebook "Ouvrir un coffre", "Forcer un coffre"): a thief activated on a
    chest with a treasure opens or forces it rather than walking away or ending."""
    from tests.games.cadwallon.helpers import do, position
    pos = position({"E2": "c2"}, chests={"c2": {"t": "red3", "sealed": False}})
    do(pos, "act E2")
    acts = pos.legal_actions(0)
    assert {"open", "force"} <= set(acts) and len(acts) > 4
    assert make_bot("mcts:150", "cadwallon", 5).choose(pos, 0) in ("open", "force")


class _LampState(State):
    """A light switch one may flip for free, and ``stop``, which ends the game lost (nobody
    wins). A search values going on (a cut playout: 0.5) above losing (0): without a guard
    against free actions undoing each other it would flip forever."""

    FIELDS = ("on", "stopped")

    def _setup(self):
        self.on, self.stopped = False, False

    def _players_to_act(self):
        return [] if self.stopped else [0]

    def _legal_actions(self, p):
        return ["off" if self.on else "on", "flip", "stop"]

    def _apply(self, p, a):
        if a == "stop":
            self.stopped = True
        else:
            self.on = not self.on

    def _is_terminal(self):
        return self.stopped

    def _scores(self):
        return [0.0]

    def _winners(self):
        return []

    def _observe(self, p):
        return {"on": self.on}


class _LampGame(Game):
    slug = "toy-lamp"
    name = "Lamp"
    min_players = max_players = 1
    state_class = _LampState


register_game(_LampGame(), __name__)


def test_free_actions_undoing_each_other_do_not_loop_forever():
    s = load_game("toy-lamp").new_game(1, seed=0)
    play_game(s, [MCTSBot(1, "10", SearchSpec(max_depth=0))], max_decisions=20)
    assert s.is_terminal() and len(s.history) <= 3


def test_a_long_run_of_own_decisions_ends_with_an_action_that_hands_over_the_turn():
    """Without memory (the server builds a bot per decision) the long-turn guard ends it."""
    s = load_game("toy-lamp").new_game(1, seed=0)
    for _ in range(40):
        s.apply_action(0, "flip")
    assert MCTSBot(1, "10", SearchSpec(max_depth=0)).choose(s, 0) == "stop"


class _Stopper(MCTSBot):
    """A prior that always says "stop"."""

    def __init__(self, seed=0):
        super().__init__(seed, "1")

    def choose(self, state, player):
        return "stop"


def test_a_prior_bot_choice_stands_unless_the_search_clearly_disagrees():
    s = load_game("toy-lamp").new_game(1, seed=0)
    strong = MCTSBot(1, "12", SearchSpec(max_depth=0, prior=_Stopper, prior_weight=5.0))
    weak = MCTSBot(1, "12", SearchSpec(max_depth=0, prior=_Stopper, prior_weight=0.01))
    assert strong.choose(s, 0) == "stop" and weak.choose(s, 0) != "stop"


@pytest.mark.parametrize("slug", [g for g in GAMES if not search_spec(g).paired])
def test_a_search_that_stops_once_decided_chooses_what_the_whole_budget_chooses(slug):
    """Stopping once no other action can overtake the leader saves iterations and never
    changes the choice: the same seed with the whole budget picks the same action."""
    game = load_game(slug)
    s = game.new_game(max(2, game.min_players), seed=3)
    greedy = make_bot("greedy", slug, 1)
    budget = 200
    searched = saved = 0
    for ply in range(60):
        if s.is_terminal():
            break
        p = s.players_to_act()[0]
        if ply % 6 == 0 and len(s.legal_actions(p)) > 1:
            early, whole = make_bot(f"mcts:{budget}", slug, ply), make_bot(f"mcts:{budget}", slug, ply)
            whole.stop_when_decided = False
            assert early.choose(s.clone(), p) == whole.choose(s.clone(), p)
            assert whole.last_iterations == budget >= early.last_iterations
            searched += 1
            saved += whole.last_iterations - early.last_iterations
        s.apply_action(p, greedy.choose(s, p))
    assert searched >= 5 and saved > 0


def test_a_lead_counts_as_decided_only_when_the_iterations_left_cannot_close_it():
    bot = MCTSBot(1, "100", SearchSpec(prior_weight=0.25))
    root = _Node()
    root.edges = {(0, "a"): [30.0, 20.0, 40.0], (0, "b"): [10.0, 6.0, 40.0]}
    acts = ["a", "b", "c"]  # "c" never tried: no visits
    assert not bot._decided(root, 0, acts, None, planned=40 + 20, left=20)  # b could tie
    assert bot._decided(root, 0, acts, None, planned=40 + 19, left=19)
    # the prior's extra visits count for the whole planned budget: 0.25 * 100 for "b"
    assert not bot._decided(root, 0, acts, "b", planned=100, left=5)  # b leads 35 to 30
    assert bot._decided(root, 0, acts, "b", planned=100, left=4)
    assert bot._decided(root, 0, acts, "c", planned=100, left=4)  # c: 25 + 4 < 30
    assert not bot._decided(root, 0, acts, "c", planned=100, left=5)  # c: 25 + 5 ties


def test_a_time_budget_stops_as_soon_as_the_choice_is_settled():
    s = load_game("toy-lamp").new_game(1, seed=0)
    bot = MCTSBot(1, "30s", SearchSpec(max_depth=0, prior=_Stopper, prior_weight=5.0))
    assert bot.choose(s, 0) == "stop"
    assert bot.last_iterations == 8  # the first check: the prior's extra visits settle it


def test_move_groups_and_a_greedy_playout_policy_play_legal_moves():
    from thieves.bots.mcts import sampled_greedy_rollout, verb_group
    from thieves.games.thiefs_market.bots import evaluate
    spec = SearchSpec(heuristic=evaluate, scale=3.0, max_depth=6, group=verb_group,
                      rollout=sampled_greedy_rollout(evaluate, sample=2, greedy=0.5))
    s = load_game("thiefs-market").new_game(3, seed=9)
    bot = MCTSBot(3, "25", spec)
    for _ in range(12):
        p = s.players_to_act()[0]
        a = bot.choose(s, p)
        assert a in s.legal_actions(p)
        s.apply_action(p, a)


def _thiefdom_walks(count: int):
    """Positions of a seeded greedy Thiefdom game where a thief is walking, with a choice."""
    from thieves.games.thiefdom.bots import GreedyBot
    s = load_game("thiefdom").new_game(2, seed=3)
    bots = [GreedyBot(seed=p) for p in range(2)]
    found = []
    while not s.is_terminal() and len(found) < count:
        p = s.players_to_act()[0]
        if s.phase == "action" and s.turn and s.turn["moving"] and len(s.legal_actions(p)) > 2:
            found.append((s.clone(), p))
        s.apply_action(p, bots[p].choose(s, p))
    return found


def test_thiefdom_search_walks_where_greedy_walks():
    """Thiefdom's evaluation does not see a walk's progress, so the search keeps the greedy
    bot's step (its prior) instead of wandering."""
    from thieves.games.thiefdom.bots import GreedyBot
    walks = _thiefdom_walks(6)
    assert len(walks) == 6
    for s, p in walks:
        assert make_bot("mcts:30", "thiefdom", 1).choose(s, p) == GreedyBot(seed=1).choose(s, p)


def test_a_playout_stops_where_the_horizon_changes():
    """``horizon``: the playout ends at the first position whose horizon value differs from
    the one it started at (here the round of the sealed bids), however deep ``max_depth``."""
    seen = []

    def value(state, p):
        seen.append(state.round)
        return float(state.points[p])

    s = load_game("toy-bids").new_game(2, seed=3, options={"rounds": 3})
    bot = MCTSBot(1, "1", SearchSpec(heuristic=value, max_depth=50, horizon=lambda s: s.round))
    d = s.clone()
    bot._playout(d)
    assert d.round == 2 and not d.is_terminal() and set(seen) == {2}
    unlimited = s.clone()
    MCTSBot(1, "1", SearchSpec(heuristic=value, max_depth=50))._playout(unlimited)
    assert unlimited.is_terminal()


def test_a_tree_of_depth_one_values_the_root_actions_by_playouts_alone():
    s = load_game("toy-bids").new_game(2, seed=3, options={"rounds": 3})
    flat = MCTSBot(1, "40", SearchSpec(max_depth=50, tree_depth=1))
    root = _Node()
    for k in range(40):
        flat._iterate(root, s.clone())
    assert root.children and all(not child.edges for child in root.children.values())
    deep = MCTSBot(1, "40", SearchSpec(max_depth=50))
    root = _Node()
    for k in range(40):
        deep._iterate(root, s.clone())
    assert any(child.edges for child in root.children.values())


class _CupsState(State):
    """A rival hides a coin under one of three cups while the seeker, at the same time,
    gets ready (two ways, alike) and then points at a cup: both steps are secret and
    simultaneous, nothing shows until the end. The seeker wins when it points at the
    coin: one time in three at the table, whatever it does."""

    FIELDS = ("ready", "seek", "hide", "waited")

    def _setup(self):
        self.ready, self.seek, self.hide, self.waited = None, None, None, False

    def _players_to_act(self):
        return [p for p, done in ((0, self.seek is not None), (1, self.waited)) if not done]

    def _legal_actions(self, p):
        if p == 0:
            return ["ready a", "ready b"] if self.ready is None else ["seek 1", "seek 2", "seek 3"]
        return ["hide 1", "hide 2", "hide 3"] if self.hide is None else ["wait"]

    def _apply(self, p, a):
        if a == "wait":
            self.waited = True
        else:
            verb, arg = a.split()
            setattr(self, verb, arg)

    def _is_terminal(self):
        return self.seek is not None and self.waited

    def _scores(self):
        return [1.0, 0.0] if self.seek == self.hide else [0.0, 1.0]

    def _observe(self, p):
        return {"mine": [self.ready, self.seek] if p == 0 else self.hide}


class _CupsGame(Game):
    slug = "toy-cups"
    name = "Cups"
    min_players = max_players = 2
    state_class = _CupsState


def _seeker_value(hide: bool, iterations: int = 3000) -> float:
    from thieves.bots.mcts import _fresh
    state = _CupsGame().new_game(2, seed=0)
    bot = MCTSBot(3, str(iterations), SearchSpec(max_depth=0, hide_simultaneous=hide))
    bot._player = 0
    root = _Node()
    for _ in range(iterations):
        bot._iterate(root, _fresh(state, 0, bot.rng.next64()))
    edges = [e for (p, _a), e in root.edges.items() if p == 0]
    return sum(e[1] for e in edges) / sum(e[0] for e in edges)


def test_a_rivals_simultaneous_choice_stays_hidden_in_the_searchers_tree():
    # hidden: the seeker's tree cannot point at the cup it saw the coin go under; the
    # search values the position near the one in three it is worth at the table
    assert _seeker_value(hide=True) < 0.45
    # shown (the plain decoupled tree): its pointing answers the hiding, a value no
    # player can reach
    assert _seeker_value(hide=False) > 0.6


class _ChanceState(State):
    """One decision, then a draw from the state's generator: ``safe`` and ``twin`` win one
    time in two, ``good`` four times in five."""

    FIELDS = ("pick", "won")
    ACTIONS: tuple[str, ...] = ("safe", "twin")
    ODDS = {"safe": 0.5, "twin": 0.5, "good": 0.8}

    def _setup(self):
        self.pick, self.won = None, None

    def _players_to_act(self):
        return [] if self.pick else [0]

    def _legal_actions(self, p):
        return list(self.ACTIONS)

    def _apply(self, p, a):
        self.pick = a
        self.won = self.rng.random() < self.ODDS[a]

    def _is_terminal(self):
        return self.pick is not None

    def _scores(self):
        return [1.0 if self.won else 0.0]

    def _winners(self):
        return [0] if self.won else []

    def _observe(self, p):
        return {"pick": self.pick}


class _ChanceGame(Game):
    slug = "toy-chance"
    name = "Chance"
    min_players = max_players = 1
    state_class = _ChanceState


class _Safe(MCTSBot):
    """A prior that always plays ``safe``."""

    def __init__(self, seed=0):
        super().__init__(seed, "1")

    def choose(self, state, player):
        return "safe"


def _picks(margin, actions, seeds=range(30), iterations="60"):
    spec = SearchSpec(max_depth=0, prior=_Safe, prior_weight=0.0, prior_margin=margin, tree_depth=1)
    game = _ChanceGame()
    game.state_class = type("_Chance", (_ChanceState,), {"ACTIONS": tuple(actions)})
    s = game.new_game(1, seed=0)
    return [MCTSBot(seed, iterations, spec).choose(s, 0) for seed in seeds]


def test_with_a_prior_margin_the_search_leaves_the_prior_only_for_a_clearly_better_action():
    # two equal actions: the most visited one is a coin toss, the margin keeps the prior's
    assert 5 <= _picks(None, ["safe", "twin"]).count("twin") <= 25
    assert _picks(2.0, ["safe", "twin"]).count("twin") <= 2
    # a clearly better action is still found
    assert _picks(2.0, ["safe", "good"], iterations="200").count("good") >= 27


def test_clearly_better_compares_means_by_their_standard_errors():
    root = _Node()
    # visits, reward, available, reward squared: means 0.8 (sd 0.4) and 0.5 (sd 0.5)
    root.edges = {(0, "a"): [100.0, 80.0, 200.0, 80.0], (0, "b"): [100.0, 50.0, 200.0, 50.0],
                  (0, "c"): [1.0, 1.0, 200.0, 1.0]}
    # difference 0.3, standard error sqrt(0.16/99 + 0.25/99) = 0.064: 4.7 standard errors
    assert MCTSBot.clearly_better(root, 0, "a", "b", 4.5)
    assert not MCTSBot.clearly_better(root, 0, "a", "b", 4.9)
    assert not MCTSBot.clearly_better(root, 0, "b", "a", 0.0)
    assert not MCTSBot.clearly_better(root, 0, "c", "b", 0.0)  # one visit: no spread to judge


def _paired_picks(margin, actions, seeds=range(30), playouts="60", prior=_Safe):
    spec = SearchSpec(max_depth=0, prior=prior, prior_margin=margin, paired=True)
    game = _ChanceGame()
    game.state_class = type("_Chance", (_ChanceState,), {"ACTIONS": tuple(actions)})
    s = game.new_game(1, seed=0)
    return [MCTSBot(seed, playouts, spec).choose(s, 0) for seed in seeds]


def test_a_paired_search_judges_actions_on_the_same_chance():
    """Each round plays every action from one determinization: "safe" and "twin" win on the
    same draws, so no round tells them apart and the prior stands even with no margin at all,
    where independent playouts leave it for a coin toss (above); "good" wins on every draw
    "safe" wins on and on more, so 20 rounds find it."""
    assert _paired_picks(0.0, ["safe", "twin"]).count("twin") == 0
    assert _paired_picks(1.0, ["safe", "good"], playouts="40").count("good") >= 28
    # without a prior: the best mean
    assert _paired_picks(None, ["safe", "good"], playouts="40", prior=None).count("good") >= 28


def test_a_paired_budget_counts_the_playouts_of_whole_rounds():
    game = _ChanceGame()
    game.state_class = type("_Chance", (_ChanceState,), {"ACTIONS": ("safe", "twin", "good")})
    s = game.new_game(1, seed=0)
    bot = MCTSBot(1, "20", SearchSpec(max_depth=0, paired=True))
    bot.choose(s, 0)
    assert bot.last_iterations == 18 and bot.searches == [18]  # 6 rounds of 3 actions
    bot = MCTSBot(1, "2", SearchSpec(max_depth=0, paired=True))
    bot.choose(s, 0)
    assert bot.last_iterations == 3  # one round at least


def test_paired_choice_takes_the_largest_gain_beyond_the_margin():
    prior = [1, 0, 1, 0, 1, 0, 1, 0]
    samples = {"p": prior,
               "a": [1, 1, 1, 0, 1, 0, 1, 0],  # gains 1 of 8 rounds: 0.125, sd 0.35
               "b": [1, 1, 1, 1, 1, 0, 1, 0],  # 2 of 8: 0.25, standard error 0.164
               "c": [0, 1, 0, 1, 0, 1, 0, 1]}  # as often ahead as behind: no gain
    assert MCTSBot.paired_choice(samples, "p", 1.0) == "b"
    assert MCTSBot.paired_choice(samples, "p", 1.6) == "p"  # 0.25 < 1.6 x 0.164
    assert MCTSBot.paired_choice({**samples, "b": prior}, "p", 0.8) == "a"
    assert MCTSBot.paired_choice(samples, None, 1.0) == "b"  # the best mean
    assert MCTSBot.paired_choice({"p": [0.0], "a": [1.0]}, "p", 0.0) == "p"  # one round: no spread


_ROUNDS = st.integers(2, 12).flatmap(lambda n: st.lists(
    st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=n, max_size=n), min_size=2, max_size=5))


@given(_ROUNDS, st.floats(0.0, 3.0), st.floats(0.0, 3.0))
def test_a_paired_choice_leaves_the_prior_only_for_a_higher_mean_and_less_with_a_wider_margin(rows, m1, m2):
    samples = {f"a{i}": xs for i, xs in enumerate(rows)}
    mean = {a: sum(xs) / len(xs) for a, xs in samples.items()}
    low, high = sorted((m1, m2))
    choice = MCTSBot.paired_choice(samples, "a0", low)
    assert choice == "a0" or mean[choice] > mean["a0"]
    if MCTSBot.paired_choice(samples, "a0", high) != "a0":
        assert choice != "a0"  # what clears a wider margin clears a narrower one
