#!/usr/bin/env python3
"""Runs the jobs of the workflows of examples/ci/ on this machine, step by step,
against the .deb this build makes (issue 16 item 5, issue 15 item 7): the
ctest gate of npuconf-gate.yml, and the shard matrix and merge of
npuconf-sharded.yml.

The package is built as the workflow's first job builds it (cpack -G DEB in the
build directory, what `make package` runs). Each `run:` step runs in bash as
written; jobs run in the order of their `needs`, a `strategy.matrix` of one key
once per value (`${{ matrix.KEY }}` substituted), each in a fresh workspace and
root, a job whose needs failed skipped unless it is `if: always()`. What GitHub
or the container provides is stood in for: actions/checkout copies
examples/consumer out of the package (the port's repository), upload-artifact
and download-artifact (by name or pattern) copy through a local store, the
first job's .deb is the package this build makes, and apt-get is a stand-in on
PATH: `update` does nothing, `install ./x.deb` unpacks the
package into a temporary root (whose usr/ is then on PATH, CMAKE_PREFIX_PATH and
PYTHONPATH, as /usr is after a real install), and every other package named must
already be installed here — as must every package the .deb Depends on.

Usage: ci_workflow_test.py NPUCONF_BUILD_DIR WORKFLOW.yml...
"""
import fnmatch
import json
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


def job_order(jobs):
    """Job names, each after the jobs it needs."""
    order, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        needs = jobs[name].get("needs", [])
        for need in [needs] if isinstance(needs, str) else needs:
            visit(need)
        order.append(name)

    for name in jobs:
        visit(name)
    return order


def expand(job):
    """(suffix, {key: value}) per matrix entry of the job; one entry without a matrix."""
    matrix = job.get("strategy", {}).get("matrix")
    if not matrix:
        return [("", {})]
    (key, values), = matrix.items()
    return [("(%s=%s)" % (key, v), {key: str(v)}) for v in values]


