"""The project's own docs (issue 14 point 13): the rules the companion referees are in
docs/ with their ids, every rule id the code cites is defined there, the README's links
stay inside the repository, and it names the Debian packages CI installs."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SHARED = Path("/work/shared")   # the project's shared folder, where it exists
NOTE_END = re.compile(r"\A(?:<!--(?:(?!-->).)*-->\n)?(?:>[^\n]*\n)+\n", re.S)


def body(name: str) -> str:
    text = (DOCS / name).read_text(encoding="utf-8")
    m = NOTE_END.match(text)
    assert m, f"docs/{name} starts with the note saying where it comes from"
    return text[m.end():]


@pytest.mark.parametrize("name", ["RULES.md", "NOTATION.md", "RELATED-GAMES.md"])
def test_the_copies_say_the_shared_copy_decides(name):
    text = (DOCS / name).read_text(encoding="utf-8")
    assert "the shared copy decides" in text
    if (SHARED / name).exists():   # on a machine with the shared folder: word for word
        assert body(name) == (SHARED / name).read_text(encoding="utf-8")


def test_every_rule_id_the_code_cites_is_in_docs_rules():
    rules = body("RULES.md")
    cited = set()
    for path in [*ROOT.glob("companion/*.py"), *ROOT.glob("web/*.py")]:
        cited |= set(re.findall(r'"((?:[GCPMRT]\d+)|(?:V-[A-Z]+\d*))"', path.read_text(encoding="utf-8")))
    assert {"P8", "M1", "M5", "V-BJ"} <= cited
    missing = []
    for rid in sorted(cited):
        if rid.startswith("V-"):
            family = re.match(r"V-[A-Z]+", rid).group(0)
            ok = f"({family})" in rules
        else:
            ok = f"**{rid} " in rules or f"**{rid}**" in rules or f"**{rid}." in rules
        if not ok:
            missing.append(rid)
    assert not missing, f"rule ids cited in the code but not in docs/RULES.md: {missing}"


def test_readme_links_stay_inside_the_repository():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    bad = []
    for target in re.findall(r"\]\(([^)\s]+)\)", readme):
        if target.startswith(("http://", "https://", "#", "mailto:")):
            continue
        path = (ROOT / target.split("#")[0]).resolve()
        if ROOT not in path.parents and path != ROOT or not path.exists():
            bad.append(target)
    assert not bad, f"README links that leave the repository or point at nothing: {bad}"
    assert "docs/RULES.md" in readme


def test_readme_names_the_debian_packages_ci_installs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    packages = re.search(r'^APT_PACKAGES="([^"]*)"', ci, re.M).group(1).split()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert packages and all(p in readme for p in packages), packages


def test_links_in_docs_and_the_readme_resolve():
    """Every relative link (and #heading) in docs/*.md and README.md points at something."""
    bad = []
    for doc in [ROOT / "README.md", *DOCS.glob("*.md")]:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            path, _, anchor = target.partition("#")
            dest = (doc.parent / path).resolve() if path else doc
            if not dest.exists():
                bad.append(f"{doc.name}: {target}")
            elif anchor and dest.suffix == ".md":
                heads = re.findall(r"(?m)^#+ (.+)$", dest.read_text(encoding="utf-8"))
                slugs = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in heads}
                if anchor not in slugs:
                    bad.append(f"{doc.name}: {target} (no such heading)")
    assert not bad, bad
