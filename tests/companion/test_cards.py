"""Tests of companion.cards: the shoe (RULES C1-C5) and drawing for partners (T3)."""

import random
from collections import Counter
from statistics import NormalDist

import pytest

from companion.cards import (
    RANKS,
    Shoe,
    ShoeEmpty,
    draw_for_partners,
    is_card,
    make_shoe,
    parse_rank,
    rank_of,
)


# --- C1: cards and the shoe -------------------------------------------------

def test_C1_default_shoe_has_216_cards():
    shoe = make_shoe()
    assert len(shoe) == 216
    counts = Counter(shoe)
    assert counts["JK"] == 8
    assert len(counts) == 53  # 52 distinct suited cards plus the joker
    assert all(n == 4 for card, n in counts.items() if card != "JK")
    assert all(is_card(c) for c in shoe)


def test_C1_shoe_order_is_canonical():
    shoe = make_shoe()
    assert shoe == make_shoe()
    assert shoe[:14] == ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S",
                         "JS", "QS", "KS", "AH"]
    assert shoe[50:54] == ["QC", "KC", "JK", "JK"]  # each deck ends with its jokers
    assert shoe[54] == "AS"


def test_C1_three_decks_have_162_cards():
    assert len(make_shoe(decks=3)) == 162


def test_C1_jokers_removed():
    shoe = make_shoe(jokers_per_deck=0)
    assert len(shoe) == 208 and "JK" not in shoe


@pytest.mark.parametrize("extra", [0, 1, 2, 3, 4])
def test_C1_extra_jokers(extra):
    shoe = make_shoe(extra_jokers=extra)
    assert len(shoe) == 216 + extra
    assert shoe.count("JK") == 8 + extra


@pytest.mark.parametrize("kwargs, word", [
    ({"decks": 0}, "decks"),
    ({"decks": 2.5}, "decks"),
    ({"jokers_per_deck": -1}, "jokers_per_deck"),
    ({"extra_jokers": 5}, "extra_jokers"),
    ({"extra_jokers": -1}, "extra_jokers"),
])
def test_C1_bad_shoe_arguments_are_rejected(kwargs, word):
    with pytest.raises(ValueError, match=word):
        make_shoe(**kwargs)


def test_C1_rank_of_and_is_card():
    assert rank_of("AS") == "A"
    assert rank_of("10H") == "10"
    assert rank_of("QC") == "Q"
    assert rank_of("JK") == "JK"
    assert all(rank_of(c) in RANKS for c in make_shoe())
    for good in ("AS", "10H", "QC", "KD", "JK"):
        assert is_card(good)
    for bad in ("", "A", "JKS", "1S", "11S", "AX", "as", "10", "J", "TS", None, 10):
        assert not is_card(bad)


def test_C1_parse_rank_accepts_notation_ranks_case_insensitive():
    for rank in RANKS:
        assert parse_rank(rank) == rank
        assert parse_rank(rank.lower()) == rank
    assert parse_rank(" jk ") == "JK"
    for bad in ("T", "1", "11", "AS", "joker", "", "0"):
        with pytest.raises(ValueError, match="unknown card rank"):
            parse_rank(bad)


def test_C1_shoe_rejects_non_cards():
    with pytest.raises(ValueError, match="not a card"):
        Shoe(["AS", "ZZ"], random.Random(0))


# --- C2: the deal -----------------------------------------------------------

def test_C2_deal_is_round_robin_one_card_at_a_time():
    shoe = Shoe(make_shoe(), random.Random(1))
    top_first = list(reversed(shoe.stock))  # the order the cards will be drawn
    hands = shoe.deal(3, 2)
    assert hands == [[top_first[0], top_first[3]],
                     [top_first[1], top_first[4]],
                     [top_first[2], top_first[5]]]


def test_C2_deal_leaves_the_rest_as_stock():
    shoe = Shoe(make_shoe(), random.Random(2))
    hands = shoe.deal(4, 5)
    assert [len(h) for h in hands] == [5, 5, 5, 5]
    assert len(shoe.stock) == 196 and shoe.discard == []
    assert Counter(shoe.stock) + Counter(c for h in hands for c in h) == Counter(make_shoe())


