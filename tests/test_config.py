"""Settings layers: defaults < factory.yaml < FACTORY_* env < flags; secrets never shown."""

from pathlib import Path

import pytest

from factory.config import ConfigError, load_settings, masked, secret_values


def test_layers_override_in_order(tmp_path: Path) -> None:
    (tmp_path / "factory.yaml").write_text("model: from-file\nmax_minutes: 10\nvision: false\n")
    env = {"FACTORY_MAX_MINUTES": "12", "FACTORY_MODEL": "from-env"}
    settings = load_settings(tmp_path, {"model": "from-flag", "vision": None}, env)
    assert settings.model == "from-flag"
    assert settings.max_minutes == 12.0
    assert settings.vision is False  # a flag left unset does not override the file


def test_defaults_without_any_layer(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, {}, {})
    assert settings.provider == "auto" and settings.max_minutes == 25.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("model: [unclosed\n", "not valid YAML"),
        ("- a list\n", "factory.yaml: must be a mapping"),
        ("no_such_setting: 1\n", "factory.yaml: no_such_setting: Extra inputs are not permitted"),
        ("max_minutes: soon\n", "factory.yaml: max_minutes:"),
    ],
)
def test_bad_file_is_one_line_naming_it(tmp_path: Path, text: str, expected: str) -> None:
    (tmp_path / "factory.yaml").write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_settings(tmp_path, {}, {})
    assert expected in str(caught.value)
    assert "\n" not in str(caught.value)


def test_bad_env_value_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="^FACTORY_MAX_ITERATIONS: .*valid integer.*'many'"):
        load_settings(tmp_path, {}, {"FACTORY_MAX_ITERATIONS": "many"})


@pytest.mark.parametrize(
    ("file", "environ", "flags", "expected"),
    [
        ("max_calls: 0\n", {}, {}, "factory.yaml: max_calls: Input should be greater than 0"),
        ("", {"FACTORY_MAX_MINUTES": "-5"}, {}, "FACTORY_MAX_MINUTES: Input should be greater"),
        ("", {}, {"max_iterations": -1}, "--max-iterations: Input should be greater than 0"),
        ("", {}, {"max_minutes": 0}, "--max-minutes: Input should be greater than 0"),
        ("", {}, {"max_cost": -0.5}, "--max-cost: Input should be greater than or equal to 0"),
        ("context_tokens: -1\n", {}, {}, "factory.yaml: context_tokens: Input should be greater"),
        ("", {"FACTORY_SNAPSHOT_MINUTES": "0"}, {}, "FACTORY_SNAPSHOT_MINUTES: Input should be"),
        ("resume_limit: 0\n", {}, {}, "factory.yaml: resume_limit: Input should be greater"),
        ("request_timeout: -3\n", {}, {}, "factory.yaml: request_timeout: Input should be"),
    ],
)
def test_a_limit_below_its_range_names_where_it_was_set(
    tmp_path: Path, file: str, environ: dict, flags: dict, expected: str
) -> None:
    (tmp_path / "factory.yaml").write_text(file)
    with pytest.raises(ConfigError, match=expected) as caught:
        load_settings(tmp_path, flags, environ)
    assert "\n" not in str(caught.value)


def test_no_cost_limit_is_still_zero(tmp_path: Path) -> None:
    assert load_settings(tmp_path, {"max_cost": 0.0}, {}).max_cost == 0.0


def test_secret_values_and_masking(tmp_path: Path) -> None:
    env = {
        "OPENROUTER_API_KEY": "sk-or-abcdefgh12345",
        "HF_TOKEN": "hf_abcdefghijkl",
        "MY_SECRET": "longenough",
        "SHORT_TOKEN": "tiny",
        "PATH": "/usr/bin",
    }
    settings = load_settings(tmp_path, {}, env)
    assert secret_values(settings, env) == sorted(
        ["sk-or-abcdefgh12345", "hf_abcdefghijkl", "longenough"]
    )
    shown = str(masked(settings, env))
    assert "sk-or" not in shown and "hf_abc" not in shown
    assert "OPENROUTER_API_KEY (set)" in shown
