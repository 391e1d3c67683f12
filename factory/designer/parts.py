"""The grammar of parts the designer composes machines from: data only.

Chassis materials, legend styles, lamp types, control kinds, layouts,
instrument kinds, simulation families with their fault families, kinds per
domain and the period type stacks per era. `choose` picks from these tables and
`render` draws them; this module must never decide or draw anything itself.
"""

from __future__ import annotations

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


# Control kinds by the role they play. Every machine gets one of each role,
# so it always has at least three different kinds (role choices never overlap
# between master, mode and setpoint).
MASTER_KINDS = ("key switch", "guarded toggle", "isolator handle")
MODE_KINDS = ("rotary selector", "piano keys")
SETPOINT_KINDS = ("slider", "lever", "thumbwheel", "vernier knob")
AUX_KINDS = ("bat toggle", "push-pull knob", "rocker switch")
ACK_KINDS = ("push button",)


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
    """Short internal name (u, v, w) is fixed; this is the state() key."""
    label: str
    unit: str
    lo: float
    hi: float


@dataclass(frozen=True)
class Family:
    """One small ODE system: output u follows demand, v rises with u and is
    carried off by the auxiliary, reserve w is drawn by u and topped up by the
    auxiliary; s is a sensor's disagreement. The three faults attack v, w and s."""

    key: str
    u: Quantity
    v: Quantity
    w: Quantity
    master: str
    mode: str
    setpoint: str
    aux: str
    ack: str
    heat: str
    leak: str
    drift: str
    v_alarm: str
    w_alarm: str
    s_alarm: str


def _q(key: str, label: str, unit: str, lo: float, hi: float) -> Quantity:
    return Quantity(key, label, unit, lo, hi)


FAMILIES = {
    "thermal": Family("thermal", _q("heater_output", "Heater output", "%", 0, 100), _q("core_temperature", "Core temperature", "°C", 20, 620), _q("coolant_inventory", "Coolant inventory", "%", 0, 100), "master isolator", "duty selector", "heat demand", "coolant pump", "alarm accept", "coolant pump seizure", "coolant loop leak", "thermocouple drift", "CORE TEMP HIGH", "COOLANT LOW", "TC DISAGREE"),
    "hydraulic": Family("hydraulic", _q("pump_speed", "Pump speed", "rpm", 0, 1800), _q("discharge_pressure", "Discharge pressure", "bar", 0, 40), _q("sump_level", "Sump level", "%", 0, 100), "mains contactor", "pump mode", "speed setting", "priming valve", "horn silence", "relief valve stuck shut", "sump drain leak", "pressure transducer drift", "PRESSURE HIGH", "SUMP LOW", "PT DISAGREE"),
    "rotating": Family("rotating", _q("shaft_speed", "Shaft speed", "rpm", 0, 3600), _q("bearing_temperature", "Bearing temperature", "°C", 15, 140), _q("lube_oil_level", "Lube oil level", "%", 0, 100), "main breaker", "drive mode", "speed demand", "lube oil pump", "alarm acknowledge", "bearing overheating", "oil line fracture", "tachometer drift", "BEARING HOT", "LUBE OIL LOW", "TACHO DISAGREE"),
    "electrical": Family("electrical", _q("load_current", "Load current", "A", 0, 1200), _q("winding_temperature", "Winding temperature", "°C", 20, 180), _q("battery_charge", "Battery charge", "%", 0, 100), "supply key", "output mode", "load setting", "cooling fans", "alarm reset", "cooling fan failure", "battery cell short", "current transformer drift", "WINDING HOT", "BATTERY LOW", "CT DISAGREE"),
    "chemical": Family("chemical", _q("feed_rate", "Feed rate", "L/min", 0, 240), _q("reactor_pressure", "Reactor pressure", "kPa", 90, 900), _q("solvent_inventory", "Solvent inventory", "%", 0, 100), "plant permit", "process step", "feed valve", "quench water", "alarm mute", "quench valve jam", "solvent line weep", "pH probe fouling", "REACTOR PRESS HIGH", "SOLVENT LOW", "PROBE DISAGREE"),
    "signal": Family("signal", _q("carrier_power", "Carrier power", "kW", 0, 50), _q("anode_temperature", "Anode temperature", "°C", 20, 260), _q("dry_air_pressure", "Dry-air pressure", "kPa", 0, 60), "HT enable", "transmit mode", "power level", "air blower", "alarm cancel", "blower belt snap", "waveguide pressure loss", "VSWR bridge drift", "ANODE HOT", "DRY AIR LOW", "VSWR FAULT"),
    "lifesupport": Family("lifesupport", _q("circulation_flow", "Circulation flow", "m³/h", 0, 400), _q("co2_partial_pressure", "CO₂ partial pressure", "mbar", 0, 20), _q("oxygen_reserve", "Oxygen reserve", "%", 0, 100), "system arm", "atmosphere mode", "flow demand", "scrubber fan", "alarm silence", "scrubber saturation", "oxygen manifold leak", "gas analyser drift", "CO2 HIGH", "O2 RESERVE LOW", "ANALYSER DISAGREE"),
    "cryo": Family("cryo", _q("compressor_duty", "Compressor duty", "%", 0, 100), _q("condenser_pressure", "Condenser pressure", "bar", 2, 28), _q("refrigerant_charge", "Refrigerant charge", "%", 0, 100), "compressor enable", "cooling stage", "duty setting", "condenser fan", "alarm accept", "condenser fan stall", "refrigerant leak", "probe drift", "HEAD PRESSURE HIGH", "CHARGE LOW", "PROBE DISAGREE"),
    "motion": Family("motion", _q("line_speed", "Line speed", "km/h", 0, 160), _q("motor_temperature", "Traction motor temperature", "°C", 15, 190), _q("air_reservoir", "Main reservoir air", "bar", 0, 10), "control key", "direction and mode", "power notch", "air compressor", "vigilance acknowledge", "motor blower failure", "brake pipe leak", "speed probe drift", "MOTOR HOT", "RESERVOIR LOW", "SPEED PROBE FAULT"),
}  # fmt: skip


