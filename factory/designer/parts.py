"""The grammar of parts the designer composes machines from: data only.

Chassis materials, legend styles, lamp types, control kinds by era, layouts,
instrument kinds, the simulation engines, the kinds per domain (each in its own
words: the eras it belongs to, quantities, controls, faults, alarm legends, motto
and what its auxiliary does) and the period type stacks per era. `choose` picks
from these tables and `render` draws them; this module must never decide or draw
anything itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Material:
    key: str
    phrase: str
    """How the design sentence names it (unique among materials: `choose` reads it back)."""
    chassis: str
    """Base chassis colour; `choose` moves it a little for the palette rules."""
    texture: str
    """Which CSS texture recipe `render` uses: hammer, brushed, grain, crackle, flat, weave, speck."""
    eras: tuple[str, ...]


MATERIALS = (
    Material("hammertone", "hammertone grey enamel", "#5f6768", "hammer", ("1940s", "1950s", "1960s", "1970s")),
    Material("crackle", "black crackle lacquer", "#27272b", "crackle", ("1920s", "1940s", "1950s")),
    Material("brushed", "brushed aluminium", "#b7babb", "brushed", ("1960s", "1970s", "1990s", "2000s")),
    Material("walnut", "oiled walnut veneer", "#6a4028", "grain", ("1920s", "1940s", "1950s")),
    Material("bakelite", "mottled bakelite", "#4b2d20", "speck", ("1920s", "1940s")),
    Material("green", "machine-green stove enamel", "#5d7a66", "hammer", ("1940s", "1950s", "1960s", "1970s")),
    Material("navy", "navy-grey sheet steel", "#46525e", "flat", ("1940s", "1950s", "1960s", "1980s")),
    Material("beige", "textured beige polycarbonate", "#cec5ae", "speck", ("1980s", "1990s")),
    Material("putty", "putty-grey ABS moulding", "#d5d0c2", "flat", ("1980s", "1990s", "2000s")),
    Material("anodised", "blue anodised aluminium", "#2f5570", "brushed", ("1970s", "1980s", "1990s", "2000s")),
    Material("orange", "safety-orange powder coat", "#c4622d", "speck", ("1970s", "1980s", "2020s")),
    Material("carbon", "matte carbon-fibre composite", "#2a2c2e", "weave", ("2000s", "2020s", "speculative")),
    Material("enamel", "white vitreous enamel", "#e4e2da", "flat", ("1950s", "1960s")),
    Material("olive", "olive-drab wrinkle paint", "#595a39", "hammer", ("1940s", "1960s", "1980s")),
    Material("graphite", "bead-blasted graphite aluminium", "#3b3f45", "speck", ("2020s", "speculative")),
    Material("ceramic", "sintered ceramic white", "#eae8e1", "flat", ("2020s", "speculative")),
    Material("bronze", "verdigris cast bronze", "#3f6a5c", "hammer", ("1920s", "speculative")),
    Material("cream", "cream stove enamel", "#e2d6b3", "flat", ("1950s", "1960s")),
    Material("slate", "slate-blue melamine laminate", "#5a6c85", "flat", ("1960s", "1970s", "1980s")),
    Material("oxblood", "oxblood gloss enamel", "#5c2327", "crackle", ("1920s", "1970s")),
    Material("teak", "teak-faced plywood", "#8a5a34", "grain", ("1960s", "1970s")),
    Material("titanium", "satin titanium sheet", "#8e9299", "brushed", ("2000s", "2020s", "speculative")),
)  # fmt: skip

ACCENTS = (
    ("amber", "#e09a2c"),
    ("signal red", "#c8322a"),
    ("jade", "#2e9c6c"),
    ("cobalt", "#2c5ac4"),
    ("brass", "#b8903a"),
    ("ivory", "#efe5cb"),
    ("cyan", "#33b5c9"),
    ("magenta", "#b6397a"),
    ("lime", "#9bc83a"),
    ("tangerine", "#e8701e"),
    ("violet", "#6b4fb5"),
    ("canary", "#e9cf35"),
)


@dataclass(frozen=True)
class Legend:
    key: str
    phrase: str
    style: str
    """CSS recipe: engraved, printed, tag, tape, etched, backlit, enamel."""
    eras: tuple[str, ...]


LEGENDS = (
    Legend("engraved", "engraved white-filled traffolyte legend plates", "engraved", ("1940s", "1950s", "1960s", "1970s")),
    Legend("printed", "screen-printed legends straight onto the paint", "printed", ("1950s", "1960s", "1970s", "1980s", "1990s")),
    Legend("tag", "riveted stamped-brass tags", "tag", ("1920s", "1940s", "1950s")),
    Legend("tape", "embossed label-maker tape strips", "tape", ("1970s", "1980s")),
    Legend("etched", "photo-etched anodised nameplates", "etched", ("1960s", "1980s", "1990s", "2000s")),
    Legend("backlit", "backlit legend strips", "backlit", ("2000s", "2020s", "speculative")),
    Legend("enamel", "fired enamel badge plates", "enamel", ("1920s", "1940s")),
    Legend("laser", "laser-marked legends in a hairline grid", "laser", ("2020s", "speculative", "2000s")),
)  # fmt: skip


@dataclass(frozen=True)
class Lamp:
    key: str
    phrase: str
    style: str
    """CSS recipe: jewel, neon, window, led, tile, flag, bar."""
    eras: tuple[str, ...]


LAMPS = (
    Lamp("jewel", "faceted jewel lamps", "jewel", ("1920s", "1940s", "1950s", "1960s")),
    Lamp("neon", "neon glow indicators", "neon", ("1940s", "1950s", "1960s")),
    Lamp("window", "square annunciator windows", "window", ("1960s", "1970s", "1980s")),
    Lamp("led", "pinpoint LED indicators", "led", ("1980s", "1990s", "2000s")),
    Lamp("tile", "backlit annunciator tiles", "tile", ("1970s", "1990s", "2000s", "2020s")),
    Lamp("flag", "doll's-eye flag indicators", "flag", ("1920s", "1940s")),
    Lamp("bar", "slim light-bar status strips", "bar", ("2020s", "speculative")),
)  # fmt: skip


@dataclass(frozen=True)
class Layout:
    key: str
    phrase: str
    instruments: tuple[str, ...]
    """Instrument slots it draws: gauge, edgewise, fan, chart, scope, trend, mimic, bargraph, column.
    A chart, scope, trend or mimic is the layout's centrepiece and gets a bay of its own."""
    eras: tuple[str, ...] = ()
    """Eras it belongs to; empty means any."""


LAYOUTS = (
    Layout("desk", "sloping desk whose control shelf is raked toward the operator", ("gauge", "gauge", "fan")),
    Layout("cabinet", "tall cabinet with a hinged instrument door above the controls", ("edgewise", "gauge", "edgewise")),
    Layout("mimic", "wall-mounted mimic board with lamps set into the process schematic", ("mimic", "gauge", "column")),
    Layout("rack", "nineteen-inch rack of stacked modules on tapped rails", ("bargraph", "edgewise", "fan")),
    Layout("recorder", "recorder bay led by a tall strip chart with meters beside it", ("chart", "gauge", "edgewise")),
    Layout("bench", "benchtop instrument case with a big central cathode-ray screen", ("scope", "edgewise", "gauge"), ("1940s", "1950s", "1960s", "1970s", "1980s", "1990s")),
    Layout("console", "three-wing operator console with angled side wings", ("fan", "gauge", "fan")),
    Layout("hmi", "flat operator terminal with a trend screen and a few hard keys", ("trend", "bargraph", "bargraph"), ("2000s", "2020s", "speculative")),
)  # fmt: skip


ALL_ERAS = (
    "1920s",
    "1940s",
    "1950s",
    "1960s",
    "1970s",
    "1980s",
    "1990s",
    "2000s",
    "2020s",
    "speculative",
)

# Control kinds by the role they play, each with the eras that made it: a 1920s
# panel gets knife switches, levers and push-pull knobs, a 1980s one thumbwheels,
# key switches and rockers. Every machine gets one of each role, so it always has
# at least three different kinds (no kind serves two of master, mode and setpoint).
CONTROL_KINDS = {
    "master": {
        "knife switch": ("1920s", "1940s"),
        "isolator handle": ("1920s", "1940s", "1950s", "1960s", "1970s", "1980s"),
        "guarded toggle": ("1950s", "1960s", "1970s", "1980s", "1990s", "2000s", "2020s", "speculative"),
        "key switch": ("1960s", "1970s", "1980s", "1990s", "2000s", "2020s", "speculative"),
    },
    "mode": {
        "rotary selector": ALL_ERAS,
        "piano keys": ("1950s", "1960s", "1970s", "1980s"),
    },
    "setpoint": {
        "lever": ("1920s", "1940s", "1950s", "1960s", "speculative"),
        "vernier knob": ("1920s", "1940s", "1950s", "1960s", "1970s", "1980s", "1990s", "2000s", "2020s"),
        "thumbwheel": ("1970s", "1980s", "1990s", "2000s"),
        "slider": ("1970s", "1980s", "1990s", "2000s", "2020s", "speculative"),
    },
    "aux": {
        "knife switch": ("1920s",),
        "push-pull knob": ("1920s", "1940s", "1950s", "1960s"),
        "bat toggle": ("1940s", "1950s", "1960s", "1970s", "1980s", "1990s", "2000s", "2020s"),
        "rocker switch": ("1980s", "1990s", "2000s", "2020s", "speculative"),
    },
    "ack": {"push button": ALL_ERAS},
}  # fmt: skip


