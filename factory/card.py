"""The dataset card: README.md for the rows, on the Hub and in `trajectories/`.

Generated from the line descriptions, so a third line appears here without an
edit. The card's `dataset_info.features` is what lets `datasets.load_dataset`
read rows of every shape together (finished, cut short without `outcome`,
compacted with snapshots): the parts whose shape varies are declared `json`.
The card must stay deterministic text: it is rewritten on every export and
compared byte for byte.
"""

from __future__ import annotations

import yaml

from factory.lines import Line, all_lines

DATA_FILES = ("trajectories/*/*.jsonl", "*/*.jsonl")
"""The Hub layout, then the same rows seen from inside a local `trajectories/`
folder; a pattern matching nothing is ignored by `datasets`."""

STRING_FIELDS = ("id", "task", "model", "provider", "driver", "started", "ended")


def features(lines: list[Line] | None = None) -> list[dict[str, str]]:
    """Every row field in the cards' order, as the YAML list `datasets` reads."""
    lines = list(all_lines().values()) if lines is None else lines
    declared: list[dict[str, str]] = [
        {"name": "id", "dtype": "string"},
        {"name": "chain", "list": "string"},
        *({"name": name, "dtype": "string"} for name in STRING_FIELDS[1:]),
        {"name": "outcome", "dtype": "json"},
        {"name": "complete", "dtype": "bool"},
        {"name": "messages", "dtype": "json"},
        {"name": "snapshots", "dtype": "json"},
        {"name": "images", "list": "string"},
        {"name": "events", "dtype": "json"},
        *({"name": line.side, "dtype": "json"} for line in lines),
        {"name": "tools", "dtype": "json"},
    ]
    return declared


def metadata(lines: list[Line] | None = None) -> dict:
    lines = list(all_lines().values()) if lines is None else lines
    return {
        "license": "mit",
        "pretty_name": "factory sessions",
        "language": ["en"],
        "tags": ["agent-trajectories", "tool-use", "code-generation", "factory"]
        + [line.name for line in lines],
        "task_categories": ["text-generation"],
        "size_categories": ["n<1K"],
        "configs": [
            {
                "config_name": "default",
                "data_files": [{"split": "train", "path": list(DATA_FILES)}],
            }
        ],
        "dataset_info": {"features": features(lines)},
    }


def _side_words(line: Line) -> str:
    entry = ", ".join(line.entry_model.model_fields)
    files = ", ".join(f"`{name}`" for name in line.files)
    return (
        f"`{line.side}`\tthe {line.name} line's side: `{line.noun}` (the catalogue entry: "
        f"{entry}), `files` (the {line.noun}'s {files}), `outcome` (the shift's verdict: "
        "`settled` / `failed` / `error`), `catalogue_check` and `probe` (`success` / "
        "`failure`, empty when not run), `committed`, `commit`, `run`, and `judge` (the "
        "transcript judge's verdict) when there is one"
    )


def _filter_words(line: Line) -> str:
    probe = f' and {line.side}.probe == "success"' if line.probe_finishes else ""
    return (
        f'Finished {line.name}: complete and {line.side}.outcome == "settled" and '
        f'{line.side}.catalogue_check == "success"{probe}.'
    )


def card_text(lines: list[Line] | None = None) -> str:
    """The whole README.md: YAML front matter, then the schema and filters in words."""
    lines = list(all_lines().values()) if lines is None else lines
    front = yaml.safe_dump(metadata(lines), sort_keys=False, allow_unicode=True)
    names = " and ".join(line.name for line in lines)
    sides = "\n".join(_side_words(line) for line in lines)
    finished = "\n".join(_filter_words(line) for line in lines)
    suffixes = ", ".join(f"`-{shot}.png`" for shot in _all_shots(lines))
    return f"""---
{front}---

# factory sessions

Every conversation behind every product of an unattended software factory: an
agent takes the same standing order every half hour, reads the catalogue of
what already exists, and designs, builds, screenshots and ships one brand-new
product ({names}).

Each row is one shift: the full agent trajectory from the order to the finished
product (or to where the shift was cut short), in the OpenAI chat shape, plus
what the factory knows about the result. Rows are appended by the factory as
shifts happen; nobody reviews them.

## Layout

    trajectories/<session-id>/<session-id>.jsonl   one row
    trajectories/<session-id>/images/<digest>.png  the screenshots the model was shown

## Row schema

field\tmeaning
`id`\tthe session the row was exported from
`chain`\tthe sessions behind it, oldest first - a shift cut short is continued by the next, and exports as one row
`task`\tthe order as the model received it
`model`, `provider`, `driver`\twhat ran it
`started`, `ended`\twall clock, UTC
`outcome`\thow the run ended: `reason` (`success` when it ended through the success tool, `failed` through the failure tool, `error`, or the limit that stopped it: `iterations`, `calls`, `time`, ...), `iterations`, `calls`, `tokens`, `cost` - absent when the run was cut short (null when loaded with `datasets`)
`complete`\twhether an outcome was recorded
`messages`\tthe conversation as it stood at the end - see below
`snapshots`\tearlier states of the conversation that compaction or a resume superseded, oldest first
`images`\tthe image files this row refers to, relative to the row's directory, in the order first shown
`events`\tcounts by kind: iterations, nudges, retries, calls, compactions
{sides}
`tools`\tthe tool schemas the model had

`outcome`, `messages`, `snapshots`, `events`, `tools` and each line's side are
declared `json` in the features above, so rows of every shape load together
(the `Json` feature type needs `datasets` 4.7 or later).

## Messages

OpenAI chat convention, with additive fields: `type` is the factory's own
message type (user, bot, activity, attachment, checkpoint, instructions);
`reasoning` is the model's scratchpad when the provider surfaced it; tool
arguments are the JSON string the model sent, verbatim; an attachment is a user
message whose content is text and `{{"type": "image", "image": "images/<sha256>.png"}}`
parts; a checkpoint (a compaction summary) is a system message. The system
prompt is not recorded; `task` is the brief.

`messages` is what a resume of the run would replay. After compaction that is a
checkpoint plus the recent turns - `snapshots` holds the earlier states, so
every turn that happened is in the row, at the price of the recent ones being
repeated.

## Filtering

{finished}
Chain tips only: drop rows whose `id` appears in another row's `chain`.
Design-critique rounds: `view` calls on paths ending {suffixes}, with the
assistant turn that follows.

`factory rows [DIR] [--finished] [--tips] [--critique]` applies these filters.

The products are model output, published as-is. Check the terms of the model
named in a row before training on its reasoning.
"""


def _all_shots(lines: list[Line]) -> list[str]:
    shots: dict[str, None] = {}
    for line in lines:
        for shot in line.shots:
            shots.setdefault(shot, None)
    return list(shots)
