"""The deployment configs build with the same Makefile target as CI."""

from __future__ import annotations

import sitekit
import yaml


def test_read_the_docs_builds_with_make_html():
    config = yaml.safe_load((sitekit.ROOT / ".readthedocs.yaml").read_text(encoding="utf-8"))
    commands = config["build"]["commands"]
    assert config["version"] == 2 and "jobs" not in config["build"]
    assert any(command.startswith("make html") for command in commands)
    assert any("_build/html" in command and "READTHEDOCS_OUTPUT" in command for command in commands)


def test_pages_workflow_builds_with_make_html():
    workflow = yaml.safe_load((sitekit.ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["build"]["steps"]
    assert [step.get("run") for step in steps if "run" in step] == ["make html"]
    upload = [step for step in steps if step.get("uses", "").startswith("actions/upload-pages-artifact")]
    assert upload and upload[0]["with"]["path"] == "_build/html"