@dataclass(frozen=True)
class Era:
    key: str
    label_font: str
    readout_font: str
    readout: str
    """none, drum, nixie, led, vfd, lcd, tft."""
    upper: bool
    radius: int
    modes: tuple[str, ...]
    """The mode selector's positions, cold first; the last-but-one or last is RUN."""
    run: str
    makers: tuple[str, ...]

    @property
    def when(self) -> str:
        """The era inside a sentence: "in the 1950s", and never "in the speculative"."""
        return "in an imagined future" if self.key == "speculative" else f"in the {self.key}"


ERAS = {
    "1920s": Era("1920s", '"Didot", "Bodoni MT", Georgia, "Times New Roman", serif', 'Georgia, "Times New Roman", serif', "drum", True, 0, ("OFF", "READY", "WORKING"), "WORKING", ("Brandt & Fell", "Ashcombe Bros.", "Maison Verlaine", "Holloway & Kerr")),
    "1940s": Era("1940s", '"Futura", "Century Gothic", "Trebuchet MS", sans-serif', '"Courier New", Courier, monospace', "drum", True, 2, ("OFF", "STAND BY", "RUN"), "RUN", ("Ferrant Electric", "Stahlwerk Orde", "Marlow-Hythe", "Consolidated Dynamo")),
    "1950s": Era("1950s", '"Gill Sans", "Gill Sans MT", "Trebuchet MS", sans-serif', '"Courier New", Courier, monospace', "nixie", True, 3, ("OFF", "WARM-UP", "RUN"), "RUN", ("Elliott-Vane", "Norsk Apparat", "Telefunk Ost", "Bexley Instruments")),
    "1960s": Era("1960s", '"Helvetica Neue", Helvetica, Arial, sans-serif', '"Courier New", monospace', "nixie", True, 2, ("OFF", "STBY", "RUN", "BOOST"), "RUN", ("Kessler AG", "Sorensen-Lund", "Atlas Controls", "Hawkmoor")),
    "1970s": Era("1970s", '"Eurostile", "Microgramma", "Arial Narrow", Arial, sans-serif', '"DejaVu Sans Mono", monospace', "led", True, 2, ("0", "STBY", "AUTO", "MAN"), "AUTO", ("Syntron", "Olivant", "Dekra-Works", "Pemberton Systems")),
    "1980s": Era("1980s", 'Arial, "Helvetica", sans-serif', '"DejaVu Sans Mono", "Courier New", monospace', "vfd", True, 2, ("OFF", "STBY", "RUN", "TEST"), "RUN", ("Microdyne", "Tanaka Seiki", "Voxell", "Grenfell Digital")),
    "1990s": Era("1990s", 'Verdana, Tahoma, "DejaVu Sans", sans-serif', '"DejaVu Sans Mono", monospace', "lcd", False, 3, ("Off", "Standby", "Run"), "Run", ("Novatek", "Arcturus Engineering", "Helix Control", "Brightwater")),
    "2000s": Era("2000s", '"Segoe UI", Tahoma, "DejaVu Sans", sans-serif', '"Consolas", "DejaVu Sans Mono", monospace', "lcd", False, 4, ("Off", "Standby", "Auto", "Manual"), "Auto", ("Quorum", "Veridian", "Stratos", "Kelvin-Hale")),
    "2020s": Era("2020s", 'Inter, system-ui, "Segoe UI", Roboto, sans-serif', 'ui-monospace, "SF Mono", "DejaVu Sans Mono", monospace', "tft", False, 4, ("Off", "Idle", "Run"), "Run", ("Norra", "Fathom", "Meridian Labs", "Octave")),
    "speculative": Era("speculative", '"Optima", Candara, "Segoe UI", sans-serif', 'ui-monospace, "DejaVu Sans Mono", monospace', "tft", False, 1, ("DORMANT", "ATTUNE", "FLOW"), "FLOW", ("Halcyon Works", "Aster-Vey", "The Lumen Guild", "Corvid Array")),
}  # fmt: skip


@dataclass(frozen=True)
class Quantity:
    key: str
    """The state() key, derived from the label."""
    label: str
    unit: str
    lo: float
    hi: float


@dataclass(frozen=True)
class Engine:
    """One small ODE system, the same under many kinds: output u follows demand,
    v rises with u and is held down by the auxiliary, reserve w is drawn by u and
    made up by the auxiliary; s is a sensor's disagreement. The three faults
    attack v, w and s. The texts are templates in the kind's own words:
    {kind}, {u}, {v}, {w}, {aux}. How the auxiliary does its two jobs differs
    from kind to kind, so the engine never says: each kind's `duty` does."""

    key: str
    extra: str
    """The fourth, engine-only quantity in state() (normalised 0..1)."""
    overview: str
    """How the coupled system behaves, in the manual's words."""
    consequence: str
    """What an alarm left standing does, beyond tripping."""


ENGINES = {
    "thermal": Engine("thermal", "loop_return", "The {u} heats a thermal mass whose heat leaves through a loop that lags behind it, so the {v} creeps on for a few minutes after any change of demand. The {w} is used up while the {kind} works.", "the {kind} trips: demand is cut and the {aux} is forced on until reset"),
    "hydraulic": Engine("hydraulic", "relief_flow", "The {v} rises with the square of the {u}, so the last few percent of demand cost the most, and the {w} falls as the {u} draws on it. Above the alarm line a relief valve starts to pass flow back.", "the relief valve lifts fully, dumping pressure and part of the {w}, and the {kind} trips"),
    "rotating": Engine("rotating", "vibration", "The machine has inertia: the {u} answers the demand slowly, and friction heat grows faster than the speed itself, so the {v} climbs steeply near full speed. Vibration follows the {v}, and the {w} is drawn down while it turns.", "the bearing is damaged: friction stays high until the machine is reset, and the drive trips"),
    "electrical": Engine("electrical", "breaker_heat", "Heat goes with the square of the {u} (I squared R) and shows as the {v}. The {w} holds up the control supply, and it charges only while the load is moderate.", "the breaker opens and the {w} carries the house load, draining until reset"),
    "chemical": Engine("chemical", "conversion", "The process feeds itself: below the alarm line the {v} follows the {u} calmly, above it the {v} runs away unless it is checked. The {w} is used up with the feed.", "the {kind} trips: the feed stops and part of the contents go to the dump tank, taking part of the {w} with them"),
    "signal": Engine("signal", "reflected_power", "The {v} rises with the {u}. The {w} keeps the line dry; when it falls the line starts to arc and reflected power adds to the heat in the output stage.", "the HT crowbar fires: the {kind} drops off the air until reset"),
    "lifesupport": Engine("lifesupport", "absorber_load", "The load never rests: once armed, what the {v} measures is produced at a steady rate and removed in proportion to the {u}, so more {u} means a lower {v}. The {w} is drawn down as the {kind} works.", "the {kind} falls back to its emergency bleed, which drains the {w} until reset"),
    "cryo": Engine("cryo", "suction_superheat", "The {v} rises in proportion to the {u}, and a short {w} makes it higher for the same duty.", "the high-pressure cut-out locks the {kind} out until reset"),
    "motion": Engine("motion", "tractive_effort", "The load has mass: the {u} gains slowly, and the {v} rises with the effort, which is largest while accelerating and settles once the speed is reached. The {w} works the brakes.", "a penalty brake application: power is cut, the brakes go on and the {w} falls"),
}  # fmt: skip


@dataclass(frozen=True)
class Kind:
    """One kind of machine in its own words: what a person reads on its panel and in
    its manual (quantities, controls, faults, alarm legends, what it is for), over
    the engine that simulates it."""

    name: str
    engine: str
    eras: tuple[str, ...]
    """The eras it can plausibly belong to: from its earliest on (some stop at
    their last), and always the speculative one."""
    u: Quantity
    """The output that follows the demand."""
    v: Quantity
    """What rises with the output; alarms high."""
    w: Quantity
    """The reserve the output draws on; alarms low."""
    master: str
    mode: str
    setpoint: str
    aux: str
    """Holds the v down and makes the w up."""
    ack: str
    heat: str
    """The fault that stops v being held down."""
    leak: str
    """The fault that drains w."""
    drift: str
    """The fault of an instrument reading u."""
    v_alarm: str
    w_alarm: str
    s_alarm: str
    motto: str
    """What it is for, the seed of its tagline."""
    duty: str
    """How its auxiliary holds the v down and keeps the w up, as a sentence true of
    this machine: the manual and the panel say it wherever the auxiliary's role is told."""