def test_C2_deal_kilpatrick_hands_of_three():
    shoe = Shoe(make_shoe(), random.Random(3))
    assert [len(h) for h in shoe.deal(6, 3)] == [3] * 6


def test_C2_deal_with_too_few_cards_raises_and_changes_nothing():
    shoe = Shoe(["AS", "2S", "3S"], random.Random(4))
    before = shoe.snapshot()
    with pytest.raises(ValueError, match="holds only 3 cards"):
        shoe.deal(2, 2)
    assert shoe.snapshot() == before


# --- C4: reshuffle ----------------------------------------------------------

def test_C4_reshuffle_when_stock_empty():
    shoe = Shoe(make_shoe(decks=1, jokers_per_deck=0), random.Random(5))
    drawn = [shoe.draw() for _ in range(52)]
    assert shoe.stock == [] and shoe.reshuffles == 0
    shoe.discard.extend(drawn[:30])
    card = shoe.draw()
    assert shoe.reshuffles == 1
    assert shoe.discard == []
    assert len(shoe.stock) == 29
    assert Counter(shoe.stock + [card]) == Counter(drawn[:30])


def test_C4_no_reshuffle_while_stock_has_cards():
    shoe = Shoe(["AS", "2S"], random.Random(6))
    shoe.draw()
    shoe.discard.append("KH")
    shoe.draw()
    assert shoe.reshuffles == 0 and shoe.discard == ["KH"]


def test_C4_draw_from_empty_stock_and_empty_discard_raises():
    shoe = Shoe(["AS"], random.Random(7))
    shoe.draw()
    with pytest.raises(ShoeEmpty, match="both empty"):
        shoe.draw()
    assert shoe.reshuffles == 0


def test_C4_snapshot_restore_round_trip_with_identical_reshuffles():
    rng = random.Random(8)
    shoe = Shoe(make_shoe(decks=1), rng)
    shoe.deal(4, 5)
    snap = shoe.snapshot()

    def play_out(turns=80):
        # each turn: draw, then discard a card, so the stock runs out and reshuffles
        seen = []
        for _ in range(turns):
            card = shoe.draw()
            shoe.discard.append(card)
            seen.append(card)
        return seen, shoe.snapshot()

    first, end1 = play_out()
    assert shoe.reshuffles >= 1
    shoe.restore(snap)
    assert shoe.snapshot() == snap
    second, end2 = play_out()
    assert second == first
    assert end2 == end1


def test_C4_snapshot_is_a_copy():
    shoe = Shoe(["AS", "2S", "3S"], random.Random(9))
    snap = shoe.snapshot()
    shoe.discard.append(shoe.draw())
    assert len(snap.stock) == 3 and snap.discard == ()
    stock, discard = shoe.stock, shoe.discard
    shoe.restore(snap)
    assert shoe.stock is stock and shoe.discard is discard  # changed in place
    assert tuple(shoe.stock) == snap.stock


def test_C5_snapshot_with_system_random_has_no_rng_state():
    shoe = Shoe(make_shoe(decks=1), random.SystemRandom())
    snap = shoe.snapshot()
    assert snap.rng_state is None
    shoe.draw()
    shoe.restore(snap)
    assert shoe.snapshot() == snap


# --- C5: fair shuffles ------------------------------------------------------

def chi_square_critical(df, p):
    """Upper critical value of the chi-square distribution (Wilson-Hilferty)."""
    z = NormalDist().inv_cdf(1 - p)
    a = 2 / (9 * df)
    return df * (1 - a + z * a ** 0.5) ** 3


