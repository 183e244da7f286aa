"""The exception the Python API raises when a run fails."""


class WiregraphError(RuntimeError):
    """A run of the cluster failed: the message is the nodes' own (file, line,
    field and value for a bad input; the launcher's words for a dead node).
    `returncode` is the launcher's exit status, `output` its last lines."""

    def __init__(self, message, returncode=None, output=()):
        super().__init__(message)
        self.returncode = returncode
        self.output = list(output)