def _key(label: str) -> str:
    ascii_label = label.lower().replace("₂", "2").replace("³", "3")
    return "_".join(re.findall(r"[a-z0-9]+", ascii_label))


def era_span(text: str) -> tuple[str, ...]:
    """A kind's eras from its table cell: "1960s" is that decade and every later one,
    "1920s-1950s" those decades only. Any kind may be imagined in the speculative
    era, so it is always in."""
    decades = ALL_ERAS[:-1]
    first, _, last = text.partition("-")
    end = decades.index(last) if last else len(decades) - 1
    return (*decades[decades.index(first) : end + 1], "speculative")


def _k(name: str, engine: str, eras: str, u: tuple, v: tuple, w: tuple, controls: tuple[str, ...],
       faults: tuple[str, ...], alarms: tuple[str, ...], motto: str, duty: str) -> Kind:  # fmt: skip
    """A kind from its table row: eras as `era_span` reads them; quantities as (label,
    unit, lo, hi); controls as (master, mode, setpoint, aux, ack); faults as (heat,
    leak, drift); alarms as (v, w, s); then its motto and its auxiliary's duty."""
    u_q, v_q, w_q = (Quantity(_key(q[0]), *q) for q in (u, v, w))
    return Kind(name, engine, era_span(eras), u_q, v_q, w_q, *controls, *faults, *alarms, motto, duty)  # fmt: skip


