"""An example webenv plugin: the notes site (Jotter) and two task templates on it.

The site declares itself once, as a :class:`webenv.site.Site`, named by the ``webenv.sites``
entry point in ``pyproject.toml``; its templates (:mod:`webenv_example.tasks`) are imported
through the ``webenv.tasks`` entry point.
"""

from webenv.changes import Tracked
from webenv.site import Site

#: Jotter: the persona's notebooks and notes. The user's data is their notes and notebooks
#: (every row of each: the site has no catalogue); the diff reads them at every step.
SITE = Site(
    name="notes",
    module="webenv_example.notes",
    user_data={"users": Tracked(), "notebooks": Tracked(), "notes": Tracked()},
)
