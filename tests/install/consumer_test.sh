#!/usr/bin/env bash
# The installed form, as a stranger's project meets it (issue 16 items 1, 2, 4):
# `cmake --install` npuconf into a temporary prefix, move the prefix (the package
# is relocatable), then configure, build and ctest examples/consumer — copied
# from the INSTALLED docs, found through CMAKE_PREFIX_PATH only — twice: the
# correct port passes, the planted bug (-DNZ_PORT_PLANTED_BUG=ON) fails with the
# `npuconf check` reproducer in ctest's output, and that reproducer fails too.
# Then tests/install/port_test_args checks what npuconf_add_port_test makes of
# each keyword and kind of PORT, and how it refuses misuse.
# Usage: consumer_test.sh NPUCONF_BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/npuconf-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# Nothing from the caller's environment may point the consumer at a tree.
unset CMAKE_PREFIX_PATH npuconf_DIR PYTHONPATH

cmake --install "$build" --prefix "$tmp/staging" >/dev/null
for f in bin/npuconf include/npuconf/port.h lib/cmake/npuconf/npuconfConfig.cmake \
         lib/cmake/npuconf/npuconfConfigVersion.cmake lib/cmake/npuconf/npuconfTargets.cmake \
         lib/cmake/npuconf/NpuconfAddPortTest.cmake lib/python3/dist-packages/npuconf_port/__init__.py \
         share/doc/npuconf/README.md share/doc/npuconf/docs/port-protocol.md \
         share/doc/npuconf/examples/consumer/CMakeLists.txt share/doc/npuconf/examples/ci/npuconf-gate.yml \
         share/doc/npuconf/examples/python_port/cann_port.py share/npuconf/corpus/cann.nd_to_nz.json; do
  [ -f "$tmp/staging/$f" ] || fail "cmake --install did not install $f"
done
if grep -rlF -e "$source_dir" -e "$build" "$tmp/staging/lib" "$tmp/staging/share/doc/npuconf/examples"; then
  fail "the installed package names the source or build tree (above)"
fi
mv "$tmp/staging" "$tmp/prefix"
prefix=$tmp/prefix

examples=$prefix/share/doc/npuconf/examples

# README's compile lines of a .so port (C and C++), against the prefix alone.
cc -std=c11 -shared -fPIC -fvisibility=hidden -I"$prefix/include" "$examples/port_template/port_template.c" \
  -o "$tmp/libtemplate.so"
c++ -std=c++20 -shared -fPIC -fvisibility=hidden -I"$prefix/include" "$examples/consumer/nd_to_nz_port.cpp" \
  -o "$tmp/libnd_to_nz.so"
for port in "$tmp/libtemplate.so --profile ascend910b" "$tmp/libnd_to_nz.so --profile ascend910b --routine cann.nd_to_nz"; do
  # shellcheck disable=SC2086
  "$prefix/bin/npuconf" run --port $port --no-real-shapes --quiet --out "$tmp/cli-report" ||
    fail "npuconf run --port $port (compiled by README's line) did not pass"
done
echo "README's cc and c++ lines build ports that pass npuconf run"

cp -r "$examples/consumer" "$tmp/consumer"
gate() {  # gate NAME [cmake -D options]: configure, build and ctest the consumer
  local dir=$tmp/$1
  shift
  cmake -S "$tmp/consumer" -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" "$@" >"$tmp/configure.log" 2>&1 ||
    { cat "$tmp/configure.log"; fail "the consumer does not configure against the prefix"; }
  if grep -qF "$source_dir" "$dir/CMakeCache.txt"; then fail "the consumer's cache names $source_dir"; fi
  cmake --build "$dir" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "the consumer does not build"; }
  set +e
  ctest --test-dir "$dir" --output-on-failure >"$dir.ctest" 2>&1
  echo $? >"$dir.rc"
  set -e
}

gate good
[ "$(cat "$tmp/good.rc")" = 0 ] || { cat "$tmp/good.ctest"; fail "the correct port's ctest failed"; }
grep -q "✅ CONFORMANT" "$tmp/good/npuconf-reports/nd_to_nz/report.md" ||
  fail "no CONFORMANT report.md under the consumer's build tree"
echo "correct port: ctest passed, $(grep -c '' "$tmp/good.ctest") lines"

gate bad -DNZ_PORT_PLANTED_BUG=ON
[ "$(cat "$tmp/bad.rc")" != 0 ] || { cat "$tmp/bad.ctest"; fail "the planted bug passed ctest"; }
reproduce=$(grep -m1 -o "reproduce: $prefix/bin/npuconf check --port $tmp/bad/libnd_to_nz_port.so cann\.nd_to_nz\..*" \
            "$tmp/bad.ctest") || { cat "$tmp/bad.ctest"; fail "no npuconf check reproducer in ctest's output"; }
