"""Verifiable randomness (DESIGN §5): commitment, keyed streams, unbiased draws, shuffles, recompute."""

import hashlib
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from moderator.core.rng import Rng, RngRecord, commitment, derive_key, raw_draw, recompute

SEED = bytes(range(32))


def test_commitment_is_sha256_of_tag_game_and_seed():
    expected = hashlib.sha256(b"moderator-seed/v1" + (4).to_bytes(4, "big") + b"g-01" + SEED).hexdigest()
    assert commitment("g-01", SEED) == expected
    assert commitment("g-02", SEED) != expected


def test_player_contributions_change_every_draw():
    a = RngRecord("g", SEED, ["alice", "bob"]).rng()
    b = RngRecord("g", SEED, ["alice", "bob!"]).rng()
    assert [a.d6().value for _ in range(20)] != [b.d6().value for _ in range(20)]


def test_contribution_framing_prevents_shifting_bytes_between_players():
    assert derive_key("g", SEED, ["ab", "c"]) != derive_key("g", SEED, ["a", "bc"])


def test_streams_are_independent_and_counted():
    rng = RngRecord("g", SEED, ["x"]).rng()
    first_dice = rng.d6(stream="dice")
    rng.shuffle(list(range(10)), stream="deck")
    second = rng.d6(stream="dice")
    assert (first_dice.counter, second.counter) == (0, 1)
    assert rng.counters["deck"] == 9


def test_same_inputs_give_same_draws():
    one = RngRecord("g", SEED, ["x", "y"]).rng()
    two = RngRecord("g", SEED, ["x", "y"]).rng()
    assert [one.below(1000).value for _ in range(50)] == [two.below(1000).value for _ in range(50)]


@given(st.integers(min_value=1, max_value=10**6))
@settings(max_examples=200)
def test_draws_stay_below_their_bound(bound):
    rng = RngRecord("g", SEED, []).rng()
    assert 0 <= rng.below(bound).value < bound


def test_rejection_sampling_skips_draws_above_the_limit():
    """With bound 2**255 + 1 about half of all raw draws are rejected: counters must skip them."""
    rng = Rng(derive_key("g", SEED, []))
    bound = 2**255 + 1
    draws = [rng.below(bound) for _ in range(40)]
    assert any(d.counter > d.first for d in draws)
    key = derive_key("g", SEED, [])
    for draw in draws:
        assert raw_draw(key, "dice", draw.counter) % bound == draw.value


def test_d6_is_roughly_uniform():
    rng = RngRecord("g", SEED, ["u"]).rng()
    counts = Counter(rng.d6().value for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in counts.values()), counts


@given(st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation(items):
    rng = RngRecord("g", SEED, ["s"]).rng()
    assert sorted(rng.shuffle(items)) == sorted(items)


def test_recompute_accepts_true_draws_and_names_a_tampered_one():
    rng = RngRecord("g", SEED, ["a", "b"]).rng()
    for _ in range(5):
        rng.d6("combat")
    rng.shuffle(list(range(6)), "deck", stream="deck")
    draws = [d.to_json() for d in rng.take_draws()]
    assert recompute("g", SEED, ["a", "b"], draws) == []
    draws[2]["value"] = (draws[2]["value"] + 1) % 6
    problems = recompute("g", SEED, ["a", "b"], draws)
    assert len(problems) == 1 and "draw 2" in problems[0]
