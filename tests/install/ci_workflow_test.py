#!/usr/bin/env python3
"""Runs the `conformance` job of examples/ci/npuconf-gate.yml on this machine, step by
step, against the .deb this build makes (issue 16 item 5).

The package is built as the workflow's first job builds it (cpack -G DEB in the
build directory, what `make package` runs). Each `run:` step runs in bash as
written. What GitHub or the container provides is stood in for: actions/checkout
copies examples/consumer out of the package (the port's repository), download-
artifact copies the .deb into the workspace, upload-artifact is skipped, and
apt-get is a stand-in on PATH: `update` does nothing, `install ./x.deb` unpacks the
package into a temporary root (whose usr/ is then on PATH, CMAKE_PREFIX_PATH and
PYTHONPATH, as /usr is after a real install), and every other package named must
already be installed here — as must every package the .deb Depends on.

Usage: ci_workflow_test.py NPUCONF_BUILD_DIR WORKFLOW.yml
"""
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

APT_GET = r"""#!/bin/bash
# apt-get for the workflow's steps on a machine that has the packages (see ci_workflow_test.py).
case "$1" in
  update) exit 0 ;;
  install) shift ;;
  *) echo "apt-get stand-in: '$1' is not a step of the workflow" >&2; exit 2 ;;
esac
for a in "$@"; do
  case "$a" in
    -*) ;;
    *.deb) dpkg-deb -x "$a" "$NPUCONF_CI_ROOT" || exit 1 ;;
    *) dpkg-query -W -f='${Status}' "$a" 2>/dev/null | grep -q "install ok installed" ||
         { echo "apt-get stand-in: package $a is not installed on this machine" >&2; exit 1; } ;;
  esac
done
"""


def installed(package):
    status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True,
                            text=True).stdout
    return "install ok installed" in status


def build_deb(build, out):
    """The package, as `make package` builds it."""
    subprocess.run(["cpack", "-G", "DEB", "--config", os.path.join(build, "CPackConfig.cmake"),
                    "-B", out], check=True, capture_output=True)
    (deb,) = glob.glob(os.path.join(out, "npuconf_*.deb"))
    fields = lambda *f: subprocess.run(["dpkg-deb", "-f", deb, *f], check=True,
                                       capture_output=True, text=True).stdout
    depends = fields("Depends")
    names = [alt.split()[0] for dep in depends.split(",") for alt in dep.split("|")]
    for library in ("libc6", "libstdc++6", "libssl3", "libxxhash0"):
        assert library in names, "Depends lacks %s: %s" % (library, depends)
    for dep in depends.split(","):
        assert any(installed(alt.split()[0]) for alt in dep.split("|")), "unmet: " + dep
    contents = subprocess.run(["dpkg-deb", "-c", deb], check=True, capture_output=True,
                              text=True).stdout
    for path in ("./usr/bin/npuconf", "./usr/include/npuconf/port.h",
                 "./usr/lib/cmake/npuconf/npuconfConfig.cmake",
                 "./usr/lib/python3/dist-packages/npuconf_port/__init__.py",
                 "./usr/share/doc/npuconf/examples/consumer/CMakeLists.txt"):
        assert re.search(r"\s" + re.escape(path) + r"$", contents, re.M), path + " not in the .deb"
    print("package: %s, Depends: %s" % (os.path.basename(deb), depends.strip()))
    return deb


def main():
    build, workflow_path = os.path.abspath(sys.argv[1]), sys.argv[2]
    workflow = yaml.safe_load(open(workflow_path))
    first, job = workflow["jobs"]["npuconf-deb"], workflow["jobs"]["conformance"]
    assert job["needs"] == "npuconf-deb"
    uploads = [s for s in first["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    assert any("make -C npuconf package" in s.get("run", "") for s in first["steps"])
    with tempfile.TemporaryDirectory(prefix="npuconf-ci.") as tmp:
        deb = build_deb(build, os.path.join(tmp, "package"))
        artifact = uploads[0]["with"]["path"].rsplit("/", 1)[-1]
        assert fnmatch.fnmatch(os.path.basename(deb), artifact), (deb, artifact)
        unpacked = os.path.join(tmp, "unpacked")
        subprocess.run(["dpkg-deb", "-x", deb, unpacked], check=True)
        root, workspace, shims = (os.path.join(tmp, d) for d in ("root", "workspace", "shims"))
        os.makedirs(root)
        os.makedirs(shims)
        with open(os.path.join(shims, "apt-get"), "w") as f:
            f.write(APT_GET)
        os.chmod(os.path.join(shims, "apt-get"), 0o755)
        summary = os.path.join(tmp, "step-summary.md")
        env = dict(os.environ, NPUCONF_CI_ROOT=root, GITHUB_STEP_SUMMARY=summary,
                   PATH=os.pathsep.join([shims, root + "/usr/bin", os.environ["PATH"]]),
                   CMAKE_PREFIX_PATH=root + "/usr",
                   PYTHONPATH=root + "/usr/lib/python3/dist-packages")
        failed = None
        for step in job["steps"]:
            name = step.get("name") or step.get("uses")
            if failed and step.get("if") != "always()":
                print("skipped (an earlier step failed): " + name)
                continue
            uses = step.get("uses", "")
            if uses.startswith("actions/checkout"):
                shutil.copytree(unpacked + "/usr/share/doc/npuconf/examples/consumer", workspace)
            elif uses.startswith("actions/download-artifact"):
                assert step["with"]["name"] == uploads[0]["with"]["name"]
                shutil.copy(deb, workspace)
            elif uses.startswith("actions/upload-artifact"):
                pass
            else:
                run = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=workspace, env=env,
                                     capture_output=True, text=True)
                if run.returncode != 0:
                    failed = failed or name
                    print(run.stdout + run.stderr)
            print(("FAILED: " if failed == name else "ran: ") + name)
        assert failed is None, "the step '%s' failed" % failed
        assert os.path.isfile(root + "/usr/bin/npuconf"), "the package was not installed"
        text = open(summary).read()
        assert "✅ CONFORMANT" in text, "no CONFORMANT report in the job summary:\n" + text
        print("job summary: " + text.splitlines()[0])


if __name__ == "__main__":
    main()