grep -q "verdict: NON-CONFORMANT" "$tmp/bad.ctest" || fail "no NON-CONFORMANT verdict in ctest's output"
set +e
eval "${reproduce#reproduce: }" >"$tmp/replay.log" 2>&1
replay=$?
set -e
[ "$replay" = 1 ] || { cat "$tmp/replay.log"; fail "the reproducer exited $replay, not 1"; }
echo "planted bug: ctest failed; its reproducer fails again: ${reproduce#reproduce: }"

# npuconf_add_port_test's arguments, read back from ctest --show-only=json-v1.
cp -r "$here/port_test_args" "$tmp/args"
touch "$tmp/args/waivers.txt"
cmake -S "$tmp/args" -B "$tmp/args-build" -DCMAKE_PREFIX_PATH="$prefix" -DNPUCONF_EXAMPLES="$examples" \
  >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "port_test_args does not configure"; }
cmake --build "$tmp/args-build" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "port_test_args does not build"; }
ctest --test-dir "$tmp/args-build" --show-only=json-v1 >"$tmp/tests.json"
/usr/bin/python3 - "$tmp/tests.json" "$prefix" "$tmp/args" "$tmp/args-build" <<'PY'
import json, sys
tests, prefix, src, bld = json.load(open(sys.argv[1]))["tests"], *sys.argv[2:]
by = {t["name"]: t for t in tests}
props = lambda t: {p["name"]: p["value"] for p in t.get("properties", [])}
npuconf = prefix + "/bin/npuconf"
report = lambda name: bld + "/npuconf-reports/" + name
expect = {
    "all_keywords": [npuconf, "run", "--port", bld + "/libtemplate_port.so",
                     "--profile", "ascend910b", "--profile", "ascend31*", "--routine", "cann.*",
                     "--property", "*.matches_oracle", "--property", "*.documented_cases",
                     "--waivers", src + "/waivers.txt", "--out", report("all_keywords"),
                     "--no-real-shapes", "--seed", "7"],
    "executable": [npuconf, "run", "--port", "exec:'" + bld + "/exe_port'", "--out", report("executable")],
    "builtin": [npuconf, "run", "--port", "mutant:int8-c0-16", "--out", report("builtin")],
    "relative_path": [npuconf, "run", "--port", src + "/ports/libsomething.so", "--out", report("relative_path")],
    "genex": [npuconf, "run", "--port", bld + "/libtemplate_port.so", "--out", report("genex")],
}
for name, command in expect.items():
    assert by[name]["command"] == command, (name, by[name]["command"], command)
for t in tests:
    p = props(t)
    assert p["LABELS"] == ["npuconf"], (t["name"], p)
    assert p["WORKING_DIRECTORY"] == bld, (t["name"], p)
    assert p["ENVIRONMENT_MODIFICATION"] == ["PYTHONPATH=path_list_prepend:" + prefix + "/lib/python3/dist-packages"], p
print("npuconf_add_port_test: %d tests, commands, labels and PYTHONPATH as documented" % len(tests))
import subprocess
t = by["nothing_checked"]
code = subprocess.run(t["command"], cwd=props(t)["WORKING_DIRECTORY"], capture_output=True).returncode
assert code == 4, "nothing_checked exited %d, not 4" % code
PY
ctest --test-dir "$tmp/args-build" -R '^(template_passes|python_example)$' --output-on-failure >"$tmp/run.log" 2>&1 ||
  { cat "$tmp/run.log"; fail "the installed template port or Python example failed its gate"; }
if ctest --test-dir "$tmp/args-build" -R '^nothing_checked$' >"$tmp/run.log" 2>&1; then
  fail "a test that checked nothing (exit 4) passed"
fi
echo "gates: the template port and the Python example pass; exit 4 (nothing checked) fails"

for misuse in "static:PORT target static_port is a STATIC_LIBRARY" "no_name:NAME is required" \
              "unknown_keyword:unknown arguments: PROFILE;ascend910b"; do
  if cmake -S "$tmp/args" -B "$tmp/misuse-${misuse%%:*}" -DCMAKE_PREFIX_PATH="$prefix" \
       -DNPUCONF_EXAMPLES="$examples" -DPORT_TEST_MISUSE="${misuse%%:*}" >"$tmp/misuse.log" 2>&1; then
    fail "npuconf_add_port_test accepted misuse '${misuse%%:*}'"
  fi
  grep -qF "${misuse#*:}" "$tmp/misuse.log" || { cat "$tmp/misuse.log"; fail "misuse '${misuse%%:*}' not named"; }
done
echo "misuse (a static library as PORT, no NAME, an unknown keyword) stops the configure naming the function"