def substitute(text, values):
    return re.sub(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", lambda m: values[m.group(1)], text)


def copy_into(source, target):
    os.makedirs(target, exist_ok=True)
    if os.path.isdir(source):
        shutil.copytree(source, target, dirs_exist_ok=True)
    else:
        shutil.copy(source, target)


def run_job(name, job, values, unpacked, artifacts, tmp, rewrite=lambda text: text):
    """Runs one job (one matrix entry); returns (failed step or None, step summary text)."""
    base = os.path.join(tmp, re.sub(r"\W", "_", name + str(values)))
    root, workspace, shims = (os.path.join(base, d) for d in ("root", "workspace", "shims"))
    for d in (root, shims):
        os.makedirs(d)
    with open(os.path.join(shims, "apt-get"), "w") as f:
        f.write(APT_GET)
    os.chmod(os.path.join(shims, "apt-get"), 0o755)
    summary = os.path.join(base, "step-summary.md")
    open(summary, "w").close()
    env = dict(os.environ, NPUCONF_CI_ROOT=root, GITHUB_STEP_SUMMARY=summary,
               PATH=os.pathsep.join([shims, root + "/usr/bin", os.environ["PATH"]]),
               CMAKE_PREFIX_PATH=root + "/usr",
               PYTHONPATH=root + "/usr/lib/python3/dist-packages")
    failed = None
    for step in job["steps"]:
        label = "%s%s: %s" % (name, values and " " + str(values) or "",
                              substitute(step.get("name") or step.get("uses"), values))
        if failed and step.get("if") != "always()":
            print("skipped (an earlier step failed): " + label)
            continue
        uses = step.get("uses", "")
        given = {k: substitute(str(v), values) for k, v in step.get("with", {}).items()}
        if uses.startswith("actions/checkout"):
            shutil.copytree(unpacked + "/usr/share/doc/npuconf/examples/consumer", workspace)
        elif uses.startswith("actions/download-artifact"):
            target = os.path.join(workspace, given.get("path", "."))
            if "name" in given:
                copy_into(artifacts[given["name"]], target)
            else:
                matched = [a for a in artifacts if fnmatch.fnmatch(a, given["pattern"])]
                assert matched, "no artifact matches " + given["pattern"]
                for a in matched:
                    copy_into(artifacts[a], os.path.join(target, a))
        elif uses.startswith("actions/upload-artifact"):
            store = os.path.join(tmp, "artifacts", given["name"])
            paths = glob.glob(os.path.join(workspace, given["path"]))
            for path in paths:
                copy_into(path, store)
            if paths:
                artifacts[given["name"]] = store
        else:
            run = subprocess.run(["bash", "-e", "-c", rewrite(substitute(step["run"], values))],
                                 cwd=workspace, env=env, capture_output=True, text=True)
            if run.returncode != 0:
                failed = failed or label
                print(run.stdout + run.stderr)
        print(("FAILED: " if failed == label else "ran: ") + label)
    return failed, open(summary).read()


def run_workflow(build, workflow_path, tmp, rewrite=lambda text: text):
    """Runs every job of the workflow, each run: step through `rewrite`; returns {job: (failed
    step, summary)} and the artifacts."""
    workflow = yaml.safe_load(open(workflow_path))
    jobs = workflow["jobs"]
    first = jobs["npuconf-deb"]
    uploads = [s for s in first["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    assert any("make -C npuconf package" in s.get("run", "") for s in first["steps"])
    deb = build_deb(build, os.path.join(tmp, "package"))
    artifact = uploads[0]["with"]["path"].rsplit("/", 1)[-1]
    assert fnmatch.fnmatch(os.path.basename(deb), artifact), (deb, artifact)
    unpacked = os.path.join(tmp, "unpacked")
    subprocess.run(["dpkg-deb", "-x", deb, unpacked], check=True)
    store = os.path.join(tmp, "artifacts", uploads[0]["with"]["name"])
    copy_into(deb, store)
    artifacts = {uploads[0]["with"]["name"]: store}
    results = {"npuconf-deb": (None, "")}
    for name in job_order(jobs):
        if name == "npuconf-deb":
            continue
        job = jobs[name]
        needs = job.get("needs", [])
        needs = [needs] if isinstance(needs, str) else needs
        if any(results[n][0] for n in needs) and job.get("if") != "always()":
            print("skipped job (a needed job failed): " + name)
            results[name] = ("skipped", "")
            continue
        failed, summaries = None, ""
        for suffix, values in expand(job):
            f, summary = run_job(name, job, values, unpacked, artifacts, tmp, rewrite)
            failed = failed or (f and name + suffix + ": " + f)
            summaries += summary
        results[name] = (failed, summaries)
    return results, artifacts


# The sharded workflow once more for a port with fewer units than shards (issue
# 42 item 9: the empty shards exited 4, and the workflow failed them): one
# property on one profile is one unit for three shards.
ONE_UNIT = ("--routine cann.nd_to_nz", "--property cann.nd_to_nz.matches_oracle")


def main():
    build = os.path.abspath(sys.argv[1])
    passes = []
    for workflow_path in sys.argv[2:]:
        passes.append((workflow_path, None))
        if "--shard" in open(workflow_path).read():
            passes.append((workflow_path, ONE_UNIT))
    for workflow_path, narrowed in passes:
        print("== " + workflow_path + (" with " + narrowed[1] if narrowed else ""))
        rewrite = (lambda text: text.replace(*narrowed)) if narrowed else (lambda text: text)
        with tempfile.TemporaryDirectory(prefix="npuconf-ci.") as tmp:
            results, artifacts = run_workflow(build, workflow_path, tmp, rewrite)
            for job, (failed, _) in results.items():
                assert failed is None, "job %s failed at step '%s'" % (job, failed)
            summaries = "".join(summary for _, summary in results.values())
            assert "✅ CONFORMANT" in summaries, "no CONFORMANT report in a job summary:\n" + summaries
            print("job summary: " + summaries.splitlines()[0])
            if "merge" in results:
                # The merged report: complete, unsharded, every shard's units, report.html kept.
                merged = artifacts["npuconf-report"]
                doc = json.load(open(os.path.join(merged, "report.json")))
                assert doc["complete"] and "shard" not in doc, doc.get("shard")
                shard_docs = [json.load(open(os.path.join(artifacts[a], "report.json")))
                              for a in sorted(artifacts) if a.startswith("npuconf-shard-")]
                assert len(shard_docs) == 3, sorted(artifacts)
                units = sum(len(d["results"]) for d in shard_docs)
                if narrowed:
                    assert units == 1, units  # two of the three shards held no unit
                assert len(doc["results"]) >= units > 0, (len(doc["results"]), units)
                assert os.path.isfile(os.path.join(merged, "report.html"))
                assert doc.get("waivers", {}).get("file") == "npuconf-waivers.json", doc.get("waivers")
                print("merged: %d results from 3 shards, report.html kept" % len(doc["results"]))


if __name__ == "__main__":
    main()
