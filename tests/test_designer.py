"""The built-in designer: twenty machines in a row, the manual's procedure, a real shift.

Everything runs for real: the gates, headless Chromium, the loop and its tools.
Nothing is mocked (the designer needs no model endpoint).

Twenty machines are designed and statically checked, and every manual's procedure
is followed in one browser page; the dynamic probe runs on a SAMPLE of them, the
fewest that between them cover every layout and every simulation engine (the
probe's cost is per machine and nothing in it varies except layout and
simulation), so the module stays near a minute on two shared cores. The full
twenty are probed by benchmarks/bench_shifts.py, through real shifts.
"""

from __future__ import annotations

import colorsys
import html
import json
import os
import random
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from factory.browser import launch_options
from factory.check import check
from factory.designer import parts
from factory.designer.choose import (
    design_for,
    distance,
    entry,
    hex_rgb,
    mixed_case,
    tagline_for,
)
from factory.designer.measure import Measures, measure, measure_manual, revise
from factory.designer.render import case, procedure, render
from factory.lines import fold
from factory.lines.machines import DOMAINS, ERAS, LINE
from factory.probe import probe

REPO = Path(__file__).resolve().parent.parent
COUNT = 20


def workspace(root: Path) -> Path:
    (root / "catalogue").mkdir(parents=True)
    (root / "catalogue" / "machines.json").write_text("[]\n")
    (root / "catalogue" / "games.json").write_text("[]\n")
    return root


def shelve(root: Path, count: int) -> list:
    """Twenty consecutive designs, each chosen against the catalogue before it."""
    catalogue: list[dict] = []
    designs = []
    for i in range(count):
        design = design_for(catalogue, f"seed-{i}", created="2025-06-01")
        folder = root / "shelf" / "machines" / design.slug
        folder.mkdir(parents=True)
        for name, text in render(design).items():
            (folder / name).write_text(text, encoding="utf-8")
        catalogue.append(entry(design))
        designs.append(design)
    (root / "catalogue" / "machines.json").write_text(json.dumps(catalogue, indent=2))
    return designs


@pytest.fixture(scope="module")
def shelf(tmp_path_factory) -> tuple[Path, list]:
    root = workspace(tmp_path_factory.mktemp("shelf"))
    return root, shelve(root, COUNT)


def test_twenty_machines_are_all_different(shelf):
    root, designs = shelf
    entries = json.loads((root / "catalogue" / "machines.json").read_text())
    for fields in (
        ("name",),
        ("kind",),
        ("design",),
        ("interaction",),
        ("domain", "era"),
        ("slug",),
    ):
        values = {tuple(fold(e[f]) for f in fields) for e in entries}
        assert len(values) == COUNT, fields
    # Variety is visible, not only verbal: neighbours differ in material, layout,
    # simulation and controls, and the shelf uses most of the grammar.
    for a, b in zip(designs, designs[1:], strict=False):
        assert a.material.key != b.material.key, (a.slug, b.slug)
        assert a.layout.key != b.layout.key, (a.slug, b.slug)
        assert [c.kind for c in a.controls] != [c.kind for c in b.controls]
    assert len({d.layout.key for d in designs}) == len(parts.LAYOUTS)
    assert len({d.words.engine for d in designs}) >= 7
    assert len({d.material.key for d in designs}) >= 12


def test_every_machine_speaks_in_its_own_kind(shelf):
    """Quantities, controls, faults and alarms are the kind's own words, not a set shared
    by every kind of one simulation engine: no fault is on two machines, no two
    machines share a tagline, and what the panel says is what the kind says."""
    root, designs = shelf
    entries = json.loads((root / "catalogue" / "machines.json").read_text())
    faults = [fault for e in entries for fault in e["faults"]]
    assert len(faults) == len(set(faults))
    assert len({fold(e["tagline"]) for e in entries}) == COUNT
    for design, e in zip(designs, entries, strict=True):
        words = design.words
        assert fold(e["kind"]).endswith(words.name)
        assert set(e["faults"]) <= {words.heat, words.leak, words.drift}
        assert e["controls"] == [words.master, words.aux, words.mode, words.setpoint, words.ack]
        assert e["tagline"].startswith(words.motto)
        panel = (root / "shelf" / "machines" / design.slug / "index.html").read_text()
        for q in (words.u, words.v, words.w):
            assert html.escape(case(design, q.label)) in panel, (design.slug, q.label)


