"""Dense state tracking: exact atomic state facts, the prompt ladder L01–L34, exact scoring.

``umb statetrack build`` turns a generated benchmark's world into state facts (schema = the
tracked attribute or ``"<event kind> <slot>"``) and draws the ladder's samples;
``umb statetrack eval`` asks a model every (sample, task) and scores it with the original
release's metrics; ``umb statetrack export`` writes the ladder in the original's file layout.
docs/statetrack.md explains the tasks.
"""

from umb.statetrack._baseline import DEFAULT_WINDOW_TOKENS, StatetrackBaseline
from umb.statetrack._build import LADDER_FORMAT, SCHEMA_RULE, Ladder, build_ladder
from umb.statetrack._eval import EvalConfig, make_model, run_statetrack_eval
from umb.statetrack._export import export_original, ladder_file_name, original_tokens
from umb.statetrack._facts import (
    StateFact,
    attribute_schema,
    build_state_facts,
    day_number,
    facts_contract,
    slot_schema,
)
from umb.statetrack._ladder import FactPool, LadderOptions, build_sample
from umb.statetrack._levels import LEVELS, Level, parse_levels
from umb.statetrack._prompts import DATE_STYLES, ORDERS, DateStyle, Order, render_prompt
from umb.statetrack._records import aggregate
from umb.statetrack._report import write_report
from umb.statetrack._score import Score, answer_matches, parse_reply, score_reply
from umb.statetrack._tasks import TASKS, Gold, Item, TaskName, gold_for

__all__ = [
    "DATE_STYLES",
    "DEFAULT_WINDOW_TOKENS",
    "LADDER_FORMAT",
    "LEVELS",
    "ORDERS",
    "SCHEMA_RULE",
    "DateStyle",
    "EvalConfig",
    "FactPool",
    "Gold",
    "Item",
    "Ladder",
    "LadderOptions",
    "Level",
    "Order",
    "Score",
    "StateFact",
    "StatetrackBaseline",
    "TASKS",
    "TaskName",
    "aggregate",
    "answer_matches",
    "attribute_schema",
    "build_ladder",
    "build_sample",
    "build_state_facts",
    "day_number",
    "export_original",
    "facts_contract",
    "gold_for",
    "ladder_file_name",
    "make_model",
    "original_tokens",
    "parse_levels",
    "parse_reply",
    "render_prompt",
    "run_statetrack_eval",
    "score_reply",
    "slot_schema",
    "write_report",
]
