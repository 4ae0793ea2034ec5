"""Settings from a TOML file and the environment (secrets only from the environment).

Precedence: environment (MODERATOR_*) over the TOML file named by MODERATOR_CONFIG or passed to
`load_settings`, over the defaults, which are the embedded default: SQLite and local Maildirs
under ``./var``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, SecretStr
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

REPO_ROOT = Path(__file__).resolve().parents[1]


class DeadlineSettings(BaseModel):
    """Hours allowed per deadline class, and the change-of-mind delay before early processing."""

    setup_hours: float = 72
    phase_hours: float = 48
    reaction_hours: float = 24
    # 0 here, so the embedded demo plays straight through; a club's config sets a short delay
    # (deploy/moderator.example.toml: 10) so a player can still correct orders just sent.
    change_of_mind_minutes: float = 0
    # One reminder a question, this many hours before its deadline: the largest that falls in the second
    # half of the question's window, else half the window (service/reminders.py).
    reminders_hours: list[float] = Field(default_factory=lambda: [24.0, 2.0])
    grace_minutes: float = 0
    # A receipt of orders that were all accepted waits this long for the seat's next report to ride
    # on (one mail instead of two), then goes on its own; a receipt with a refusal goes at once.
    receipt_hold_minutes: float = 10
    # A new player is asked, not answered by the game's standing defaults, until they first file orders
    # or first let a deadline pass: the other side's first moves can come before they have read the
    # welcome (issue 12 tried by hand: a defender's support was decided 7 minutes after the welcome).
    ask_new_players: bool = True


class ImapSettings(BaseModel):
    host: str = "127.0.0.1"
    port: int = 993
    security: str = "tls"  # tls | starttls | plain
    username: str = ""
    password: SecretStr = SecretStr("")
    folder: str = "INBOX"
    processed_folder: str = "Processed"
    quarantine_folder: str = "Quarantine"
    ca_file: str | None = None
    idle: bool = True


class SmtpSettings(BaseModel):
    host: str = "127.0.0.1"
    port: int = 587
    security: str = "starttls"  # tls | starttls | plain
    username: str = ""
    password: SecretStr = SecretStr("")
    ca_file: str | None = None
    timeout_seconds: float = 30
    # Optional: an address delivering into a folder of the moderator's own IMAP mailbox, sent in
    # the same SMTP transaction, so a crash can never send a report twice (see mail/smtp.py).
    sent_copy_address: str = ""
    sent_copy_folder: str = "Sent"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MODERATOR_", env_nested_delimiter="__", extra="ignore")

    data_dir: Path = Path("var")
    database_url: str = ""
    orders_address: str = "moderator@localhost"
    orders_name: str = "Moderator"
    domain: str = "localhost"
    inbound: str = "maildir"  # maildir | imap
    outbound: str = "maildir"  # maildir | smtp
    inbox_maildir: Path | None = None
    outbox_dir: Path | None = None  # Maildir root: one Maildir per recipient address
    templates_dir: Path = REPO_ROOT / "templates"
    scenarios_dir: Path = REPO_ROOT / "scenarios"
    # Hostile or strange mail (docs/design-notes.md, "Intake"): each limit is named in the
    # receipt of a message that passes it.
    max_message_bytes: int = 2_000_000  # larger mail is not read; a registered sender is told
    oversized_kept_bytes: int = 65_536  # of larger mail only this much (headers first) is stored
    max_order_lines: int = 400  # a text with more lines to read (quotes, signature, blanks aside) is refused whole
    max_order_chars: int = 64_000  # ... and so is one whose lines to read hold more characters
    max_received_headers: int = 25  # more Received headers than this: a mail loop, kept unanswered
    receipt_echo_chars: int = 200  # a receipt quotes at most this much of one line of the player's text
    receipt_echo_lines: int = 100  # ... and at most this many of its lines, saying what it left out
    rate_limit_per_hour: int = 60
    poll_seconds: float = 60
    deadlines: DeadlineSettings = Field(default_factory=DeadlineSettings)
    imap: ImapSettings = Field(default_factory=ImapSettings)
    smtp: SmtpSettings = Field(default_factory=SmtpSettings)

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        config_file = os.environ.get("MODERATOR_CONFIG")
        if config_file:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=Path(config_file)))
        return tuple(sources)

    @property
    def resolved_database_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'moderator.db').resolve()}"

    @property
    def resolved_inbox(self) -> Path:
        return self.inbox_maildir or self.data_dir / "mail" / "inbox"

    @property
    def resolved_outbox(self) -> Path:
        return self.outbox_dir or self.data_dir / "mail" / "sent"


def load_settings(config_file: Path | None = None, **overrides: Any) -> Settings:
    """Settings from `config_file` (or MODERATOR_CONFIG), the environment and `overrides`."""
    if config_file is not None:
        os.environ["MODERATOR_CONFIG"] = str(config_file)
    return Settings(**overrides)