def test_the_kind_table_gives_every_kind_words_of_its_own():
    kinds = [words for domain in DOMAINS for words in parts.KINDS[domain]]
    assert len({k.name for k in kinds}) == len(kinds) == 3 * len(DOMAINS)
    faults = [f for k in kinds for f in (k.heat, k.leak, k.drift)]
    assert len(faults) == len(set(faults))
    assert len({(k.v_alarm, k.w_alarm, k.s_alarm) for k in kinds}) == len(kinds)
    assert len({k.motto for k in kinds}) == len(kinds)
    for k in kinds:
        assert k.engine in parts.ENGINES
        assert len({k.master, k.mode, k.setpoint, k.aux, k.ack}) == 5, k.name
        assert len({k.u.key, k.v.key, k.w.key}) == 3, k.name
        assert all(re.fullmatch(r"[a-z0-9_]+", q.key) for q in (k.u, k.v, k.w)), k.name


@pytest.mark.parametrize("era", ERAS)
def test_controls_are_the_kinds_their_era_made(era):
    """A 1920s panel gets knife switches, levers and rotary selectors, never the
    thumbwheels and key switches of the 1980s; still four controls of three kinds."""
    others = [{"domain": d, "era": e} for d in DOMAINS for e in ERAS if e != era]
    seen = set()
    for seed in range(8):
        design = design_for(others, f"era-{seed}", created="2025-06-01")
        assert design.era == era
        kinds = [c.kind for c in design.controls]
        assert len(kinds) >= 4 and len(set(kinds)) >= 3
        for control in design.controls:
            assert era in parts.CONTROL_KINDS[control.role][control.kind], control
        seen |= set(kinds)
    if era == "1920s":
        assert not seen & {"thumbwheel", "key switch", "slider", "rocker switch", "piano keys"}
        assert "knife switch" in seen


ALL_KINDS = [words for domain in DOMAINS for words in parts.KINDS[domain]]


def test_every_kind_belongs_to_a_run_of_eras_and_to_the_speculative_one():
    decades = list(ERAS[:-1])
    for words in ALL_KINDS:
        assert set(words.eras) <= set(ERAS) and "speculative" in words.eras, words.name
        run = [e for e in decades if e in words.eras]
        start = decades.index(run[0])
        assert run == decades[start : start + len(run)], words.name
    thruster = next(k for k in parts.KINDS["space"] if k.name == "ion thruster supply")
    assert not {"1920s", "1940s", "1950s"} & set(thruster.eras)


def test_a_long_shelf_puts_every_kind_in_an_era_it_fits():
    """120 machines in a row: every kind is of its era, and the variety holds (every
    era and domain used, no pair or kind twice)."""
    catalogue: list[dict] = []
    for i in range(120):
        design = design_for(catalogue, f"long-{i}", created="2025-06-01")
        assert design.era in design.words.eras, (design.kind, design.era)
        catalogue.append(entry(design))
    assert {e["era"] for e in catalogue} == set(ERAS)
    assert {e["domain"] for e in catalogue} == set(DOMAINS)
    assert len({(e["domain"], e["era"]) for e in catalogue}) == len(catalogue)
    assert len({fold(e["kind"]) for e in catalogue}) == len(catalogue)


@pytest.mark.parametrize("seed", range(10))
def test_with_only_space_left_no_machine_predates_the_space_age(seed):
    others = [{"domain": d, "era": e} for d in DOMAINS for e in ERAS if d != "space"]
    design = design_for(others, f"space-{seed}", created="2025-06-01")
    assert design.domain == "space" and design.era not in ("1920s", "1940s")
    assert design.era in design.words.eras