KINDS = {
    "aerospace": (("wind tunnel fan drive", "rotating"), ("rocket engine test stand", "thermal"), ("composite wing autoclave", "thermal")),
    "agriculture": (("grain drier", "thermal"), ("irrigation pump station", "hydraulic"), ("milk cooling vat", "cryo")),
    "aviation": (("runway lighting regulator", "electrical"), ("fuel hydrant pump", "hydraulic"), ("de-icing fluid heater", "thermal")),
    "broadcast": (("medium-wave transmitter", "signal"), ("outside-broadcast generator", "rotating"), ("television relay amplifier", "signal")),
    "chemical": (("batch reactor", "chemical"), ("distillation column", "chemical"), ("chlorine scrubber", "chemical")),
    "civic": (("district heating boiler", "thermal"), ("clock tower drive", "rotating"), ("pneumatic tube exchange", "hydraulic")),
    "cold-chain": (("blast freezer", "cryo"), ("reefer container unit", "cryo"), ("ice-bank chiller", "cryo")),
    "data-centre": (("chilled-water plant", "cryo"), ("uninterruptible power cabinet", "electrical"), ("immersion cooling tank", "thermal")),
    "deep-sea": (("saturation diving habitat", "lifesupport"), ("submersible ballast controller", "hydraulic"), ("seafloor cable repeater", "signal")),
    "energy": (("tidal turbine", "rotating"), ("solar furnace", "thermal"), ("biogas digester", "chemical")),
    "laboratory": (("cyclotron magnet supply", "electrical"), ("helium cryostat", "cryo"), ("ultracentrifuge", "rotating")),
    "marine": (("steam steering engine", "hydraulic"), ("ship's refrigeration plant", "cryo"), ("auxiliary diesel generator", "rotating")),
    "medical": (("hyperbaric chamber", "lifesupport"), ("negative-pressure ventilator", "lifesupport"), ("sterilising autoclave", "thermal")),
    "military": (("early-warning radar transmitter", "signal"), ("field water purifier", "chemical"), ("bunker air plant", "lifesupport")),
    "mining": (("mine winder", "rotating"), ("dewatering pump", "hydraulic"), ("ore flotation cell", "chemical")),
    "nuclear": (("research reactor", "thermal"), ("spent-fuel pool cooler", "cryo"), ("isotope hot cell", "lifesupport")),
    "oil-and-gas": (("wellhead choke manifold", "hydraulic"), ("gas compressor station", "rotating"), ("crude stabiliser", "chemical")),
    "power-grid": (("substation transformer", "electrical"), ("synchronous condenser", "rotating"), ("load-frequency controller", "electrical")),
    "rail": (("electric locomotive cab", "motion"), ("funicular haulage drive", "motion"), ("turntable drive", "rotating")),
    "road": (("tunnel ventilation plant", "lifesupport"), ("asphalt batching plant", "thermal"), ("snow-melt road heater", "electrical")),
    "space": (("orbital life-support rack", "lifesupport"), ("cryogenic propellant farm", "cryo"), ("ion thruster supply", "electrical")),
    "telecom": (("exchange power plant", "electrical"), ("microwave relay tower", "signal"), ("submarine cable terminal", "signal")),
    "theatre": (("stage revolve drive", "motion"), ("fly tower counterweight hoist", "hydraulic"), ("lighting dimmer board", "electrical")),
    "water": (("filtration works", "hydraulic"), ("sewage aeration basin", "lifesupport"), ("desalination plant", "chemical")),
    "weather": (("hydrogen generator", "chemical"), ("cloud-seeding furnace", "thermal"), ("weather radar", "signal")),
}  # fmt: skip

