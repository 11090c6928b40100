"""Perturbations: the web's mess, injected on purpose and reproducibly.

Pop-ups (:mod:`.popups`), login walls (:mod:`.walls`) and broken links (:mod:`.links`) strike
an episode according to a plan drawn from its seed and a profile (:mod:`.plans`), carried out
by WSGI middleware in front of the sites (:mod:`.middleware`). Every one of them can be got
past by a competent agent, and the task's own check grades the episode either way.
"""

from .base import EVENTS, Kind, Planned
from .middleware import Perturber
from .plans import KINDS, PROFILES, Plan, make_plan, resolve_profile
from .recovery import recovering

__all__ = [
    "EVENTS",
    "KINDS",
    "PROFILES",
    "Kind",
    "Perturber",
    "Plan",
    "Planned",
    "make_plan",
    "recovering",
    "resolve_profile",
]
