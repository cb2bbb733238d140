"""The gold rules, on hand-made groups whose answers are worked out in the comments."""

from __future__ import annotations

from umb.statetrack import Item, gold_for
from umb.statetrack._tasks import num_changes, schema_longest, value_as_of


def items(*rows: tuple[int, str]) -> list[Item]:
    return [Item(day, value, f"P's s was {value}.") for day, value in rows]


def test_schema_longest_takes_the_earlier_fact_of_the_largest_gap():
    # gaps 2, 7, 3 -> the pair (3, 10): answer the fact of day 3
    g = schema_longest(items((1, "a"), (3, "b"), (10, "c"), (13, "d")))
    assert g.answer == "P's s was b." and g.accepted == ("P's s was b.",)


def test_schema_longest_sorts_by_day_first():
    g = schema_longest(items((10, "c"), (1, "a"), (3, "b")))
    assert g.answer == "P's s was b."


def test_schema_longest_ties_go_to_the_earliest_pair():
    # gaps 5 and 5 -> first pair -> day 0
    assert schema_longest(items((0, "a"), (5, "b"), (10, "c"))).answer == "P's s was a."


def test_schema_longest_single_fact_accepts_null_and_all_equal_days_take_the_first():
    one = schema_longest(items((4, "a")))
    assert one.answer == "P's s was a." and None in one.accepted
    same = schema_longest(items((4, "a"), (4, "b")))
    assert same.answer == "P's s was a."
    assert set(same.accepted) == {"P's s was a.", "P's s was b."}


def test_schema_longest_equal_day_block_before_the_gap_accepts_each_of_its_facts():
    # days 1, 1, 20: the listed order makes "b" the earlier fact of the (1, 20) pair; a prompt
    # that shows only days cannot order a and b, so both are accepted.
    g = schema_longest(items((1, "a"), (1, "b"), (20, "c")))
    assert g.answer == "P's s was b."
    assert set(g.accepted) == {"P's s was a.", "P's s was b."}


def test_value_as_of_is_the_latest_value_on_or_before_the_day():
    g = items((1, "a"), (5, "b"), (9, "c"))
    assert value_as_of(g, 0).answer is None
    assert value_as_of(g, 1).answer == "a"
    assert value_as_of(g, 8).answer == "b"
    assert value_as_of(g, 9).answer == "c"
    assert gold_for("latest", g, 100).answer == "c"
    tie = value_as_of(items((1, "a"), (5, "b"), (5, "x")), 6)
    assert tie.answer == "x" and set(tie.accepted) == {"x", "b"}


def test_num_changes_counts_neighbours_that_differ():
    assert num_changes(items((1, "a"))).answer == 0
    assert num_changes(items((1, "a"), (2, "a"), (3, "b"), (4, "a"))).answer == 2
    assert num_changes(items((1, "a"), (2, "a"))).accepted == (0,)


def test_num_changes_accepts_each_count_an_equal_day_order_can_give():
    # a | {a, b} | b: listed order a,a,b,b -> 1; order a,b,a,b -> 3
    g = num_changes(items((1, "a"), (2, "a"), (2, "b"), (3, "b")))
    assert g.answer == 1 and set(g.accepted) == {1, 3}