def test_a_1940s_ion_thruster_cannot_be_made():
    """The pair that once gave a "1940s ion thruster supply" has no kind that fits it:
    with only space's 1920s and 1940s left, nothing new is left to choose."""
    left = {("space", "1920s"), ("space", "1940s")}
    catalogue = [{"domain": d, "era": e} for d in DOMAINS for e in ERAS if (d, e) not in left]
    with pytest.raises(ValueError, match="every"):
        design_for(catalogue, "thruster")


def as_kind(design, words: parts.Kind):
    """The same design in another kind's words (which kind gets chosen is tested above)."""
    names = {role: getattr(words, role) for role in ("master", "mode", "setpoint", "aux", "ack")}
    faults = {
        "heat": (words.heat, words.v_alarm),
        "leak": (words.leak, words.w_alarm),
        "drift": (words.drift, words.s_alarm),
    }
    return replace(
        design,
        name=f"{design.maker} {words.name}",
        kind=words.name,
        words=words,
        tagline=f"{words.motto}.",
        controls=[replace(c, name=names[c.role]) for c in design.controls],
        faults=[
            replace(f, name=faults[f.family][0], alarm=faults[f.family][1]) for f in design.faults
        ],
    )


@pytest.mark.parametrize("words", ALL_KINDS, ids=lambda k: k.name)
def test_the_auxiliary_s_role_is_told_in_the_kind_s_own_words(words):
    """The manual (function table, procedure, overview) and the panel's tooltip say
    what this kind's auxiliary really does; no other kind's parts or duty show,
    and the old one-size sentence ("holds the v down and makes up the w") is gone."""
    design = as_kind(design_for([], "duty", created="2025-06-01"), words)
    files = render(design)
    manual = html.unescape(files["manual.html"])
    assert words.aux in words.duty.lower()
    assert manual.count(words.duty) == 3, "function table, procedure, overview"
    assert f"and makes up the {words.w.label.lower()}" not in manual
    own = " ".join(str(v) for v in vars(words).values()).lower()
    for other in ALL_KINDS:
        if other.duty != words.duty:
            assert other.duty not in manual, other.name
        for part in (other.aux, other.heat, other.leak, other.drift, other.v.label, other.w.label):
            if part.lower() not in own:
                assert part.lower() not in manual.lower(), (other.name, part)
    aux = re.search(
        r'<div class="ctl[^"]*" data-control="([^"]*)" data-role="aux"[^>]*>', files["index.html"]
    )
    assert aux and html.unescape(aux.group(1)) == words.aux
    assert html.escape(words.duty, quote=True) in aux.group(0)


def test_a_milk_vat_s_condenser_fan_no_longer_makes_up_the_charge():
    words = next(k for k in parts.KINDS["agriculture"] if k.name == "milk cooling vat")
    manual = html.unescape(render(as_kind(design_for([], "vat"), words))["manual.html"])
    assert "makes up the refrigerant charge" not in manual
    assert "The condenser fan blows air through the condenser" in manual


@pytest.mark.parametrize("era", ERAS)
def test_an_era_in_a_sentence_reads_as_a_time(era):
    """ "for broadcast in the speculative" read badly: every sentence that places the
    machine in time (success summary, design, manual overview) says it as a time."""
    from factory.designer.driver import summary

    others = [{"domain": d, "era": e} for d in DOMAINS for e in ERAS if e != era]
    design = design_for(others, f"when-{era}", created="2025-06-01")
    when = "in an imagined future" if era == "speculative" else f"in the {era}"
    manual = html.unescape(render(design)["manual.html"])
    for text in (summary(design), design.design, manual):
        assert when in text
        assert "the speculative" not in text
    assert design.tagline and "speculative" not in design.tagline


