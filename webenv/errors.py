"""The errors webenv raises. Each message says what to do next."""


class WebEnvError(Exception):
    """Base class of every error webenv raises on purpose."""


class BrowserNotFoundError(WebEnvError):
    """No Chromium could be found to launch."""


class UnknownTaskError(WebEnvError, KeyError):
    """A task id names no registered template."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class ActionError(WebEnvError):
    """An agent's action could not be parsed or executed. Returned to the agent, never raised."""


class WorldError(WebEnvError):
    """A world (the sites' seeded state) could not be built or restored."""


class SamplingError(WebEnvError):
    """A template found no instance in a world: a bug of the template (its draws must always
    end), reported with the template, the seed and what it looked for."""


class InfrastructureError(WebEnvError):
    """The browser or the machine failed, not the agent: a renderer crashed, or a page did not
    load within the timeouts, even when tried again on a fresh browser context. Run the
    episode again; on a busy machine, raise the timeouts (``WEBENV_TIMEOUT_SCALE``)."""


class PluginError(WebEnvError):
    """An installed plugin (an entry point of ``webenv.sites`` or ``webenv.tasks``) could not be
    loaded: fix or uninstall the distribution named in the message."""
