"""For the whole suite: the policy for tests that need outside tools (tests/tool_policy.py): the ``tools`` marker,
a missing tool skipping with its reason, or failing under CI=true, and under CI no skip outside ALLOWED_SKIPS."""
from tool_policy import (  # noqa: F401  (pytest finds the hooks by name in this module)
    pytest_collectreport,
    pytest_configure,
    pytest_runtest_makereport,
    pytest_runtest_setup,
)
