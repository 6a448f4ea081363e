"""PromptProfile: a vertical's prompt as structured sections, and its compiler."""

from __future__ import annotations

from dataclasses import dataclass

from swiggy_core.verticals.rules import COD_RULE, SHARED_RULES, RuleSection


@dataclass(frozen=True, slots=True)
class PromptProfile:
    """What a vertical's assistant is for, what it collects, and how it behaves."""

    mission: str
    scope: tuple[str, ...]
    slots: tuple[str, ...]
    phases: tuple[str, ...]
    policies: tuple[str, ...]
    style: tuple[str, ...]
    confirmation: tuple[str, ...]
    fallbacks: tuple[str, ...]
    include_cod_rule: bool = False


def compile_prompt_profile(profile: PromptProfile) -> str:
    """Render a profile as the full system prompt: its sections, then the shared rules."""
    sections = [
        _section("Mission", profile.mission),
        _section("Scope", _bullets(profile.scope)),
        _section("Slots", _bullets(profile.slots)),
        # Phases are ordered steps, so they are numbered.
        _section("Phases", _numbered(profile.phases)),
        _section("Policies", _bullets(profile.policies)),
        _section("Style", _bullets(profile.style)),
        _section("Confirmation", _bullets(profile.confirmation)),
        _section("Fallbacks", _bullets(profile.fallbacks)),
    ]
    rules: tuple[RuleSection, ...] = SHARED_RULES + (
        (COD_RULE,) if profile.include_cod_rule else ()
    )
    sections.extend(_section(rule.title, _bullets(rule.lines)) for rule in rules)
    return "\n\n".join(sections) + "\n"


def _section(title: str, body: str) -> str:
    return f"## {title}\n{body}"


def _bullets(lines: tuple[str, ...]) -> str:
    return "\n".join(f"- {line}" for line in lines)


def _numbered(lines: tuple[str, ...]) -> str:
    return "\n".join(f"{n}. {line}" for n, line in enumerate(lines, start=1))
