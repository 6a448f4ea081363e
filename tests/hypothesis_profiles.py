"""Two Hypothesis profiles: a light one for everyday runs and the full one for CI.

A property runs `FULL_EXAMPLES` examples under "ci" (chosen by `CI=true`, as `.ci/run`
sets) and `QUICK_EXAMPLES` under "dev" (everywhere else), so the suite stays quick on a
laptop while CI still searches as hard as before. `HYPOTHESIS_PROFILE` picks either by
name. Neither has a deadline: a loaded machine is slow, not wrong (the few properties
that guard against hangs keep their own deadline).

A property that wants more or fewer than the standard count says how many it wants in
the full run, `@settings(max_examples=examples(600))`, and gets its share in the light one.
"""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import settings

PROFILE_ENV = "HYPOTHESIS_PROFILE"
CI_PROFILE = "ci"
DEV_PROFILE = "dev"
FULL_EXAMPLES = 300
QUICK_EXAMPLES = 25


def register_profiles() -> None:
    # "ci" keeps Hypothesis's own CI settings (the same examples every run, no example
    # database, a reproduction blob on failure) and adds the full number of examples.
    ci_defaults = settings.get_profile(CI_PROFILE)
    settings.register_profile(
        CI_PROFILE, parent=ci_defaults, max_examples=FULL_EXAMPLES, deadline=None
    )
    settings.register_profile(DEV_PROFILE, max_examples=QUICK_EXAMPLES, deadline=None)


def chosen_profile(environ: Mapping[str, str]) -> str:
    """The profile `HYPOTHESIS_PROFILE` names, else "ci" under `CI=true`, else "dev"."""
    named = environ.get(PROFILE_ENV, "").strip()
    if named:
        return named
    return CI_PROFILE if environ.get("CI", "").lower() == "true" else DEV_PROFILE


def examples(full_run: int) -> int:
    """`full_run` examples under the full profile, the same share of the loaded one."""
    loaded = settings.default
    assert loaded is not None  # the root conftest has loaded a profile
    loaded_examples: int = loaded.max_examples
    return max(1, round(full_run * loaded_examples / FULL_EXAMPLES))
