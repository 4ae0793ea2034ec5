"""deploy/ (issue 4): the systemd unit, the example config, the Dockerfile and the compose file
must configure the moderator they start.  No Docker engine runs where these tests run, so the
containers are not started; what can be checked without one is checked here: the compose file
follows the Compose specification's schema, every variable names a real setting, every
placeholder has a value, the config the compose file mounts loads, the mail server delivers the
sent copies where the moderator looks for them, the commands exist."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from moderator.cli import app_cli
from moderator.settings import Settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
# Read outside Settings: the config file's path, and where the game loaders find scenarios.
NOT_SETTINGS = {"MODERATOR_CONFIG", "MODERATOR_SCENARIOS"}


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())


def example_env() -> dict[str, str]:
    pairs = [line.split("=", 1) for line in (DEPLOY / "env.example").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return {key.strip(): value.strip() for key, value in pairs}


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error}, from env."""
    def one(match: re.Match) -> str:
        name, op, rest = match.group(1), match.group(2), match.group(3)
        if name in env:
            return env[name]
        if op == ":-":
            return rest
        raise AssertionError(f"${{{name}}} has no value in env.example")
    return re.sub(r"\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}", one, value)


def moderator_variables() -> dict[str, str]:
    """Every MODERATOR_* variable the deploy files set, with the file that sets it."""
    found: dict[str, str] = {}
    for name in ("docker-compose.yml", "Dockerfile", "moderator.service", "moderator.example.toml"):
        # ${MODERATOR_MAIL_PASSWORD} and the like are compose's own values (deploy/.env), not settings.
        for variable in re.findall(r"(?<!\$\{)\bMODERATOR_[A-Z0-9_]+", (DEPLOY / name).read_text()):
            found.setdefault(variable, name)
    return found


def test_every_moderator_variable_in_deploy_names_a_real_setting():
    # Settings ignores unknown variables (extra="ignore"), so a misspelt one would be lost silently.
    variables = moderator_variables()
    assert "MODERATOR_DATABASE_URL" in variables and "MODERATOR_SMTP__PASSWORD" in variables
    for variable, where in variables.items():
        if variable in NOT_SETTINGS:
            continue
        path = variable.removeprefix("MODERATOR_").lower().split("__")
        model = Settings
        for depth, part in enumerate(path):
            assert part in model.model_fields, f"{variable} in deploy/{where} is not a setting"
            annotation = model.model_fields[part].annotation
            if depth < len(path) - 1:
                model = annotation


def test_every_compose_placeholder_has_a_value_in_the_example_env():
    text = (DEPLOY / "docker-compose.yml").read_text()
    env = example_env()
    for match in re.finditer(r"\$\{([A-Z0-9_]+)(:-|:\?)?", text):
        assert match.group(1) in env or match.group(2) == ":-", f"${{{match.group(1)}}} missing from env.example"


def test_the_compose_file_configures_the_moderator_it_starts(monkeypatch):
    services = compose()["services"]
    assert set(services) == {"postgres", "mail", "moderator"}
    moderator = services["moderator"]
    env = {key: interpolate(str(value), example_env()) for key, value in moderator["environment"].items()}
    mount = next(v for v in moderator["volumes"] if v.startswith("./moderator.toml:"))
    assert mount.split(":")[1] == env["MODERATOR_CONFIG"]  # the file it mounts is the one it reads
    assert "postgres" in moderator["depends_on"] and "mail" in moderator["depends_on"]
    # Load the example config the way the container does: the file, then the environment.
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("MODERATOR_CONFIG", str(DEPLOY / "moderator.example.toml"))
    settings = Settings()
    domain = example_env()["MAIL_DOMAIN"]
    assert settings.resolved_database_url.startswith("postgresql+psycopg://moderator:")
    assert settings.resolved_database_url.endswith("@postgres/moderator")
    assert (settings.inbound, settings.outbound) == ("imap", "smtp")
    assert settings.imap.host == settings.smtp.host == f"mail.{domain}"
    assert settings.imap.password.get_secret_value() == example_env()["MODERATOR_MAIL_PASSWORD"]
    # The moderator reaches the mail server by the name on its certificate, on ports it publishes.
    mail = services["mail"]
    assert interpolate(mail["hostname"], example_env()) == settings.imap.host
    aliases = [interpolate(a, example_env()) for a in mail["networks"]["default"]["aliases"]]
    assert settings.imap.host in aliases
    published = {int(p.split(":")[1]) for p in mail["ports"]}
    assert {settings.imap.port, settings.smtp.port} <= published
    assert settings.imap.security in ("tls", "starttls") and settings.smtp.security in ("tls", "starttls")
    assert interpolate(mail["environment"]["SSL_TYPE"], example_env()) != ""  # empty disables TLS in DMS