QUALIFIERS = (
    "twin-circuit", "compact", "mobile", "heavy-duty", "auxiliary", "experimental",
    "duplex", "high-pressure", "remote", "standby", "field", "harbour",
)  # fmt: skip

TAGLINES = {
    "thermal": "Keeps the heat where it is wanted and nowhere else.",
    "hydraulic": "Moves the water, holds the pressure, minds the sump.",
    "rotating": "Spins true, runs cool, keeps its oil.",
    "electrical": "Carries the load and keeps its windings cool.",
    "chemical": "Feeds the vessel, holds the pressure, keeps the solvent in.",
    "signal": "Puts the carrier on the air and keeps the valves alive.",
    "lifesupport": "Keeps the air breathable for the people inside.",
    "cryo": "Holds the cold and the charge through the longest shift.",
    "motion": "Draws power, notch by notch, and keeps the air up.",
}

MAINTENANCE = (
    "test panel behind a hinged flap",
    "row of spring-loaded test buttons",
    "maintenance strip under a lift-up guard",
    "fault-rehearsal keyboard",
    "engineer's test block",
)


@dataclass(frozen=True)
class Physics:
    """What makes one simulation family its own system, beyond its names."""

    extra: str
    """The fourth, family-only quantity in state() (normalised 0..1)."""
    extra_label: str
    overview: str
    """How the coupled system behaves, in the manual's words ({u}, {v}, {w}, {aux} filled in)."""
    consequence: str
    """What an alarm left standing does, beyond tripping."""


PHYSICS = {
    "thermal": Physics("coolant_return", "Coolant return temperature", "The {u} heats a thermal mass; the {aux} carries that heat to a cooling loop whose return temperature lags the core, so a warm loop cools less and the {v} creeps up a few minutes after any change of demand. The {w} is lost slowly through the loop seals while the plant runs and is made up by the {aux}.", "the plant scrams: demand is cut and emergency cooling is forced on until reset"),
    "hydraulic": Physics("relief_flow", "Relief valve flow", "Pressure follows the pump curve: the {v} rises with the square of the {u}, so the last few percent of demand cost the most. The {w} falls as the pump draws from it and rises again while the {aux} is open; above the alarm line the relief valve starts to pass flow back to the sump.", "the relief valve lifts fully, dumping pressure and a slug of the sump, and the pump trips"),
    "rotating": Physics("vibration", "Bearing vibration", "The rotor has inertia: the {u} answers the demand slowly and friction heat in the bearings grows faster than the speed itself. Vibration follows the {v}; the {w} is drawn by the bearings and returned by the {aux}.", "the bearing is damaged: friction stays high until the machine is reset, and the drive trips"),
    "electrical": Physics("breaker_heat", "Breaker thermal memory", "Winding heat goes with the square of the {u} (I squared R); the {aux} blows it away. The {w} supports the control supply and is charged by the {aux} circuit while the load is moderate.", "the breaker opens and the battery carries the house load, draining until reset"),
    "chemical": Physics("conversion", "Batch conversion", "The reaction is exothermic and speeds up as it warms: below the alarm line the {v} follows the {u} calmly, above it the reaction feeds itself (a runaway) unless the {aux} quenches it. Conversion of the batch rises while feed flows; the {w} is consumed with the feed.", "the bursting disc vents the vessel, losing solvent, and the plant trips"),
    "signal": Physics("reflected_power", "Reflected power", "The {v} rises with the {u}; the waveguide is kept dry by the {w}, and when that falls the line starts to arc and reflected power adds to the heat in the output stage. The {aux} keeps the valves cool and the dry-air bottle topped up.", "the HT crowbar fires: the transmitter drops off the air until reset"),
    "lifesupport": Physics("scrubber_load", "Scrubber bed loading", "People breathe whether or not the plant is happy: once armed, CO2 is produced at a steady rate and removed by the scrubber in proportion to the {u}, so more circulation means a lower {v}. The {w} is drawn by consumption and topped up by the {aux} circuit.", "the plant falls back to the emergency oxygen bleed, which drains the reserve until reset"),
    "cryo": Physics("suction_superheat", "Suction superheat", "The compressor raises the {v} in proportion to the {u}; a short refrigerant charge makes the head pressure higher for the same duty. The {aux} rejects heat from the condenser and keeps the {w} in the receiver.", "the high-pressure cut-out locks the compressor out until reset"),
    "motion": Physics("tractive_effort", "Tractive effort", "The train has mass: the {u} gains slowly, and the motor heats with the tractive effort, which is largest while accelerating and settles once the speed is reached. Braking and control air comes from the {w}, kept up by the {aux}.", "a penalty brake application: power is cut, the brakes go on and the reservoir loses pressure"),
}  # fmt: skip