def test_a_tagline_the_shelf_has_is_closed_another_way():
    words = parts.KINDS["agriculture"][0]
    first = tagline_for(random.Random(1), words, [])
    second = tagline_for(random.Random(1), words, [{"tagline": first}])
    assert first == f"{words.motto}."
    assert second != first and second.startswith(f"{words.motto}, ")


@pytest.mark.parametrize(
    ("legend", "printed"),
    [("CO2 HIGH", "CO2 High"), ("DO LOW", "DO Low"), ("GRAIN HOT", "Grain Hot")],
)
def test_mixed_case_eras_keep_acronyms(legend, printed):
    assert mixed_case(legend) == printed


def test_materials_keep_their_hue(shelf):
    """A palette moves a material's lightness, never its hue: navy-grey stays navy-grey."""
    _, designs = shelf

    def hls(colour: str) -> tuple[float, float, float]:
        return colorsys.rgb_to_hls(*(c / 255 for c in hex_rgb(colour)))

    for design in designs:
        hue, _, sat = hls(design.material.chassis)
        got, _, got_sat = hls(design.palette[0])
        if sat > 0.12 and got_sat > 0.08:
            turn = min(abs(got - hue), 1 - abs(got - hue))
            assert turn < 0.03, (design.slug, design.material.key, design.palette[0])


def test_dial_titles_sit_on_plates_not_on_the_face(shelf):
    root, designs = shelf
    for design in designs:
        html = (root / "shelf" / "machines" / design.slug / "index.html").read_text()
        pointers = sum(html.count(f'<svg class="{k}"') for k in ("dial", "edgewise", "column"))
        assert html.count('<figure class="meter">') == pointers, design.slug
        assert html.count('<figcaption class="legend">') == pointers
        assert 'class="dlabel"' not in html, design.slug


def test_palettes_keep_their_distance(shelf):
    _, designs = shelf
    for i, design in enumerate(designs):
        chassis, accent = design.palette[:2]
        assert distance(chassis, accent) >= 60
        for earlier in designs[:i]:
            spread = distance(chassis, earlier.palette[0]) + distance(accent, earlier.palette[1])
            assert spread >= 80, (design.slug, earlier.slug)


def test_every_machine_has_four_controls_of_three_kinds(shelf):
    _, designs = shelf
    for design in designs:
        assert len(design.controls) >= 4
        assert len({c.kind for c in design.controls}) >= 3
        assert len(design.faults) >= 2
        assert len(design.design.split()) >= 6


def test_the_static_gate_passes_the_shelf(shelf):
    root, _ = shelf
    report = check(root)
    assert report.ok, [str(p) for p in report.problems]


def sample(designs: list) -> list:
    """The fewest designs (greedy) that cover every layout and simulation engine drawn."""
    wanted = {("layout", d.layout.key) for d in designs} | {
        ("engine", d.words.engine) for d in designs
    }
    chosen = []
    while wanted:
        best = max(
            designs,
            key=lambda d: len(wanted & {("layout", d.layout.key), ("engine", d.words.engine)}),
        )
        chosen.append(best)
        wanted -= {("layout", best.layout.key), ("engine", best.words.engine)}
    return chosen


def test_the_probe_passes_a_sample_covering_every_layout_and_engine(shelf):
    root, designs = shelf
    picked = sample(designs)
    assert len(picked) <= 12
    report = probe(root, [d.slug for d in picked])
    failed = {r.slug: r.problems for r in report.results if not r.ok}
    assert not failed
    assert len(report.results) == len(picked)
    shots = root / ".factory" / "shots"
    assert {p.name for p in shots.glob("*-desktop.png")} == {
        f"{d.slug}-desktop.png" for d in picked
    }


