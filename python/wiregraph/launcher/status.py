"""The launcher's exit codes (--help's "Exit status")."""

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_USAGE = 2
EXIT_TIMEOUT = 124
EXIT_INTERRUPTED = 130


def nodes_status(nodes):
    """The launcher's exit status when a node failed, after the nodes' own rule
    (README: 1 a runtime error, 2 a command-line error): 2 when a node exited
    2 (the others then fail only because it left), else 1."""
    return EXIT_USAGE if any(n.rc == EXIT_USAGE for n in nodes) else EXIT_FAIL