def position_chi_square(shuffle, k=13, n=20_000, seed=12345):
    """Chi-square statistic and degrees of freedom of card-by-position counts.

    ``shuffle(list, rng)`` shuffles in place; over ``n`` shuffles of ``k``
    cards, counts[i][j] is how often card i ended at position j, each
    expected n/k times. Each shuffle is a permutation, so row and column
    totals are fixed: Pearson's sum then has mean k(k-1) rather than
    (k-1)^2, and scaled by (k-1)/k it is chi-square with (k-1)^2 degrees
    of freedom (checked: mean 144.1, variance 291 vs 288 for k=13).
    """
    rng = random.Random(seed)
    counts = [[0] * k for _ in range(k)]
    cards = list(range(k))
    for _ in range(n):
        deck = cards[:]
        shuffle(deck, rng)
        for pos, card in enumerate(deck):
            counts[card][pos] += 1
    expected = n / k
    pearson = sum((o - expected) ** 2 for row in counts for o in row) / expected
    return pearson * (k - 1) / k, (k - 1) ** 2


def is_uniform(shuffle, p=0.001):
    stat, df = position_chi_square(shuffle)
    return stat < chi_square_critical(df, p)


def shoe_shuffle(deck, rng):
    """Shuffle through Shoe(): card number i is the spade of rank RANKS[i]."""
    shoe = Shoe([f"{RANKS[i]}S" for i in deck], rng)
    deck[:] = [RANKS.index(rank_of(c)) for c in shoe.stock]


def shoe_reshuffle(deck, rng):
    shoe = Shoe([], rng)
    shoe.discard.extend(f"{RANKS[i]}S" for i in deck)
    top = shoe.draw()
    deck[:] = [RANKS.index(rank_of(c)) for c in shoe.stock + [top]]


def naive_swap_shuffle(deck, rng):
    """The classic biased shuffle: swap each i with a random j from the full range."""
    n = len(deck)
    for i in range(n):
        j = rng.randrange(n)
        deck[i], deck[j] = deck[j], deck[i]


def sattolo_shuffle(deck, rng):
    """Off-by-one Fisher-Yates: only cyclic permutations, no card stays put."""
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randrange(i)
        deck[i], deck[j] = deck[j], deck[i]


def test_C5_chi_square_critical_value_matches_tables():
    # tabulated: df=10 p=0.001 -> 29.588; df=100 p=0.001 -> 149.449
    assert chi_square_critical(10, 0.001) == pytest.approx(29.588, rel=0.01)
    assert chi_square_critical(100, 0.001) == pytest.approx(149.449, rel=0.002)


@pytest.mark.parametrize("shuffle", [shoe_shuffle, shoe_reshuffle], ids=["deal", "reshuffle"])
def test_C5_shuffle_is_uniform_chi_square(shuffle):
    stat, df = position_chi_square(shuffle)
    assert stat < chi_square_critical(df, 0.001), f"chi-square {stat:.1f} with {df} df"


@pytest.mark.parametrize("shuffle", [naive_swap_shuffle, sattolo_shuffle])
def test_C5_biased_shuffle_is_rejected_by_chi_square(shuffle):
    assert not is_uniform(shuffle)


def test_C5_shoe_defaults_to_system_random():
    assert isinstance(Shoe(["AS"]).rng, random.SystemRandom)


# --- T3: drawing for partners -----------------------------------------------

class NoShuffle:
    """An rng whose shuffle leaves the cards alone, to script the draws."""

    def shuffle(self, cards):
        pass


def scripted(*cards):
    """A pile from which the cards are drawn in the order given."""
    return list(reversed(cards))


def test_T3_two_highest_against_two_lowest_aces_low_jokers_high():
    result = draw_for_partners(4, 2, NoShuffle(), scripted("3S", "KH", "AS", "JK"))
    assert result.draws == [{0: "3S", 1: "KH", 2: "AS", 3: "JK"}]
    assert result.ranking == [3, 1, 0, 2]
    assert result.teams == [[3, 1], [0, 2]]
    assert result.dealer == 3


def test_T3_seating_alternates_teams_and_first_is_left_of_dealer():
    result = draw_for_partners(4, 2, NoShuffle(), scripted("3S", "KH", "AS", "JK"))
    assert result.seating == [3, 0, 1, 2]
    assert result.seating[0] == result.dealer
    assert result.first == result.seating[1] == 0
    for seat, player in enumerate(result.seating):
        assert player in result.teams[seat % 2]  # RULES T1