def test_the_manual_procedure_brings_every_machine_to_nominal(shelf):
    """Follow each manual's <ol> through the panel's own controls (keyboard), then tick."""
    from playwright.sync_api import sync_playwright

    root, designs = shelf
    with sync_playwright() as p:
        browser = p.chromium.launch(**launch_options())
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        for design in designs:
            folder = root / "shelf" / "machines" / design.slug
            page.goto((folder / "manual.html").as_uri())
            steps = page.eval_on_selector_all(
                "ol li",
                "els => els.map(e => [e.dataset.control || null, e.dataset.value || null, e.dataset.wait || null])",
            )
            assert steps[:-1] == [[c, v, None] for c, v, _ in procedure(design)]
            page.goto((folder / "index.html").as_uri())
            page.evaluate("machine.reset()")
            for control, value, wait in steps:
                if wait:
                    page.evaluate(f"machine.tick({int(wait)})")
                    continue
                element = page.locator(f'[data-control="{control}"]')
                positions = element.get_attribute("data-positions").split("|")
                for _ in range(len(positions)):
                    now = positions.index(element.get_attribute("data-value"))
                    if now == positions.index(value):
                        break
                    element.focus()
                    page.keyboard.press("ArrowUp" if now < positions.index(value) else "ArrowDown")
                assert element.get_attribute("data-value") == value, (design.slug, control)
            state = page.evaluate("machine.state()")
            assert state["alarms"] == [], design.slug
            assert state["nominal"] is True, (design.slug, state)
            # An alarm left standing has its consequence: the plant trips (and, per
            # engine, pays its own price, e.g. a damaged bearing stays damaged).
            page.evaluate(f"machine.inject({json.dumps(design.faults[0].name)})")
            ignored = page.evaluate("machine.tick(120)")
            assert ignored["tripped"] is True and design.trip_alarm in ignored["alarms"]
            if design.words.engine == "rotating":
                assert ignored.get("damaged") is True
            # And the machine really was cold before: reset undoes it all.
            cold = page.evaluate("machine.reset(), machine.tick(5)")
            assert cold["nominal"] is False and cold["alarms"] == []
        browser.close()


# Every element that carries its own text (legend plates, lamp captions, readout
# captions, dial numbers, marks, buttons) is measured by the box of its text itself.
TEXT_PROBLEMS = """() => {
  const out = [];
  const boxes = [];
  const W = window.innerWidth;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  const els = [];
  for (let n = walker.currentNode; n; n = walker.nextNode()) els.push(n);
  for (const el of els) {
    if (el.closest('dialog, script, style, head')) continue;
    const texts = Array.from(el.childNodes).filter(c => c.nodeType === 3 && c.textContent.trim());
    if (!texts.length) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none' || Number(cs.opacity) === 0) continue;
    let box = null;
    for (const t of texts) {
      const r = document.createRange();
      r.selectNodeContents(t);
      for (const q of r.getClientRects()) {
        if (q.width < 0.5 || q.height < 0.5) continue;
        box = box ? {l: Math.min(box.l, q.left), t: Math.min(box.t, q.top), r: Math.max(box.r, q.right), b: Math.max(box.b, q.bottom)}
                  : {l: q.left, t: q.top, r: q.right, b: q.bottom};
      }
    }
    if (!box) continue;
    const name = (el.getAttribute('class') || el.tagName) + ' "' + el.textContent.trim().slice(0, 24) + '"';
    const bay = el.closest('.bay');
    if (bay) {
      const b = bay.getBoundingClientRect();
      if (box.l < b.left - 1 || box.r > b.right + 1 || box.t < b.top - 1 || box.b > b.bottom + 1)
        out.push('outside its section: ' + name);
    }
    if (box.l < -0.5 || box.r > W + 0.5) out.push('outside the viewport: ' + name);
    if (!(el instanceof SVGElement) && cs.display !== 'inline' && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      out.push('cut (scrollWidth ' + el.scrollWidth + ' > ' + el.clientWidth + '): ' + name);
    boxes.push([el, box, name]);
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [ea, a, na] = boxes[i], [eb, b, nb] = boxes[j];
    if (ea.contains(eb) || eb.contains(ea)) continue;
    const w = Math.min(a.r, b.r) - Math.max(a.l, b.l), h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
    if (w > 0.5 && h > 0.5) out.push('overlap: ' + na + ' / ' + nb);
  }
  const parts = Array.from(document.querySelectorAll('.station, .meter, .bargraph, .readout, .lamp, .test'))
    .filter(e => e.getClientRects().length).map(e => [e, e.getBoundingClientRect()]);
  for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
    const [ea, a] = parts[i], [eb, b] = parts[j];
    if (ea.contains(eb) || eb.contains(ea)) continue;
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 1 && h > 1) out.push('parts collide: ' + ea.className.baseVal + ea.className + ' / ' + (eb.className.baseVal || eb.className));
  }
  return out;
}"""


