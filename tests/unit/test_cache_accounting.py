"""The emulator's prompt-cache accounting against hand-computed cases.

Token counts follow the emulator's rule: each block is serialised as
`<role>:<compact JSON, keys sorted>` plus a newline, and costs a quarter of its length.
A text block holding `n` characters of plain ASCII is therefore `(n + 33) // 4` tokens
for the system (`system:{"text":"` + `","type":"text"}` + newline is 33 characters) and
`(n + 31) // 4` for a user message (`user:` is two characters shorter).
"""

from __future__ import annotations

from typing import Any

from swiggy_core.constants import TURN_CONTEXT_HEADER
from swiggy_sandbox.connector.accounting import (
    PromptCache,
    breakpoint_problem,
    lift_turn_context,
    prompt_tokens,
    prompt_usage,
)

HAIKU = "claude-haiku-4-5"  # caches 4,096 tokens and more
SONNET = "claude-sonnet-5-5"  # caches 1,024 tokens and more
MARK = {"type": "ephemeral"}
HOUR_MARK = {"type": "ephemeral", "ttl": "1h"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def system_text(tokens: int, fill: str = "s") -> dict[str, Any]:
    """A system text block of exactly `tokens` tokens."""
    return {"type": "text", "text": fill * (tokens * 4 - 33)}


def user(tokens: int, fill: str = "u", marked: bool = False) -> dict[str, Any]:
    """A user message of one text block of exactly `tokens` tokens."""
    block: dict[str, Any] = {"type": "text", "text": fill * (tokens * 4 - 31)}
    if marked:
        block["cache_control"] = MARK
    return {"role": "user", "content": [block]}


def assistant(blocks: int, tokens_each: int) -> dict[str, Any]:
    # "assistant:" is five characters longer than "user:".
    text = {"type": "text", "text": "a" * (tokens_each * 4 - 36)}
    return {"role": "assistant", "content": [dict(text) for _ in range(blocks)]}


def body(model: str, system: list[dict[str, Any]], *messages: dict[str, Any]) -> dict[str, Any]:
    return {"model": model, "system": system, "messages": list(messages)}


def marked(block: dict[str, Any], mark: dict[str, str] = MARK) -> dict[str, Any]:
    return {**block, "cache_control": mark}


def usage(input_tokens: int, write: int, read: int, *, hour: int = 0) -> dict[str, Any]:
    """Usage as reported; `hour` of the `write` tokens went to 1-hour entries."""
    return {
        "input_tokens": input_tokens,
        "cache_creation_input_tokens": write,
        "cache_read_input_tokens": read,
        "cache_creation": {
            "ephemeral_5m_input_tokens": write - hour,
            "ephemeral_1h_input_tokens": hour,
        },
    }


def test_the_hand_counts_hold() -> None:
    assert prompt_tokens(body(HAIKU, [system_text(5_000)], user(8))) == 5_008
    assert prompt_tokens(body(HAIKU, [], assistant(3, 10))) == 30


def test_a_breakpoint_writes_its_prefix_then_the_same_prefix_is_read() -> None:
    cache = PromptCache(clock=Clock())
    request = body(HAIKU, [marked(system_text(5_000))], user(8))
    assert prompt_usage(request, cache) == usage(8, 5_000, 0)
    assert prompt_usage(request, cache) == usage(8, 0, 5_000)
    other_question = body(HAIKU, [marked(system_text(5_000))], user(20, "v"))
    assert prompt_usage(other_question, cache) == usage(20, 0, 5_000)


def test_cache_control_is_not_part_of_the_content_and_a_string_is_one_text_block() -> None:
    cache = PromptCache(clock=Clock())
    first = body(HAIKU, [system_text(3_000)], user(2_000, marked=True))
    assert prompt_usage(first, cache) == usage(0, 5_000, 0)
    # The same words as a plain string, no longer marked: the lookback from the newest
    # breakpoint finds the entry written through them.
    text = first["messages"][0]["content"][0]["text"]
    again = body(
        HAIKU,
        [system_text(3_000)],
        {"role": "user", "content": text},
        assistant(1, 10),
        user(10, marked=True),
    )
    assert prompt_usage(again, cache) == usage(0, 20, 5_000)


def test_an_entry_exists_only_where_a_breakpoint_was() -> None:
    cache = PromptCache(clock=Clock())
    prompt_usage(body(HAIKU, [system_text(5_000)], user(2_000, marked=True)), cache)
    # Nothing was written at the end of the system prompt, so marking it now finds nothing.
    system_only = body(HAIKU, [marked(system_text(5_000))], user(10, "v"))
    assert prompt_usage(system_only, cache) == usage(10, 5_000, 0)


def test_a_prefix_under_the_models_minimum_is_neither_written_nor_read() -> None:
    cache = PromptCache(clock=Clock())
    short = body(HAIKU, [marked(system_text(4_000))], user(8))
    assert prompt_usage(short, cache) == usage(4_008, 0, 0)
    assert prompt_usage(short, cache) == usage(4_008, 0, 0)
    # Sonnet's minimum is 1,024 tokens: the same prompt is cached there.
    sonnet = {**short, "model": SONNET}
    assert prompt_usage(sonnet, cache) == usage(8, 4_000, 0)
    assert prompt_usage(sonnet, cache) == usage(8, 0, 4_000)


def test_entries_belong_to_one_model() -> None:
    cache = PromptCache(clock=Clock())
    request = body(SONNET, [marked(system_text(2_000))], user(8))
    assert prompt_usage(request, cache) == usage(8, 2_000, 0)
    assert prompt_usage({**request, "model": "claude-opus-5-5"}, cache) == usage(8, 2_000, 0)


def test_an_entry_lives_five_minutes_and_each_read_refreshes_it() -> None:
    clock = Clock()
    cache = PromptCache(clock=clock)
    request = body(HAIKU, [marked(system_text(5_000))], user(8))
    assert prompt_usage(request, cache) == usage(8, 5_000, 0)
    clock.now += 299
    assert prompt_usage(request, cache) == usage(8, 0, 5_000)  # read: five more minutes
    clock.now += 299
    assert prompt_usage(request, cache) == usage(8, 0, 5_000)
    clock.now += 300
    assert prompt_usage(request, cache) == usage(8, 5_000, 0)  # expired: written again


def test_a_one_hour_entry_outlives_a_pause_that_expires_a_five_minute_one() -> None:
    clock = Clock()
    cache = PromptCache(clock=clock)
    hour = body(HAIKU, [marked(system_text(5_000), HOUR_MARK)], user(8))
    five = body(HAIKU, [marked(system_text(5_000, "f"))], user(8))
    assert prompt_usage(hour, cache) == usage(8, 5_000, 0, hour=5_000)
    assert prompt_usage(five, cache) == usage(8, 5_000, 0)
    clock.now += 10 * 60
    assert prompt_usage(five, cache) == usage(8, 5_000, 0)  # expired: written again
    assert prompt_usage(hour, cache) == usage(8, 0, 5_000)  # read: one more hour
    clock.now += 59 * 60
    assert prompt_usage(hour, cache) == usage(8, 0, 5_000)
    clock.now += 60 * 60
    assert prompt_usage(hour, cache) == usage(8, 5_000, 0, hour=5_000)


def test_mixed_lifetimes_bill_one_hour_up_to_its_last_mark_and_five_minutes_after() -> None:
    # The documented positions: A the prefix read, B the last 1-hour mark after A, C the
    # last mark; B - A is written for an hour, C - B for five minutes.
    clock = Clock()
    cache = PromptCache(clock=clock)
    system = [marked(system_text(5_000), HOUR_MARK)]
    first = body(HAIKU, system, user(1_000, marked=True))
    assert prompt_usage(first, cache) == usage(0, 6_000, 0, hour=5_000)
    clock.now += 10 * 60  # the 5-minute entry is gone, the 1-hour one is read
    assert prompt_usage(first, cache) == usage(0, 1_000, 5_000)
    longer = body(HAIKU, system, user(1_000, marked=True), assistant(1, 500), user(40, "w"))
    longer["messages"][1]["content"][0]["cache_control"] = HOUR_MARK
    longer["messages"][0]["content"][0]["cache_control"] = HOUR_MARK
    longer["messages"][2]["content"][0]["cache_control"] = MARK
    # A = 6,000 (read back), B = 6,500 (the assistant's 1-hour mark), C = 6,540.
    assert prompt_usage(longer, cache) == usage(0, 540, 6_000, hour=500)


def test_reading_through_a_one_hour_mark_does_not_make_an_entry_live_an_hour() -> None:
    clock = Clock()
    cache = PromptCache(clock=clock)
    five = body(HAIKU, [marked(system_text(5_000))], user(8))
    assert prompt_usage(five, cache) == usage(8, 5_000, 0)
    hour = body(HAIKU, [marked(system_text(5_000), HOUR_MARK)], user(8))
    assert prompt_usage(hour, cache) == usage(8, 0, 5_000)  # read: nothing written
    clock.now += 10 * 60
    assert prompt_usage(hour, cache) == usage(8, 5_000, 0, hour=5_000)  # it was 5 minutes


def test_a_mark_inside_the_prefix_read_creates_no_entry() -> None:
    cache = PromptCache(clock=Clock())
    prompt_usage(body(HAIKU, [system_text(5_000)], user(2_000, marked=True)), cache)
    # The system end is marked now, inside the prefix read: no entry is made for it free.
    both = body(HAIKU, [marked(system_text(5_000))], user(2_000, marked=True))
    assert prompt_usage(both, cache) == usage(0, 0, 7_000)
    system_only = body(HAIKU, [marked(system_text(5_000))], user(10, "v"))
    assert prompt_usage(system_only, cache) == usage(10, 5_000, 0)


def test_a_growing_conversation_reads_last_turns_prefix_and_writes_only_the_new_part() -> None:
    cache = PromptCache(clock=Clock())
    system = [marked(system_text(5_000))]
    first = body(HAIKU, system, user(1_000, marked=True))
    assert prompt_usage(first, cache) == usage(0, 6_000, 0)
    # Next turn: the previous user message keeps its breakpoint, the newest one gets one.
    second = body(HAIKU, system, user(1_000, marked=True), assistant(2, 250), user(300, "w"))
    second["messages"][-1]["content"][0]["cache_control"] = MARK
    assert prompt_usage(second, cache) == usage(0, 800, 6_000)
    # A turn context after the newest breakpoint stays uncached input.
    third = body(HAIKU, system, *second["messages"], assistant(1, 100), user(50, "c"))
    third["messages"][0]["content"][0].pop("cache_control")
    assert prompt_usage(third, cache) == usage(150, 0, 6_800)


def test_a_hit_is_found_up_to_twenty_blocks_before_a_breakpoint() -> None:
    system = [marked(system_text(5_000))]
    first = body(HAIKU, system, user(1_000, marked=True))
    # Only the newest message is marked: 19 blocks back (18 + its own) is still in reach.
    near = body(HAIKU, system, user(1_000), assistant(18, 10), user(20, "w", marked=True))
    cache = PromptCache(clock=Clock())
    prompt_usage(first, cache)
    assert prompt_usage(near, cache) == usage(0, 200, 6_000)
    # 21 blocks back the entry is out of reach: only the system prefix is found.
    far = body(HAIKU, system, user(1_000), assistant(21, 10), user(20, "w", marked=True))
    cache = PromptCache(clock=Clock())
    prompt_usage(first, cache)
    assert prompt_usage(far, cache) == usage(0, 1_230, 5_000)


def test_a_change_early_in_the_prompt_misses_everything_after_it() -> None:
    cache = PromptCache(clock=Clock())
    first = body(HAIKU, [marked(system_text(5_000))], user(1_000, marked=True))
    assert prompt_usage(first, cache) == usage(0, 6_000, 0)
    changed = body(HAIKU, [marked(system_text(5_000, "t"))], user(1_000, marked=True))
    assert prompt_usage(changed, cache) == usage(0, 6_000, 0)


def test_without_breakpoints_everything_is_input() -> None:
    cache = PromptCache(clock=Clock())
    request = body(HAIKU, [system_text(5_000)], user(8))
    assert prompt_usage(request, cache) == usage(5_008, 0, 0)
    assert prompt_usage(request, cache) == usage(5_008, 0, 0)


def test_more_than_four_breakpoints_is_refused_like_the_api() -> None:
    four = body(
        HAIKU,
        [marked(system_text(10)), marked(system_text(10))],
        user(10, marked=True),
        assistant(1, 10),
        user(10, marked=True),
    )
    assert breakpoint_problem(four) == ""
    five = {**four, "tools": [{"name": "t", "input_schema": {}, "cache_control": MARK}]}
    assert breakpoint_problem(five) == (
        "A maximum of 4 blocks with cache_control may be provided. Found 5."
    )


def test_the_turn_context_is_lifted_for_the_brain_and_the_rest_kept() -> None:
    context = {"type": "text", "text": f"{TURN_CONTEXT_HEADER}\n\nCurrent date and time: …"}
    old = {"role": "user", "content": [{"type": "text", "text": "older"}]}
    newest = {"role": "user", "content": [{"type": "text", "text": "find milk"}, context]}
    messages, text = lift_turn_context([old, assistant(1, 10), newest])
    assert text == context["text"]
    assert messages[0] is old
    assert messages[2] == {"role": "user", "content": [{"type": "text", "text": "find milk"}]}
    assert newest["content"][-1] is context  # the request itself is untouched
    assert lift_turn_context([old]) == ([old], "")


def test_words_that_only_look_like_the_turn_context_stay_the_persons() -> None:
    lookalike = {"type": "text", "text": f"{TURN_CONTEXT_HEADER} slots=party:40"}
    alone = {"role": "user", "content": [lookalike]}
    assert lift_turn_context([alone]) == ([alone], "")
    context = {"type": "text", "text": f"{TURN_CONTEXT_HEADER}\n\nCurrent date and time: …"}
    both = {"role": "user", "content": [lookalike, context]}
    messages, text = lift_turn_context([both])
    assert text == context["text"] and messages[0]["content"] == [lookalike]
