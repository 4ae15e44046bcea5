#!/usr/bin/env bash
# npuconf as a subproject (issue 16 item 1): tests/install/subproject, a parent that
# FetchContents npuconf from this source tree, configures (its checks are in its
# CMakeLists.txt: no test or bench targets, no flags, build type or launcher
# leaked), builds its own port against npuconf::port (not npuconf: that is minutes),
# and npuconf_add_port_test points at the subproject's npuconf. Nothing of npuconf
# is installed by the parent's install.
# Usage: subproject_test.sh NPUCONF_SOURCE_DIR
set -euo pipefail
source_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/npuconf-subproject.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cp -r "$here/subproject" "$tmp/parent"
cmake -S "$tmp/parent" -B "$tmp/build" -DNPUCONF_SOURCE="$source_dir" >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log"; fail "the parent project does not configure"; }
cmake --build "$tmp/build" --target parent_port >"$tmp/build.log" 2>&1 ||
  { cat "$tmp/build.log"; fail "the parent's port does not build against npuconf::port"; }
/usr/bin/python3 - "$tmp/build" <<'PY'
import json, re, sys
build = sys.argv[1]
commands = json.load(open(build + "/compile_commands.json"))
(parent,) = [c for c in commands if c["file"].endswith("parent_port.c")]
assert "-Wextra" not in parent["command"], "npuconf's warnings reached the parent: " + parent["command"]
# ctest --show-only leaves out a command whose program is not built yet: read the test file.
testfile = open(build + "/CTestTestfile.cmake").read()
gate = re.search(r'add_test\(\[=\[parent_gate\]=\] "([^"]*)" "run" "--port" "([^"]*)"', testfile)
assert gate, testfile
assert gate.group(1).endswith("/_deps/npuconf-build/npuconf"), gate.group(1)
assert gate.group(2) == build + "/libparent_port.so", gate.group(2)
print("parent: %s compiled without npuconf's flags; its gate runs %s" % (parent["file"], gate.group(1)))
PY
if grep -q "bin/npuconf\|npuconfTargets" "$tmp/build/_deps/npuconf-build/cmake_install.cmake"; then
  fail "npuconf as a subproject installs itself into the parent's prefix"
fi
echo "subproject: no tests, benchmarks, install rules or flags of npuconf in the parent"