@pytest.mark.parametrize("viewport", [(1440, 900), (390, 844)])
def test_no_text_is_clipped_or_collides(shelf, browser_page, viewport):
    """Text stays inside its section and the viewport, is never cut, never overlaps
    other text; and no two stations, meters, lamps or readouts sit on each other."""
    root, designs = shelf
    picked = sample(designs)
    eras = {d.era for d in picked}
    picked += [d for d in designs if d.era not in eras and not eras.add(d.era)]
    page = browser_page
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    found = {}
    for design in picked:
        page.goto((root / "shelf" / "machines" / design.slug / "index.html").as_uri())
        problems = page.evaluate(TEXT_PROBLEMS)
        if problems:
            found[f"{design.slug} ({design.layout.key}, {design.era})"] = problems[:5]
    assert not found
    assert {d.layout.key for d in picked} == {d.layout.key for d in designs}


@pytest.fixture(scope="module")
def browser_page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(**launch_options())
        yield browser.new_page()
        browser.close()


def test_same_catalogue_and_seed_give_identical_files():
    catalogue = [entry(design_for([], "first", created="2025-06-01"))]
    one = render(design_for(catalogue, "abc", created="2025-06-01"))
    two = render(design_for(catalogue, "abc", created="2025-06-01"))
    other = render(design_for(catalogue, "xyz", created="2025-06-01"))
    assert one == two
    assert one != other
    assert set(one) == set(LINE.files)


def test_a_full_shelf_refuses_politely():
    catalogue = [{"domain": d, "era": e} for d in DOMAINS for e in ERAS]
    with pytest.raises(ValueError, match="every"):
        design_for(catalogue, "s")


