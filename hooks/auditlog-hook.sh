#!/bin/sh
# Claude Code plugin entry (hooks/hooks.json): run the installed auditlog hook.
# The hook never fails the agent, so a missing installation is reported and ignored.
if command -v auditlog-hook >/dev/null 2>&1; then
  exec auditlog-hook "$@"
fi
cat >/dev/null
echo "auditlog: auditlog-hook is not on PATH (pip install auditlog); event not recorded" >&2
exit 0