KINDS = {
    "aerospace": (
        _k("wind tunnel fan drive", "rotating", "1920s", ("Fan speed", "rpm", 0, 720), ("Fan bearing temperature", "°C", 15, 130), ("Bearing oil level", "%", 0, 100),
           ("drive breaker", "tunnel run mode", "fan speed demand", "bearing oil pump", "alarm acknowledge"),
           ("bearing oil cooler blocked", "oil return line fracture", "fan tachometer drift"), ("BEARING HOT", "OIL LEVEL LOW", "TACHO DISAGREE"),
           "Pulls a steady wind through the working section",
           "The bearing oil pump drives oil through the fan bearing and its cooler, carrying the bearing's heat away, and scavenges the oil that drains out back into the tank."),
        _k("rocket engine test stand", "thermal", "1940s", ("Thrust", "kN", 0, 400), ("Nozzle wall temperature", "°C", 20, 900), ("Cooling water tank", "%", 0, 100),
           ("range safety arm", "firing sequence", "throttle", "cooling water pump", "alarm accept"),
           ("cooling jacket blockage", "water main burst", "thrust load cell drift"), ("NOZZLE HOT", "WATER TANK LOW", "LOAD CELL DISAGREE"),
           "Holds an engine down at full thrust and keeps it from melting",
           "The cooling water pump drives water through the nozzle's cooling jacket, carrying the wall's heat away, and refills the cooling water tank from the water main as it runs."),
        _k("composite wing autoclave", "thermal", "1970s", ("Heater output", "%", 0, 100), ("Part temperature", "°C", 20, 220), ("Cooling water reservoir", "%", 0, 100),
           ("autoclave mains", "cure cycle", "heat demand", "cooling coil pump", "alarm accept"),
           ("cooling coil scaled up", "reservoir drain valve weep", "heater wattmeter drift"), ("PART OVERTEMP", "RESERVOIR LOW", "POWER DISAGREE"),
           "Cures a wing skin under heat and pressure, ply by ply",
           "The cooling coil pump drives water through the coil inside the vessel, drawing heat out of the part, and brings it back through the cooler into the reservoir."),
    ),
    "agriculture": (
        _k("grain drier", "thermal", "1940s", ("Burner firing", "%", 0, 100), ("Grain temperature", "°C", 10, 90), ("Wet-grain hopper", "%", 0, 100),
           ("burner isolator", "drying programme", "firing rate", "filling elevator", "alarm accept"),
           ("cooling-air fan failure", "hopper slide gate stuck open", "burner rate sensor drift"), ("GRAIN HOT", "HOPPER LOW", "RATE DISAGREE"),
           "Dries the harvest without scorching a kernel",
           "The filling elevator lifts wet grain into the hopper to keep it full, and the cool grain it sends down the column holds the grain temperature down."),
        _k("irrigation pump station", "hydraulic", "1920s", ("Delivery flow", "m³/h", 0, 900), ("Main line pressure", "bar", 0, 16), ("Intake sump level", "%", 0, 100),
           ("station breaker", "pumping schedule", "flow setting", "bypass return valve", "horn silence"),
           ("surge vessel waterlogged", "intake screen blocked", "flowmeter drift"), ("LINE PRESS HIGH", "SUMP LOW", "FLOW DISAGREE"),
           "Lifts the river into the furrows at a pressure the pipes can bear",
           "The bypass return valve spills part of the delivery from the main line back into the intake sump, holding the line pressure down and keeping the sump topped up."),
        _k("milk cooling vat", "cryo", "1950s", ("Compressor duty", "%", 0, 100), ("Condensing pressure", "bar", 2, 24), ("Refrigerant charge", "%", 0, 100),
           ("vat supply switch", "cooling stage", "duty setting", "condenser fan", "alarm accept"),
           ("condenser fins full of chaff", "evaporator plate leak", "compressor current drift"), ("HEAD PRESS HIGH", "CHARGE LOW", "DUTY DISAGREE"),
           "Takes the warmth out of the morning milking",
           "The condenser fan blows air through the condenser: the condensing pressure stays down and the refrigerant condenses back to liquid, so the charge collects in the receiver ready for the evaporator plate."),
    ),
    "aviation": (
        _k("runway lighting regulator", "electrical", "1940s", ("Lamp circuit current", "A", 0, 6.6), ("Winding temperature", "°C", 20, 160), ("Standby battery", "%", 0, 100),
           ("regulator supply", "regulator mode", "brightness setting", "cooling blower", "alarm reset"),
           ("blower filter choked", "battery cell short", "series CT drift"), ("REGULATOR HOT", "BATTERY LOW", "CT DISAGREE"),
           "Keeps the runway lit at the brightness the tower asks for",
           "The cooling blower carries the heat out of the windings, and the standby battery's charger is fed through the blower's contactor, so the battery charges whenever the blower runs."),
        _k("fuel hydrant pump", "hydraulic", "1950s", ("Hydrant flow", "L/min", 0, 4000), ("Hydrant pressure", "bar", 0, 12), ("Tank farm level", "%", 0, 100),
           ("pump house breaker", "fuelling mode", "flow demand", "tank transfer valve", "horn silence"),
           ("surge arrester stuck", "hydrant pit valve leak", "fuel meter drift"), ("HYDRANT PRESS HIGH", "TANK FARM LOW", "METER DISAGREE"),
           "Puts fuel into wings at the stand without a drop on the apron",
           "The tank transfer valve spills fuel from the hydrant main back to the tank farm, holding the hydrant pressure down and putting the fuel back in the tanks."),
        _k("de-icing fluid heater", "thermal", "1950s", ("Heater output", "kW", 0, 300), ("Fluid temperature", "°C", 5, 95), ("Glycol tank", "%", 0, 100),
           ("heater main switch", "heater mode", "heat demand", "recirculation pump", "alarm accept"),
           ("recirculation strainer blocked", "glycol hose split", "heater power meter drift"), ("FLUID HOT", "GLYCOL LOW", "METER DISAGREE"),
           "Has hot glycol ready before the first departure of a frozen morning",
           "The recirculation pump draws glycol through the heater and back into the glycol tank, carrying the heat off the elements and returning the fluid to the tank."),
    ),
    "broadcast": (
        _k("medium-wave transmitter", "signal", "1920s", ("Carrier power", "kW", 0, 50), ("Anode temperature", "°C", 20, 260), ("Feeder dry-air pressure", "kPa", 0, 60),
           ("HT enable", "transmit mode", "power level", "valve cooling blower", "alarm cancel"),
           ("blower belt snap", "feeder dry-air leak", "carrier monitor drift"), ("ANODE HOT", "DRY AIR LOW", "MONITOR FAULT"),
           "Puts the programme on the air from dusk to close-down",
           "The valve cooling blower carries the heat off the valve anodes, and a bleed from its duct through the dehydrator keeps the feeder filled with dry air."),
        _k("outside-broadcast generator", "rotating", "1940s", ("Engine speed", "rpm", 0, 1800), ("Bearing temperature", "°C", 15, 130), ("Lube oil level", "%", 0, 100),
           ("engine start", "generator mode", "governor setting", "lube oil primer", "alarm acknowledge"),
           ("bearing grease breakdown", "sump gasket leak", "governor pickup drift"), ("BEARING TEMP HIGH", "OIL LOW", "SPEED DISAGREE"),
           "Powers the cameras in a field with no mains for miles",
           "The lube oil primer pumps oil through the bearings, carrying their heat away, and scavenges what drains out back into the sump."),
        _k("television relay amplifier", "signal", "1950s", ("Output power", "W", 0, 2000), ("Klystron temperature", "°C", 20, 240), ("Waveguide air pressure", "kPa", 0, 60),
           ("beam supply", "relay mode", "drive level", "klystron cooling fan", "alarm cancel"),
           ("cooling fan bearing seized", "waveguide window crack", "output power meter drift"), ("KLYSTRON HOT", "WAVEGUIDE AIR LOW", "POWER METER FAULT"),
           "Catches a faint picture over the hill and sends it on strong",
           "The klystron cooling fan carries the heat off the klystron, and a bleed from its outlet through a desiccant cartridge keeps the waveguide pressurised with dry air."),
    ),
    "chemical": (
        _k("batch reactor", "chemical", "1920s", ("Feed rate", "L/min", 0, 240), ("Reactor pressure", "kPa", 90, 900), ("Solvent inventory", "%", 0, 100),
           ("plant permit", "process step", "feed valve", "quench water", "alarm mute"),
           ("quench valve jam", "solvent line weep", "feed flowmeter drift"), ("REACTOR PRESS HIGH", "SOLVENT LOW", "FEED DISAGREE"),
           "Brings a batch to reaction and no further",
           "The quench water runs through the reactor jacket, taking the heat of reaction away so the pressure stays down, and chills the vent condenser so solvent vapour runs back into the inventory."),
        _k("distillation column", "chemical", "1920s", ("Reboiler steam", "kg/h", 0, 3000), ("Column pressure", "kPa", 90, 400), ("Reflux drum level", "%", 0, 100),
           ("column permit", "column step", "steam valve", "condenser cooling water", "alarm mute"),
           ("condenser fouling", "reflux drum drain weep", "steam orifice drift"), ("COLUMN PRESS HIGH", "REFLUX DRUM LOW", "STEAM DISAGREE"),
           "Splits the mixture into clean cuts, tray by tray",
           "The condenser cooling water condenses the vapour leaving the top of the column, holding the column pressure down, and the condensate runs into the reflux drum to keep it up."),
        _k("chlorine scrubber", "chemical", "1920s", ("Gas inflow", "m³/h", 0, 600), ("Liquor temperature", "°C", 10, 90), ("Caustic reserve", "%", 0, 100),
           ("scrubber enable", "scrubbing stage", "gas inlet damper", "caustic circulation pump", "alarm mute"),
           ("liquor cooler blocked", "caustic tank leak", "gas flowmeter drift"), ("LIQUOR HOT", "CAUSTIC LOW", "GAS FLOW DISAGREE"),
           "Catches every breath of chlorine before it reaches the street",
           "The caustic circulation pump drives liquor through the cooler and over the packing, carrying off the heat of absorption, and its make-up line tops up the caustic reserve from the bulk tank."),
    ),
    "civic": (
        _k("district heating boiler", "thermal", "1920s", ("Burner output", "MW", 0, 12), ("Flow temperature", "°C", 20, 140), ("Feedwater tank", "%", 0, 100),
           ("boiler house isolator", "firing mode", "heat demand", "circulation pump", "alarm accept"),
           ("circulation pump trip", "feedwater tank leak", "burner output meter drift"), ("FLOW TEMP HIGH", "FEEDWATER LOW", "OUTPUT DISAGREE"),
           "Keeps a whole district's radiators warm through the winter",
           "The circulation pump sends the hot water out round the district, carrying the heat away so the flow temperature stays down, and brings the cooled return back into the feedwater tank."),
        _k("clock tower drive", "rotating", "1920s", ("Drive shaft speed", "rpm", 0, 60), ("Gear train temperature", "°C", 10, 90), ("Oil reservoir", "%", 0, 100),
           ("clock supply", "drive mode", "rate regulator", "oiler pump", "bell cancel"),
           ("gear train binding", "oil cup leak", "shaft counter drift"), ("GEAR TRAIN HOT", "OIL LOW", "COUNTER DISAGREE"),
           "Keeps four faces telling the same time to the square",
           "The oiler pump drips oil onto the gear train, keeping the teeth cool and free, and lifts what runs off into the catch tray back to the reservoir."),
        _k("pneumatic tube exchange", "hydraulic", "1920s-1960s", ("Blower speed", "rpm", 0, 3000), ("Tube line pressure", "kPa", 0, 40), ("Air receiver", "%", 0, 100),
           ("exchange power", "dispatch mode", "blower setting", "receiver compressor", "horn silence"),
           ("line damper stuck shut", "receiver drain leak", "blower tachometer drift"), ("LINE PRESS HIGH", "RECEIVER LOW", "TACHO DISAGREE"),
           "Sends a message across town in a brass carrier in under a minute",
           "The receiver compressor draws air back out of the tube lines, holding the line pressure down, and pumps it into the air receiver to keep it charged."),
    ),
    "cold-chain": (
        _k("blast freezer", "cryo", "1920s", ("Compressor duty", "%", 0, 100), ("Discharge pressure", "bar", 2, 26), ("Ammonia charge", "%", 0, 100),
           ("freezer main switch", "freezing stage", "duty setting", "evaporative condenser", "alarm accept"),
           ("condenser spray pump failure", "ammonia leak at the coil", "motor current transducer drift"), ("DISCHARGE HIGH", "AMMONIA LOW", "DUTY DISAGREE"),
           "Freezes a pallet solid before the ice crystals can grow",
           "The evaporative condenser sprays water over the condenser coils, holding the discharge pressure down and condensing the ammonia back into the receiver, which keeps the charge up."),
        _k("reefer container unit", "cryo", "1990s", ("Compressor speed", "rpm", 0, 3600), ("Head pressure", "bar", 2, 24), ("R-134a charge", "%", 0, 100),
           ("unit power", "reefer mode", "capacity setting", "condenser fan", "alarm reset"),
           ("condenser coil salted up", "service valve leak", "speed sensor drift"), ("HEAD PRESS HIGH", "CHARGE LOW", "SPEED DISAGREE"),
           "Holds a box of fruit at four degrees across an ocean",
           "The condenser fan drives outside air through the condenser coil: the head pressure stays down and the R-134a condenses back to liquid, keeping the charge in the receiver."),
        _k("ice-bank chiller", "cryo", "1940s", ("Compressor load", "%", 0, 100), ("Condenser pressure", "bar", 2, 22), ("Receiver level", "%", 0, 100),
           ("chiller isolator", "charging mode", "load setting", "condenser water pump", "alarm accept"),
           ("cooling tower fan stall", "receiver relief valve weep", "load sensor drift"), ("COND PRESS HIGH", "RECEIVER LOW", "LOAD DISAGREE"),
           "Builds ice by night to cool the day's work",
           "The condenser water pump drives cooling-tower water through the condenser, holding the condenser pressure down and condensing the refrigerant back into the receiver."),
    ),
    "data-centre": (
        _k("chilled-water plant", "cryo", "1960s", ("Chiller load", "%", 0, 100), ("Refrigerant head pressure", "bar", 2, 24), ("Refrigerant charge", "%", 0, 100),
           ("plant enable", "chiller sequence", "load limit", "cooling tower pump", "alarm silence"),
           ("cooling tower fill fouled", "chiller tube leak", "chiller load meter drift"), ("HEAD PRESS HIGH", "CHARGE LOW", "LOAD DISAGREE"),
           "Carries the heat of ten thousand servers out to the roof",
           "The cooling tower pump drives condenser water out to the tower and back, holding the head pressure down and condensing the refrigerant back to liquid, so the working charge stays up."),
        _k("uninterruptible power cabinet", "electrical", "1970s", ("Load current", "A", 0, 800), ("Heatsink temperature", "°C", 20, 110), ("Battery charge", "%", 0, 100),
           ("input breaker", "UPS mode", "output limit", "cabinet fans", "alarm reset"),
           ("fan tray failure", "battery string fault", "output CT drift"), ("HEATSINK HOT", "BATTERY LOW", "CT DISAGREE"),
           "Holds the racks up through the seconds the mains goes away",
           "The cabinet fans draw air over the heatsinks, carrying their heat away, and the battery charger is interlocked with them, so the battery charges only while they run."),
        _k("immersion cooling tank", "thermal", "2000s", ("Rack power", "kW", 0, 200), ("Bath temperature", "°C", 20, 70), ("Dielectric fluid level", "%", 0, 100),
           ("tank power", "tank mode", "power cap", "fluid circulation pump", "alarm accept"),
           ("heat exchanger fouling", "fluid loss at the lid seal", "rack power meter drift"), ("BATH HOT", "FLUID LOW", "POWER DISAGREE"),
           "Sinks the servers in cool oil and keeps it cool",
           "The fluid circulation pump drives the dielectric fluid through the heat exchanger, carrying the servers' heat away, and draws the fluid back from the overflow weir to keep the bath topped up."),
    ),
    "deep-sea": (
        _k("saturation diving habitat", "lifesupport", "1960s", ("Gas circulation", "m³/h", 0, 300), ("CO₂ partial pressure", "mbar", 0, 20), ("Heliox bank", "%", 0, 100),
           ("life support arm", "chamber mode", "circulation demand", "gas reclaim unit", "alarm silence"),
           ("soda-lime exhausted", "heliox bank leak", "circulation flowmeter drift"), ("CO2 HIGH", "HELIOX BANK LOW", "FLOW DISAGREE"),
           "Keeps six divers breathing at two hundred metres",
           "The gas reclaim unit draws chamber gas through its soda-lime scrubber, taking the CO₂ out, and pumps the cleaned heliox back into the bank."),
        _k("submersible ballast controller", "hydraulic", "1950s", ("Ballast pump speed", "rpm", 0, 2400), ("Hydraulic pressure", "bar", 0, 210), ("Reservoir oil level", "%", 0, 100),
           ("ballast power", "trim mode", "pump demand", "unloading valve", "horn silence"),
           ("relief valve stuck shut", "hull penetrator oil leak", "pump speed pickup drift"), ("HYD PRESS HIGH", "RESERVOIR LOW", "SPEED DISAGREE"),
           "Trims the boat level, a few litres at a time",
           "The unloading valve returns the pump's surplus oil to the reservoir, holding the hydraulic pressure down and keeping the reservoir oil level up."),
        _k("seafloor cable repeater", "signal", "1990s", ("Pump laser power", "mW", 0, 500), ("Amplifier case temperature", "°C", 2, 80), ("Housing gas pressure", "kPa", 0, 60),
           ("shore power feed", "line mode", "pump laser drive", "nitrogen circulator", "alarm cancel"),
           ("heat pipe dry-out", "housing seal leak", "optical power monitor drift"), ("CASE HOT", "HOUSING GAS LOW", "MONITOR FAULT"),
           "Lifts the light back up every sixty kilometres of seabed",
           "The nitrogen circulator drives the housing's dry nitrogen over the amplifier, carrying its heat to the housing wall, and tops the housing up from its pressure bottle."),
    ),
    "energy": (
        _k("tidal turbine", "rotating", "2000s", ("Rotor speed", "rpm", 0, 20), ("Main bearing temperature", "°C", 5, 110), ("Gearbox oil level", "%", 0, 100),
           ("turbine breaker", "turbine mode", "blade pitch", "gearbox oil pump", "alarm acknowledge"),
           ("bearing cooler barnacled", "gearbox seal leak", "rotor encoder drift"), ("MAIN BEARING HOT", "GEARBOX OIL LOW", "ENCODER DISAGREE"),
           "Turns twice a day with the tide and never asks for fuel",
           "The gearbox oil pump drives oil through the main bearing and its cooler, carrying the heat away, and returns the oil that drains out of the bearing to the gearbox."),
        _k("solar furnace", "thermal", "1950s", ("Heliostat focus", "%", 0, 100), ("Receiver temperature", "°C", 20, 1400), ("Cooling water tank", "%", 0, 100),
           ("heliostat field enable", "tracking mode", "focus demand", "receiver cooling pump", "alarm accept"),
           ("cooling jacket steam lock", "tank feed pipe leak", "flux gauge drift"), ("RECEIVER HOT", "COOLING WATER LOW", "FLUX DISAGREE"),
           "Gathers a hillside of sunlight onto one white-hot plate",
           "The receiver cooling pump drives water through the receiver's jacket, carrying the heat off the plate, and brings it back through the air cooler into the tank."),
        _k("biogas digester", "chemical", "1920s", ("Sludge feed", "m³/h", 0, 40), ("Volatile acid content", "mg/L", 0, 1500), ("Alkalinity", "mg/L", 0, 5000),
           ("digester permit", "digestion stage", "feed setting", "lime dosing pump", "alarm mute"),
           ("lime dosing line blocked", "acid slug in the feed", "sludge flowmeter drift"), ("ACIDS HIGH", "ALKALINITY LOW", "FEED DISAGREE"),
           "Turns the town's sludge into gas for its own boilers",
           "The lime dosing pump feeds lime into the digester, neutralising the volatile acids before they sour it and restoring the alkalinity the feed uses up."),
    ),
    "laboratory": (
        _k("cyclotron magnet supply", "electrical", "1940s", ("Magnet current", "A", 0, 1200), ("Coil temperature", "°C", 20, 90), ("Control battery", "%", 0, 100),
           ("supply key", "magnet mode", "current setting", "coil cooling water", "alarm reset"),
           ("coil cooling water blockage", "control battery cell short", "DCCT drift"), ("COIL HOT", "BATTERY LOW", "DCCT DISAGREE"),
           "Holds the field steady to a part in a million while the beam goes round",
           "The coil cooling water carries the heat out of the magnet coils, and its flow switch enables the control battery's charger, so the battery charges only while the water runs."),
        _k("helium cryostat", "cryo", "1960s", ("Compressor duty", "%", 0, 100), ("Helium return pressure", "bar", 2, 24), ("Liquid helium level", "%", 0, 100),
           ("cryostat enable", "cooldown stage", "duty setting", "cold-head water chiller", "alarm accept"),
           ("chiller water loss", "cryostat vacuum leak", "cold-head speed sensor drift"), ("RETURN PRESS HIGH", "HELIUM LOW", "DUTY DISAGREE"),
           "Keeps a magnet four degrees above nothing at all",
           "The cold-head water chiller takes the compression heat out of the helium, holding the return pressure down, so the cold head can recondense the boil-off back into the bath."),
        _k("ultracentrifuge", "rotating", "1940s", ("Rotor speed", "rpm", 0, 60000), ("Drive temperature", "°C", 4, 60), ("Drive lubricant", "%", 0, 100),
           ("mains switch", "run programme", "speed setting", "lubricator pump", "alarm acknowledge"),
           ("drive cooling failure", "lubricant seal leak", "rotor speed sensor drift"), ("DRIVE HOT", "LUBRICANT LOW", "SPEED DISAGREE"),
           "Spins a sample until its heaviest parts give up and sink",
           "The lubricator pump feeds oil through the drive bearings, carrying their heat away, and draws what runs off back into the lubricant reservoir."),
    ),
    "marine": (
        _k("steam steering engine", "hydraulic", "1920s-1950s", ("Ram pump stroke", "%", 0, 100), ("Ram pressure", "bar", 0, 70), ("Telemotor tank", "%", 0, 100),
           ("steering gear main", "steering mode", "helm demand", "replenishing pump", "bell cancel"),
           ("ram relief valve stuck", "ram gland leak", "stroke indicator drift"), ("RAM PRESS HIGH", "TELEMOTOR LOW", "STROKE DISAGREE"),
           "Swings a ship's rudder at a touch of the wheel",
           "The replenishing pump keeps the telemotor tank topped up from the header, and its bypass lets surplus oil back from the rams, holding the ram pressure down."),
        _k("ship's refrigeration plant", "cryo", "1920s", ("Compressor duty", "%", 0, 100), ("Condenser pressure", "bar", 2, 22), ("Refrigerant charge", "%", 0, 100),
           ("reefer plant switch", "hold cooling stage", "duty setting", "sea-water circulating pump", "alarm accept"),
           ("sea-water strainer choked", "charging valve leak", "duty meter drift"), ("COND PRESS HIGH", "CHARGE LOW", "DUTY DISAGREE"),
           "Keeps the meat hold frozen from the Plate to the Thames",
           "The sea-water circulating pump drives sea water through the condenser, holding the condenser pressure down and condensing the refrigerant back to liquid, which keeps the charge in the receiver."),
        _k("auxiliary diesel generator", "rotating", "1920s", ("Engine speed", "rpm", 0, 1500), ("Main bearing temperature", "°C", 15, 130), ("Lube oil sump", "%", 0, 100),
           ("generator breaker", "engine mode", "governor setting", "lube oil priming pump", "alarm acknowledge"),
           ("oil cooler sea-water blockage", "sump drain cock leak", "magnetic pickup drift"), ("BEARING HOT", "SUMP LOW", "PICKUP DISAGREE"),
           "Lights the ship when the main engines sleep in port",
           "The lube oil priming pump drives oil through the main bearings and the oil cooler, carrying their heat away, and tops the sump up from the daily oil tank."),
    ),
    "medical": (
        _k("hyperbaric chamber", "lifesupport", "1950s", ("Ventilation flow", "L/min", 0, 600), ("Chamber CO₂", "mbar", 0, 20), ("Compressed air bank", "%", 0, 100),
           ("chamber supply", "treatment mode", "ventilation demand", "ventilation compressor", "alarm silence"),
           ("exhaust valve sticking", "air bank valve leak", "flow sensor drift"), ("CO2 HIGH", "AIR BANK LOW", "FLOW DISAGREE"),
           "Presses oxygen into a patient, two atmospheres deep",
           "The ventilation compressor blows fresh air through the chamber, flushing the CO₂ out, and keeps the compressed air bank charged for the next treatment."),
        _k("negative-pressure ventilator", "lifesupport", "1920s-1960s", ("Breathing stroke", "%", 0, 100), ("Patient CO₂", "mmHg", 0, 80), ("Vacuum reservoir", "%", 0, 100),
           ("motor switch", "breathing mode", "stroke setting", "vacuum pump", "alarm silence"),
           ("neck collar seal loose", "vacuum reservoir leak", "stroke counter drift"), ("PATIENT CO2 HIGH", "VACUUM LOW", "STROKE DISAGREE"),
           "Breathes for a patient who cannot, stroke after patient stroke",
           "The vacuum pump keeps the vacuum reservoir drawn down, so every stroke pulls a full breath and the patient's CO₂ stays down."),
        _k("sterilising autoclave", "thermal", "1920s", ("Steam admission", "%", 0, 100), ("Chamber temperature", "°C", 20, 140), ("Feedwater tank", "%", 0, 100),
           ("autoclave mains", "cycle selector", "steam valve", "jacket cooling water", "alarm accept"),
           ("jacket cooling valve jammed", "door gasket leak", "steam flowmeter drift"), ("CHAMBER OVERTEMP", "FEEDWATER LOW", "STEAM DISAGREE"),
           "Brings the instruments to 134 °C and holds them there",
           "The jacket cooling water runs through the chamber jacket, holding the chamber temperature down, and the condensate it collects runs back into the feedwater tank."),
    ),
    "military": (
        _k("early-warning radar transmitter", "signal", "1940s", ("Pulse power", "kW", 0, 2500), ("Magnetron temperature", "°C", 20, 240), ("Waveguide pressure", "kPa", 0, 60),
           ("HT interlock", "radar mode", "pulse power", "cooling air blower", "alarm cancel"),
           ("magnetron cooling fan failure", "waveguide flange leak", "power monitor drift"), ("MAGNETRON HOT", "WAVEGUIDE LOW", "MONITOR FAULT"),
           "Sees aircraft two hundred miles out over the sea",
           "The cooling air blower carries the heat off the magnetron, and a bleed from its outlet through a desiccant drier keeps the waveguide pressurised with dry air."),
        _k("field water purifier", "chemical", "1940s", ("Raw water feed", "L/min", 0, 240), ("Turbidity", "NTU", 0, 50), ("Chlorine residual", "mg/L", 0, 5),
           ("unit power", "treatment stage", "feed valve", "duplex dosing pump", "alarm mute"),
           ("alum dosing head airlocked", "hypochlorite drum leak", "raw water meter drift"), ("TURBIDITY HIGH", "RESIDUAL LOW", "FEED DISAGREE"),
           "Makes a muddy river fit to drink by the canteen-full",
           "The duplex dosing pump doses alum, which settles the turbidity out before the filter, and hypochlorite, which keeps the chlorine residual up as the feed uses it."),
        _k("bunker air plant", "lifesupport", "1940s", ("Air change rate", "m³/h", 0, 4000), ("Bunker CO₂", "ppm", 400, 5000), ("Emergency air bottles", "%", 0, 100),
           ("plant arm", "protection mode", "fan demand", "bottle compressor", "alarm silence"),
           ("NBC filter clogged", "air bottle manifold leak", "airflow sensor drift"), ("BUNKER CO2 HIGH", "AIR BOTTLES LOW", "AIRFLOW DISAGREE"),
           "Keeps the air clean behind two metres of concrete",
           "The bottle compressor takes in filtered outside air, charging the emergency air bottles, and blows the surplus through the bunker, diluting the CO₂."),
    ),
    "mining": (
        _k("mine winder", "rotating", "1920s", ("Drum speed", "rpm", 0, 60), ("Drum bearing temperature", "°C", 10, 120), ("Lube oil reserve", "%", 0, 100),
           ("winder main", "winding mode", "speed control", "lubrication pump", "signal acknowledge"),
           ("bearing cooler fouled", "oil line chafed through", "speed generator drift"), ("DRUM BEARING HOT", "LUBE OIL LOW", "SPEED DISAGREE"),
           "Lowers the cage a kilometre down and brings the shift back up",
           "The lubrication pump drives oil through the drum bearings and their cooler, carrying the heat away, and scavenges the drain oil back into the reserve tank."),
        _k("dewatering pump", "hydraulic", "1920s", ("Discharge flow", "m³/h", 0, 600), ("Rising main pressure", "bar", 0, 60), ("Priming tank", "%", 0, 100),
           ("pump breaker", "pumping mode", "speed setting", "priming valve", "horn silence"),
           ("non-return valve stuck shut", "priming tank leak", "discharge flowmeter drift"), ("MAIN PRESS HIGH", "PRIMING LOW", "FLOW DISAGREE"),
           "Keeps the workings dry against the water that always comes back",
           "The priming valve lets a bleed from the rising main back into the priming tank, holding the main pressure down and keeping the tank full for the next start."),
        _k("ore flotation cell", "chemical", "1920s", ("Slurry feed", "m³/h", 0, 300), ("Froth depth", "cm", 0, 60), ("Collector reagent", "%", 0, 100),
           ("cell permit", "flotation stage", "feed valve", "froth sprays", "alarm mute"),
           ("spray header blocked", "reagent line weep", "feed density gauge drift"), ("FROTH HIGH", "REAGENT LOW", "FEED DISAGREE"),
           "Floats the copper off and lets the rock sink",
           "The froth sprays knock the froth down, holding its depth, and the spray water carries fresh collector into the cell to make up the reagent the feed takes."),
    ),
    "nuclear": (
        _k("research reactor", "thermal", "1950s", ("Reactor power", "MW", 0, 10), ("Core outlet temperature", "°C", 20, 90), ("Pool water level", "%", 0, 100),
           ("console key", "reactor mode", "control rod demand", "primary coolant pump", "alarm accept"),
           ("primary pump seizure", "pool liner leak", "neutron channel drift"), ("OUTLET TEMP HIGH", "POOL LEVEL LOW", "CHANNEL DISAGREE"),
           "Makes neutrons for the physicists and heat for no one",
           "The primary coolant pump draws pool water down through the core and out through the heat exchanger, carrying the heat away, and its demineraliser loop tops the pool up from the make-up tank."),
        _k("spent-fuel pool cooler", "hydraulic", "1960s", ("Cooling flow", "m³/h", 0, 500), ("Pump discharge pressure", "bar", 0, 12), ("Pool level", "%", 0, 100),
           ("cooling train breaker", "cooling train", "flow setting", "pool return valve", "horn silence"),
           ("cooler outlet valve stuck shut", "pool gate seal leak", "cooling flowmeter drift"), ("DISCHARGE HIGH", "POOL LOW", "FLOW DISAGREE"),
           "Keeps spent fuel under water and the water cool",
           "The pool return valve opens a second return from the pump discharge straight into the pool, holding the discharge pressure down and putting the water back in the pool."),
        _k("isotope hot cell", "lifesupport", "1950s", ("Extract flow", "m³/h", 0, 800), ("Airborne activity", "kBq/m³", 0, 20), ("Cell depression", "Pa", 0, 250),
           ("cell services", "cell mode", "extract demand", "standby extract fan", "alarm silence"),
           ("HEPA filter blinded", "manipulator boot tear", "extract flow sensor drift"), ("ACTIVITY HIGH", "DEPRESSION LOW", "FLOW DISAGREE"),
           "Lets hands work on hot isotopes through a metre of lead glass",
           "The standby extract fan pulls more air out through the HEPA filters, clearing the airborne activity and restoring the cell depression."),
    ),
    "oil-and-gas": (
        _k("wellhead choke manifold", "hydraulic", "1960s", ("Choke opening", "%", 0, 100), ("Flowline pressure", "bar", 0, 350), ("Control fluid reserve", "%", 0, 100),
           ("wellhead panel", "well mode", "choke setting", "hydraulic power unit", "horn silence"),
           ("downstream valve shut in", "control line leak", "choke position sensor drift"), ("FLOWLINE HIGH", "CONTROL FLUID LOW", "POSITION DISAGREE"),
           "Lets a well flow only as hard as the pipework allows",
           "The hydraulic power unit recharges the control fluid reserve and holds the flowline bleed valve open, letting the flowline pressure down to the test separator."),
        _k("gas compressor station", "rotating", "1950s", ("Compressor speed", "rpm", 0, 12000), ("Thrust bearing temperature", "°C", 20, 140), ("Seal oil level", "%", 0, 100),
           ("unit start permit", "station mode", "speed demand", "seal oil pump", "alarm acknowledge"),
           ("thrust bearing wear", "seal oil drain leak", "keyphasor probe drift"), ("THRUST BEARING HOT", "SEAL OIL LOW", "PROBE DISAGREE"),
           "Pushes gas down the pipeline toward the cities",
           "The seal oil pump drives oil through the seals and the thrust bearing, carrying the heat away, and returns the drained oil through the degassing tank to the seal oil tank."),
        _k("crude stabiliser", "chemical", "1940s", ("Crude feed", "m³/h", 0, 400), ("Tower pressure", "kPa", 90, 1200), ("Overhead drum level", "%", 0, 100),
           ("unit permit", "stabiliser step", "feed valve", "overhead condenser fans", "alarm mute"),
           ("overhead fan trip", "overhead drum drain leak", "crude flowmeter drift"), ("TOWER PRESS HIGH", "OVERHEAD DRUM LOW", "FEED DISAGREE"),
           "Boils the light ends off so the crude travels quietly",
           "The overhead condenser fans condense the light ends coming off the top of the tower, holding the tower pressure down, and the condensate fills the overhead drum."),
    ),
    "power-grid": (
        _k("substation transformer", "electrical", "1920s", ("Load current", "A", 0, 2000), ("Winding hot-spot temperature", "°C", 20, 150), ("Station battery", "%", 0, 100),
           ("incomer breaker", "tap-changer mode", "load setting", "oil cooling fans", "alarm reset"),
           ("cooler fan bank failure", "station battery cell short", "winding CT drift"), ("WINDING HOT", "STATION BATT LOW", "CT DISAGREE"),
           "Steps the grid down to the town without cooking its oil",
           "The oil cooling fans blow air through the radiators, carrying the windings' heat away, and the station battery charger is fed from the same contactor, so the battery charges while they run."),
        _k("synchronous condenser", "rotating", "1920s", ("Reactive output", "Mvar", 0, 160), ("Bearing temperature", "°C", 15, 120), ("Jacking oil level", "%", 0, 100),
           ("machine breaker", "excitation mode", "excitation setting", "jacking oil pump", "alarm acknowledge"),
           ("bearing cooling water loss", "jacking oil pipe leak", "var transducer drift"), ("BEARING TEMP HIGH", "JACKING OIL LOW", "VAR DISAGREE"),
           "Spins in step with the grid and props up its voltage",
           "The jacking oil pump lifts the rotor on a film of oil, keeping the bearings cool, and returns the drained oil to the jacking oil tank."),
        _k("load-frequency controller", "electrical", "1950s", ("Regulating power", "MW", 0, 500), ("Cabinet temperature", "°C", 20, 90), ("Telemetry battery", "%", 0, 100),
           ("control authority", "regulation mode", "regulation bias", "cabinet fans", "alarm reset"),
           ("cabinet fan failure", "telemetry battery fault", "frequency transducer drift"), ("CABINET HOT", "TELEMETRY LOW", "FREQ DISAGREE"),
           "Nudges the power stations until the grid hums at exactly fifty hertz",
           "The cabinet fans carry the heat out of the cabinet, and the telemetry battery's charger runs from the fans' supply, so the battery charges only while they run."),
    ),
    "rail": (
        _k("electric locomotive cab", "motion", "1920s", ("Train speed", "km/h", 0, 160), ("Traction motor temperature", "°C", 15, 190), ("Main reservoir air", "bar", 0, 10),
           ("control key", "reverser", "power controller", "auxiliary machines", "vigilance acknowledge"),
           ("motor blower failure", "brake pipe leak", "speed probe drift"), ("MOTOR HOT", "RESERVOIR LOW", "SPEED PROBE FAULT"),
           "Hauls eighteen coaches over the summit on time",
           "The auxiliary machines switch starts the traction motor blowers, which carry the heat out of the motors, and the air compressor, which keeps the main reservoir charged."),
        _k("funicular haulage drive", "motion", "1920s", ("Car speed", "m/s", 0, 10), ("Haul motor temperature", "°C", 15, 150), ("Brake accumulator", "bar", 0, 10),
           ("haulage key", "travel mode", "speed controller", "haulage auxiliaries", "bell acknowledge"),
           ("motor ventilation failure", "rail brake line leak", "rope speed encoder drift"), ("HAUL MOTOR HOT", "ACCUMULATOR LOW", "ENCODER DISAGREE"),
           "Pulls two cars up the cliff, one down as the other climbs",
           "The haulage auxiliaries switch runs the haul motor's ventilating fan, which carries its heat away, and the accumulator pump, which keeps the rail brake accumulator charged."),
        _k("turntable drive", "rotating", "1920s", ("Table speed", "deg/s", 0, 6), ("Pivot bearing temperature", "°C", 5, 90), ("Pivot grease film", "%", 0, 100),
           ("turntable supply", "drive mode", "speed setting", "grease pump", "alarm acknowledge"),
           ("pivot bearing galling", "grease line split", "table position counter drift"), ("PIVOT HOT", "GREASE LOW", "COUNTER DISAGREE"),
           "Turns a hundred tonnes of locomotive on a pin",
           "The grease pump forces fresh grease into the pivot bearing, keeping the grease film up and the bearing cool."),
    ),
    "road": (
        _k("tunnel ventilation plant", "lifesupport", "1920s", ("Airflow", "m³/s", 0, 400), ("Carbon monoxide", "ppm", 0, 200), ("Damper air receiver", "%", 0, 100),
           ("plant enable", "ventilation regime", "fan demand", "booster fans", "alarm silence"),
           ("jet fan bank trip", "damper air line leak", "anemometer drift"), ("CO HIGH", "DAMPER AIR LOW", "AIRFLOW DISAGREE"),
           "Clears the fumes of a thousand cars an hour from under the hill",
           "The booster fans push extra air through the bore, clearing the carbon monoxide, and start the receiver compressor with them, which keeps the damper air charged."),
        _k("asphalt batching plant", "thermal", "1920s", ("Burner firing", "%", 0, 100), ("Drum exhaust temperature", "°C", 20, 320), ("Drum charge", "%", 0, 100),
           ("plant main", "mixing mode", "burner demand", "cold aggregate feed", "alarm accept"),
           ("exhaust damper stuck shut", "drum discharge gate stuck open", "burner fuel meter drift"), ("EXHAUST HOT", "DRUM CHARGE LOW", "BURNER DISAGREE"),
           "Cooks stone and bitumen into road at 160 °C",
           "The cold aggregate feed runs fresh stone into the drum, keeping the charge up, and the cold stone soaks up the burner's heat, holding the exhaust temperature down."),
        _k("snow-melt road heater", "electrical", "1960s", ("Heating current", "A", 0, 800), ("Transformer temperature", "°C", 20, 150), ("Control battery", "%", 0, 100),
           ("heater contactor", "melt mode", "heat setting", "transformer fans", "alarm reset"),
           ("transformer fan failure", "control battery flooded", "current clamp drift"), ("TRANSFORMER HOT", "BATTERY LOW", "CURRENT DISAGREE"),
           "Keeps the hill road black when everything else is white",
           "The transformer fans carry the heat off the transformer, and the control battery's charger runs from the fan supply, so the battery charges while they run."),
    ),
    "space": (
        _k("orbital life-support rack", "lifesupport", "1960s", ("Cabin air flow", "m³/h", 0, 400), ("CO₂ partial pressure", "mbar", 0, 15), ("Oxygen reserve", "%", 0, 100),
           ("rack power", "atmosphere mode", "flow demand", "air revitalisation unit", "caution and warning silence"),
           ("CO2 absorber bed saturation", "oxygen line leak", "cabin flow sensor drift"), ("PPCO2 HIGH", "O2 RESERVE LOW", "FLOW DISAGREE"),
           "Keeps the crew's air fit to breathe, four hundred kilometres up",
           "The air revitalisation unit draws cabin air through its CO₂ absorber and splits recovered water into oxygen, which it stores in the oxygen reserve."),
        _k("cryogenic propellant farm", "cryo", "1950s", ("Recondenser duty", "%", 0, 100), ("Discharge pressure", "bar", 2, 26), ("Liquid oxygen level", "%", 0, 100),
           ("farm enable", "conditioning mode", "duty setting", "radiator loop pump", "alarm accept"),
           ("radiator loop blockage", "transfer line leak", "recondenser power meter drift"), ("DISCHARGE HIGH", "LOX LEVEL LOW", "DUTY DISAGREE"),
           "Stops the liquid oxygen boiling away between launches",
           "The radiator loop pump carries the recondenser's heat out to the radiators, holding the discharge pressure down, so the boil-off recondenses back into the liquid oxygen tank."),
        _k("ion thruster supply", "electrical", "1960s", ("Beam current", "A", 0, 3), ("Power processor temperature", "°C", 0, 120), ("Battery state of charge", "%", 0, 100),
           ("thruster arm", "thrust mode", "beam setting", "radiator pump loop", "alarm reset"),
           ("radiator loop freeze", "battery cell failure", "beam current monitor drift"), ("PPU HOT", "BATTERY LOW", "BEAM DISAGREE"),
           "Pushes a probe with a blue glow, a few grams of thrust for years",
           "The radiator pump loop carries the power processor's heat out to the radiators, and the battery's charge regulator is enabled only while it runs, so the battery charges from the solar array."),
    ),
    "telecom": (
        _k("exchange power plant", "electrical", "1920s", ("Exchange load", "A", 0, 1200), ("Rectifier temperature", "°C", 20, 120), ("Float battery", "%", 0, 100),
           ("mains switch", "plant mode", "rectifier output", "rectifier cooling fans", "alarm reset"),
           ("rectifier fan failure", "battery jar crack", "shunt meter drift"), ("RECTIFIER HOT", "BATTERY LOW", "SHUNT DISAGREE"),
           "Keeps fifty volts on every line in town, mains or no mains",
           "The rectifier cooling fans carry the heat out of the rectifiers, which can then carry the float charge as well as the exchange, keeping the float battery up."),
        _k("microwave relay tower", "signal", "1950s", ("Transmit power", "W", 0, 20), ("TWT collector temperature", "°C", 20, 200), ("Waveguide dry air", "kPa", 0, 60),
           ("station power", "relay mode", "drive level", "dehydrator blower", "alarm cancel"),
           ("collector fan failure", "waveguide puncture", "power detector drift"), ("TWT HOT", "DRY AIR LOW", "DETECTOR FAULT"),
           "Passes a thousand telephone calls hilltop to hilltop",
           "The dehydrator blower pushes dried air through the waveguide, keeping it pressurised, and blows its exhaust over the TWT collector fins, carrying their heat away."),
        _k("submarine cable terminal", "electrical", "1950s", ("Line feed current", "A", 0, 1.6), ("Converter temperature", "°C", 20, 140), ("Station battery", "%", 0, 100),
           ("power feed key", "feed mode", "current setting", "converter fans", "alarm reset"),
           ("converter fan failure", "battery earth fault", "line current monitor drift"), ("CONVERTER HOT", "BATTERY LOW", "LINE DISAGREE"),
           "Feeds power and light into a cable that crosses an ocean",
           "The converter fans carry the heat out of the power feed converters, and the station battery's charger is fed from the same supply, so the battery charges while they run."),
    ),
    "theatre": (
        _k("stage revolve drive", "motion", "1920s", ("Revolve speed", "rpm", 0, 4), ("Drive motor temperature", "°C", 15, 150), ("Brake air receiver", "bar", 0, 8),
           ("revolve key", "cue mode", "speed control", "drive auxiliaries", "cue acknowledge"),
           ("motor vent blocked", "brake air hose split", "revolve encoder drift"), ("MOTOR HOT", "BRAKE AIR LOW", "ENCODER DISAGREE"),
           "Turns the whole set between scenes while the audience watches",
           "The drive auxiliaries switch runs the drive motor's cooling fan, which carries its heat away, and the brake air compressor, which keeps the receiver charged."),
        _k("fly tower counterweight hoist", "hydraulic", "1960s", ("Hoist pump flow", "L/min", 0, 400), ("Hoist ram pressure", "bar", 0, 160), ("Power unit tank", "%", 0, 100),
           ("fly power", "flying mode", "hoist speed", "tank return valve", "horn silence"),
           ("ram relief valve stuck shut", "hose coupling leak", "pump flow sensor drift"), ("HOIST PRESS HIGH", "TANK LOW", "FLOW DISAGREE"),
           "Flies a painted sky in on cue and holds it there",
           "The tank return valve lets the hoist's surplus flow back into the power unit tank, holding the ram pressure down and keeping the tank full."),
        _k("lighting dimmer board", "electrical", "1920s", ("Dimmer load", "A", 0, 400), ("Dimmer rack temperature", "°C", 20, 110), ("Emergency lighting battery", "%", 0, 100),
           ("board mains", "board mode", "grand master", "rack cooling fans", "alarm reset"),
           ("rack fan failure", "emergency battery fault", "load meter drift"), ("RACK HOT", "EMERGENCY BATT LOW", "LOAD DISAGREE"),
           "Brings the house lights down and the stage up on the cue",
           "The rack cooling fans carry the heat out of the dimmer racks, and the emergency lighting charger shares their supply, so the battery charges while they run."),
    ),
    "water": (
        _k("filtration works", "hydraulic", "1920s", ("Filter flow", "Ml/d", 0, 60), ("Filter head loss", "m", 0, 3), ("Backwash tank", "%", 0, 100),
           ("works supply", "filter mode", "flow setting", "automatic backwash", "horn silence"),
           ("filter media clogged", "backwash tank drain leak", "venturi meter drift"), ("HEAD LOSS HIGH", "BACKWASH TANK LOW", "VENTURI DISAGREE"),
           "Sends the town clear water through a metre of sand",
           "The automatic backwash washes the filters in turn, holding the head loss down, and refills the backwash tank from the filtered water between washes."),
        _k("sewage aeration basin", "lifesupport", "1920s", ("Blower air flow", "m³/h", 0, 6000), ("Ammonia", "mg/L", 0, 20), ("Dissolved oxygen", "mg/L", 0, 8),
           ("basin supply", "aeration mode", "air demand", "surface aerators", "alarm silence"),
           ("diffusers fouled", "septic inflow surge", "air flowmeter drift"), ("AMMONIA HIGH", "DO LOW", "AIRFLOW DISAGREE"),
           "Gives the town's sewage to the bacteria and the bacteria their air",
           "The surface aerators churn air into the liquor, keeping the dissolved oxygen up, and with that oxygen the bacteria work the ammonia down."),
        _k("desalination plant", "hydraulic", "1970s", ("Feed flow", "m³/h", 0, 300), ("Membrane pressure", "bar", 0, 80), ("Intake well level", "%", 0, 100),
           ("plant enable", "train mode", "feed pump speed", "recirculation valve", "horn silence"),
           ("membrane scaling", "intake pipe crack", "permeate flowmeter drift"), ("FEED PRESS HIGH", "INTAKE LOW", "FLOW DISAGREE"),
           "Squeezes fresh water out of the sea through a membrane",
           "The recirculation valve returns part of the feed from the membrane inlet to the intake well, holding the membrane pressure down and keeping the well topped up."),
    ),
    "weather": (
        _k("hydrogen generator", "chemical", "1920s", ("Electrolyser current", "A", 0, 400), ("Gas holder pressure", "kPa", 90, 600), ("Electrolyte level", "%", 0, 100),
           ("generator permit", "generation step", "current setting", "cell cooling water", "alarm mute"),
           ("gas holder vent jam", "electrolyte cell leak", "cell current shunt drift"), ("HOLDER PRESS HIGH", "ELECTROLYTE LOW", "CURRENT DISAGREE"),
           "Makes the hydrogen that lifts the balloons at dawn",
           "The cell cooling water chills the gas as it leaves the cells, so the holder pressure stays down, and the water it condenses out of the gas runs back to the cells, keeping the electrolyte up."),
        _k("cloud-seeding furnace", "thermal", "1950s", ("Burner firing", "%", 0, 100), ("Flue temperature", "°C", 20, 700), ("Silver iodide solution", "%", 0, 100),
           ("furnace main", "seeding mode", "burn rate", "furnace auxiliaries", "alarm accept"),
           ("flue draught fan failure", "solution line leak", "burn rate sensor drift"), ("FLUE HOT", "SOLUTION LOW", "RATE DISAGREE"),
           "Sends silver iodide smoke up into the clouds to make them rain",
           "The furnace auxiliaries switch runs the flue draught fan, which draws cooling air up the flue, and the transfer pump, which tops the silver iodide solution up from the mixing drum."),
        _k("weather radar", "signal", "1950s", ("Transmit power", "kW", 0, 750), ("Transmitter temperature", "°C", 20, 200), ("Waveguide dry air", "kPa", 0, 60),
           ("radar HT", "scan mode", "power level", "transmitter cooling blower", "alarm cancel"),
           ("blower filter blocked", "rotary joint leak", "peak power meter drift"), ("TRANSMITTER HOT", "WAVEGUIDE AIR LOW", "POWER METER FAULT"),
           "Watches the rain come in over the hills",
           "The transmitter cooling blower carries the heat out of the transmitter, and a bleed from its outlet through a desiccant drier keeps the waveguide filled with dry air."),
    ),
}  # fmt: skip

# Alarm legends are written in capitals; an era that prints in mixed case keeps these as they are.
ACRONYMS = ("CO", "CO2", "O2", "PPCO2", "CT", "DCCT", "DO", "LOX", "PPU", "TWT", "HT")

QUALIFIERS = (
    "twin-circuit", "compact", "mobile", "heavy-duty", "auxiliary", "experimental",
    "duplex", "high-pressure", "remote", "standby", "field", "harbour",
)  # fmt: skip

# A tagline is the kind's motto; when the shelf already has that one (a qualified
# kind shares its base's motto), one of these closes it, the first the shelf lacks.
TAILS = (
    "shift after shift", "in any weather", "year in, year out", "without a fuss",
    "and says so when it cannot", "night and day", "by the book", "and never hurries",
)  # fmt: skip

MAINTENANCE = (
    "test panel behind a hinged flap",
    "row of spring-loaded test buttons",
    "maintenance strip under a lift-up guard",
    "fault-rehearsal keyboard",
    "engineer's test block",
)