def _shot(path: Path, panel_rows: int, detail: bool) -> Path:
    image = Image.new("RGB", (400, 300), (60, 60, 60))
    for y in range(panel_rows):
        for x in range(400):
            stripe = detail and (x // 4 + y // 4) % 2
            image.putpixel((x, y), (230, 230, 230) if stripe else (120, 110, 100))
    image.save(path)
    return path


@pytest.mark.parametrize(
    ("rows", "detail", "changed"),
    [
        (120, False, "scale"),  # most of the screen is bare wall: scale up
        (300, False, "scale"),  # the panel runs off the bottom: scale down
        (280, True, "gap"),  # busy all over: open the spacing
    ],
)
def test_measuring_decides_a_revision(tmp_path, rows, detail, changed):
    measured = measure(_shot(tmp_path / "d.png", rows, detail))
    tuning, reasons = revise({"scale": 1.0, "gap": 1.0, "ink": 0.0}, measured)
    assert tuning[changed] != 1.0 and reasons


def test_a_revision_always_changes_something():
    calm = Measures(empty_below=0.05, flat=0.2, busy=0.05, contrast=12.0, phone_wide=False)
    tuning, reasons = revise({"scale": 1.0, "gap": 1.0, "ink": 0.0}, calm)
    assert tuning != {"scale": 1.0, "gap": 1.0, "ink": 0.0} and len(reasons) == 1


@pytest.mark.parametrize(
    ("measured", "knob"),
    [
        (Measures(empty_below=0.10, flat=0.2, busy=0.05, contrast=12.0, phone_wide=False), "scale"),
        (Measures(empty_below=0.02, flat=0.2, busy=0.15, contrast=12.0, phone_wide=False), "gap"),
        (Measures(empty_below=0.02, flat=0.2, busy=0.05, contrast=7.5, phone_wide=False), "ink"),
    ],
)
def test_with_nothing_wrong_the_weakest_measure_is_improved(measured, knob):
    tuning, reasons = revise({"scale": 1.0, "gap": 1.0, "ink": 0.0}, measured)
    changed = [k for k in tuning if tuning[k] != {"scale": 1.0, "gap": 1.0, "ink": 0.0}[k]]
    assert changed == [knob] and "weakest" in reasons[0]


def _manual_shot(path: Path, ink: tuple[int, int, int], text_right: int) -> Path:
    """A manual dialog as the probe shoots it at 1440x900: the dimmed panel, the
    920x780 dialog of paper, lines of text from x=350 to `text_right`."""
    image = Image.new("RGB", (1440, 900), (28, 30, 32))
    for y in range(60, 840):
        for x in range(260, 1180):
            image.putpixel((x, y), (241, 230, 200))
    for top in range(120, 820, 24):
        for y in range(top, top + 10):
            for x in range(350, text_right, 3):
                if (x // 3) % 4 == 0:
                    image.putpixel((x, y), ink)
    image.save(path)
    return path


@pytest.mark.parametrize(
    ("ink", "text_right", "knob", "words"),
    [
        ((150, 146, 140), 1090, "paper", "manual text contrast"),  # grey text on cream paper
        ((24, 24, 24), 1180, "sheet", "dialog's edge"),  # text runs into the dialog's edge
    ],
)
def test_the_manual_shot_is_measured_and_drives_a_revision(tmp_path, ink, text_right, knob, words):
    desktop = _shot(tmp_path / "d.png", 280, False)
    measured = measure(desktop, None, _manual_shot(tmp_path / "m.png", ink, text_right))
    assert measured.manual_contrast is not None and "manual" in measured.describe()
    tuning, reasons = revise({"scale": 1.0, "gap": 1.0, "ink": 0.0}, measured)
    assert tuning.get(knob, 0) > 0
    assert any(words in reason for reason in reasons), reasons


def test_a_well_printed_manual_needs_no_manual_revision(tmp_path):
    manual = _manual_shot(tmp_path / "m.png", (24, 24, 24), 1090)
    contrast, margin = measure_manual(manual)
    assert contrast > 10 and margin is not None and 85 <= margin <= 105
    calm = Measures(empty_below=0.05, flat=0.2, busy=0.05, contrast=8.0, phone_wide=False)
    tuning, _ = revise({}, replace(calm, manual_contrast=contrast, manual_margin=margin))
    assert "paper" not in tuning and "sheet" not in tuning


def test_the_manual_revision_reaches_the_stylesheet():
    design = design_for([], "manual-style", created="2025-06-01")
    plain = render(design)["machine.css"]
    printed = render(replace(design, tuning={**design.tuning, "paper": 0.5, "sheet": 0.5}))
    assert "--paper-ink: #1d1c1a;" in plain and "table-layout: fixed" not in plain
    assert "--paper-ink: #1d1c1a;" not in printed["machine.css"]
    assert "max-width: 720px" in printed["machine.css"]
    assert "table-layout: fixed" in printed["machine.css"]
    assert printed["manual.html"] == render(design)["manual.html"]


def test_a_shift_through_the_real_loop(tmp_path, monkeypatch):
    """One whole shift: the designer acts only through tools, in the order's order."""
    from factory import loop
    from factory.designer.driver import Designer
    from factory.judge import judge
    from factory.order import load_order
    from factory.session import load

    root = workspace(tmp_path / "ws")
    shelve(root, 1)
    base = json.loads((root / "catalogue" / "machines.json").read_text())
    shutil.copytree(REPO / "orders", root / "orders")
    shutil.copy(REPO / "AGENTS.md", root / "AGENTS.md")
    monkeypatch.setenv("PATH", f"{REPO / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}")
    result = loop.run(
        Designer(root, "shift-seed"), load_order(root, "new-machine"), root, session_id="s-1"
    )
    assert result.reason == "settled", result.summary
    session = load(result.log_path)
    calls = [
        (c["function"]["name"], json.loads(c["function"]["arguments"]))
        for m in session.messages
        if m.get("role") == "assistant"
        for c in m.get("tool_calls") or []
    ]
    names = [n for n, _ in calls]
    slug = json.loads((root / "catalogue" / "machines.json").read_text())[-1]["slug"]
    order = [
        names.index("read"),
        next(
            i for i, (n, a) in enumerate(calls) if n == "shell" and "--shots-only" in a["command"]
        ),
        names.index("view"),
        next(
            i for i, (n, a) in enumerate(calls) if n == "write" and a["path"].endswith("brief.md")
        ),
        *(
            next(i for i, (n, a) in enumerate(calls) if n == "write" and a["path"].endswith(f))
            for f in LINE.files
        ),
        next(
            i
            for i, (n, a) in enumerate(calls)
            if n == "shell" and a["command"] == f"factory probe {slug}"
        ),
    ]
    assert order == sorted(order)
    css = [
        i for i, (n, a) in enumerate(calls) if n == "write" and a["path"].endswith("machine.css")
    ]
    looks = [i for i, (n, a) in enumerate(calls) if n == "view" and slug in a["path"]]
    assert len(css) == 2 and looks[0] < css[1], "the revision follows a look"
    notes = [a["note"] for n, a in calls if n == "progress" and a["note"].startswith("Measured")]
    assert len(notes) == 1 and "manual text contrast" in notes[0], "the manual shot is measured"
    assert names[-2:] == ["shell", "success"]
    verdict = judge(session, root, LINE, slug, base)
    assert verdict.ok, verdict.reasons
    assert check(root).ok


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under the workspace but the harness's own records (.factory)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".factory" not in p.relative_to(root).parts
    }


def test_a_game_order_is_refused_and_nothing_is_touched(tmp_path):
    """The designer builds machines only: the new-game order ends through `failure`
    at once, with a one-line reason, and no catalogue or shelf file is written."""
    from factory import loop
    from factory.designer.driver import Designer
    from factory.order import load_order

    root = workspace(tmp_path / "ws")
    shutil.copytree(REPO / "orders", root / "orders")
    shutil.copy(REPO / "AGENTS.md", root / "AGENTS.md")
    before = _tree(root)
    result = loop.run(
        Designer(root, "game-seed"), load_order(root, "new-game"), root, session_id="g-1"
    )
    assert result.reason == "failed"
    assert result.summary == (
        "the built-in designer builds machines only; the new-game order needs a model "
        "(set a provider key)"
    )
    assert result.calls == 1
    assert _tree(root) == before
    assert not (root / "shelf").exists()


@pytest.mark.parametrize(
    ("order", "refusal"),
    [
        ("new-machine", None),
        ("new-game", "the new-game order needs a model"),
        ("custom", "this order needs a model"),
    ],
)
def test_the_designer_reads_the_line_from_the_order_not_from_agents_md(tmp_path, order, refusal):
    from factory.designer.driver import not_mine
    from factory.order import load_order
    from factory.prompt import system_prompt

    root = workspace(tmp_path / "ws")
    shutil.copytree(REPO / "orders", root / "orders")
    (root / "orders" / "custom.yaml").write_text("objective: Tidy the README.\n")
    shutil.copy(REPO / "AGENTS.md", root / "AGENTS.md")  # names both catalogues
    why = not_mine(system_prompt(root, load_order(root, order), ".factory/scratch/x"))
    assert (why is None) if refusal is None else (refusal in why and "\n" not in why)