def test_T3_suits_do_not_matter_tie_within_a_team_stands():
    result = draw_for_partners(4, 2, NoShuffle(), scripted("KS", "QD", "4S", "4H"))
    assert len(result.draws) == 1
    assert result.teams == [[0, 1], [2, 3]]


def test_T3_tie_across_team_boundary_redraws_only_tied_players():
    pile = scripted("5S", "5H", "KS", "2C", "9D", "3C")
    result = draw_for_partners(4, 2, NoShuffle(), pile)
    assert result.draws == [{0: "5S", 1: "5H", 2: "KS", 3: "2C"}, {0: "9D", 1: "3C"}]
    assert result.teams == [[2, 0], [1, 3]]
    assert result.dealer == 2


def test_T3_tie_for_highest_card_redraws_for_dealer():
    pile = scripted("JK", "JK", "2S", "3S", "4D", "QC")
    result = draw_for_partners(4, 2, NoShuffle(), pile)
    assert result.draws[1] == {0: "4D", 1: "QC"}
    assert result.dealer == 1
    assert result.teams == [[1, 0], [3, 2]]


def test_T3_redraw_repeats_until_resolved():
    pile = scripted("5S", "5H", "KS", "2C", "9D", "9S", "2D", "7H")
    result = draw_for_partners(4, 2, NoShuffle(), pile)
    assert result.draws[1:] == [{0: "9D", 1: "9S"}, {0: "2D", 1: "7H"}]
    assert result.teams == [[2, 1], [0, 3]]


def test_T3_solo_two_players_tie_redraws():
    result = draw_for_partners(2, 2, NoShuffle(), scripted("8S", "8C", "AH", "10D"))
    assert result.teams == [[1], [0]]
    assert result.dealer == 1 and result.first == 0
    assert result.seating == [1, 0]


@pytest.mark.parametrize("n_players, n_teams", [(2, 2), (4, 2), (6, 2), (6, 3), (8, 2),
                                                (8, 4), (10, 2)])
def test_T3_random_draws_give_valid_teams(n_players, n_teams):
    size = n_players // n_teams
    for seed in range(200):
        result = draw_for_partners(n_players, n_teams, random.Random(seed))
        keys = {p: [] for p in range(n_players)}
        for rnd in result.draws:
            for p, card in rnd.items():
                keys[p].append(RANKS.index(rank_of(card)))
        # teams partition the players into equal sizes, cut from the top
        assert sorted(p for t in result.teams for p in t) == list(range(n_players))
        assert all(len(t) == size for t in result.teams)
        for upper, lower in zip(result.teams, result.teams[1:]):
            assert min(keys[p] for p in upper) > max(keys[p] for p in lower)
        # the dealer alone has the highest card
        assert all(keys[result.dealer] > keys[p] for p in keys if p != result.dealer)
        # only tied players redraw
        for r in range(1, len(result.draws)):
            for p in result.draws[r]:
                assert any(keys[q][:r] == keys[p][:r] for q in result.draws[r] if q != p)
        # seating: teams alternate, dealer first seat, first player next
        assert sorted(result.seating) == list(range(n_players))
        for seat, player in enumerate(result.seating):
            assert player in result.teams[seat % n_teams]
        assert result.seating[0] == result.dealer and result.seating[1] == result.first


def test_T3_draw_uses_the_rng():
    a = draw_for_partners(6, 3, random.Random(42))
    b = draw_for_partners(6, 3, random.Random(42))
    assert a == b


@pytest.mark.parametrize("args, word", [
    ((4, 3), "teams of equal size"),
    ((1, 1), "n_players"),
    ((4, 0), "n_teams"),
    ((4, 5), "n_teams"),
])
def test_T3_bad_arguments_are_rejected(args, word):
    with pytest.raises(ValueError, match=word):
        draw_for_partners(*args, random.Random(0))


def test_T3_running_out_of_cards_is_an_error():
    with pytest.raises(ValueError, match="ran out of cards"):
        draw_for_partners(2, 2, random.Random(0), ["AS", "AH", "AD"])