def test_the_mail_server_files_the_sent_copies_where_the_moderator_looks(monkeypatch):
    monkeypatch.setenv("MODERATOR_CONFIG", str(DEPLOY / "moderator.example.toml"))
    settings = Settings()
    local, _, domain = settings.smtp.sent_copy_address.partition("@")
    user, _, detail = local.partition("+")
    assert settings.orders_address == f"{user}@{domain}" and detail == settings.smtp.sent_copy_folder
    # docker-mailserver copies /tmp/docker-mailserver/dovecot.cf into Dovecot's local.conf
    # (its setup.d/dovecot.sh); with the detail delivered to its own mailbox, +Sent lands in Sent.
    mounts = compose()["services"]["mail"]["volumes"]
    assert "./dms-dovecot.cf:/tmp/docker-mailserver/dovecot.cf:ro" in mounts
    dovecot = dict(line.split("=", 1) for line in (DEPLOY / "dms-dovecot.cf").read_text().splitlines()
                   if "=" in line and not line.startswith("#"))
    dovecot = {key.strip(): value.strip() for key, value in dovecot.items()}
    assert dovecot["lmtp_save_to_detail_mailbox"] == "yes" and dovecot["recipient_delimiter"] == "+"


def test_the_dockerfile_copies_what_exists_and_runs_real_commands():
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    root = DEPLOY.parent
    for line in dockerfile.splitlines():
        if line.startswith("COPY "):
            for source in line.split()[1:-1]:
                assert (root / source).exists(), f"Dockerfile copies {source}, which does not exist"
    command = re.search(r'CMD \[.*"(moderator [^"]+)"\]', dockerfile).group(1)
    steps = [step.strip().split()[1:] for step in command.split("&&")]
    assert steps == [["db", "upgrade"], ["serve"]]
    runner = CliRunner()
    for step in steps:
        result = runner.invoke(app_cli, [*step, "--help"])
        assert result.exit_code == 0, (step, result.output)


def test_the_systemd_unit_upgrades_the_database_then_serves():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read_string((DEPLOY / "moderator.service").read_text())
    service = unit["Service"]
    assert service["ExecStartPre"].endswith("moderator db upgrade")
    assert service["ExecStart"].endswith("moderator serve")
    assert service["Environment"] == "MODERATOR_CONFIG=/etc/moderator/moderator.toml"
    assert service["Restart"] == "on-failure"
    assert "/var/lib/moderator" in service["ReadWritePaths"]


@pytest.mark.parametrize("name", ["moderator.example.toml"])
def test_the_example_config_keeps_secrets_out(name):
    text = (DEPLOY / name).read_text()
    assert not re.search(r"^\s*password\s*=", text, re.MULTILINE)  # passwords only from the environment


def compose_schema() -> dict:
    """The Compose specification's JSON schema, from the docker-compose wheel scripts/test.sh fetches."""
    import json
    import os
    import zipfile

    folder = Path(os.environ.get("MODERATOR_COMPOSE_SCHEMA_DIR", "/nonexistent"))
    wheels = sorted(folder.glob("docker_compose-*.whl")) if folder.is_dir() else []
    if not wheels:
        if os.environ.get("CI") or os.environ.get("MODERATOR_REQUIRE_SERVERS"):
            pytest.fail("no Compose schema: scripts/test.sh downloads it")
        pytest.skip("no Compose schema (run the suite through scripts/test.sh)")
    with zipfile.ZipFile(wheels[-1]) as wheel:
        return json.loads(wheel.read("compose/config/compose_spec.json"))


def test_the_compose_file_follows_the_compose_specification():
    """What `docker compose config` would check first, without an engine: every key and value
    shape of deploy/docker-compose.yml is one the Compose specification allows."""
    import copy

    import jsonschema

    validator = jsonschema.Draft7Validator(compose_schema())
    document = compose()
    problems = [f"{'/'.join(map(str, error.path))}: {error.message}" for error in validator.iter_errors(document)]
    assert problems == []
    # The schema is strict enough to catch a misspelt key (else the check above proves nothing).
    broken = copy.deepcopy(document)
    service = next(iter(broken["services"].values()))
    service["enviroment"] = service.pop("environment", {"A": "1"})
    assert list(validator.iter_errors(broken))
